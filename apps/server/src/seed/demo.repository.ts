import type { Db } from '@openseal/db';

/** Demo data only: real-name status is otherwise set by the real-name flows. */
export async function markRealName(
  db: Db,
  table: 'persons' | 'organizations',
  id: string,
  status: number,
): Promise<void> {
  await db.updateTable(table).set({ real_name_status: status }).where('id', '=', id).execute();
}

/** Whether any of these people has ever applied for a seal (for themselves or an organisation). */
export async function hasSealApplications(db: Db, personIds: string[]): Promise<boolean> {
  const row = await db
    .selectFrom('seal_work_orders')
    .select('apply_no')
    .where('person_id', 'in', personIds)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
