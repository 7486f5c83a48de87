import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite has no postmaster to keep a second process out of its data directory, and two processes
 * writing one directory corrupt it. This pid file is that guard: a live owner makes the second opener
 * fail with a clear message; a stale one (its process gone) is taken over.
 */
export function lockDataDir(dir: string): () => void {
  const file = join(dir, 'openseal.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(file, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `the database directory ${dir} is in use by process ${owner}; stop it first (two processes would corrupt it)`,
          { cause: e },
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
