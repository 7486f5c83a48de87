import type { Db, TrustAnchorStatus, TrustAnchorsTable } from '@openseal/db';
import type { Insertable, Selectable } from 'kysely';

export type TrustAnchorRow = Selectable<TrustAnchorsTable>;

const bytes = (b: Uint8Array) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
const withBytes = (r: TrustAnchorRow): TrustAnchorRow => ({ ...r, der: bytes(r.der) });

/** The certificates the verifier trusts now: every enabled anchor's DER. */
export async function listEnabledAnchorDers(db: Db): Promise<Uint8Array[]> {
  const rows = await db.selectFrom('trust_anchors').select('der').where('status', '=', 'enabled').execute();
  return rows.map((r) => bytes(r.der));
}

export async function listTrustAnchors(
  db: Db,
  statuses: readonly TrustAnchorStatus[],
): Promise<TrustAnchorRow[]> {
  const rows = await db
    .selectFrom('trust_anchors')
    .selectAll()
    .where('status', 'in', statuses)
    .orderBy('added_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(withBytes);
}

export async function countCurrentAnchors(db: Db): Promise<number> {
  const row = await db
    .selectFrom('trust_anchors')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '<>', 'removed')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findCurrentByFingerprint(
  db: Db,
  fingerprint: string,
): Promise<TrustAnchorRow | undefined> {
  const row = await db
    .selectFrom('trust_anchors')
    .selectAll()
    .where('fingerprint_sha256', '=', fingerprint)
    .where('status', '<>', 'removed')
    .executeTakeFirst();
  return row && withBytes(row);
}

/** Locks the row for the change that follows in the same transaction. */
export async function findTrustAnchorForUpdate(db: Db, id: string): Promise<TrustAnchorRow | undefined> {
  const row = await db
    .selectFrom('trust_anchors')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row && withBytes(row);
}

export async function insertTrustAnchor(db: Db, row: Insertable<TrustAnchorsTable>): Promise<TrustAnchorRow> {
  const inserted = await db.insertInto('trust_anchors').values(row).returningAll().executeTakeFirstOrThrow();
  return withBytes(inserted);
}

/** Moves an anchor from one status to another; answers the row, or undefined when it was not in `from`. */
export async function updateTrustAnchorStatus(
  db: Db,
  id: string,
  from: readonly TrustAnchorStatus[],
  to: TrustAnchorStatus,
  by: string,
): Promise<TrustAnchorRow | undefined> {
  const row = await db
    .updateTable('trust_anchors')
    .set({ status: to, changed_by: by, changed_at: new Date() })
    .where('id', '=', id)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst();
  return row && withBytes(row);
}
