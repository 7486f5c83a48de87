import type { Db } from '@openseal/db';

export async function insertLink(
  db: Db,
  row: { code: string; target: string; purpose: string; expires_at: Date },
): Promise<void> {
  await db.insertInto('short_links').values(row).execute();
}

/** The link's target while it is valid, counting the visit; null for an unknown or expired code. */
export async function openLink(db: Db, code: string, now: Date): Promise<string | null> {
  const row = await db
    .updateTable('short_links')
    .set((eb) => ({ hits: eb('hits', '+', 1) }))
    .where('code', '=', code)
    .where('expires_at', '>', now)
    .returning('target')
    .executeTakeFirst();
  return row?.target ?? null;
}

/** Drops links that expired before `before`; answers how many. */
export async function deleteExpired(db: Db, before: Date): Promise<number> {
  const r = await db.deleteFrom('short_links').where('expires_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}
