import type { Db } from '@openseal/db';

export async function insertSession(
  db: Db,
  row: {
    id: string;
    tokenHash: string;
    personId: string;
    organizationId: string | null;
    memberId: string | null;
    expiresAt: Date;
    ip: string | null;
    userAgent: string | null;
  },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: row.id,
      token_hash: row.tokenHash,
      person_id: row.personId,
      organization_id: row.organizationId,
      member_id: row.memberId,
      expires_at: row.expiresAt,
      ip: row.ip,
      user_agent: row.userAgent,
      revoked_at: null,
      revoked_reason: null,
    })
    .execute();
}

/**
 * The session with everything needed to judge it (person state and, for an organisation space,
 * membership) and the person's and organisation's names the account info shows.
 */
export async function findSessionByTokenHash(db: Db, tokenHash: string) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('persons as p', 'p.id', 's.person_id')
    .leftJoin('members as m', 'm.id', 's.member_id')
    .leftJoin('organizations as o', 'o.id', 's.organization_id')
    .select([
      's.id',
      's.person_id',
      's.organization_id',
      's.member_id',
      's.expires_at',
      's.revoked_at',
      's.revoked_reason',
      's.last_seen_at',
      'p.status as person_status',
      'm.status as member_status',
      'm.roles as member_roles',
      'o.deleted_at as org_deleted_at',
      'p.real_name_status as person_real_name_status',
      'o.real_name_status as org_real_name_status',
      // What the account-info answer shows, so it needs no query of its own.
      'p.name as person_name',
      'p.mobile as person_mobile',
      (eb) => eb('p.password_hash', 'is not', null).as('person_has_password'),
      'o.name as org_name',
      'o.uscc as org_uscc',
      'o.created_at as org_created_at',
    ])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * A person and, for an organisation space, their membership there, judged as a session would be: for
 * acts that outlive a request (a download address) and must be re-checked when used.
 */
export async function findSpace(db: Db, personId: string, organizationId: string | null) {
  const person = await db
    .selectFrom('persons')
    .select(['id', 'status', 'real_name_status'])
    .where('id', '=', personId)
    .executeTakeFirst();
  if (!person || !organizationId) return person && { person, member: undefined };
  const member = await db
    .selectFrom('members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .select([
      'm.id',
      'm.status',
      'm.roles',
      'o.deleted_at as org_deleted_at',
      'o.real_name_status as org_real_name_status',
    ])
    .where('m.person_id', '=', personId)
    .where('m.organization_id', '=', organizationId)
    .where('m.status', '=', 'active')
    .executeTakeFirst();
  return { person, member };
}

export async function touchSession(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export async function revokeSession(db: Db, id: string, reason: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokePersonSessions(
  db: Db,
  personId: string,
  reason: string,
  exceptId?: string,
): Promise<void> {
  let q = db
    .updateTable('sessions')
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where('person_id', '=', personId)
    .where('revoked_at', 'is', null);
  if (exceptId) q = q.where('id', '!=', exceptId);
  await q.execute();
}

export async function revokeOrganizationSessions(
  db: Db,
  organizationId: string,
  reason: string,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .execute();
}
