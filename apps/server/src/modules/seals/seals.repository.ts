import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type {
  Db,
  SealAuthorizationsTable,
  SealChangesTable,
  SealRowStatus,
  SealsTable,
  SealWorkOrdersTable,
  SealWorkOrderStatus,
} from '@openseal/db';

/** Whose objects a caller sees: an organisation's, or a person's own personal ones. */
export type Scope =
  { organizationId: string; personId?: undefined } | { organizationId?: undefined; personId: string };

export type WorkOrderRow = Selectable<SealWorkOrdersTable>;
export type SealRow = Selectable<SealsTable>;
export type ChangeRow = Selectable<SealChangesTable>;
export type AuthRow = Selectable<SealAuthorizationsTable>;

interface Page {
  pageNum: number;
  pageSize: number;
}

// --- work orders ---

export async function insertWorkOrder(db: Db, row: Insertable<SealWorkOrdersTable>): Promise<void> {
  await db.insertInto('seal_work_orders').values(row).execute();
}

/** A work order with the names and the making job a page shows. */
function workOrderSelect(db: Db) {
  return db
    .selectFrom('seal_work_orders as w')
    .leftJoin('organizations as o', 'o.id', 'w.organization_id')
    .leftJoin('persons as p', 'p.id', 'w.person_id')
    .leftJoin('jobs as j', 'j.id', 'w.make_job_id')
    .selectAll('w')
    .select([
      'o.name as org_name',
      'p.name as applicant_name',
      'p.mobile as applicant_mobile',
      'j.status as job_status',
      'j.progress as job_progress',
      'j.note as job_note',
      'j.attempts as job_attempts',
      'j.last_error as job_error',
    ]);
}
export type WorkOrderView = NonNullable<Awaited<ReturnType<typeof findWorkOrder>>>;

export async function findWorkOrder(db: Db, applyNo: string) {
  return workOrderSelect(db).where('w.apply_no', '=', applyNo).executeTakeFirst();
}

export async function findWorkOrders(db: Db, applyNos: readonly string[]) {
  if (applyNos.length === 0) return [];
  return workOrderSelect(db)
    .where('w.apply_no', 'in', [...applyNos])
    .orderBy('w.created_at')
    .execute();
}

export async function lockWorkOrder(db: Db, applyNo: string): Promise<WorkOrderRow | undefined> {
  return db
    .selectFrom('seal_work_orders')
    .selectAll()
    .where('apply_no', '=', applyNo)
    .forUpdate()
    .executeTakeFirst();
}

/** Moves a work order only if it is still in `from`; false when someone moved it meanwhile. */
export async function moveWorkOrder(
  db: Db,
  applyNo: string,
  from: SealWorkOrderStatus,
  to: SealWorkOrderStatus,
  patch: Updateable<SealWorkOrdersTable> = {},
): Promise<boolean> {
  const r = await db
    .updateTable('seal_work_orders')
    .set({ ...patch, status: to, updated_at: new Date() })
    .where('apply_no', '=', applyNo)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function updateWorkOrder(
  db: Db,
  applyNo: string,
  patch: Updateable<SealWorkOrdersTable>,
): Promise<void> {
  await db
    .updateTable('seal_work_orders')
    .set({ ...patch, updated_at: new Date() })
    .where('apply_no', '=', applyNo)
    .execute();
}

export async function listWorkOrders(
  db: Db,
  q: Page & {
    scope?: Scope;
    statuses?: readonly SealWorkOrderStatus[];
    carrier?: string | undefined;
    sealKind?: string | undefined;
    oldestFirst?: boolean;
  },
) {
  let base = db.selectFrom('seal_work_orders as w');
  if (q.scope?.organizationId) base = base.where('w.organization_id', '=', q.scope.organizationId);
  if (q.scope?.personId)
    base = base.where('w.subject', '=', 'person').where('w.person_id', '=', q.scope.personId);
  if (q.statuses) base = base.where('w.status', 'in', [...q.statuses]);
  if (q.carrier) base = base.where('w.carrier', '=', q.carrier as 'cloud');
  if (q.sealKind) base = base.where('w.seal_kind', '=', q.sealKind);
  const [keys, total] = await Promise.all([
    base
      .select('w.apply_no')
      .orderBy('w.created_at', q.oldestFirst ? 'asc' : 'desc')
      .orderBy('w.apply_no')
      .limit(q.pageSize)
      .offset((q.pageNum - 1) * q.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const rows = await findWorkOrders(
    db,
    keys.map((k) => k.apply_no),
  );
  const order = new Map(keys.map((k, i) => [k.apply_no, i]));
  rows.sort((a, b) => order.get(a.apply_no)! - order.get(b.apply_no)!);
  return { rows, total: Number(total.n) };
}

/** Applications of one kind that are still open (not made, rejected or withdrawn). */
export async function openWorkOrdersOfKind(db: Db, scope: Scope, sealKind: string): Promise<string[]> {
  let q = db
    .selectFrom('seal_work_orders')
    .select('apply_no')
    .where('seal_kind', '=', sealKind)
    .where('status', 'in', ['preCreated', 'pendingReview', 'pendingProduction']);
  q = scope.organizationId
    ? q.where('organization_id', '=', scope.organizationId)
    : q.where('subject', '=', 'person').where('person_id', '=', scope.personId!);
  return (await q.execute()).map((r) => r.apply_no);
}

// --- seals ---

export async function insertSeal(db: Db, row: Insertable<SealsTable>): Promise<void> {
  await db.insertInto('seals').values(row).execute();
}

function sealSelect(db: Db) {
  return db
    .selectFrom('seals as s')
    .leftJoin('organizations as o', 'o.id', 's.organization_id')
    .leftJoin('persons as p', 'p.id', 's.person_id')
    .leftJoin('certificates as c', 'c.serial', 's.cert_serial')
    .selectAll('s')
    .select([
      'o.name as org_name',
      'o.uscc as org_uscc',
      'p.name as person_name',
      'c.status as cert_status',
      'c.common_name as cert_common_name',
      'c.subject_spec as cert_subject_spec',
      'c.not_after as cert_not_after',
    ]);
}
export type SealView = NonNullable<Awaited<ReturnType<typeof findSeal>>>;

export async function findSeal(db: Db, sealCode: string) {
  return sealSelect(db).where('s.seal_code', '=', sealCode).executeTakeFirst();
}

export async function lockSeals(db: Db, sealCodes: readonly string[]): Promise<SealRow[]> {
  if (sealCodes.length === 0) return [];
  return db
    .selectFrom('seals')
    .selectAll()
    .where('seal_code', 'in', [...sealCodes])
    .orderBy('seal_code')
    .forUpdate()
    .execute();
}

export async function moveSeal(
  db: Db,
  sealCode: string,
  from: SealRowStatus,
  to: SealRowStatus,
  patch: Updateable<SealsTable> = {},
): Promise<boolean> {
  const r = await db
    .updateTable('seals')
    .set({ ...patch, status: to, updated_at: new Date() })
    .where('seal_code', '=', sealCode)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** A new certificate for a seal whose status does not change (a renamed seal's certificate). */
export async function setSealCertificate(
  db: Db,
  sealCode: string,
  fromSerial: string,
  cert: { serial: string; validFrom: Date; validTo: Date },
): Promise<boolean> {
  const r = await db
    .updateTable('seals')
    .set({
      cert_serial: cert.serial,
      valid_from: cert.validFrom,
      valid_to: cert.validTo,
      updated_at: new Date(),
    })
    .where('seal_code', '=', sealCode)
    .where('cert_serial', '=', fromSerial)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function listSeals(
  db: Db,
  q: Page & {
    scope: Scope;
    /** Stored statuses to match (expired is matched by validity, see `expired`). */
    statuses?: readonly SealRowStatus[] | undefined;
    expired?: boolean | undefined;
    sealKind?: string | undefined;
    /** Any of these kinds (getCustomSealListV2: the custom kinds). */
    sealKinds?: readonly string[] | undefined;
    carrier?: string | undefined;
    keyword?: string | undefined;
    /** In the name of the person who applied for (or holds) the seal. */
    holder?: string | undefined;
    now: Date;
  },
) {
  let base = sealSelect(db);
  base = q.scope.organizationId
    ? base.where('s.organization_id', '=', q.scope.organizationId)
    : base.where('s.subject', '=', 'person').where('s.person_id', '=', q.scope.personId!);
  if (q.expired === true) base = base.where('s.status', '=', 'normal').where('s.valid_to', '<=', q.now);
  if (q.statuses) {
    const statuses = [...q.statuses];
    base = base.where((w) =>
      w.and([
        w('s.status', 'in', statuses),
        // A normal seal past its validity reads as expired, not normal.
        ...(statuses.includes('normal')
          ? [w.or([w('s.status', '!=', 'normal'), w('s.valid_to', 'is', null), w('s.valid_to', '>', q.now)])]
          : []),
      ]),
    );
  }
  if (q.sealKind) base = base.where('s.seal_kind', '=', q.sealKind);
  if (q.carrier) base = base.where('s.carrier', '=', q.carrier as 'cloud');
  if (q.keyword) base = base.where('s.name', 'like', `%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  if (q.sealKinds) base = base.where('s.seal_kind', 'in', [...q.sealKinds]);
  if (q.holder) base = base.where('p.name', 'like', `%${likeEscape(q.holder)}%`);
  const [rows, total] = await Promise.all([
    base
      .orderBy('s.created_at', 'desc')
      .orderBy('s.seal_code')
      .limit(q.pageSize)
      .offset((q.pageNum - 1) * q.pageSize)
      .execute(),
    base
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function sealsOfKind(db: Db, scope: Scope, sealKind: string) {
  let q = db
    .selectFrom('seals')
    .select(['seal_code', 'name', 'status', 'valid_to'])
    .where('seal_kind', '=', sealKind);
  q = scope.organizationId
    ? q.where('organization_id', '=', scope.organizationId)
    : q.where('subject', '=', 'person').where('person_id', '=', scope.personId!);
  return q.orderBy('created_at').execute();
}

/** Seals with a certificate whose expiry tip may be due: not cancelled, not being made. */
export async function sealsForRemind(db: Db, scope: Scope) {
  let q = db
    .selectFrom('seals as s')
    .innerJoin('certificates as c', 'c.serial', 's.cert_serial')
    .select([
      's.seal_code',
      's.name',
      's.carrier',
      's.status',
      'c.serial',
      'c.status as cert_status',
      'c.not_after',
    ])
    .where('s.status', 'in', ['normal', 'renewing', 'changeInApproval']);
  q = scope.organizationId
    ? q.where('s.organization_id', '=', scope.organizationId)
    : q.where('s.subject', '=', 'person').where('s.person_id', '=', scope.personId!);
  return q.orderBy('c.not_after').orderBy('s.seal_code').execute();
}

export async function personalNameSeals(db: Db, personId: string) {
  return db
    .selectFrom('seals as s')
    .innerJoin('persons as p', 'p.id', 's.person_id')
    .select(['s.seal_code', 's.name', 's.name_text', 'p.name as person_name'])
    .where('s.subject', '=', 'person')
    .where('s.person_id', '=', personId)
    .where('s.seal_kind', '=', 'personalName')
    .where('s.status', 'in', ['normal', 'disabled', 'frozen'])
    .execute();
}

// --- claim links ---

export async function insertClaimFlow(
  db: Db,
  row: { id: string; organizationId: string; applyNos: string[]; createdBy: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('seal_claim_flows')
    .values({
      id: row.id,
      organization_id: row.organizationId,
      apply_nos: row.applyNos,
      created_by_person_id: row.createdBy,
      expires_at: row.expiresAt,
    })
    .execute();
}

export async function findClaimFlow(db: Db, id: string) {
  return db
    .selectFrom('seal_claim_flows as f')
    .innerJoin('organizations as o', 'o.id', 'f.organization_id')
    .selectAll('f')
    .select('o.name as org_name')
    .where('f.id', '=', id)
    .executeTakeFirst();
}

export async function markClaimFlowUsed(db: Db, id: string): Promise<void> {
  await db
    .updateTable('seal_claim_flows')
    .set({ used_at: new Date() })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .execute();
}

// --- people ---

export async function personName(db: Db, personId: string): Promise<string | null> {
  return (
    (await db.selectFrom('persons').select('name').where('id', '=', personId).executeTakeFirst())?.name ??
    null
  );
}

/** The legal representative of an organisation, for the claim page (one active holder of the role). */
export async function legalRepresentative(db: Db, organizationId: string) {
  return db
    .selectFrom('members as m')
    .innerJoin('persons as p', 'p.id', 'm.person_id')
    .select(['m.id as member_id', 'p.id as person_id', 'p.name'])
    .where('m.organization_id', '=', organizationId)
    .where('m.status', '=', 'active')
    .where(sql<boolean>`'legalPerson' = any(m.roles)`)
    .executeTakeFirst();
}

export async function activeMembers(db: Db, organizationId: string, memberIds: readonly string[]) {
  if (memberIds.length === 0) return [];
  return db
    .selectFrom('members as m')
    .innerJoin('persons as p', 'p.id', 'm.person_id')
    .leftJoin('member_profiles as mp', 'mp.member_id', 'm.id')
    .select(['m.id', 'm.person_id', 'p.name', 'mp.nickname'])
    .where('m.organization_id', '=', organizationId)
    .where('m.status', '=', 'active')
    .where('m.id', 'in', [...memberIds])
    .execute();
}

// --- changes ---

export async function insertChange(db: Db, row: Insertable<SealChangesTable>): Promise<void> {
  await db.insertInto('seal_changes').values(row).execute();
}

function changeSelect(db: Db) {
  return db
    .selectFrom('seal_changes as ch')
    .leftJoin('persons as p', 'p.id', 'ch.person_id')
    .leftJoin('organizations as o', 'o.id', 'ch.organization_id')
    .selectAll('ch')
    .select(['p.name as applicant_name', 'o.name as org_name']);
}
export type ChangeView = NonNullable<Awaited<ReturnType<typeof findChange>>>;

export async function findChange(db: Db, changeNo: string) {
  return changeSelect(db).where('ch.change_no', '=', changeNo).executeTakeFirst();
}

export async function lockChange(db: Db, changeNo: string): Promise<ChangeRow | undefined> {
  return db
    .selectFrom('seal_changes')
    .selectAll()
    .where('change_no', '=', changeNo)
    .forUpdate()
    .executeTakeFirst();
}

export async function moveChange(
  db: Db,
  changeNo: string,
  from: ChangeRow['status'],
  to: ChangeRow['status'],
  patch: Updateable<SealChangesTable> = {},
): Promise<boolean> {
  const r = await db
    .updateTable('seal_changes')
    .set({ ...patch, status: to, updated_at: new Date() })
    .where('change_no', '=', changeNo)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function pendingChangeOf(db: Db, sealCode: string): Promise<string | null> {
  const row = await db
    .selectFrom('seal_changes')
    .select('change_no')
    .where('seal_code', '=', sealCode)
    .where('status', '=', 'pendingReview')
    .executeTakeFirst();
  return row?.change_no ?? null;
}

export async function listChanges(
  db: Db,
  q: Page & {
    scope?: Scope;
    statuses?: readonly ChangeRow['status'][];
    sealCode?: string | undefined;
    oldestFirst?: boolean;
  },
) {
  let base = changeSelect(db);
  if (q.scope?.organizationId) base = base.where('ch.organization_id', '=', q.scope.organizationId);
  if (q.scope?.personId)
    base = base.where('ch.organization_id', 'is', null).where('ch.person_id', '=', q.scope.personId);
  if (q.statuses) base = base.where('ch.status', 'in', [...q.statuses]);
  if (q.sealCode) base = base.where('ch.seal_code', '=', q.sealCode);
  const [rows, total] = await Promise.all([
    base
      .orderBy('ch.created_at', q.oldestFirst ? 'asc' : 'desc')
      .orderBy('ch.change_no')
      .limit(q.pageSize)
      .offset((q.pageNum - 1) * q.pageSize)
      .execute(),
    base
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

// --- authorisations ---

export async function insertAuth(db: Db, row: Insertable<SealAuthorizationsTable>): Promise<void> {
  await db.insertInto('seal_authorizations').values(row).execute();
}

function authSelect(db: Db) {
  return db
    .selectFrom('seal_authorizations as a')
    .innerJoin('seals as s', 's.seal_code', 'a.seal_code')
    .leftJoin('persons as g', 'g.id', 'a.granted_by_person_id')
    .leftJoin('members as m', (j) => j.onRef('m.id', '=', 'a.grantee_id').on('a.grantee_type', '=', 'member'))
    .leftJoin('persons as mp', 'mp.id', 'm.person_id')
    .selectAll('a')
    .select(['s.name as seal_name', 'g.name as grantor_name', 'mp.name as grantee_name']);
}
export type AuthView = NonNullable<Awaited<ReturnType<typeof findAuth>>>;

export async function findAuth(db: Db, authCode: string) {
  return authSelect(db).where('a.auth_code', '=', authCode).executeTakeFirst();
}

export async function lockAuth(db: Db, authCode: string): Promise<AuthRow | undefined> {
  return db
    .selectFrom('seal_authorizations')
    .selectAll()
    .where('auth_code', '=', authCode)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateAuth(
  db: Db,
  authCode: string,
  patch: Updateable<SealAuthorizationsTable>,
  fromStatus: AuthRow['status'],
): Promise<boolean> {
  const r = await db
    .updateTable('seal_authorizations')
    .set({ ...patch, updated_at: new Date() })
    .where('auth_code', '=', authCode)
    .where('status', '=', fromStatus)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function listAuths(
  db: Db,
  q: Page & {
    organizationId: string;
    /** Only the grants to this member (callers who may not manage authorisations see their own). */
    memberId?: string | undefined;
    sealCode?: string | undefined;
    status?: AuthRow['status'] | undefined;
    granteeType?: AuthRow['grantee_type'] | undefined;
  },
) {
  let base = authSelect(db).where('a.organization_id', '=', q.organizationId);
  if (q.memberId) base = base.where('a.grantee_type', '=', 'member').where('a.grantee_id', '=', q.memberId);
  if (q.sealCode) base = base.where('a.seal_code', '=', q.sealCode);
  if (q.status) base = base.where('a.status', '=', q.status);
  if (q.granteeType) base = base.where('a.grantee_type', '=', q.granteeType);
  const [rows, total] = await Promise.all([
    base
      .orderBy('a.created_at', 'desc')
      .orderBy('a.auth_code')
      .limit(q.pageSize)
      .offset((q.pageNum - 1) * q.pageSize)
      .execute(),
    base
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** The grants of a seal to one grantee, newest first, locked for a use. */
export async function lockGrants(
  db: Db,
  q: { sealCode: string; granteeType: AuthRow['grantee_type']; granteeId: string },
): Promise<AuthRow[]> {
  return db
    .selectFrom('seal_authorizations')
    .selectAll()
    .where('seal_code', '=', q.sealCode)
    .where('grantee_type', '=', q.granteeType)
    .where('grantee_id', '=', q.granteeId)
    .orderBy('created_at', 'desc')
    .forUpdate()
    .execute();
}

export async function insertAuthUse(
  db: Db,
  row: { authCode: string; appId: string | null; reference: string | null },
): Promise<void> {
  await db
    .insertInto('seal_auth_uses')
    .values({ auth_code: row.authCode, app_id: row.appId, reference: row.reference, used_at: new Date() })
    .execute();
}

export async function countAuthUses(db: Db, authCode: string): Promise<number> {
  const row = await db
    .selectFrom('seal_auth_uses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('auth_code', '=', authCode)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// --- renewals ---

export async function insertRenewal(
  db: Db,
  row: { renewNo: string; sealCode: string; oldSerial: string; requestedBy: string },
): Promise<void> {
  await db
    .insertInto('seal_renewals')
    .values({
      renew_no: row.renewNo,
      seal_code: row.sealCode,
      old_serial: row.oldSerial,
      status: 'inProgress',
      requested_by_person_id: row.requestedBy,
    })
    .execute();
}

export async function lockRenewal(db: Db, renewNo: string) {
  return db
    .selectFrom('seal_renewals')
    .selectAll()
    .where('renew_no', '=', renewNo)
    .forUpdate()
    .executeTakeFirst();
}

export async function findRenewal(db: Db, renewNo: string) {
  return db.selectFrom('seal_renewals').selectAll().where('renew_no', '=', renewNo).executeTakeFirst();
}

export async function finishRenewal(
  db: Db,
  renewNo: string,
  to: 'success' | 'failed',
  patch: { newSerial?: string; error?: string },
): Promise<boolean> {
  const r = await db
    .updateTable('seal_renewals')
    .set({
      status: to,
      new_serial: patch.newSerial ?? null,
      error: patch.error ?? null,
      completed_at: new Date(),
    })
    .where('renew_no', '=', renewNo)
    .where('status', '=', 'inProgress')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function listRenewals(db: Db, sealCode: string) {
  return db
    .selectFrom('seal_renewals')
    .selectAll()
    .where('seal_code', '=', sealCode)
    .orderBy('created_at', 'desc')
    .limit(20)
    .execute();
}

// --- expiry tip closures ---

export async function closeRemind(
  db: Db,
  personId: string,
  certSerial: string,
  remindType: string,
): Promise<void> {
  await db
    .insertInto('seal_remind_closures')
    .values({ person_id: personId, cert_serial: certSerial, remind_type: remindType, closed_at: new Date() })
    .onConflict((oc) => oc.columns(['person_id', 'cert_serial', 'remind_type']).doNothing())
    .execute();
}

export async function closedReminds(db: Db, personId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('seal_remind_closures')
    .select(['cert_serial', 'remind_type'])
    .where('person_id', '=', personId)
    .execute();
  return new Set(rows.map((r) => `${r.cert_serial}:${r.remind_type}`));
}

/**
 * The seals whose pictures a stored file is: a seal's image, the before or after image of one of its
 * changes, or the hand-drawn picture its application was made from (download access goes by the seal).
 */
export async function sealCodesOfFile(db: Db, fileKey: string): Promise<string[]> {
  const [images, changes, orders] = await Promise.all([
    db.selectFrom('seals').select('seal_code').where('image_file_key', '=', fileKey).limit(20).execute(),
    db
      .selectFrom('seal_changes')
      .select('seal_code')
      .where((eb) => eb.or([eb('old_image_file_key', '=', fileKey), eb('new_image_file_key', '=', fileKey)]))
      .limit(20)
      .execute(),
    db
      .selectFrom('seal_work_orders')
      .select('seal_code')
      .where('hand_drawn_file_key', '=', fileKey)
      .where('seal_code', 'is not', null)
      .limit(20)
      .execute(),
  ]);
  const codes = [...images, ...changes, ...orders].map((r) => r.seal_code).filter((c) => c !== null);
  return [...new Set(codes)];
}

/** A LIKE pattern's own characters, escaped (backslash, the default escape of PostgreSQL). */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

// --- what a space holds and may use ---

/** Every seal of a space, with what counting it needs: kind, status, validity, certificate status. */
export async function sealTally(db: Db, scope: Scope) {
  let q = db
    .selectFrom('seals as s')
    .leftJoin('certificates as c', 'c.serial', 's.cert_serial')
    .select(['s.seal_kind', 's.status', 's.valid_to', 'c.status as cert_status']);
  q = scope.organizationId
    ? q.where('s.organization_id', '=', scope.organizationId)
    : q.where('s.subject', '=', 'person').where('s.person_id', '=', scope.personId!);
  return q.execute();
}

/** The kinds of a space's open applications (not made, rejected or withdrawn), one row per application. */
export async function openWorkOrderKinds(db: Db, scope: Scope): Promise<string[]> {
  let q = db
    .selectFrom('seal_work_orders')
    .select('seal_kind')
    .where('status', 'in', ['preCreated', 'pendingReview', 'pendingProduction']);
  q = scope.organizationId
    ? q.where('organization_id', '=', scope.organizationId)
    : q.where('subject', '=', 'person').where('person_id', '=', scope.personId!);
  return (await q.execute()).map((r) => r.seal_kind);
}

/**
 * A space's seals that may sign now as far as the seal goes: normal, inside their validity, with a
 * certificate and a picture (the certificate's own status is checked by the caller, from cert_status).
 */
export async function signingSeals(
  db: Db,
  q: {
    scope: Scope;
    now: Date;
    sealCodes?: readonly string[] | undefined;
    sealKind?: string | undefined;
    carrier?: string | undefined;
  },
) {
  if (q.sealCodes && q.sealCodes.length === 0) return [];
  let base = sealSelect(db)
    .where('s.status', '=', 'normal')
    .where('s.cert_serial', 'is not', null)
    .where('s.image_file_key', 'is not', null)
    .where((w) => w.or([w('s.valid_to', 'is', null), w('s.valid_to', '>', q.now)]));
  base = q.scope.organizationId
    ? base.where('s.organization_id', '=', q.scope.organizationId)
    : base.where('s.subject', '=', 'person').where('s.person_id', '=', q.scope.personId!);
  if (q.sealCodes) base = base.where('s.seal_code', 'in', [...q.sealCodes]);
  if (q.sealKind) base = base.where('s.seal_kind', '=', q.sealKind);
  if (q.carrier) base = base.where('s.carrier', '=', q.carrier as 'cloud');
  return base.orderBy('s.created_at').orderBy('s.seal_code').limit(500).execute();
}

/** The grants in effect to one member of an organisation (whether each is usable now is the caller's). */
export async function grantsToMember(db: Db, organizationId: string, memberId: string): Promise<AuthRow[]> {
  return db
    .selectFrom('seal_authorizations')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('grantee_type', '=', 'member')
    .where('grantee_id', '=', memberId)
    .where('status', '=', 'inEffect')
    .orderBy('created_at')
    .execute();
}

/** A space's normal seals drawn from a template (not hand-drawn): what a refreshed impression may change. */
export async function redrawableSeals(db: Db, scope: Scope) {
  let q = sealSelect(db)
    .where('s.status', '=', 'normal')
    .where('s.template', 'is not', null)
    .where('s.seal_kind', '!=', 'personalHandDrawn');
  q = scope.organizationId
    ? q.where('s.organization_id', '=', scope.organizationId)
    : q.where('s.subject', '=', 'person').where('s.person_id', '=', scope.personId!);
  return q.orderBy('s.created_at').orderBy('s.seal_code').limit(200).execute();
}

// --- hand-drawn pictures not (or no longer) used ---

/**
 * Deletes the owner's seal pictures (purpose sealImage, uploaded in this space) that nothing refers to:
 * no seal shows it, no change keeps it as its before or after image, no application was made from it, no
 * configuration value names it. Answers the keys deleted. The check and the delete are one statement, so
 * a picture a seal or application took meanwhile stays. The blob itself is content-addressed and may be
 * shared with other files: only the owner's handle on it goes.
 */
export async function discardUnusedPictures(
  db: Db,
  owner: { personId: string; organizationId: string | null },
  onlyKey?: string,
): Promise<string[]> {
  let q = db
    .deleteFrom('file_objects')
    .where('file_objects.owner_person_id', '=', owner.personId)
    .where('file_objects.purpose', '=', 'sealImage');
  q = owner.organizationId
    ? q.where('file_objects.owner_org_id', '=', owner.organizationId)
    : q.where('file_objects.owner_org_id', 'is', null);
  if (onlyKey) q = q.where('file_objects.key', '=', onlyKey);
  const rows = await q
    .where((eb) =>
      eb.and([
        eb.not(
          eb.exists(
            eb
              .selectFrom('seals')
              .select('seals.seal_code')
              .whereRef('seals.image_file_key', '=', 'file_objects.key'),
          ),
        ),
        eb.not(
          eb.exists(
            eb
              .selectFrom('seal_changes')
              .select('seal_changes.change_no')
              .where((w) =>
                w.or([
                  w('seal_changes.old_image_file_key', '=', w.ref('file_objects.key')),
                  w('seal_changes.new_image_file_key', '=', w.ref('file_objects.key')),
                ]),
              ),
          ),
        ),
        eb.not(
          eb.exists(
            eb
              .selectFrom('seal_work_orders')
              .select('seal_work_orders.apply_no')
              .whereRef('seal_work_orders.hand_drawn_file_key', '=', 'file_objects.key'),
          ),
        ),
        eb.not(
          eb.exists(
            eb
              .selectFrom('config_values')
              .select('config_values.code')
              .whereRef('config_values.file_key', '=', 'file_objects.key'),
          ),
        ),
      ]),
    )
    .returning('file_objects.key')
    .execute();
  return rows.map((r) => r.key).sort();
}
