/**
 * Several server processes on one port (WORKERS, PostgreSQL only). The primary prepares the platform
 * once (migrations, the CA's keys, first-start and demo data), then forks the workers; each builds the
 * app and listens on the shared port, and the kernel spreads connections among them. The primary serves
 * nothing itself: it restarts a worker that dies, and on SIGINT/SIGTERM stops them all gracefully.
 *
 * Nothing a request needs lives in one process only: sessions, SMS codes, jobs, the evidence log and
 * login throttling are in the database (or Redis), rate limits in Redis when REDIS_URL is set (counted
 * per process otherwise, which the primary warns about), and the timers (expired flows, signed tree
 * heads, jobs) are safe to run in every process, as they are across instances behind a load balancer.
 */
import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from './config';

/** The message a primary sends its parent (a bench, a supervisor) once every worker listens. */
export interface ClusterReady {
  type: 'openseal:ready';
  workers: number[];
  port: number;
}

interface ListeningMessage {
  type: 'openseal:listening';
  port: number;
}

/** A worker that dies this soon after starting counts towards the crash-loop limit. */
const EARLY_DEATH_MS = 10_000;
const MAX_EARLY_DEATHS = 5;
const STOP_GRACE_MS = 15_000;

export interface PrimaryLog {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

/**
 * Runs the primary: the platform is ready (migrated, seeded, its app closed); this forks
 * `config.processes.count` workers running `entry` (the server's own module, compiled or not, rather than
 * whatever script started this process) and keeps that many running until a signal stops them.
 */
export function runPrimary(config: AppConfig, log: PrimaryLog, entry: URL): Promise<number> {
  const count = config.processes.count;
  // Stack traces of the compiled server name the TypeScript sources, in the workers too.
  const execArgv = process.execArgv.includes('--enable-source-maps')
    ? process.execArgv
    : [...process.execArgv, '--enable-source-maps'];
  cluster.setupPrimary({ exec: fileURLToPath(entry), execArgv });
  if (!config.redisUrl)
    log.warn(
      { workers: count },
      'REDIS_URL is not set: each process counts request rate limits on its own (limits are per process)',
    );
  const started = new Map<number, number>();
  const listening = new Set<number>();
  let earlyDeaths = 0;
  let stopping = false;
  let readySent = false;

  const fork = (): Worker => {
    const worker = cluster.fork({ OPENSEAL_CLUSTER_WORKER: '1' });
    started.set(worker.id, Date.now());
    worker.on('message', (m: ListeningMessage) => {
      if (m?.type !== 'openseal:listening') return;
      listening.add(worker.id);
      if (!readySent && listening.size === count) {
        readySent = true;
        const pids = Object.values(cluster.workers ?? {}).flatMap((w) =>
          w?.process.pid ? [w.process.pid] : [],
        );
        log.info({ workers: pids, port: m.port }, `OpenSeal is serving from ${count} processes`);
        announceReady(pids, m.port);
      }
    });
    return worker;
  };

  return new Promise<number>((resolve) => {
    let exitCode = 0;
    const stop = (code: number) => {
      if (stopping) return;
      stopping = true;
      exitCode = code;
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
      if (workers.length === 0) resolve(exitCode);
      for (const w of workers) w.process.kill('SIGTERM');
      setTimeout(() => {
        for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
        resolve(1);
      }, STOP_GRACE_MS).unref();
    };
    cluster.on('exit', (worker, code, signal) => {
      listening.delete(worker.id);
      const lived = Date.now() - (started.get(worker.id) ?? 0);
      started.delete(worker.id);
      if (stopping) {
        if (Object.keys(cluster.workers ?? {}).length === 0) resolve(0);
        return;
      }
      log.error(
        { pid: worker.process.pid, code, signal, livedMs: lived },
        'a server process died; starting another',
      );
      if (lived < EARLY_DEATH_MS && ++earlyDeaths >= MAX_EARLY_DEATHS) {
        log.error({ earlyDeaths }, 'server processes keep dying at start: stopping');
        stop(1);
        return;
      }
      fork();
    });

    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        log.info({ signal }, 'shutting down the server processes');
        stop(0);
      });
    }
    // The parent of a supervised primary going away stops the cluster too.
    process.on('disconnect', () => stop(0));

    for (let i = 0; i < count; i++) fork();
  });
}

/** Tells a supervising parent (over IPC, when there is one) that the server answers on `port`. */
export function announceReady(pids: number[], port: number): void {
  const ready: ClusterReady = { type: 'openseal:ready', workers: pids, port };
  process.send?.(ready);
}

/** Called by a worker once it listens: the primary counts them before it says the cluster is ready. */
export function reportListening(port: number): void {
  if (!cluster.isWorker) return;
  const message: ListeningMessage = { type: 'openseal:listening', port };
  process.send?.(message);
}

/** True in a process the primary forked. */
export const isClusterWorker = (): boolean => cluster.isWorker;
