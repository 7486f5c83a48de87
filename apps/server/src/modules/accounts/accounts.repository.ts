import type { Db } from '@openseal/db';

export const findPersonByMobile = (db: Db, mobile: string) =>
  db.selectFrom('persons').selectAll().where('mobile', '=', mobile).executeTakeFirst();
export const findPersonById = (db: Db, id: string) =>
  db.selectFrom('persons').selectAll().where('id', '=', id).executeTakeFirst();

/** Inserts a person unless the mobile is taken; returns the person either way (registration races). */
export async function insertPersonIfAbsent(db: Db, p: { id: string; mobile: string; name: string }) {
  await db
    .insertInto('persons')
    .values({
      id: p.id,
      mobile: p.mobile,
      name: p.name,
      password_hash: null,
      default_account_id: null,
    })
    .onConflict((oc) => oc.column('mobile').doNothing())
    .execute();
  return db.selectFrom('persons').selectAll().where('mobile', '=', p.mobile).executeTakeFirstOrThrow();
}

export async function setDefaultAccount(db: Db, personId: string, accountId: string): Promise<void> {
  await db.updateTable('persons').set({ default_account_id: accountId }).where('id', '=', personId).execute();
}

export async function setPassword(db: Db, personId: string, hash: string): Promise<void> {
  await db
    .updateTable('persons')
    .set({ password_hash: hash, updated_at: new Date() })
    .where('id', '=', personId)
    .execute();
}

export async function setMobile(db: Db, personId: string, mobile: string): Promise<void> {
  await db
    .updateTable('persons')
    .set({ mobile, updated_at: new Date() })
    .where('id', '=', personId)
    .execute();
}
