/**
 * Durable jobs in the database (DESIGN.md, long work). pg-boss and graphile-worker were the candidates,
 * but neither runs here: pg-boss 11+ needs Node 22 and both drive their own `pg` pool, so neither works
 * over the embedded PGlite default through our Kysely handle. This is the small part of them we need:
 *
 * - `enqueue` writes the job in the caller's transaction, so a job exists exactly when the change that
 *   asked for it committed;
 * - a poller claims due jobs with FOR UPDATE SKIP LOCKED and a lease (`locked_until`), so several
 *   instances never run one job twice at once, and a job whose worker died is taken over when its lease
 *   runs out;
 * - a failed attempt is retried with exponential backoff; a catalogued `AppError` is a verdict, not an
 *   accident, and fails the job at once;
 * - handlers report progress (0-100 and a note) that a page can poll.
 *
 * A handler may run more than once (a crash after its own commit and before `complete`), so handlers
 * must be idempotent: check the state they are to change before changing it.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import * as repo from './jobs.repository';

export interface JobContext {
  /** The database the job works in (not a transaction: open one for each step that must be atomic). */
  db: Db;
  jobId: string;
  /** 1 on the first try. */
  attempt: number;
  progress(percent: number, note?: string): Promise<void>;
  /** Aborted when the app closes; a long handler should stop at the next safe point. */
  signal: AbortSignal;
}

export type JobHandler = (payload: unknown, ctx: JobContext) => Promise<unknown>;

export interface JobKindOptions {
  maxAttempts?: number;
  /** Delay before attempt n+1 after attempt n failed. */
  backoffMs?: (attempt: number) => number;
}

export interface JobView {
  jobId: string;
  kind: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  note: string | null;
  attempts: number;
  error: string | null;
  result: unknown;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface JobRunnerOptions {
  db: Db;
  log: {
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
    info(obj: object, msg: string): void;
  };
  pollMs?: number;
  leaseMs?: number;
  concurrency?: number;
  /** How long `stop` waits for running handlers before leaving their leases to run out. */
  stopGraceMs?: number;
}

const DEFAULT_BACKOFF = (attempt: number) =>
  Math.min(1000 * 2 ** (attempt - 1), 300_000) * (1 + Math.random() * 0.2);

function view(row: repo.JobRow): JobView {
  return {
    jobId: row.id,
    kind: row.kind,
    state: row.status,
    progress: row.progress,
    note: row.note,
    attempts: row.attempts,
    error: row.last_error,
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

function describeError(err: unknown): string {
  if (err instanceof AppError) return err.key;
  return (err instanceof Error ? err.message : String(err)).slice(0, 1000);
}

export function createJobRunner(opts: JobRunnerOptions) {
  const { db, log } = opts;
  let pollMs = opts.pollMs ?? 1000;
  const leaseMs = opts.leaseMs ?? 60_000;
  const concurrency = opts.concurrency ?? 2;
  // Under the 10 s Fastify gives a close hook.
  const stopGraceMs = opts.stopGraceMs ?? 5_000;
  // One id per runner: a lease names its holder, so a worker that lost its lease cannot finish the job.
  const worker = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const kinds = new Map<string, { handler: JobHandler; options: JobKindOptions }>();
  const inFlight = new Map<string, { promise: Promise<void>; abort: AbortController }>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let ticking: Promise<void> | null = null;

  async function execute(row: repo.JobRow): Promise<void> {
    const kind = kinds.get(row.kind);
    if (!kind) return;
    const maxAttempts = row.max_attempts;
    if (row.attempts > maxAttempts) {
      // Claimed again after its lease ran out more often than it may be tried: its worker keeps dying.
      await repo.failJob(db, row.id, worker, row.last_error ?? 'lease expired too many times', null);
      return;
    }
    const abort = new AbortController();
    const heartbeat = setInterval(
      () => {
        void repo.extendLease(db, row.id, worker, leaseMs).catch(() => {});
      },
      Math.max(1000, Math.floor(leaseMs / 3)),
    );
    const ctx: JobContext = {
      db,
      jobId: row.id,
      attempt: row.attempts,
      signal: abort.signal,
      progress: (percent, note) =>
        repo.setProgress(db, row.id, worker, Math.max(0, Math.min(100, Math.round(percent))), note ?? null),
    };
    const promise = (async () => {
      try {
        const result = await kind.handler(JSON.parse(row.payload) as unknown, ctx);
        const done = await repo.completeJob(
          db,
          row.id,
          worker,
          result === undefined ? null : JSON.stringify(result),
        );
        if (!done) log.warn({ jobId: row.id, kind: row.kind }, 'job finished after its lease was taken over');
      } catch (err) {
        const permanent = err instanceof AppError;
        const retry = !permanent && row.attempts < maxAttempts;
        const backoff = kind.options.backoffMs ?? DEFAULT_BACKOFF;
        (retry ? log.warn : log.error).call(
          log,
          { err, jobId: row.id, kind: row.kind, attempt: row.attempts },
          retry ? 'job attempt failed; retrying' : 'job failed',
        );
        await repo
          .failJob(db, row.id, worker, describeError(err), retry ? backoff(row.attempts) : null)
          .catch((e: unknown) => log.error({ err: e, jobId: row.id }, 'could not record a job failure'));
      } finally {
        clearInterval(heartbeat);
      }
    })();
    inFlight.set(row.id, { promise, abort });
    await promise.finally(() => inFlight.delete(row.id));
  }

  async function tick(): Promise<void> {
    const free = concurrency - inFlight.size;
    if (!running || free <= 0) return;
    let rows: repo.JobRow[];
    try {
      rows = await repo.claimDue(db, { worker, kinds: [...kinds.keys()], limit: free, leaseMs });
    } catch (err) {
      log.warn({ err }, 'job poll failed');
      return;
    }
    for (const row of rows) void execute(row).finally(() => running && schedule(0));
  }

  function schedule(delay: number) {
    if (!running) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      ticking ??= tick().finally(() => {
        ticking = null;
        schedule(pollMs);
      });
    }, delay);
  }

  return {
    worker,

    register(kind: string, handler: JobHandler, options: JobKindOptions = {}): void {
      if (kinds.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
      kinds.set(kind, { handler, options });
    },

    /**
     * Queues a job inside the caller's transaction. With a `key`, a job of the same kind and key that is
     * still queued or running is answered instead of a second one.
     */
    async enqueue(
      trx: Db,
      kind: string,
      payload: object,
      o: { key?: string; runAt?: Date; maxAttempts?: number } = {},
    ): Promise<string> {
      const registered = kinds.get(kind);
      if (!registered) throw new Error(`job kind ${kind} is not registered`);
      if (o.key) {
        const open = await repo.findOpenByKey(trx, kind, o.key);
        if (open) return open.id;
      }
      const id = newId('job');
      await repo.insertJob(trx, {
        id,
        kind,
        key: o.key ?? null,
        payload: JSON.stringify(payload),
        maxAttempts: o.maxAttempts ?? registered.options.maxAttempts ?? 5,
        runAt: o.runAt ?? null,
      });
      return id;
    },

    async find(dbOrTrx: Db, jobId: string): Promise<JobView | null> {
      const row = await repo.findJob(dbOrTrx, jobId);
      return row ? view(row) : null;
    },

    /**
     * Runs one job in this process now (a caller that answers with the result), unless a poller got it
     * first; then it waits for that one, up to `waitMs`, and answers the state it sees.
     */
    async runNow(jobId: string, o: { waitMs?: number } = {}): Promise<JobView | null> {
      const [row] = await repo.claimDue(db, {
        worker,
        kinds: [...kinds.keys()],
        limit: 1,
        leaseMs,
        id: jobId,
      });
      if (row) await execute(row);
      else await inFlight.get(jobId)?.promise;
      const deadline = Date.now() + (o.waitMs ?? 30_000);
      for (;;) {
        const found = await repo.findJob(db, jobId);
        if (!found) return null;
        if (found.status === 'done' || found.status === 'failed' || Date.now() >= deadline)
          return view(found);
        if (found.status === 'queued') return view(found); // waiting for its retry
        await new Promise((r) => setTimeout(r, 100));
      }
    },

    /** Starts polling (the app does this when it is ready). */
    start(o: { pollMs?: number } = {}): void {
      if (o.pollMs !== undefined) pollMs = o.pollMs;
      if (running) return;
      running = true;
      schedule(pollMs);
      log.info({ worker, kinds: [...kinds.keys()], pollMs, leaseMs }, 'job runner started');
    },

    /** Stops polling, asks running handlers to stop, and waits for them a little. */
    async stop(): Promise<void> {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await ticking;
      for (const f of inFlight.values()) f.abort.abort();
      const all = Promise.allSettled([...inFlight.values()].map((f) => f.promise));
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([all, new Promise((r) => (grace = setTimeout(r, stopGraceMs)))]);
      clearTimeout(grace);
    },

    get isRunning() {
      return running;
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
