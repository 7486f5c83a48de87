import type { Db } from '@openseal/db';

export async function findConfigValues(db: Db, codes: readonly string[]) {
  if (codes.length === 0) return [];
  return db
    .selectFrom('config_values')
    .selectAll()
    .where('code', 'in', [...codes])
    .execute();
}

export async function upsertConfigValue(
  db: Db,
  v: { code: string; value: string | null; fileKey?: string | null; isPublic: boolean },
): Promise<void> {
  await db
    .insertInto('config_values')
    .values({ code: v.code, value: v.value, file_key: v.fileKey ?? null, is_public: v.isPublic })
    .onConflict((oc) =>
      oc.column('code').doUpdateSet({
        value: v.value,
        file_key: v.fileKey ?? null,
        is_public: v.isPublic,
        updated_at: new Date(),
      }),
    )
    .execute();
}

export async function countConfigValues(db: Db): Promise<number> {
  const r = await db
    .selectFrom('config_values')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function listConfigValues(db: Db) {
  return db.selectFrom('config_values').selectAll().execute();
}
