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
