import type { Db } from '@openseal/db';

export const findGuidance = (db: Db, personId: string, page: string) =>
  db
    .selectFrom('guidance_logs')
    .select(['action', 'created_at'])
    .where('person_id', '=', personId)
    .where('page', '=', page)
    .executeTakeFirst();

/** Logs a page's guide as seen; the first answer stays (false when it was logged before). */
export async function insertGuidance(
  db: Db,
  row: { personId: string; page: string; action: string; step: number },
): Promise<boolean> {
  const r = await db
    .insertInto('guidance_logs')
    .values({ person_id: row.personId, page: row.page, action: row.action, step: row.step })
    .onConflict((oc) => oc.columns(['person_id', 'page']).doNothing())
    .returning('page')
    .executeTakeFirst();
  return r !== undefined;
}
