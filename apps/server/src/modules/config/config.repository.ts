import { sql } from 'kysely';
import type { Db } from '@openseal/db';

export async function listConfigValues(db: Db) {
  return db.selectFrom('config_values').selectAll().execute();
}

/** Adds a value only when its code is absent: defaults never overwrite what an operator set. */
export async function insertConfigIfAbsent(
  db: Db,
  v: { code: string; value: string | null; fileKey?: string | null; isPublic: boolean },
): Promise<boolean> {
  const r = await db
    .insertInto('config_values')
    .values({ code: v.code, value: v.value, file_key: v.fileKey ?? null, is_public: v.isPublic })
    .onConflict((oc) => oc.column('code').doNothing())
    .returning('code')
    .executeTakeFirst();
  return r !== undefined;
}

/** The newest migration applied (the schema version the self-check reports). */
export async function latestMigration(db: Db): Promise<string | null> {
  const r = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(
    db,
  );
  return r.rows[0]?.name ?? null;
}
