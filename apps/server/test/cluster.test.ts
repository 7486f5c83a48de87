import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropSchema } from '@openseal/db';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClusterReady } from '../src/cluster';

const root = new URL('../../../', import.meta.url).pathname;
const url = process.env.DATABASE_URL;

interface Started {
  child: ChildProcess;
  ready: ClusterReady;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `server.ts` as `npm start` does, with IPC, and waits for its ready message. */
async function start(env: Record<string, string>): Promise<Started> {
  const child = fork(join(root, 'apps/server/src/server.ts'), [], {
    cwd: root,
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SEED_DEMO: 'false',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = await new Promise<ClusterReady>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 120_000);
    child.on('message', (m: ClusterReady) => {
      if (m?.type !== 'openseal:ready') return;
      clearTimeout(timer);
      resolve(m);
    });
    child.on('exit', (code) => reject(new Error(`server exited early (${code}):\n${out}`)));
  });
  return { child, ready, output: () => out, exited };
}

/** Pids whose parent is `pid` (Linux /proc). */
async function childrenOf(pid: number): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) === pid) out.push(Number(name));
  }
  return out.sort();
}

/** Pids that logged an answer to a request (pino's JSON lines). */
function answeringPids(output: string): Set<number> {
  const pids = new Set<number>();
  for (const line of output.split('\n')) {
    if (!line.includes('"request completed"')) continue;
    const m = /"pid":(\d+)/.exec(line);
    if (m) pids.add(Number(m[1]));
  }
  return pids;
}

/** GET on a new connection, bounded in time, with a retry: a connection handed to a dying worker is lost. */
async function get(base: string, path: string, tries = 1): Promise<Response> {
  for (let i = 1; ; i++) {
    try {
      return await fetch(`${base}${path}`, {
        headers: { connection: 'close' },
        signal: AbortSignal.timeout(5_000),
      });
    } catch (err) {
      if (i >= tries) throw err;
    }
  }
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('server processes (WORKERS)', () => {
  it('serves from one process on PGlite and says why', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'openseal-cluster-'));
    dirs.push(dataDir);
    const s = await start({ DATA_DIR: dataDir, WORKERS: '2' });
    try {
      expect(s.ready.workers).toEqual([s.child.pid]);
      // Log lines travel by pipe, the ready message by IPC: the lines may come a moment later.
      await expect
        .poll(() => s.output())
        .toContain('serving from one process: PGlite keeps its data in one process');
      const res = await get(`http://127.0.0.1:${s.ready.port}`, '/healthz');
      expect(await res.json()).toMatchObject({ status: 'ok', database: 'pglite' });
    } finally {
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    }
  }, 180_000);

  it.runIf(url)(
    'serves from WORKERS processes on PostgreSQL, replaces one that dies, and stops them all on SIGTERM',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'openseal-cluster-'));
      dirs.push(dataDir);
      const schema = `t_cluster_${randomBytes(4).toString('hex')}`;
      const s = await start({ DATA_DIR: dataDir, WORKERS: '2', DATABASE_URL: url!, DATABASE_SCHEMA: schema });
      try {
        const primary = s.child.pid!;
        expect(s.ready.workers).toHaveLength(2);
        expect(s.ready.workers).not.toContain(primary);
        expect(await childrenOf(primary)).toEqual([...s.ready.workers].sort());

        // A new connection per request: the primary hands connections to the workers in turn.
        const base = `http://127.0.0.1:${s.ready.port}`;
        for (let i = 0; i < 20; i++) {
          expect((await get(base, '/healthz')).status).toBe(200);
        }
        await expect.poll(() => answeringPids(s.output()).size).toBe(2);
        expect([...answeringPids(s.output())].sort()).toEqual([...s.ready.workers].sort());

        // One worker dies: the primary starts another, and the platform keeps answering meanwhile.
        const [victim] = s.ready.workers;
        process.kill(victim!, 'SIGKILL');
        expect((await get(base, '/livez', 3)).status).toBe(200);
        await expect
          .poll(async () => (await childrenOf(primary)).filter((p) => !s.ready.workers.includes(p)).length, {
            timeout: 60_000,
            interval: 500,
          })
          .toBe(1);
        await expect.poll(() => s.output()).toContain('a server process died; starting another');

        const workers = await childrenOf(primary);
        s.child.kill('SIGTERM');
        expect(await s.exited).toBe(0);
        for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
      } finally {
        if (s.child.exitCode === null) s.child.kill('SIGKILL');
        await dropSchema(url!, schema);
      }
    },
    240_000,
  );
});
