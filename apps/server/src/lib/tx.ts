import type { Db } from '@openseal/db';

/**
 * Runs `fn` in the caller's transaction when there is one, else in a new one: Kysely cannot open a
 * transaction inside another, and a service called from another module's transaction must join it.
 */
export function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
