/**
 * Starts the real server (buildApp + listen on loopback) on embedded PGlite or on PostgreSQL, for a
 * bench to load. PGlite gets a fresh temporary data directory; PostgreSQL gets a schema of its own,
 * dropped on close, so a bench never touches anyone else's data.
 */
import { fork, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { dropSchema } from '@openseal/db';
import { buildApp } from '../../apps/server/src/app';
import type { ClusterReady } from '../../apps/server/src/cluster';
import { loadConfig } from '../../apps/server/src/config';

/** The compiled server, as `npm start` runs it, and the script that builds it when stale. */
const SERVER_ENTRY = new URL('../../apps/server/dist/server.mjs', import.meta.url).pathname;
const SERVER_BUILD = new URL('../../apps/server/scripts/build.mjs', import.meta.url).pathname;

export type BenchDb = 'pglite' | 'postgres';
export type ServerConfig = ReturnType<typeof loadConfig>;

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchServer {
  db: BenchDb;
  baseUrl: string;
  /** Serving processes (1: this process, in-process; more: a cluster started as `npm start` runs it). */
  processes: number;
  /** Pids whose memory is the server's: this process, or the cluster's primary and its workers. */
  pids(): number[];
  /**
   * The server itself when it runs in this process, for figures measured there without HTTP
   * (verify-pdf's in-process rate); absent for a cluster, whose settings (`env`) a worker opens instead.
   */
  app?: FastifyInstance;
  /** The settings the server was started with (environment names), data directory and database included. */
  env: Record<string, string>;
  /** Closes the server, then removes its data directory or drops its schema. */
  close(): Promise<void>;
}

export interface StartServerOptions {
  db: BenchDb;
  /** Required for 'postgres'. */
  databaseUrl?: string;
  /** Extra settings by environment name (validated by loadConfig), e.g. a feature switch a bench needs. */
  env?: Record<string, string>;
  /** Config keys to force after loading, for what has no environment name (in-process servers only). */
  overrides?: Partial<ServerConfig>;
  /**
   * Server processes (WORKERS). Above 1 (PostgreSQL only) the server runs as its own cluster of
   * processes, started from the server's entry as `npm start` does, instead of in this process.
   */
  processes?: number;
}

export async function startServer(options: StartServerOptions): Promise<BenchServer> {
  const cleanups: Array<() => Promise<void>> = [];
  const cleanup = async () => {
    for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
  };
  try {
    const dataDir = await mkdtemp(join(tmpdir(), 'openseal-bench-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));

    let databaseUrl: string | undefined;
    let dbSchema: string | undefined;
    if (options.db === 'postgres') {
      if (!options.databaseUrl) throw new Error('startServer: postgres needs a databaseUrl');
      databaseUrl = options.databaseUrl;
      dbSchema = `bench_${Date.now().toString(36)}_${process.pid}`;
      const url = databaseUrl;
      const schema = dbSchema;
      cleanups.push(() => dropSchema(url, schema));
    }

    // Settings go through the server's own loader (and its validation). Nothing is read from this
    // process's environment, so a developer's DATABASE_URL cannot leak into the PGlite case.
    const env: Record<string, string> = {
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...(dbSchema ? { DATABASE_SCHEMA: dbSchema } : {}),
      LOG_LEVEL: 'warn',
      // A fixed secret per server keeps it from generating one and warning about it.
      APP_SECRET: randomBytes(32).toString('base64url'),
      // Every load request comes from one loopback address: lift the per-client request budget,
      // which would otherwise turn most of the run into 429 answers. Login and SMS limits stay.
      RATE_LIMIT_GLOBAL_PER_MINUTE: String(1_000_000_000),
      // The signing benches will-auth hundreds of tasks of one person before they measure: no wait
      // between two codes to the same mobile, and the sandbox delivers at once. The per-minute limit
      // of the public send-code endpoints stays.
      SMS_RESEND_SECONDS: '0',
      SMS_SANDBOX_DELAY_MS: '0',
      ...options.env,
    };
    const processes = options.processes ?? 1;
    if (processes > 1) {
      if (options.db !== 'postgres') throw new Error('startServer: several processes need PostgreSQL');
      if (options.overrides) throw new Error('startServer: overrides apply to an in-process server only');
      const cluster = await startCluster({ ...env, WORKERS: String(processes) });
      cleanups.push(cluster.stop);
      return {
        db: options.db,
        baseUrl: `http://127.0.0.1:${cluster.ready.port}`,
        processes,
        pids: () => [cluster.pid, ...cluster.ready.workers],
        env,
        close: cleanup,
      };
    }
    const config: ServerConfig = { ...loadConfig({ ...env, WORKERS: '1' }), ...options.overrides };
    const app = await buildApp({ config });
    cleanups.push(() => app.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
    return {
      db: options.db,
      baseUrl: `http://127.0.0.1:${address.port}`,
      processes: 1,
      pids: () => [process.pid],
      app,
      env,
      close: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * The compiled server in a child process with IPC, as `npm start` runs it; resolves once its primary says
 * every worker listens. Its output goes to this process's stderr (notes), never to stdout (records).
 */
async function startCluster(env: Record<string, string>) {
  // Builds the server only when a source is newer than its last build (under a second when it does).
  const build = spawnSync(process.execPath, [SERVER_BUILD], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error(`the server build failed (exit ${build.status ?? build.signal})`);
  const child = fork(SERVER_ENTRY, [], {
    execArgv: ['--enable-source-maps', ...(process.env.BENCH_EXEC_ARGV ?? '').split(' ').filter(Boolean)],
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout!.pipe(process.stderr);
  child.stderr!.pipe(process.stderr);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<ClusterReady>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server processes did not start in 180 s')), 180_000);
    child.on('message', (m: ClusterReady) => {
      if (m?.type !== 'openseal:ready') return;
      clearTimeout(timer);
      resolve(m);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before it was ready`));
    });
  }).catch((err: unknown) => {
    child.kill('SIGKILL');
    throw err;
  });
  return {
    pid: child.pid!,
    ready,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(force);
    },
  };
}

/** True when something accepts TCP connections at the URL's host and port within the timeout. */
export function isReachable(databaseUrl: string, timeoutMs = 1500): Promise<boolean> {
  const url = new URL(databaseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname || '127.0.0.1', port: Number(url.port || 5432) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** DATABASE_URL when set, else the default local PostgreSQL when it answers, else undefined. */
export async function findPostgres(env = process.env): Promise<string | undefined> {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  return (await isReachable(DEFAULT_DATABASE_URL)) ? DEFAULT_DATABASE_URL : undefined;
}
