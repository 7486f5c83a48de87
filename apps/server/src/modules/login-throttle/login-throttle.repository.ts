import { sql } from 'kysely';
import type { Db } from '@openseal/db';

/** The wait policy as the counting statement applies it (milliseconds). */
export interface WaitPolicy {
  freeFailures: number;
  backoffMs: number;
  maxBackoffMs: number;
  /** Failures older than this are forgotten: the count starts again. */
  forgetMs: number;
}

/** The exponent is capped so the doubling never overflows before the cap applies. */
const MAX_DOUBLINGS = 30;

/**
 * Counts one attempt in one statement, unless the address must still wait: two concurrent guesses
 * cannot both slip under the limit (the row lock orders them, and the second sees the first's wait).
 * Answers the new count and wait, or undefined while the address must wait.
 */
export async function takeAttempt(
  db: Db,
  key: string,
  now: Date,
  p: WaitPolicy,
): Promise<{ failures: number; blocked_until: Date | null } | undefined> {
  const forgetBefore = new Date(now.getTime() - p.forgetMs);
  const count = sql<number>`case when login_throttles.last_failure_at < ${forgetBefore} then 1 else login_throttles.failures + 1 end`;
  const waitUntil = (failures: ReturnType<typeof sql<number>>) =>
    sql<Date | null>`case when ${failures} >= ${p.freeFailures}
      then ${now}::timestamptz + make_interval(secs => least(${p.maxBackoffMs}::float8,
        ${p.backoffMs}::float8 * power(2::float8, least(${failures} - ${p.freeFailures}, ${MAX_DOUBLINGS}))) / 1000)
      else null end`;
  const first = sql<number>`1`;
  const row = await db
    .insertInto('login_throttles')
    .values({ key, failures: 1, last_failure_at: now, blocked_until: waitUntil(first) })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ failures: count, last_failure_at: now, blocked_until: waitUntil(count) })
        .where((eb) =>
          eb.or([
            eb('login_throttles.blocked_until', 'is', null),
            eb('login_throttles.blocked_until', '<=', now),
          ]),
        ),
    )
    .returning(['failures', 'blocked_until'])
    .executeTakeFirst();
  return row;
}

export async function blockedUntil(db: Db, key: string): Promise<Date | null> {
  const row = await db
    .selectFrom('login_throttles')
    .select('blocked_until')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.blocked_until ?? null;
}

export async function clearAttempts(db: Db, key: string): Promise<void> {
  await db.deleteFrom('login_throttles').where('key', '=', key).execute();
}

/** Drops counts nobody has added to for a while (an attacker rotating names leaves rows behind). */
export async function forgetOldAttempts(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('login_throttles').where('last_failure_at', '<', before).execute();
}
