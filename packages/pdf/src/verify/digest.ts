import { createHasher, type HashName } from '@openseal/pki';

/** What the verifier needs from a byte source; structurally the reader's ByteSource. */
export interface RangeSource {
  readonly size: number;
  read(offset: number, length: number): Uint8Array;
}

/** Every digest the CMS verifier may ask for (MD5 and SHA-1 too: old files stay readable, reported weak). */
export type DigestAlgorithm = HashName;

const DIGESTS: ReadonlySet<string> = new Set<DigestAlgorithm>([
  'MD5',
  'SHA-1',
  'SHA-256',
  'SHA-384',
  'SHA-512',
  'SHA3-256',
  'SHA3-384',
  'SHA3-512',
  'SHAKE256',
]);

// Large enough to keep per-call overhead negligible, small enough that a 1 GB file never sits in memory.
const CHUNK = 1 << 20;

export function isDigestAlgorithm(name: string): name is DigestAlgorithm {
  return DIGESTS.has(name);
}

/**
 * Hashes `[offset, length]` ranges of the source in order, reading in chunks so that a file is never
 * loaded whole. Ranges must lie inside the source (callers check the ByteRange first).
 */
export function digestRanges(
  source: RangeSource,
  ranges: ReadonlyArray<readonly [number, number]>,
  algorithm: DigestAlgorithm,
): Uint8Array {
  const hash = createHasher(algorithm);
  for (const [offset, length] of ranges) {
    if (offset < 0 || length < 0 || offset + length > source.size) {
      throw new RangeError(`range ${offset}+${length} lies outside the ${source.size}-byte source`);
    }
    for (let at = offset; at < offset + length; at += CHUNK) {
      const n = Math.min(CHUNK, offset + length - at);
      const chunk = source.read(at, n);
      if (chunk.length !== n) throw new RangeError(`short read at ${at}: ${chunk.length} of ${n} bytes`);
      hash.update(chunk);
    }
  }
  return new Uint8Array(hash.digest());
}

/**
 * A `digestOf` callback for the CMS verifier: each algorithm is computed at most once, so a CMS that
 * asks twice (message digest, then timestamp imprint) does not read the file twice.
 */
export function createRangeDigester(
  source: RangeSource,
  ranges: ReadonlyArray<readonly [number, number]>,
): (algorithm: DigestAlgorithm) => Promise<Uint8Array> {
  const cache = new Map<DigestAlgorithm, Uint8Array>();
  return (algorithm) => {
    try {
      if (!isDigestAlgorithm(algorithm)) throw new Error(`unsupported digest algorithm ${String(algorithm)}`);
      let value = cache.get(algorithm);
      if (!value) {
        value = digestRanges(source, ranges, algorithm);
        cache.set(algorithm, value);
      }
      return Promise.resolve(value);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  };
}
