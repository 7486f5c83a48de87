import type {
  Db,
  UkeyApplicationEventsTable,
  UkeyApplicationsTable,
  UkeyApplyStatus,
  UkeyBindingKind,
  UkeyBindingsTable,
  UkeyBindingStatus,
  UkeyChallengesTable,
} from '@openseal/db';
import type { Insertable, Selectable } from 'kysely';

export type BindingRow = Selectable<UkeyBindingsTable>;
export type ApplicationRow = Selectable<UkeyApplicationsTable>;
export type ApplicationEventRow = Selectable<UkeyApplicationEventsTable>;

const bytes = (b: Uint8Array) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
const binding = (r: BindingRow): BindingRow => ({ ...r, certificate: bytes(r.certificate) });
const application = (r: ApplicationRow): ApplicationRow => ({
  ...r,
  public_key: r.public_key && bytes(r.public_key),
});

// --- challenges ---

export async function insertChallenge(db: Db, row: Insertable<UkeyChallengesTable>): Promise<void> {
  await db.insertInto('ukey_challenges').values(row).execute();
}

/** Marks a challenge used and answers its text, only if it is this caller's, for this key, unused and live. */
export async function takeChallenge(
  db: Db,
  q: { id: string; organizationId: string; personId: string; ukeySn: string; now: Date },
): Promise<string | undefined> {
  const row = await db
    .updateTable('ukey_challenges')
    .set({ used_at: q.now })
    .where('id', '=', q.id)
    .where('organization_id', '=', q.organizationId)
    .where('person_id', '=', q.personId)
    .where('ukey_sn', '=', q.ukeySn)
    .where('used_at', 'is', null)
    .where('expires_at', '>', q.now)
    .returning('challenge')
    .executeTakeFirst();
  return row?.challenge;
}

export async function deleteExpiredChallenges(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('ukey_challenges').where('expires_at', '<', before).execute();
}

// --- bindings ---

/** The live binding of a key serial, in any organisation (a key is bound once platform-wide). */
export async function findLiveBinding(db: Db, ukeySn: string): Promise<BindingRow | undefined> {
  const r = await db
    .selectFrom('ukey_bindings')
    .selectAll()
    .where('ukey_sn', '=', ukeySn)
    .where('status', '=', 'bound')
    .executeTakeFirst();
  return r && binding(r);
}

/** The live binding of a key in one organisation, locked for the caller's transaction. */
export async function findLiveBindingInOrg(
  db: Db,
  organizationId: string,
  ukeySn: string,
): Promise<BindingRow | undefined> {
  const r = await db
    .selectFrom('ukey_bindings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('ukey_sn', '=', ukeySn)
    .where('status', '=', 'bound')
    .forUpdate()
    .executeTakeFirst();
  return r && binding(r);
}

export async function insertBinding(db: Db, row: Insertable<UkeyBindingsTable>): Promise<void> {
  await db.insertInto('ukey_bindings').values(row).execute();
}

export async function endBinding(
  db: Db,
  id: string,
  status: Exclude<UkeyBindingStatus, 'bound'>,
  personId: string,
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('ukey_bindings')
    .set({ status, unbound_by_person_id: personId, unbound_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'bound')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function updateBinding(
  db: Db,
  id: string,
  set: { name?: string; cert_serial?: string; certificate?: Uint8Array; apply_no?: string | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('ukey_bindings')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function replaceBindingSeals(db: Db, bindingId: string, sealCodes: string[]): Promise<void> {
  await db.deleteFrom('ukey_binding_seals').where('binding_id', '=', bindingId).execute();
  if (sealCodes.length)
    await db
      .insertInto('ukey_binding_seals')
      .values(sealCodes.map((seal_code, position) => ({ binding_id: bindingId, seal_code, position })))
      .execute();
}

export async function sealsOfBindings(db: Db, bindingIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(bindingIds.map((id) => [id, []]));
  if (bindingIds.length === 0) return out;
  const rows = await db
    .selectFrom('ukey_binding_seals')
    .select(['binding_id', 'seal_code'])
    .where('binding_id', 'in', bindingIds)
    .orderBy('binding_id')
    .orderBy('position')
    .execute();
  for (const r of rows) out.get(r.binding_id)?.push(r.seal_code);
  return out;
}

export async function listLiveBindings(
  db: Db,
  q: { organizationId: string; kind?: UkeyBindingKind; keyword?: string; limit: number; offset: number },
): Promise<{ total: number; rows: BindingRow[] }> {
  let base = db
    .selectFrom('ukey_bindings')
    .where('organization_id', '=', q.organizationId)
    .where('status', '=', 'bound');
  if (q.kind) base = base.where('kind', '=', q.kind);
  if (q.keyword) {
    const like = `%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) => eb.or([eb('name', 'like', like), eb('ukey_sn', 'like', like)]));
  }
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('bound_at', 'desc')
    .orderBy('id')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  return { total: Number(total), rows: rows.map(binding) };
}

// --- applications ---

export async function insertApplication(db: Db, row: Insertable<UkeyApplicationsTable>): Promise<void> {
  await db.insertInto('ukey_applications').values(row).execute();
}

export async function findApplication(
  db: Db,
  organizationId: string,
  applyNo: string,
  lock = false,
): Promise<ApplicationRow | undefined> {
  let q = db
    .selectFrom('ukey_applications')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('apply_no', '=', applyNo);
  if (lock) q = q.forUpdate();
  const r = await q.executeTakeFirst();
  return r && application(r);
}

/** Moves an application from `from` to `to` (a compare-and-set), with the columns that change alongside. */
export async function moveApplication(
  db: Db,
  applyNo: string,
  from: UkeyApplyStatus,
  to: UkeyApplyStatus,
  set: Partial<
    Pick<ApplicationRow, 'ukey_sn' | 'public_key' | 'cert_serial' | 'failure_reason' | 'completed_at'>
  >,
  now: Date,
): Promise<boolean> {
  const r = await db
    .updateTable('ukey_applications')
    .set({ ...set, status: to, updated_at: now })
    .where('apply_no', '=', applyNo)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function listApplications(
  db: Db,
  q: {
    organizationId: string;
    status?: UkeyApplyStatus;
    ukeyType?: ApplicationRow['ukey_type'];
    limit: number;
    offset: number;
  },
): Promise<{ total: number; rows: ApplicationRow[] }> {
  let base = db.selectFrom('ukey_applications').where('organization_id', '=', q.organizationId);
  if (q.status) base = base.where('status', '=', q.status);
  if (q.ukeyType) base = base.where('ukey_type', '=', q.ukeyType);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('apply_no')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  return { total: Number(total), rows: rows.map(application) };
}

export async function insertEvent(db: Db, row: Insertable<UkeyApplicationEventsTable>): Promise<void> {
  await db.insertInto('ukey_application_events').values(row).execute();
}

export async function listEvents(db: Db, applyNo: string): Promise<ApplicationEventRow[]> {
  return db
    .selectFrom('ukey_application_events')
    .selectAll()
    .where('apply_no', '=', applyNo)
    .orderBy('id')
    .execute();
}

// --- binding conflicts (checked before a certificate is issued for a UKey) ---

/** Live keys of an organisation that carry any of these seals. */
export async function liveKeysCarrying(
  db: Db,
  organizationId: string,
  sealCodes: readonly string[],
): Promise<{ seal_code: string; ukey_sn: string; binding_id: string }[]> {
  if (sealCodes.length === 0) return [];
  return db
    .selectFrom('ukey_binding_seals as s')
    .innerJoin('ukey_bindings as b', 'b.id', 's.binding_id')
    .select(['s.seal_code', 'b.ukey_sn', 'b.id as binding_id'])
    .where('b.organization_id', '=', organizationId)
    .where('b.status', '=', 'bound')
    .where('s.seal_code', 'in', [...sealCodes])
    .execute();
}

/**
 * Other applications whose import is under way or done for this key (its serial) or this key pair (its
 * public key), any organisation: a key pair lives on one token, and a token is made for one application
 * at a time.
 */
export async function otherImports(
  db: Db,
  applyNo: string,
  key: { ukeySn: string; publicKey: Uint8Array },
): Promise<ApplicationRow[]> {
  const rows = await db
    .selectFrom('ukey_applications')
    .selectAll()
    .where('apply_no', '!=', applyNo)
    .where('status', 'in', ['importing', 'success'])
    .where((eb) => eb.or([eb('ukey_sn', '=', key.ukeySn), eb('public_key', '=', key.publicKey)]))
    .limit(50)
    .execute();
  return rows.map(application);
}

/** The organisation's other applications whose key is being made now (their seals are spoken for). */
export async function otherImportsInOrg(
  db: Db,
  organizationId: string,
  applyNo: string,
): Promise<ApplicationRow[]> {
  const rows = await db
    .selectFrom('ukey_applications')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('apply_no', '!=', applyNo)
    .where('status', '=', 'importing')
    .limit(100)
    .execute();
  return rows.map(application);
}
