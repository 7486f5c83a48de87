import { sql } from 'kysely';
import type { Db, JobsTable } from '@openseal/db';
import type { Selectable } from 'kysely';

export type JobRow = Selectable<JobsTable>;

const leaseUntil = (leaseMs: number) => sql<Date>`now() + make_interval(secs => ${leaseMs / 1000})`;

export async function insertJob(
  db: Db,
  row: {
    id: string;
    kind: string;
    key: string | null;
    payload: string;
    maxAttempts: number;
    runAt: Date | null;
  },
): Promise<void> {
  await db
    .insertInto('jobs')
    .values({
      id: row.id,
      kind: row.kind,
      key: row.key,
      payload: row.payload,
      status: 'queued',
      max_attempts: row.maxAttempts,
      run_at: row.runAt ?? sql<Date>`now()`,
      created_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .execute();
}

/** The queued or running job of a deduplication key, if any. */
export async function findOpenByKey(db: Db, kind: string, key: string): Promise<JobRow | undefined> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('kind', '=', kind)
    .where('key', '=', key)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
}

export async function findJob(db: Db, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Claims up to `limit` jobs that are due, or whose lease ran out (their worker died): several instances
 * poll at once, and SKIP LOCKED lets each take different rows without waiting on the others.
 */
export async function claimDue(
  db: Db,
  q: { worker: string; kinds: readonly string[]; limit: number; leaseMs: number; id?: string },
): Promise<JobRow[]> {
  if (q.kinds.length === 0 || q.limit < 1) return [];
  return db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'running',
      locked_by: q.worker,
      locked_until: leaseUntil(q.leaseMs),
      attempts: eb('attempts', '+', 1),
      updated_at: sql<Date>`now()`,
    }))
    .where('id', 'in', (eb) => {
      let pick = eb
        .selectFrom('jobs')
        .select('id')
        .where('kind', 'in', [...q.kinds])
        .where((w) =>
          w.or([
            w.and([
              w('status', '=', 'queued'),
              // runNow takes its own job at once; the poller waits for run_at (the backoff).
              ...(q.id ? [] : [w('run_at', '<=', sql<Date>`now()`)]),
            ]),
            w.and([w('status', '=', 'running'), w('locked_until', '<', sql<Date>`now()`)]),
          ]),
        );
      if (q.id) pick = pick.where('id', '=', q.id);
      return pick.orderBy('run_at').limit(q.limit).forUpdate().skipLocked();
    })
    .returningAll()
    .execute();
}

/** Extends the lease of a job this worker still holds; false when it lost it. */
export async function extendLease(db: Db, id: string, worker: string, leaseMs: number): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({ locked_until: leaseUntil(leaseMs), updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('locked_by', '=', worker)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function setProgress(
  db: Db,
  id: string,
  worker: string,
  progress: number,
  note: string | null,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ progress, note, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('locked_by', '=', worker)
    .where('status', '=', 'running')
    .execute();
}

/** Finishes a job this worker holds; false when another worker took it over meanwhile. */
export async function completeJob(
  db: Db,
  id: string,
  worker: string,
  result: string | null,
): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({
      status: 'done',
      progress: 100,
      result,
      last_error: null,
      locked_by: null,
      locked_until: null,
      finished_at: sql<Date>`now()`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('locked_by', '=', worker)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Puts a failed attempt back in the queue after `retryInMs`, or fails the job for good when null. */
export async function failJob(
  db: Db,
  id: string,
  worker: string,
  error: string,
  retryInMs: number | null,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set(
      retryInMs === null
        ? {
            status: 'failed',
            last_error: error,
            locked_by: null,
            locked_until: null,
            finished_at: sql<Date>`now()`,
            updated_at: sql<Date>`now()`,
          }
        : {
            status: 'queued',
            last_error: error,
            locked_by: null,
            locked_until: null,
            run_at: sql<Date>`now() + make_interval(secs => ${retryInMs / 1000})`,
            updated_at: sql<Date>`now()`,
          },
    )
    .where('id', '=', id)
    .where('locked_by', '=', worker)
    .where('status', '=', 'running')
    .execute();
}
