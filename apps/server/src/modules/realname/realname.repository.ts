import { sql } from 'kysely';
import type { Db, RealnameApplicationsTable, RealnameStatus } from '@openseal/db';
import type { Insertable, Updateable } from 'kysely';

export async function insertApplication(db: Db, row: Insertable<RealnameApplicationsTable>): Promise<void> {
  await db.insertInto('realname_applications').values(row).execute();
}

export async function findApplication(db: Db, id: string) {
  return db.selectFrom('realname_applications').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Locks the row so concurrent steps of one flow (a callback and a retry) apply one after the other. */
export async function findApplicationForUpdate(db: Db, id: string) {
  return db
    .selectFrom('realname_applications')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** Moves an application from one status to another only if it is still in `from`; false if it was not. */
export async function moveStatus(
  db: Db,
  id: string,
  from: RealnameStatus,
  to: RealnameStatus,
  patch: Updateable<RealnameApplicationsTable> = {},
): Promise<boolean> {
  const r = await db
    .updateTable('realname_applications')
    .set({ ...patch, status: to, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function bumpAmountAttempts(db: Db, id: string): Promise<number> {
  const row = await db
    .updateTable('realname_applications')
    .set((eb) => ({ amount_attempts: eb('amount_attempts', '+', 1), updated_at: new Date() }))
    .where('id', '=', id)
    .returning('amount_attempts')
    .executeTakeFirstOrThrow();
  return row.amount_attempts;
}

export async function insertEvent(
  db: Db,
  e: {
    applicationId: string;
    from: string | null;
    to: string;
    actorPersonId: string | null;
    actorOperatorId: string | null;
    reason: string | null;
  },
): Promise<void> {
  await db
    .insertInto('realname_events')
    .values({
      application_id: e.applicationId,
      from_status: e.from,
      to_status: e.to,
      actor_person_id: e.actorPersonId,
      actor_operator_id: e.actorOperatorId,
      reason: e.reason,
    })
    .execute();
}

export async function listEvents(db: Db, applicationId: string) {
  return db
    .selectFrom('realname_events as e')
    .leftJoin('persons as p', 'p.id', 'e.actor_person_id')
    .select([
      'e.from_status',
      'e.to_status',
      'e.actor_person_id',
      'e.actor_operator_id',
      'p.name as actor_name',
      'e.reason',
      'e.at',
    ])
    .where('e.application_id', '=', applicationId)
    .orderBy('e.id', 'asc')
    .execute();
}

export async function listOfPerson(db: Db, personId: string, organizationId: string | null, limit: number) {
  let q = db.selectFrom('realname_applications').selectAll();
  q = organizationId
    ? q.where('organization_id', '=', organizationId)
    : q.where('person_id', '=', personId).where('subject', '=', 'person');
  return q.orderBy('created_at', 'desc').limit(limit).execute();
}

/**
 * The application that speaks for a subject's real name now: the latest successful one, else the latest
 * still under way (draft excluded), else none. Person: the person's own; organisation: any applicant's.
 */
export async function standingApplication(
  db: Db,
  subject: { personId: string } | { organizationId: string },
) {
  let q = db
    .selectFrom('realname_applications')
    .select(['id', 'method', 'status', 'completed_at', 'id_number'])
    .where('status', 'not in', ['draft', 'failure']);
  q =
    'personId' in subject
      ? q.where('subject', '=', 'person').where('person_id', '=', subject.personId)
      : q.where('subject', '=', 'organization').where('organization_id', '=', subject.organizationId);
  const rows = await q.orderBy('created_at', 'desc').limit(20).execute();
  return rows.find((r) => r.status === 'success') ?? rows[0];
}

export type QueueStatus = 'pending' | 'approved' | 'rejected' | 'all';
const QUEUE_STATUS: Record<Exclude<QueueStatus, 'all'>, RealnameStatus> = {
  pending: 'awaitingReview',
  approved: 'success',
  rejected: 'failure',
};

export async function listManual(db: Db, q: { status: QueueStatus; page: number; size: number }) {
  let base = db.selectFrom('realname_applications').where('method', '=', 'manual');
  base =
    q.status === 'all'
      ? base.where('status', '!=', 'draft')
      : base.where('status', '=', QUEUE_STATUS[q.status]);
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', q.status === 'pending' ? 'asc' : 'desc')
      .limit(q.size)
      .offset((q.page - 1) * q.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function insertMaterial(
  db: Db,
  m: {
    id: string;
    fileKey: string;
    kind: 'licence' | 'authorisation';
    contentType: string;
    personId: string;
    organizationId: string | null;
  },
): Promise<void> {
  await db
    .insertInto('realname_materials')
    .values({
      id: m.id,
      file_key: m.fileKey,
      kind: m.kind,
      content_type: m.contentType,
      person_id: m.personId,
      organization_id: m.organizationId,
    })
    .execute();
}

export async function findMaterialByFileKey(db: Db, fileKey: string) {
  return db.selectFrom('realname_materials').selectAll().where('file_key', '=', fileKey).executeTakeFirst();
}

export async function findOrgProfile(db: Db, organizationId: string) {
  return db
    .selectFrom('realname_org_profiles')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

export async function upsertOrgProfile(
  db: Db,
  p: { organizationId: string; legalName: string; legalIdNumber: string; applicationId: string },
): Promise<void> {
  await db
    .insertInto('realname_org_profiles')
    .values({
      organization_id: p.organizationId,
      legal_name: p.legalName,
      legal_id_number: p.legalIdNumber,
      application_id: p.applicationId,
    })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet({
        legal_name: p.legalName,
        legal_id_number: p.legalIdNumber,
        application_id: p.applicationId,
        updated_at: new Date(),
      }),
    )
    .execute();
}

export async function setOrgLegalName(db: Db, organizationId: string, legalName: string): Promise<void> {
  await db
    .updateTable('realname_org_profiles')
    .set({ legal_name: legalName, updated_at: new Date() })
    .where('organization_id', '=', organizationId)
    .execute();
}

/** The ID number of the person's own successful real-name, if any. */
export async function verifiedIdNumberOf(db: Db, personId: string): Promise<string | null> {
  const row = await db
    .selectFrom('realname_applications')
    .select('id_number')
    .where('person_id', '=', personId)
    .where('subject', '=', 'person')
    .where('status', '=', 'success')
    .orderBy('completed_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id_number ?? null;
}

// ---------------------------------------------------------------------------------------------
// Writes on the accounts and organisations tables that a real-name outcome causes. The accounts and
// organizes services do not expose them yet; they belong there and move once those services do.
// ---------------------------------------------------------------------------------------------

export async function setPersonVerified(db: Db, personId: string, name: string): Promise<void> {
  await db
    .updateTable('persons')
    .set({ real_name_status: 1, name, updated_at: new Date() })
    .where('id', '=', personId)
    .execute();
}

export async function setOrgRealNameStatus(db: Db, organizationId: string, status: number): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ real_name_status: status })
    .where('id', '=', organizationId)
    .execute();
}

export async function setOrgName(db: Db, organizationId: string, name: string): Promise<void> {
  await db.updateTable('organizations').set({ name }).where('id', '=', organizationId).execute();
}

export async function hasActiveSuperAdmin(db: Db, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('members')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'active')
    .where((eb) => eb(eb.val('superAdmin'), '=', eb.fn.any('roles')))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function findMember(db: Db, organizationId: string, personId: string) {
  return db
    .selectFrom('members')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('person_id', '=', personId)
    .executeTakeFirst();
}

/** Adds roles to a membership (made active), keeping the ones it has. */
export async function grantRoles(db: Db, memberId: string, roles: string[]): Promise<void> {
  await db
    .updateTable('members')
    .set({
      roles: sql<
        string[]
      >`array(select distinct r from unnest(roles || ${sql.val(roles)}::text[]) as r order by r)`,
      status: 'active',
    })
    .where('id', '=', memberId)
    .execute();
}

export async function insertMember(
  db: Db,
  m: { id: string; organizationId: string; personId: string; roles: string[] },
): Promise<void> {
  await db
    .insertInto('members')
    .values({ id: m.id, organization_id: m.organizationId, person_id: m.personId, roles: m.roles })
    .execute();
}
