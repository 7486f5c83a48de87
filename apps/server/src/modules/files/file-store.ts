import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Content-addressed blob storage (sha-256). The local-disk store serves one machine; an S3-compatible
 * store implements the same interface for several.
 */
export interface BlobStore {
  put(bytes: Buffer): Promise<string>;
  get(sha256: string): Promise<Buffer | null>;
  has(sha256: string): Promise<boolean>;
}

const SHA256 = /^[0-9a-f]{64}$/;

export function createLocalBlobStore(root: string): BlobStore {
  const pathOf = (sha: string) => join(root, sha.slice(0, 2), sha.slice(2, 4), sha);
  return {
    async put(bytes) {
      const sha = createHash('sha256').update(bytes).digest('hex');
      const target = pathOf(sha);
      if (await this.has(sha)) return sha;
      await mkdir(join(target, '..'), { recursive: true });
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
  };
}
