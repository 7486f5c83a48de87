import type { Db } from '@openseal/db';

export async function insertBlobRow(
  db: Db,
  f: { sha256: string; size: number; contentType: string },
): Promise<void> {
  await db
    .insertInto('files')
    .values({ sha256: f.sha256, size: f.size, content_type: f.contentType })
    .onConflict((oc) => oc.column('sha256').doNothing())
    .execute();
}

export async function insertFileObject(
  db: Db,
  o: {
    key: string;
    sha256: string;
    name: string;
    purpose: string;
    ownerPersonId: string | null;
    ownerOrgId: string | null;
    passwordSealed?: Uint8Array | null;
  },
): Promise<void> {
  await db
    .insertInto('file_objects')
    .values({
      key: o.key,
      sha256: o.sha256,
      name: o.name,
      purpose: o.purpose,
      owner_person_id: o.ownerPersonId,
      owner_org_id: o.ownerOrgId,
      password_sealed: o.passwordSealed ?? null,
    })
    .execute();
}

export async function findFileObject(db: Db, key: string) {
  return db
    .selectFrom('file_objects as o')
    .innerJoin('files as f', 'f.sha256', 'o.sha256')
    .select([
      'o.key',
      'o.sha256',
      'o.name',
      'o.purpose',
      'o.owner_person_id',
      'o.owner_org_id',
      'o.password_sealed',
      'f.size',
      'f.content_type',
    ])
    .where('o.key', '=', key)
    .executeTakeFirst();
}
