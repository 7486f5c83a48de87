import type { Db } from '@openseal/db';

/** Active memberships of a person in live organisations, oldest first. */
export async function listMemberships(db: Db, personId: string) {
  return db
    .selectFrom('members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select([
      'o.id as organizationId',
      'o.name',
      'o.uscc',
      'o.real_name_status',
      'o.created_at',
      'm.id as memberId',
      'm.roles',
    ])
    .where('m.person_id', '=', personId)
    .where('m.status', '=', 'active')
    .where('o.deleted_at', 'is', null)
    .orderBy('m.created_at', 'asc')
    .execute();
}

export async function findMembership(db: Db, personId: string, organizationId: string) {
  return db
    .selectFrom('members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select([
      'm.id as memberId',
      'm.roles',
      'o.id as organizationId',
      'o.name',
      'o.real_name_status',
      'o.created_by',
    ])
    .where('m.person_id', '=', personId)
    .where('m.organization_id', '=', organizationId)
    .where('m.status', '=', 'active')
    .where('o.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** An active member of an organisation, by member id or by the person's mobile. */
export async function findActiveMember(
  db: Db,
  organizationId: string,
  by: { memberId: string } | { mobile: string },
) {
  let q = db
    .selectFrom('members as m')
    .innerJoin('persons as p', 'p.id', 'm.person_id')
    .select(['m.id as memberId', 'm.person_id as personId', 'p.name', 'p.mobile'])
    .where('m.organization_id', '=', organizationId)
    .where('m.status', '=', 'active')
    .where('p.status', '=', 'active');
  q = 'memberId' in by ? q.where('m.id', '=', by.memberId) : q.where('p.mobile', '=', by.mobile);
  return q.executeTakeFirst();
}

export async function findLiveOrg(db: Db, id: string) {
  return db
    .selectFrom('organizations')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function findLiveOrgBy(db: Db, field: 'name' | 'uscc', value: string) {
  return db
    .selectFrom('organizations')
    .selectAll()
    .where(field, '=', value)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Whether an organisation has an active member holding the super-administrator role. */
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

export async function insertOrg(
  db: Db,
  o: { id: string; name: string; uscc: string; createdBy: string },
): Promise<void> {
  await db
    .insertInto('organizations')
    .values({ id: o.id, name: o.name, uscc: o.uscc, created_by: o.createdBy, deleted_at: null })
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

export async function softDeleteOrg(db: Db, id: string): Promise<boolean> {
  const r = await db
    .updateTable('organizations')
    .set({ deleted_at: new Date() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) return false;
  await db.updateTable('members').set({ status: 'removed' }).where('organization_id', '=', id).execute();
  return true;
}
