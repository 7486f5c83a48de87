import type { Db, UkeyPermissionRequestsTable } from '@openseal/db';
import type { Insertable, Selectable } from 'kysely';

export type PermissionRequestRow = Selectable<UkeyPermissionRequestsTable> & {
  applicant_name: string;
  applicant_mobile: string;
};

function withApplicant(db: Db) {
  return db
    .selectFrom('ukey_permission_requests as r')
    .innerJoin('persons as p', 'p.id', 'r.person_id')
    .selectAll('r')
    .select(['p.name as applicant_name', 'p.mobile as applicant_mobile']);
}

export async function insertRequest(db: Db, row: Insertable<UkeyPermissionRequestsTable>): Promise<void> {
  await db.insertInto('ukey_permission_requests').values(row).execute();
}

export const findRequest = (db: Db, organizationId: string, requestNo: string) =>
  withApplicant(db)
    .where('r.request_no', '=', requestNo)
    .where('r.organization_id', '=', organizationId)
    .executeTakeFirst();

/** A member's request for one operation on one key that is waiting, or approved and still usable. */
export const findOpenRequest = (
  db: Db,
  q: { memberId: string; ukeySn: string; operation: string; now: Date },
) =>
  withApplicant(db)
    .where('r.member_id', '=', q.memberId)
    .where('r.ukey_sn', '=', q.ukeySn)
    .where('r.operation', '=', q.operation)
    .where((eb) =>
      eb.or([
        eb('r.status', '=', 'pending'),
        eb.and([eb('r.status', '=', 'approved'), eb('r.expires_at', '>', q.now)]),
      ]),
    )
    .orderBy('r.created_at', 'desc')
    .executeTakeFirst();

export async function listRequests(
  db: Db,
  q: {
    organizationId: string;
    personId?: string;
    status?: string;
    now: Date;
    limit: number;
    offset: number;
  },
): Promise<{ total: number; rows: PermissionRequestRow[] }> {
  let base = db.selectFrom('ukey_permission_requests as r').where('r.organization_id', '=', q.organizationId);
  if (q.personId) base = base.where('r.person_id', '=', q.personId);
  // "expired": approved but past its time, never used; "approved" lists only the usable ones.
  if (q.status === 'expired')
    base = base.where('r.status', '=', 'approved').where('r.expires_at', '<=', q.now);
  else if (q.status === 'approved')
    base = base.where('r.status', '=', 'approved').where('r.expires_at', '>', q.now);
  else if (q.status) base = base.where('r.status', '=', q.status as PermissionRequestRow['status']);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .innerJoin('persons as p', 'p.id', 'r.person_id')
    .selectAll('r')
    .select(['p.name as applicant_name', 'p.mobile as applicant_mobile'])
    .orderBy('r.created_at', 'desc')
    .orderBy('r.request_no')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  return { total: Number(total), rows };
}

/** Decides a waiting request; false when someone decided it meanwhile. */
export async function decideRequest(
  db: Db,
  requestNo: string,
  set: {
    status: 'approved' | 'rejected';
    decider_person_id: string;
    decider_name: string;
    reject_reason: string | null;
    decided_at: Date;
    expires_at: Date | null;
  },
): Promise<boolean> {
  const r = await db
    .updateTable('ukey_permission_requests')
    .set(set)
    .where('request_no', '=', requestNo)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Takes the approval a member holds for one operation on one key: one statement marks it used, so two
 * requests with one approval cannot both act. Answers the request number, or undefined.
 */
export async function takeApproval(
  db: Db,
  q: { organizationId: string; memberId: string; ukeySn: string; operation: string; now: Date },
): Promise<string | undefined> {
  const open = await db
    .selectFrom('ukey_permission_requests')
    .select('request_no')
    .where('organization_id', '=', q.organizationId)
    .where('member_id', '=', q.memberId)
    .where('ukey_sn', '=', q.ukeySn)
    .where('operation', '=', q.operation)
    .where('status', '=', 'approved')
    .where('expires_at', '>', q.now)
    .orderBy('decided_at')
    .limit(1)
    .executeTakeFirst();
  if (!open) return undefined;
  const r = await db
    .updateTable('ukey_permission_requests')
    .set({ status: 'used', used_at: q.now })
    .where('request_no', '=', open.request_no)
    .where('status', '=', 'approved')
    .returning('request_no')
    .executeTakeFirst();
  return r?.request_no;
}

/** Whether a member holds a usable approval, without taking it. */
export async function hasApproval(
  db: Db,
  q: { organizationId: string; memberId: string; ukeySn: string; operation: string; now: Date },
): Promise<boolean> {
  const r = await db
    .selectFrom('ukey_permission_requests')
    .select('request_no')
    .where('organization_id', '=', q.organizationId)
    .where('member_id', '=', q.memberId)
    .where('ukey_sn', '=', q.ukeySn)
    .where('operation', '=', q.operation)
    .where('status', '=', 'approved')
    .where('expires_at', '>', q.now)
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}
