import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '@openseal/core';
import { OfdError } from '@openseal/ofd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manyNodesOfd } from '../../../packages/ofd/src/test-bombs';
import { buildOfd } from '../../../packages/ofd/src/test-ofd';
import { createInlineWorkPool, createWorkPool, type WorkPool } from '../src/workers/work-pool';
import { tinyPdf } from './upload-fixtures';

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
}

/** The longest gap between ticks of a 20 ms timer while `p` runs: how long the main thread was blocked. */
async function mainThreadLag<T>(p: Promise<T>): Promise<{ value: T | unknown; lagMs: number }> {
  let last = performance.now();
  let lagMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    lagMs = Math.max(lagMs, now - last - 20);
    last = now;
  }, 20);
  const value = await p.catch((e: unknown) => e);
  clearInterval(timer);
  return { value, lagMs };
}

describe('the worker pool', () => {
  let pool: WorkPool;
  let dir: string;
  beforeAll(async () => {
    pool = createWorkPool({ threads: 1, memoryMb: 512, deadlinesMs: { readOfd: 1_500 } });
    dir = await mkdtemp(join(tmpdir(), 'openseal-pool-'));
    await pool.warm();
  });
  afterAll(async () => {
    await pool.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs a task in a worker, and its typed errors arrive as themselves', async () => {
    expect(await pool.readOfd(buildOfd())).toEqual({ pages: 1 });
    const err = await failure(pool.readOfd(buildOfd({ pages: [] })));
    expect(err).toBeInstanceOf(OfdError);
    expect((err as OfdError).reason).toBe('noPages');
    const app = await failure(pool.readPdfPages(Buffer.from('%PDF-1.7 nothing else')));
    expect(app).toBeInstanceOf(AppError);
    expect((app as AppError).key).toBe('pdf.unreadable');
  });

  it('calls back to the main thread for what the worker cannot hold: the signer gets the digest, its CMS goes in', async () => {
    const inPath = join(dir, 'in.pdf');
    const outPath = join(dir, 'out.pdf');
    await writeFile(inPath, tinyPdf());
    const digests: Uint8Array[] = [];
    const result = await pool.signPdfFile(inPath, outPath, {
      sign: async (digest) => {
        digests.push(digest);
        return Uint8Array.of(0x30, 0x03, 0x02, 0x01, 0x07);
      },
      signingTime: new Date('2026-01-02T03:04:05Z'),
    });
    expect(digests).toHaveLength(1);
    expect(digests[0]!.length).toBe(32);
    const out = await readFile(outPath);
    expect(out.length).toBe(result.size);
    expect(out.toString('latin1')).toContain('<3003020107');
    // A callback's catalogued refusal reaches the caller as itself, through the worker and back.
    const refused = await failure(
      pool.signPdfFile(inPath, join(dir, 'refused.pdf'), {
        sign: async () => {
          throw new AppError('cert.notUsable');
        },
      }),
    );
    expect((refused as AppError).key).toBe('cert.notUsable');
  });

  it('terminates a task past its deadline (work.timeout), keeps the main thread free meanwhile, and serves the next task', async () => {
    // A million flat elements with the node limit lifted: xmldom takes several seconds over it.
    const heavy = manyNodesOfd(1_000_000);
    const started = performance.now();
    const { value, lagMs } = await mainThreadLag(pool.readOfd(heavy, { xml: { maxNodes: 10_000_000 } }));
    expect(value).toBeInstanceOf(AppError);
    expect((value as AppError).key).toBe('work.timeout');
    expect((value as AppError).details).toEqual({ task: 'readOfd', deadlineMs: 1_500 });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(lagMs).toBeLessThan(500);
    expect(await pool.readOfd(buildOfd())).toEqual({ pages: 1 });
  });

  it('refuses what the queue cannot hold as busy, at once', async () => {
    const small = createWorkPool({ threads: 1, memoryMb: 256, maxQueue: 1 });
    try {
      // One running and one waiting is all this pool holds: the third is refused before it queues.
      const runs = Array.from({ length: 3 }, () => small.readOfd(buildOfd()).catch((e: unknown) => e));
      const third = await runs[2];
      expect((third as AppError).key).toBe('work.busy');
      expect(await runs[0]).toEqual({ pages: 1 });
      expect(await runs[1]).toEqual({ pages: 1 });
    } finally {
      await small.close();
    }
  });

  it('a worker over its heap limit dies alone: work.outOfMemory, and the pool goes on', async () => {
    const tight = createWorkPool({ threads: 1, memoryMb: 64, deadlinesMs: { readOfd: 60_000 } });
    try {
      const err = await failure(tight.readOfd(manyNodesOfd(1_000_000), { xml: { maxNodes: 100_000_000 } }));
      expect((err as AppError).key).toBe('work.outOfMemory');
      expect(await tight.readOfd(buildOfd())).toEqual({ pages: 1 });
    } finally {
      await tight.close();
    }
  });

  it('runs the same tasks in process for the command line', async () => {
    const inline = createInlineWorkPool();
    expect(await inline.readOfd(buildOfd())).toEqual({ pages: 1 });
    const err = await failure(inline.readOfd(buildOfd({ pages: [] })));
    expect((err as OfdError).reason).toBe('noPages');
  });
});
