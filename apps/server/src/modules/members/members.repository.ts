import type { AuthorityApplyStatus, Db, RoleChangeStatus } from '@openseal/db';

type MemberStatus = 'active' | 'paused' | 'removed';

// --- members (the 0001 table) and their profiles ---

const memberColumns = [
  'm.id as memberId',
  'm.organization_id as organizationId',
  'm.person_id as personId',
  'm.roles',
  'm.status',
  'm.created_at as createdAt',
  'p.name',
  'p.mobile',
  'p.real_name_status as realNameStatus',
] as const;

function memberQuery(db: Db) {
  return db
    .selectFrom('members as m')
    .innerJoin('persons as p', 'p.id', 'm.person_id')
    .leftJoin('member_profiles as mp', 'mp.member_id', 'm.id')
    .select(memberColumns)
    .select((eb) => eb.fn.coalesce('mp.nickname', eb.val('')).as('nickname'));
}

export type MemberRow = NonNullable<Awaited<ReturnType<typeof findMember>>>;

/** A member of one organisation that has not been removed. */
export async function findMember(db: Db, organizationId: string, memberId: string) {
  return memberQuery(db)
    .where('m.id', '=', memberId)
    .where('m.organization_id', '=', organizationId)
    .where('m.status', '!=', 'removed')
    .executeTakeFirst();
}

export async function findMemberByMobile(db: Db, organizationId: string, mobile: string) {
  return memberQuery(db)
    .where('p.mobile', '=', mobile)
    .where('m.organization_id', '=', organizationId)
    .executeTakeFirst();
}

export async function findPersonIdByMobile(db: Db, mobile: string): Promise<string | undefined> {
  const row = await db.selectFrom('persons').select('id').where('mobile', '=', mobile).executeTakeFirst();
  return row?.id;
}

export async function listMembers(
  db: Db,
  organizationId: string,
  f: { keyword?: string | undefined; roleCode?: string | undefined; status?: MemberStatus | undefined },
  page: { offset: number; limit: number },
) {
  let q = db
    .selectFrom('members as m')
    .innerJoin('persons as p', 'p.id', 'm.person_id')
    .leftJoin('member_profiles as mp', 'mp.member_id', 'm.id')
    .where('m.organization_id', '=', organizationId);
  q = f.status ? q.where('m.status', '=', f.status) : q.where('m.status', '!=', 'removed');
  if (f.roleCode) q = q.where((eb) => eb(eb.val(f.roleCode!), '=', eb.fn.any('m.roles')));
  if (f.keyword) {
    const like = `%${f.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([eb('p.name', 'like', like), eb('p.mobile', 'like', like), eb('mp.nickname', 'like', like)]),
    );
  }
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .select(memberColumns)
    .select((eb) => eb.fn.coalesce('mp.nickname', eb.val('')).as('nickname'))
    .orderBy('m.created_at', 'asc')
    .orderBy('m.id')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return { total: Number(total.n), rows };
}

/** Active members holding a role, oldest first. */
export async function membersWithRole(db: Db, organizationId: string, role: string) {
  return memberQuery(db)
    .where('m.organization_id', '=', organizationId)
    .where('m.status', '=', 'active')
    .where((eb) => eb(eb.val(role), '=', eb.fn.any('m.roles')))
    .orderBy('m.created_at', 'asc')
    .execute();
}

export async function countMembersWithRole(db: Db, organizationId: string, role: string): Promise<number> {
  const r = await db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('status', '!=', 'removed')
    .where((eb) => eb(eb.val(role), '=', eb.fn.any('roles')))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Pending invitations that will hand out the role when their person first logs in. */
export async function countPendingInvitesWithRole(
  db: Db,
  organizationId: string,
  role: string,
): Promise<number> {
  const r = await db
    .selectFrom('member_invites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'pending')
    .where((eb) => eb(eb.val(role), '=', eb.fn.any('roles')))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Adds a person to an organisation, or brings back a removed membership (one row per pair). */
export async function upsertMember(
  db: Db,
  m: { id: string; organizationId: string; personId: string; roles: string[] },
): Promise<string> {
  const row = await db
    .insertInto('members')
    .values({ id: m.id, organization_id: m.organizationId, person_id: m.personId, roles: m.roles })
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'person_id'])
        .doUpdateSet({ roles: m.roles, status: 'active' })
        .where('members.status', '=', 'removed'),
    )
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? '';
}

export async function setNickname(db: Db, memberId: string, nickname: string): Promise<void> {
  await db
    .insertInto('member_profiles')
    .values({ member_id: memberId, nickname, updated_at: new Date() })
    .onConflict((oc) => oc.column('member_id').doUpdateSet({ nickname, updated_at: new Date() }))
    .execute();
}

export async function setRoles(db: Db, memberId: string, roles: string[]): Promise<void> {
  await db.updateTable('members').set({ roles }).where('id', '=', memberId).execute();
}

/** Moves a member between statuses only from the expected one; false when someone else moved it first. */
export async function setStatus(
  db: Db,
  memberId: string,
  from: readonly MemberStatus[],
  to: MemberStatus,
): Promise<boolean> {
  const r = await db
    .updateTable('members')
    .set({ status: to })
    .where('id', '=', memberId)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Locks the rows of an organisation's members so role moves do not interleave. */
export async function lockMembers(db: Db, organizationId: string, memberIds: string[]): Promise<void> {
  if (memberIds.length === 0) return;
  await db
    .selectFrom('members')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', memberIds)
    .forUpdate()
    .execute();
}

export async function rolesOf(db: Db, memberId: string) {
  return db.selectFrom('members').select(['roles', 'status']).where('id', '=', memberId).executeTakeFirst();
}

// --- invitations ---

export async function insertInvite(
  db: Db,
  i: {
    id: string;
    organizationId: string;
    mobile: string;
    nickname: string;
    roles: string[];
    invitedBy: string;
  },
): Promise<void> {
  await db
    .insertInto('member_invites')
    .values({
      id: i.id,
      organization_id: i.organizationId,
      mobile: i.mobile,
      nickname: i.nickname,
      roles: i.roles,
      invited_by: i.invitedBy,
      member_id: null,
      accepted_at: null,
    })
    .execute();
}

export async function findPendingInvite(db: Db, organizationId: string, mobile: string) {
  return db
    .selectFrom('member_invites')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('mobile', '=', mobile)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

export async function findInvite(db: Db, organizationId: string, id: string) {
  return db
    .selectFrom('member_invites')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function pendingInvitesOfMobile(db: Db, mobile: string) {
  return db
    .selectFrom('member_invites as i')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .selectAll('i')
    .where('i.mobile', '=', mobile)
    .where('i.status', '=', 'pending')
    .where('o.deleted_at', 'is', null)
    .execute();
}

export async function listPendingInvites(db: Db, organizationId: string) {
  return db
    .selectFrom('member_invites')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'pending')
    .orderBy('created_at', 'asc')
    .execute();
}

export async function closeInvite(
  db: Db,
  id: string,
  to: 'accepted' | 'cancelled',
  memberId: string | null,
): Promise<boolean> {
  const r = await db
    .updateTable('member_invites')
    .set({ status: to, member_id: memberId, accepted_at: to === 'accepted' ? new Date() : null })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function updateInvite(
  db: Db,
  id: string,
  patch: { nickname?: string | undefined; roles?: string[] | undefined },
): Promise<void> {
  const set: { nickname?: string; roles?: string[] } = {};
  if (patch.nickname !== undefined) set.nickname = patch.nickname;
  if (patch.roles !== undefined) set.roles = patch.roles;
  if (Object.keys(set).length) await db.updateTable('member_invites').set(set).where('id', '=', id).execute();
}

// --- custom roles ---

export async function listCustomRoles(db: Db, organizationId: string) {
  const roles = await db
    .selectFrom('org_roles')
    .select(['id', 'code', 'name', 'description'])
    .where('organization_id', '=', organizationId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'asc')
    .execute();
  if (roles.length === 0) return [];
  const points = await db
    .selectFrom('org_role_permissions')
    .select(['role_id', 'point'])
    .where(
      'role_id',
      'in',
      roles.map((r) => r.id),
    )
    .execute();
  return roles.map((r) => ({
    ...r,
    points: points.filter((p) => p.role_id === r.id).map((p) => p.point),
  }));
}

export async function findCustomRole(db: Db, organizationId: string, code: string) {
  return (await listCustomRoles(db, organizationId)).find((r) => r.code === code);
}

/** Points granted by the given custom role codes of an organisation. */
export async function customRolePoints(db: Db, organizationId: string, codes: string[]): Promise<string[]> {
  if (codes.length === 0) return [];
  const rows = await db
    .selectFrom('org_role_permissions as rp')
    .innerJoin('org_roles as r', 'r.id', 'rp.role_id')
    .select('rp.point')
    .where('r.organization_id', '=', organizationId)
    .where('r.code', 'in', codes)
    .where('r.deleted_at', 'is', null)
    .execute();
  return rows.map((r) => r.point);
}

export async function insertRole(
  db: Db,
  r: {
    id: string;
    organizationId: string;
    code: string;
    name: string;
    description: string;
    createdBy: string;
  },
): Promise<void> {
  await db
    .insertInto('org_roles')
    .values({
      id: r.id,
      organization_id: r.organizationId,
      code: r.code,
      name: r.name,
      description: r.description,
      created_by: r.createdBy,
      deleted_at: null,
    })
    .execute();
}

export async function updateRole(db: Db, id: string, p: { name: string; description: string }) {
  await db
    .updateTable('org_roles')
    .set({ name: p.name, description: p.description, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function replaceRolePoints(db: Db, roleId: string, points: string[]): Promise<void> {
  await db.deleteFrom('org_role_permissions').where('role_id', '=', roleId).execute();
  if (points.length)
    await db
      .insertInto('org_role_permissions')
      .values(points.map((point) => ({ role_id: roleId, point })))
      .execute();
}

export async function softDeleteRole(db: Db, id: string): Promise<void> {
  await db.updateTable('org_roles').set({ deleted_at: new Date() }).where('id', '=', id).execute();
}

// --- authority applications ---

export async function insertApplication(
  db: Db,
  a: {
    applyNo: string;
    organizationId: string;
    memberId: string;
    personId: string;
    roles: string[];
    applyFileKey: string;
    remark: string;
  },
): Promise<void> {
  await db
    .insertInto('authority_applications')
    .values({
      apply_no: a.applyNo,
      organization_id: a.organizationId,
      member_id: a.memberId,
      person_id: a.personId,
      roles: a.roles,
      apply_file_key: a.applyFileKey,
      remark: a.remark,
      reject_reason: null,
      auditor_person_id: null,
      auditor_operator_id: null,
      auditor_name: null,
      completed_at: null,
    })
    .execute();
}

function applicationQuery(db: Db) {
  return db
    .selectFrom('authority_applications as a')
    .innerJoin('organizations as o', 'o.id', 'a.organization_id')
    .innerJoin('persons as p', 'p.id', 'a.person_id')
    .selectAll('a')
    .select([
      'o.name as org_name',
      'o.uscc as org_uscc',
      'p.name as applier_name',
      'p.mobile as applier_mobile',
    ]);
}
export type ApplicationRow = NonNullable<Awaited<ReturnType<typeof findApplication>>>;

/** One application; `organizationId` null reads across organisations (the operator console). */
export async function findApplication(db: Db, organizationId: string | null, applyNo: string) {
  let q = applicationQuery(db).where('a.apply_no', '=', applyNo);
  if (organizationId !== null) q = q.where('a.organization_id', '=', organizationId);
  return q.executeTakeFirst();
}

export async function listApplications(
  db: Db,
  f: {
    organizationId: string | null;
    personId?: string | undefined;
    status?: AuthorityApplyStatus | undefined;
  },
  page: { offset: number; limit: number },
) {
  let q = applicationQuery(db);
  if (f.organizationId !== null) q = q.where('a.organization_id', '=', f.organizationId);
  if (f.personId) q = q.where('a.person_id', '=', f.personId);
  if (f.status) q = q.where('a.status', '=', f.status);
  const total = await q
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await q
    .orderBy('a.created_at', 'desc')
    .orderBy('a.apply_no')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
  return { total: Number(total.n), rows };
}

export async function hasPendingApplication(db: Db, memberId: string): Promise<boolean> {
  const r = await db
    .selectFrom('authority_applications')
    .select('apply_no')
    .where('member_id', '=', memberId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return r !== undefined;
}

export async function moveApplication(
  db: Db,
  applyNo: string,
  from: AuthorityApplyStatus,
  to: AuthorityApplyStatus,
  fields: {
    rejectReason?: string | null;
    auditorPersonId?: string | null;
    auditorOperatorId?: string | null;
    auditorName?: string | null;
  },
): Promise<boolean> {
  const r = await db
    .updateTable('authority_applications')
    .set({
      status: to,
      completed_at: new Date(),
      message_flag: to !== 'withdrawn',
      reject_reason: fields.rejectReason ?? null,
      auditor_person_id: fields.auditorPersonId ?? null,
      auditor_operator_id: fields.auditorOperatorId ?? null,
      auditor_name: fields.auditorName ?? null,
    })
    .where('apply_no', '=', applyNo)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function clearMessageFlag(db: Db, applyNo: string): Promise<void> {
  await db
    .updateTable('authority_applications')
    .set({ message_flag: false })
    .where('apply_no', '=', applyNo)
    .execute();
}

// --- role-holder changes ---

export async function insertChange(
  db: Db,
  c: {
    changeNo: string;
    organizationId: string;
    role: 'superAdmin' | 'legalPerson';
    initiatorPersonId: string;
    fromMemberId: string | null;
    oldFlowId: string;
  },
): Promise<void> {
  await db
    .insertInto('org_role_changes')
    .values({
      change_no: c.changeNo,
      organization_id: c.organizationId,
      role: c.role,
      initiator_person_id: c.initiatorPersonId,
      from_member_id: c.fromMemberId,
      old_flow_id: c.oldFlowId,
      old_verified_at: null,
      to_member_id: null,
      new_flow_id: null,
      completed_at: null,
    })
    .execute();
}

export async function findChange(db: Db, organizationId: string, changeNo: string) {
  return db
    .selectFrom('org_role_changes')
    .selectAll()
    .where('change_no', '=', changeNo)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

export async function moveChange(
  db: Db,
  changeNo: string,
  from: readonly RoleChangeStatus[],
  to: RoleChangeStatus,
  patch: { oldVerifiedAt?: Date; toMemberId?: string; newFlowId?: string; completedAt?: Date } = {},
): Promise<boolean> {
  const r = await db
    .updateTable('org_role_changes')
    .set({
      status: to,
      ...(patch.oldVerifiedAt ? { old_verified_at: patch.oldVerifiedAt } : {}),
      ...(patch.toMemberId ? { to_member_id: patch.toMemberId } : {}),
      ...(patch.newFlowId ? { new_flow_id: patch.newFlowId } : {}),
      ...(patch.completedAt ? { completed_at: patch.completedAt } : {}),
    })
    .where('change_no', '=', changeNo)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
