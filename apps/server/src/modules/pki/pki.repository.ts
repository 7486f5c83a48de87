import type {
  CertificateStatus,
  CertificatesTable,
  Db,
  PkiAuthoritiesTable,
  PkiKeysTable,
} from '@openseal/db';
import type { Insertable, Selectable } from 'kysely';

export type KeyRow = Selectable<PkiKeysTable>;
export type AuthorityRow = Selectable<PkiAuthoritiesTable>;
export type CertificateRow = Selectable<CertificatesTable>;
export type AuthorityName = PkiAuthoritiesTable['name'];

const bytes = (b: Uint8Array) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

export async function insertKey(db: Db, row: Insertable<PkiKeysTable>): Promise<void> {
  await db.insertInto('pki_keys').values(row).execute();
}

export async function findKey(db: Db, id: string): Promise<KeyRow | undefined> {
  const row = await db.selectFrom('pki_keys').selectAll().where('id', '=', id).executeTakeFirst();
  return (
    row && {
      ...row,
      public_key: bytes(row.public_key),
      wrapped_key: row.wrapped_key && bytes(row.wrapped_key),
    }
  );
}

export async function listAuthorities(db: Db): Promise<AuthorityRow[]> {
  const rows = await db.selectFrom('pki_authorities').selectAll().execute();
  return rows.map((r) => ({ ...r, certificate: r.certificate && bytes(r.certificate) }));
}

/** Inserts an authority unless another instance got there first; answers whether this one won. */
export async function insertAuthority(db: Db, row: Insertable<PkiAuthoritiesTable>): Promise<boolean> {
  const res = await db
    .insertInto('pki_authorities')
    .values(row)
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Takes the next CRL number of an authority. */
export async function nextCrlNumber(db: Db, name: AuthorityName): Promise<number> {
  const row = await db
    .updateTable('pki_authorities')
    .set((eb) => ({ crl_number: eb('crl_number', '+', 1) }))
    .where('name', '=', name)
    .returning('crl_number')
    .executeTakeFirstOrThrow();
  return Number(row.crl_number);
}

export async function insertCertificate(db: Db, row: Insertable<CertificatesTable>): Promise<void> {
  await db.insertInto('certificates').values(row).execute();
}

export async function findCertificate(db: Db, serial: string): Promise<CertificateRow | undefined> {
  const row = await db.selectFrom('certificates').selectAll().where('serial', '=', serial).executeTakeFirst();
  return row && { ...row, der: bytes(row.der) };
}

/** The revocation columns of the certificates among `serials` (lower-case hex) that the platform issued. */
export async function findCertificateStates(db: Db, serials: readonly string[]) {
  if (serials.length === 0) return [];
  return db
    .selectFrom('certificates')
    .select(['serial', 'status', 'revoked_at', 'revocation_reason'])
    .where('serial', 'in', serials)
    .execute();
}

export async function findCertificatesBySeal(db: Db, sealCode: string): Promise<CertificateRow[]> {
  const rows = await db
    .selectFrom('certificates')
    .selectAll()
    .where('seal_code', '=', sealCode)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, der: bytes(r.der) }));
}

export async function updateCertificateStatus(
  db: Db,
  serial: string,
  change: { status: CertificateStatus; revokedAt: Date | null; reason: string | null },
  onlyFrom: CertificateStatus[],
): Promise<boolean> {
  const res = await db
    .updateTable('certificates')
    .set({ status: change.status, revoked_at: change.revokedAt, revocation_reason: change.reason })
    .where('serial', '=', serial)
    .where('status', 'in', onlyFrom)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** What a CRL of `issuer` lists: every certificate on hold or revoked. */
export async function listNotGood(db: Db, issuer: 'root' | 'issuing') {
  return db
    .selectFrom('certificates')
    .select(['serial', 'status', 'revoked_at', 'revocation_reason'])
    .where('issuer', '=', issuer)
    .where('status', '<>', 'good')
    .orderBy('serial')
    .execute();
}
