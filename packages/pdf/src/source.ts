import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Random access to the bytes of a PDF. The reader asks only for the few ranges it needs, so a file of
 * hundreds of MB is never loaded whole. `read` returns fewer bytes than asked at the end of the source.
 */
export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Uint8Array;
}

export function bufferSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read(offset: number, length: number): Uint8Array {
      const start = Math.max(0, Math.min(offset, bytes.length));
      return bytes.subarray(start, Math.min(bytes.length, start + Math.max(0, length)));
    },
  };
}

export function toSource(input: ByteSource | Uint8Array): ByteSource {
  return input instanceof Uint8Array ? bufferSource(input) : input;
}

const BLOCK = 64 * 1024;
const CACHED_BLOCKS = 16;

/** A file read with `fs.readSync` through a small LRU block cache (1 MiB at most). */
export interface FileSource extends ByteSource {
  close(): void;
  /** Reads into a caller's buffer, bypassing the cache; returns the number of bytes read. */
  readInto(offset: number, target: Uint8Array): number;
}

export function openFileSource(path: string): FileSource {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  const cache = new Map<number, Uint8Array>();
  let closed = false;

  const block = (index: number): Uint8Array => {
    const hit = cache.get(index);
    if (hit) {
      cache.delete(index);
      cache.set(index, hit);
      return hit;
    }
    const start = index * BLOCK;
    const buf = new Uint8Array(Math.min(BLOCK, size - start));
    let done = 0;
    while (done < buf.length) {
      const n = readSync(fd, buf, done, buf.length - done, start + done);
      if (n <= 0) break;
      done += n;
    }
    cache.set(index, buf);
    if (cache.size > CACHED_BLOCKS) cache.delete(cache.keys().next().value!);
    return buf;
  };

  return {
    size,
    read(offset: number, length: number): Uint8Array {
      if (closed) throw new Error('file source is closed');
      const start = Math.max(0, Math.min(offset, size));
      const end = Math.min(size, start + Math.max(0, length));
      if (end <= start) return new Uint8Array(0);
      const first = Math.floor(start / BLOCK);
      const last = Math.floor((end - 1) / BLOCK);
      if (first === last) return block(first).subarray(start - first * BLOCK, end - first * BLOCK);
      // Large reads (stream data) bypass the cache so they do not evict the structure blocks.
      if (end - start > BLOCK * 4) {
        const out = new Uint8Array(end - start);
        let done = 0;
        while (done < out.length) {
          const n = readSync(fd, out, done, out.length - done, start + done);
          if (n <= 0) break;
          done += n;
        }
        return out.subarray(0, done);
      }
      const out = new Uint8Array(end - start);
      for (let i = first; i <= last; i++) {
        const b = block(i);
        const bStart = i * BLOCK;
        const from = Math.max(start, bStart);
        const to = Math.min(end, bStart + b.length);
        out.set(b.subarray(from - bStart, to - bStart), from - start);
      }
      return out;
    },
    readInto(offset: number, target: Uint8Array): number {
      if (closed) throw new Error('file source is closed');
      let done = 0;
      while (done < target.length && offset + done < size) {
        const n = readSync(
          fd,
          target,
          done,
          Math.min(target.length - done, size - offset - done),
          offset + done,
        );
        if (n <= 0) break;
        done += n;
      }
      return done;
    },
    close(): void {
      if (!closed) closeSync(fd);
      closed = true;
      cache.clear();
    },
  };
}
