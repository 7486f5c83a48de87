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
  get(sha256: string): Promise<Buffer | null>;
  has(sha256: string): Promise<boolean>;
  /**
   * The blob's file on this machine, for a reader that streams or reads it off the main thread (a store
   * that kept blobs elsewhere would fetch one into a draft here).
   */
  localPath(sha256: string): string;
  /** A new file in the store to write into (see BlobDraft). */
  draft(): Promise<BlobDraft>;
}

const SHA256 = /^[0-9a-f]{64}$/;

export function createLocalBlobStore(root: string): BlobStore {
  const pathOf = (sha: string) => join(root, sha.slice(0, 2), sha.slice(2, 4), sha);
  const tmpDir = join(root, 'tmp');
  // Directories made already: a signature should not ask the file system for them every time.
  const made = new Set<string>();
  const dirFor = async (dir: string) => {
    if (made.has(dir)) return;
    await mkdir(dir, { recursive: true });
    made.add(dir);
  };
  const store: BlobStore = {
    async put(bytes) {
      const sha = createHash('sha256').update(bytes).digest('hex');
      const target = pathOf(sha);
      if (await store.has(sha)) return sha;
      await dirFor(join(target, '..'));
      // Write then rename, so a crash never leaves a half-written blob under its final name.
      const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, bytes, { flag: 'wx' });
      await rename(tmp, target);
      return sha;
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
    localPath(sha) {
      if (!SHA256.test(sha)) throw new Error('not a SHA-256');
      return pathOf(sha);
    },
    async draft() {
      await dirFor(tmpDir);
      const path = join(tmpDir, `${randomBytes(9).toString('hex')}.tmp`);
      let kept = false;
      return {
        path,
        // A blob of that hash already there is the same bytes: the rename replaces it atomically.
        async keep(sha) {
          if (!SHA256.test(sha)) throw new Error('not a SHA-256');
          const target = pathOf(sha);
          await dirFor(join(target, '..'));
          await rename(path, target);
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
