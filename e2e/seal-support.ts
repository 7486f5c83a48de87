import type { EndEntityProfile } from '../apps/server/src/modules/pki/pki.service';
import { DEMO_OPERATOR } from '../apps/server/src/modules/operators/seed-operator';
import {
  createOrgByApi,
  joinOrgByApi,
  loginByApi,
  mustCallApi,
  uniqueMobile,
  type E2eServer,
} from './support';

/**
 * Fixtures of the seal browser tests, made through the API as a user would (and the database only where
 * the API has no way: real names are proven by the sandbox bureau elsewhere, and the legal-representative
 * role follows the registry). Each test's subject is its own pages; these only set the stage.
 */
export interface SealOrg {
  organizeId: string;
  orgName: string;
  /** Super administrator (the creator), inside the organisation. */
  admin: string;
  /** The legal representative, inside the organisation. */
  legal: string;
  legalMemberId: string;
  /** A staff member, inside the organisation. */
  staff: string;
  staffMemberId: string;
  staffMobile: string;
}

/** A real-named organisation with its creator (super administrator), a legal representative and a staff member. */
export async function sealOrgByApi(server: E2eServer): Promise<SealOrg> {
  const { base, db } = server;
  const adminPerson = await loginByApi(base, uniqueMobile());
  const org = await createOrgByApi(base, adminPerson);
  const legalMobile = uniqueMobile();
  const legal = await joinOrgByApi(base, org.token, org.organizeId, {
    mobile: legalMobile,
    personToken: await loginByApi(base, legalMobile),
    nickname: '法定代表人',
  });
  await db
    .updateTable('members')
    .set({ roles: ['legalPerson'] })
    .where('id', '=', legal.memberId)
    .execute();
  const staffMobile = uniqueMobile();
  const staff = await joinOrgByApi(base, org.token, org.organizeId, {
    mobile: staffMobile,
    personToken: await loginByApi(base, staffMobile),
    nickname: '员工甲',
  });
  await markOrgRealNamed(server, org.organizeId);
  return {
    organizeId: org.organizeId,
    orgName: org.orgName,
    admin: org.token,
    legal: legal.token,
    legalMemberId: legal.memberId,
    staff: staff.token,
    staffMemberId: staff.memberId,
    staffMobile,
  };
}

/** The organisation and every member's person real-named (what the sandbox bureau flows prove elsewhere). */
export async function markOrgRealNamed(server: E2eServer, organizeId: string): Promise<void> {
  const { db } = server;
  await db.updateTable('organizations').set({ real_name_status: 1 }).where('id', '=', organizeId).execute();
  const people = await db
    .selectFrom('members')
    .select('person_id')
    .where('organization_id', '=', organizeId)
    .execute();
  await db
    .updateTable('persons')
    .set({ real_name_status: 1 })
    .where(
      'id',
      'in',
      people.map((p) => p.person_id),
    )
    .execute();
}

/** The demo operator's console token. */
export async function operatorTokenByApi(base: string): Promise<string> {
  const r = await mustCallApi<{ operatorToken: string }>(base, 'POST', '/manage/api/v1/login', null, {
    username: DEMO_OPERATOR.username,
    password: DEMO_OPERATOR.password,
  });
  return r.operatorToken;
}

/** The operator approves an application of a review queue. */
export async function approveByApi(
  base: string,
  operatorToken: string,
  queue: 'realname' | 'sealApply' | 'sealChange',
  id: string,
): Promise<void> {
  const res = await fetch(`${base}/manage/api/v1/queues/${queue}/${encodeURIComponent(id)}/approve`, {
    method: 'POST',
    headers: { 'x-operator-token': operatorToken },
  });
  const body = (await res.json()) as { code: number; message: string };
  if (body.code !== 0) throw new Error(`approve ${queue} ${id}: ${body.code} ${body.message}`);
}

/** Apply (by the administrator), approve (operator), claim (legal representative): a normal seal. */
export async function madeSealByApi(
  server: E2eServer,
  org: SealOrg,
  body: Record<string, unknown> = { sealKind: 'contract' },
): Promise<{ sealCode: string; applyNo: string }> {
  const applied = await mustCallApi<{ applyNo: string }>(
    server.base,
    'POST',
    '/v1/seals/sealApply',
    org.admin,
    body,
  );
  await approveByApi(server.base, await operatorTokenByApi(server.base), 'sealApply', applied.applyNo);
  const claimed = await mustCallApi<{ list: { sealCode: string | null; receiveStatus: string }[] }>(
    server.base,
    'POST',
    '/v1/seals/activeFlow',
    org.legal,
    { applyNos: [applied.applyNo], agreementAccepted: true },
  );
  const first = claimed.list[0];
  if (!first?.sealCode || first.receiveStatus !== 'made')
    throw new Error(`seal not made: ${JSON.stringify(claimed)}`);
  return { sealCode: first.sealCode, applyNo: applied.applyNo };
}

/**
 * Makes a seal's certificate end in `days` days (renewal opens at 30 or fewer): the platform CA issues it a
 * real certificate with that end, as if a year had passed since it was made.
 */
export async function expireSealIn(server: E2eServer, sealCode: string, days: number): Promise<void> {
  const { app, db } = server;
  const seal = await db
    .selectFrom('seals')
    .select(['cert_serial', 'organization_id', 'person_id', 'subject'])
    .where('seal_code', '=', sealCode)
    .executeTakeFirstOrThrow();
  if (!seal.cert_serial) throw new Error(`seal ${sealCode} has no certificate`);
  const old = await app.pki.certificate(db, seal.cert_serial);
  const cert = await app.pki.issue(db, {
    profile: old.profile as EndEntityProfile,
    subject: JSON.parse(old.subject_spec),
    owner:
      seal.subject === 'organization'
        ? { type: 'organization', id: seal.organization_id! }
        : { type: 'person', id: seal.person_id },
    sealCode,
    notBefore: new Date(Date.now() - 400 * DAY),
    notAfter: new Date(Date.now() + days * DAY),
  });
  await db
    .updateTable('seals')
    .set({ cert_serial: cert.serial, valid_from: cert.notBefore, valid_to: cert.notAfter })
    .where('seal_code', '=', sealCode)
    .execute();
}

const DAY = 86_400_000;
