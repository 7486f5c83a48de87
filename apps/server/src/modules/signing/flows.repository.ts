/** Queries of the sign service: flows, their files and tasks, the sign log, approvals and will-auth records. */
import { sql, type Insertable, type Selectable } from 'kysely';
import { contracts } from '@openseal/core';
import type {
  Db,
  SealApprovalsTable,
  SignFlowFilesTable,
  SignFlowsTable,
  SignLogsTable,
  SignTasksTable,
  WillAuthsTable,
} from '@openseal/db';

export type FlowRow = Selectable<SignFlowsTable>;
export type FlowFileRow = Selectable<SignFlowFilesTable>;
export type TaskRow = Selectable<SignTasksTable>;
export type LogRow = Selectable<SignLogsTable>;
export type ApprovalRow = Selectable<SealApprovalsTable>;
export type WillRow = Selectable<WillAuthsTable>;

/** Who is asking, for the lists: the person, their mobile, and the organisation of the current space. */
export interface Viewer {
  personId: string;
  name: string;
  mobile: string;
  organizationId: string | null;
  /** Signing administrators see every flow of their organisation. */
  seesOrganization: boolean;
}

// --- flows ---

export async function insertFlow(
  db: Db,
  flow: Insertable<SignFlowsTable>,
  files: Insertable<SignFlowFilesTable>[],
  tasks: Insertable<SignTasksTable>[],
): Promise<void> {
  await db.insertInto('sign_flows').values(flow).execute();
  if (files.length) await db.insertInto('sign_flow_files').values(files).execute();
  if (tasks.length) await db.insertInto('sign_tasks').values(tasks).execute();
}

export const findFlow = (db: Db, id: string) =>
  db.selectFrom('sign_flows').selectAll().where('id', '=', id).executeTakeFirst();

/** A flow with the caller's name and mobile (the viewer of participation), in one read. */
export const findFlowFor = (db: Db, id: string, personId: string) =>
  db
    .selectFrom('sign_flows as f')
    .leftJoin('persons as p', (j) => j.on('p.id', '=', personId))
    .selectAll('f')
    .select(['p.name as viewer_name', 'p.mobile as viewer_mobile'])
    .where('f.id', '=', id)
    .executeTakeFirst();

/**
 * Locks a flow and its tasks for a status change that depends on every task (a signature completing the
 * flow), and reads them as the last committed change left them: one statement. Empty when the flow is gone.
 */
export const lockFlowWithTasks = (db: Db, id: string) =>
  db
    .selectFrom('sign_tasks as t')
    .innerJoin('sign_flows as f', 'f.id', 't.flow_id')
    .selectAll('t')
    .select(['f.status as flow_status', 'f.name as flow_name', 'f.initiator_name as flow_initiator_name'])
    .where('f.id', '=', id)
    .orderBy('t.position')
    .orderBy('t.seq')
    .forUpdate()
    .execute();

export const lockFlow = (db: Db, id: string) =>
  db.selectFrom('sign_flows').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

export async function moveFlow(
  db: Db,
  id: string,
  from: string,
  to: string,
  patch: Partial<{ reason: string | null; finished_at: Date | null }> = {},
): Promise<boolean> {
  const r = await db
    .updateTable('sign_flows')
    .set({ status: to, updated_at: new Date(), ...patch })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export const filesOf = (db: Db, flowId: string) =>
  db.selectFrom('sign_flow_files').selectAll().where('flow_id', '=', flowId).orderBy('position').execute();

export const tasksOf = (db: Db, flowId: string) =>
  db
    .selectFrom('sign_tasks')
    .selectAll()
    .where('flow_id', '=', flowId)
    .orderBy('position')
    .orderBy('seq')
    .execute();

/**
 * Moves a file to its next signed version, only from the version the signature was built on, and
 * records the new version's blob (its row in `files`, the file store's) in the same statement.
 */
export async function advanceFile(
  db: Db,
  fileId: string,
  fromSha: string,
  to: { sha256: string; size: number; signatures: number; contentType: string },
): Promise<boolean> {
  const r = await db
    .with('blob', (q) =>
      q
        .insertInto('files')
        .values({ sha256: to.sha256, size: to.size, content_type: to.contentType })
        .onConflict((oc) => oc.column('sha256').doNothing()),
    )
    .updateTable('sign_flow_files')
    .set({
      current_sha256: to.sha256,
      current_size: to.size,
      signatures: sql<number>`signatures + ${sql.lit(Math.trunc(to.signatures))}`,
      updated_at: new Date(),
    })
    .where('id', '=', fileId)
    .where('current_sha256', '=', fromSha)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function moveTask(
  db: Db,
  id: string,
  from: string,
  to: string,
  patch: Partial<{
    person_id: string;
    seal_code: string | null;
    seal_name: string | null;
    signed_at: Date;
    refuse_reason: string;
  }> = {},
): Promise<boolean> {
  const r = await db
    .updateTable('sign_tasks')
    .set({ status: to, updated_at: new Date(), ...patch })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function markUrged(db: Db, taskIds: readonly string[], at: Date): Promise<void> {
  if (taskIds.length === 0) return;
  await db
    .updateTable('sign_tasks')
    .set({ urged_at: at, urge_count: sql<number>`urge_count + 1` })
    .where('id', 'in', taskIds)
    .execute();
}

/** Flows whose validity ran out while open, oldest first. */
export const expiredOpenFlows = (db: Db, now: Date, limit: number) =>
  db
    .selectFrom('sign_flows')
    .select('id')
    .where('status', 'in', ['pendingSign', 'signing', 'inApproval'])
    .where('valid_until', '<=', now)
    .orderBy('valid_until')
    .limit(limit)
    .execute();

/** A task belongs to the viewer: theirs by person (or by mobile before they first acted), in this space. */
function taskOfViewer(v: Viewer) {
  return sql<boolean>`(t.person_id = ${v.personId} or (t.person_id is null and t.mobile = ${v.mobile}))
    and ${
      v.organizationId
        ? sql`t.signer_type = 'organization' and t.organization_id = ${v.organizationId}`
        : sql`t.signer_type = 'person'`
    }`;
}

function initiatedBy(v: Viewer) {
  if (v.organizationId)
    return v.seesOrganization
      ? sql<boolean>`f.initiator_org_id = ${v.organizationId}`
      : sql<boolean>`f.initiator_org_id = ${v.organizationId} and f.initiator_person_id = ${v.personId}`;
  return sql<boolean>`f.initiator_org_id is null and f.initiator_person_id = ${v.personId}`;
}

function participatedBy(v: Viewer) {
  const mine = sql<boolean>`exists (select 1 from sign_tasks t where t.flow_id = f.id and ${taskOfViewer(v)})`;
  if (v.organizationId && v.seesOrganization)
    return sql<boolean>`(${mine} or exists (select 1 from sign_tasks t where t.flow_id = f.id and t.organization_id = ${v.organizationId}))`;
  return mine;
}

export async function listFlows(
  db: Db,
  v: Viewer,
  q: {
    role: 'all' | 'initiated' | 'participated';
    status?: string;
    keyword?: string;
    offset: number;
    limit: number;
  },
) {
  let base = db.selectFrom('sign_flows as f');
  base =
    q.role === 'initiated'
      ? base.where(initiatedBy(v))
      : q.role === 'participated'
        ? base.where(participatedBy(v))
        : base.where(sql<boolean>`(${initiatedBy(v)} or ${participatedBy(v)})`);
  if (q.status) base = base.where('f.status', '=', q.status);
  if (q.keyword) base = base.where('f.name', 'ilike', `%${q.keyword.replace(/[%_\\]/g, '\\$&')}%`);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll('f')
    .orderBy('f.created_at', 'desc')
    .orderBy('f.id')
    .offset(q.offset)
    .limit(q.limit)
    .execute();
  return { total: Number(total), rows };
}

/** Flows with a task of the viewer's, by the task's state: todo (their turn), waiting, done, all. */
export async function listTaskFlows(
  db: Db,
  v: Viewer,
  q: { status: 'todo' | 'waiting' | 'done' | 'all'; keyword?: string; offset: number; limit: number },
) {
  const statuses = {
    todo: ['pending', 'inApproval', 'approved'],
    waiting: ['waiting'],
    done: ['signed', 'refused', 'closed'],
    all: null,
  }[q.status];
  let base = db
    .selectFrom('sign_flows as f')
    .innerJoin('sign_tasks as t', 't.flow_id', 'f.id')
    .where(taskOfViewer(v));
  if (statuses) base = base.where('t.status', 'in', statuses);
  if (q.status === 'todo') base = base.where('f.status', 'in', ['pendingSign', 'signing', 'inApproval']);
  if (q.keyword) base = base.where('f.name', 'ilike', `%${q.keyword.replace(/[%_\\]/g, '\\$&')}%`);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll('f')
    .select(['t.id as task_id', 't.status as task_status'])
    .orderBy('f.created_at', 'desc')
    .orderBy('t.id')
    .offset(q.offset)
    .limit(q.limit)
    .execute();
  return { total: Number(total), rows };
}

/** Counts of tasks per flow (signers, signed), for list rows. */
export async function taskCounts(db: Db, flowIds: readonly string[]) {
  if (flowIds.length === 0) return new Map<string, { signers: number; signed: number; files: number }>();
  const rows = await db
    .selectFrom('sign_flows as f')
    .select((eb) => [
      'f.id',
      eb
        .selectFrom('sign_tasks as t')
        .whereRef('t.flow_id', '=', 'f.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('signers'),
      eb
        .selectFrom('sign_tasks as t')
        .whereRef('t.flow_id', '=', 'f.id')
        .where('t.status', '=', 'signed')
        .select(eb.fn.countAll<number>().as('n'))
        .as('signed'),
      eb
        .selectFrom('sign_flow_files as x')
        .whereRef('x.flow_id', '=', 'f.id')
        .select(eb.fn.countAll<number>().as('n'))
        .as('files'),
    ])
    .where('f.id', 'in', flowIds)
    .execute();
  return new Map(
    rows.map((r) => [r.id, { signers: Number(r.signers), signed: Number(r.signed), files: Number(r.files) }]),
  );
}

/** The viewer's own task in each flow (first by position). */
export async function viewerTasks(db: Db, v: Viewer, flowIds: readonly string[]) {
  if (flowIds.length === 0) return new Map<string, { id: string; status: string }>();
  const rows = await db
    .selectFrom('sign_tasks as t')
    .select(['t.flow_id', 't.id', 't.status'])
    .where('t.flow_id', 'in', flowIds)
    .where(taskOfViewer(v))
    .orderBy('t.position')
    .orderBy('t.seq')
    .execute();
  const out = new Map<string, { id: string; status: string }>();
  for (const r of rows) if (!out.has(r.flow_id)) out.set(r.flow_id, { id: r.id, status: r.status });
  return out;
}

// --- sign log ---

export async function insertLog(db: Db, row: Insertable<SignLogsTable>): Promise<void> {
  await db.insertInto('sign_logs').values(row).execute();
}

export const logsOfFlow = (db: Db, flowId: string) =>
  db
    .selectFrom('sign_logs as l')
    .innerJoin('sign_flows as f', 'f.id', 'l.flow_id')
    .selectAll('l')
    .select('f.name as flow_name')
    .where('l.flow_id', '=', flowId)
    .orderBy('l.created_at')
    .orderBy('l.id')
    .execute();

export async function listLogs(
  db: Db,
  v: Viewer,
  q: { flowId?: string; action?: string; notarised?: boolean; offset: number; limit: number },
) {
  let base = db
    .selectFrom('sign_logs as l')
    .innerJoin('sign_flows as f', 'f.id', 'l.flow_id')
    .where(sql<boolean>`(${initiatedBy(v)} or ${participatedBy(v)})`);
  if (q.flowId) base = base.where('l.flow_id', '=', q.flowId);
  if (q.action) base = base.where('l.action', '=', q.action);
  if (q.notarised) base = base.where('l.evidence_index', 'is not', null);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll('l')
    .select('f.name as flow_name')
    .orderBy('l.created_at', 'desc')
    .orderBy('l.id', 'desc')
    .offset(q.offset)
    .limit(q.limit)
    .execute();
  return { total: Number(total), rows };
}

/** Sign-log rows of acts with a seal (the seal's notary records). */
export const logsOfSeal = (db: Db, sealCode: string) =>
  db
    .selectFrom('sign_logs')
    .selectAll()
    .where('seal_code', '=', sealCode)
    .where('evidence_index', 'is not', null)
    .orderBy('created_at')
    .limit(500)
    .execute();

// --- approvals ---

export async function insertApproval(db: Db, row: Insertable<SealApprovalsTable>): Promise<void> {
  await db.insertInto('seal_approvals').values(row).execute();
}

function approvalSelect(db: Db) {
  return db
    .selectFrom('seal_approvals as a')
    .innerJoin('sign_flows as f', 'f.id', 'a.flow_id')
    .innerJoin('seals as s', 's.seal_code', 'a.seal_code')
    .innerJoin('organizations as o', 'o.id', 'a.organization_id')
    .selectAll('a')
    .select(['f.name as flow_name', 's.name as seal_name', 's.image_file_key', 'o.name as org_name']);
}
export type ApprovalView = NonNullable<Awaited<ReturnType<typeof findApproval>>>;

export const findApproval = (db: Db, id: string) =>
  approvalSelect(db).where('a.id', '=', id).executeTakeFirst();

export const lockApproval = (db: Db, id: string) =>
  db.selectFrom('seal_approvals').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

export const approvalsOfFlow = (db: Db, flowId: string) =>
  approvalSelect(db).where('a.flow_id', '=', flowId).orderBy('a.created_at').execute();

export const latestApprovalOfTask = (db: Db, taskId: string) =>
  approvalSelect(db).where('a.task_id', '=', taskId).orderBy('a.created_at', 'desc').executeTakeFirst();

export const approvalsOfTask = (db: Db, taskId: string) =>
  db.selectFrom('seal_approvals').selectAll().where('task_id', '=', taskId).execute();

export async function moveApproval(
  db: Db,
  id: string,
  from: string,
  to: string,
  patch: Partial<{
    decider_person_id: string | null;
    decider_name: string | null;
    decision_reason: string | null;
    decided_at: Date;
    used_at: Date;
  }> = {},
): Promise<boolean> {
  const r = await db
    .updateTable('seal_approvals')
    .set({ status: to, ...patch })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function markApprovalUsed(db: Db, id: string, at: Date): Promise<boolean> {
  const r = await db
    .updateTable('seal_approvals')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('status', '=', 'approved')
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function listApprovals(
  db: Db,
  q: {
    /** receive: every approval of the organisation; start: the applicant's own. */
    organizationId?: string;
    applicantPersonId?: string;
    status?: string;
    offset: number;
    limit: number;
  },
) {
  let base = approvalSelect(db);
  if (q.organizationId) base = base.where('a.organization_id', '=', q.organizationId);
  if (q.applicantPersonId) base = base.where('a.applicant_person_id', '=', q.applicantPersonId);
  if (q.status) base = base.where('a.status', '=', q.status);
  const { total } = await base
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id')
    .offset(q.offset)
    .limit(q.limit)
    .execute();
  return { total: Number(total), rows };
}

// --- will-auth ---

export async function insertWill(db: Db, row: Insertable<WillAuthsTable>): Promise<void> {
  await db.insertInto('will_auths').values(row).execute();
}

export const findWill = (db: Db, id: string) =>
  db.selectFrom('will_auths').selectAll().where('id', '=', id).executeTakeFirst();

export async function updateWill(
  db: Db,
  id: string,
  patch: Partial<{
    status: WillRow['status'];
    sms_flow_id: string;
    verified_at: Date;
    used_at: Date;
    front_data: string | null;
    method: string;
  }>,
  fromStatus?: WillRow['status'],
): Promise<boolean> {
  let q = db.updateTable('will_auths').set(patch).where('id', '=', id);
  if (fromStatus) q = q.where('status', '=', fromStatus);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Takes a verified, fresh, unused record of this person for this source and business: one statement,
 * the record as it is once used, or nothing when it is not (or no longer) usable.
 */
export const takeWill = (
  db: Db,
  w: { willBizId: string; personId: string; source: number; bizId: string },
  at: { usedAt: Date; verifiedSince: Date },
) =>
  db
    .updateTable('will_auths')
    .set({ status: 'used', used_at: at.usedAt })
    .where('id', '=', w.willBizId)
    .where('person_id', '=', w.personId)
    .where('source', '=', w.source)
    .where('biz_id', '=', w.bizId)
    .where('status', '=', 'verified')
    .where('verified_at', '>=', at.verifiedSince)
    .returningAll()
    .executeTakeFirst();

/** Undoes `takeWill` of an act that failed: only the use it made (same time), never another. */
export async function giveBackWill(db: Db, id: string, usedAt: Date): Promise<void> {
  await db
    .updateTable('will_auths')
    .set({ status: 'verified', used_at: null })
    .where('id', '=', id)
    .where('status', '=', 'used')
    .where('used_at', '=', usedAt)
    .execute();
}

// --- people, organisations, seals ---

export const personById = (db: Db, id: string) =>
  db.selectFrom('persons').select(['id', 'name', 'mobile']).where('id', '=', id).executeTakeFirst();

export const personByMobile = (db: Db, mobile: string) =>
  db.selectFrom('persons').select(['id', 'name', 'mobile']).where('mobile', '=', mobile).executeTakeFirst();

/** A verified organisation by its exact name or USCC. */
export const verifiedOrganization = (db: Db, nameOrUscc: string) =>
  db
    .selectFrom('organizations')
    .select(['id', 'name', 'uscc'])
    .where((eb) => eb.or([eb('name', '=', nameOrUscc), eb('uscc', '=', nameOrUscc.toUpperCase())]))
    .where('real_name_status', '=', 1)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

export const organizationName = async (db: Db, id: string) =>
  (await db.selectFrom('organizations').select('name').where('id', '=', id).executeTakeFirst())?.name ?? null;

/** Active members of an organisation holding one of the roles (for approval notices). */
export const activeMembersWithRoles = (db: Db, organizationId: string) =>
  db
    .selectFrom('members as m')
    .innerJoin('persons as p', 'p.id', 'm.person_id')
    .select(['m.id', 'm.person_id', 'm.roles', 'p.mobile', 'p.name'])
    .where('m.organization_id', '=', organizationId)
    .where('m.status', '=', 'active')
    .execute();

function sealSelect(db: Db) {
  return db
    .selectFrom('seals as s')
    .leftJoin('certificates as c', 'c.serial', 's.cert_serial')
    .select([
      's.seal_code',
      's.name',
      's.seal_kind',
      's.status',
      's.valid_to',
      's.image_file_key',
      's.width_mm',
      's.height_mm',
      's.cert_serial',
      's.organization_id',
      's.person_id',
      'c.status as cert_status',
    ]);
}

/** Seals a signer may put on a page: the organisation's, or the person's own personal seals. */
export function signableSeals(db: Db, scope: { organizationId: string } | { personId: string }) {
  let q = sealSelect(db)
    .where('s.status', '=', 'normal')
    .where('s.cert_serial', 'is not', null)
    .where('s.image_file_key', 'is not', null);
  q =
    'organizationId' in scope
      ? q.where('s.organization_id', '=', scope.organizationId)
      : q.where('s.organization_id', 'is', null).where('s.person_id', '=', scope.personId);
  return q.orderBy('s.created_at').execute();
}
export type SignableSealRow = Awaited<ReturnType<typeof signableSeals>>[number];

/** Whether a seal can sign now: normal and within its validity, with a good certificate. */
export const sealUsable = (s: SignableSealRow) =>
  contracts.effectiveSealStatus(s.status as contracts.SealStatus, s.valid_to) === 'normal' &&
  s.cert_status === 'good';

/** A seal with what signing needs of its certificate (so the signer reads no more). */
export const sealForSigning = (db: Db, sealCode: string) =>
  sealSelect(db)
    .select([
      'c.der as cert_der',
      'c.key_id as cert_key_id',
      'c.not_before as cert_not_before',
      'c.not_after as cert_not_after',
    ])
    .where('s.seal_code', '=', sealCode)
    .executeTakeFirst();
export type SealForSigning = NonNullable<Awaited<ReturnType<typeof sealForSigning>>>;

/** Usable grants of a seal to a member (uses left), without taking one. */
export const memberGrants = (db: Db, sealCode: string, memberId: string) =>
  db
    .selectFrom('seal_authorizations')
    .select(['auth_code', 'status', 'valid_from', 'valid_to', 'uses_remaining', 'app_range'])
    .where('seal_code', '=', sealCode)
    .where('grantee_type', '=', 'member')
    .where('grantee_id', '=', memberId)
    .where('status', '=', 'inEffect')
    .execute();

/** The signature that produced a file version (its hash after signing). */
export const signActOfVersion = (db: Db, fileHash: string) =>
  db
    .selectFrom('sign_logs')
    .selectAll()
    .where('action', '=', 'sign')
    .where(sql<boolean>`detail->>'fileAfter' = ${fileHash.toLowerCase()}`)
    .orderBy('created_at')
    .executeTakeFirst();

/** The signature acts of a flow's file up to and including one, oldest first. */
export const signActsOfFile = (db: Db, flowId: string, fileId: string) =>
  db
    .selectFrom('sign_logs')
    .selectAll()
    .where('flow_id', '=', flowId)
    .where('file_id', '=', fileId)
    .where('action', '=', 'sign')
    .orderBy('created_at')
    .orderBy('evidence_index')
    .execute();
