import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A file being written into the store, for a producer that streams (the signer of a large file). */
export interface BlobDraft {
  /** Where to write: on the store's own disk, so keeping it is a rename. */
  path: string;
  /** Keeps what was written under its SHA-256, which the writer computed while writing it. */
  keep(sha256: string): Promise<void>;
  /** Drops it (kept or not: a no-op after keep). */
  discard(): Promise<void>;
}

/**
 * Content-addressed blob storage (sha-256). The local-disk store serves one machine; an S3-compatible
 * store implements the same interface for several.
 */
export interface BlobStore {
  put(bytes: Buffer): Promise<string>;
  /**
   * Stores bytes whose SHA-256 the caller computed in its own pass over them (the signer hashes what it
   * writes), so they are not read again to hash them.
   */
  putHashed(bytes: Uint8Array, sha256: string): Promise<void>;
  get(sha256: string): Promise<Buffer | null>;
  has(sha256: string): Promise<boolean>;
  /** The blob as a file on this machine to stream from, or null when the store keeps it elsewhere. */
  localPath(sha256: string): string | null;
  /** A new file in the store to write into (see BlobDraft). */
  draft(): Promise<BlobDraft>;
}

const SHA256 = /^[0-9a-f]{64}$/;

export function createLocalBlobStore(root: string): BlobStore {
  const pathOf = (sha: string) => join(root, sha.slice(0, 2), sha.slice(2, 4), sha);
  const tmpDir = join(root, 'tmp');
  /** Moves a finished file under its hash; a blob of that hash is the same bytes, so either copy will do. */
  async function settle(tmp: string, sha: string) {
    if (!SHA256.test(sha)) throw new Error('not a SHA-256');
    const target = pathOf(sha);
    await mkdir(join(target, '..'), { recursive: true });
    await rename(tmp, target);
  }
  const store: BlobStore = {
    async put(bytes) {
      const sha = createHash('sha256').update(bytes).digest('hex');
      await store.putHashed(bytes, sha);
      return sha;
    },
    async putHashed(bytes, sha) {
      if (!SHA256.test(sha)) throw new Error('not a SHA-256');
      if (await store.has(sha)) return;
      const target = pathOf(sha);
      await mkdir(join(target, '..'), { recursive: true });
      // Write then rename, so a crash never leaves a half-written blob under its final name.
      const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, bytes, { flag: 'wx' });
      await rename(tmp, target);
    },
    async get(sha) {
      if (!SHA256.test(sha)) return null;
      try {
        return await readFile(pathOf(sha));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    async has(sha) {
      if (!SHA256.test(sha)) return false;
      try {
        await stat(pathOf(sha));
        return true;
      } catch {
        return false;
      }
    },
    localPath: (sha) => (SHA256.test(sha) ? pathOf(sha) : null),
    async draft() {
      await mkdir(tmpDir, { recursive: true });
      const path = join(tmpDir, `${randomBytes(9).toString('hex')}.tmp`);
      let kept = false;
      return {
        path,
        async keep(sha) {
          await settle(path, sha);
          kept = true;
        },
        async discard() {
          if (!kept) await rm(path, { force: true });
        },
      };
    },
  };
  return store;
}
