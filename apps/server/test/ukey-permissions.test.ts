/**
 * An agent's UKey permission (POST /v1/ukey/user/operation/agentInsertUKeyPromotePermission, issue 15): a
 * member who is not the legal representative inserts a bound UKey and asks for the point an operation on
 * it needs. Held already: answered at once. Else a request that only the legal representative or super
 * administrator decides, never their own, approving only what they hold; an approval lets that member do
 * that operation on that key once, within its time, while x-key-serial names the key.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { sealFixtures, type OrgFixture } from './seals-fixtures';

const PROMOTE = '/v1/ukey/user/operation/agentInsertUKeyPromotePermission';
const LIST = '/v1/ukey/user/operation/promotePermission/list';
const DECIDE = '/v1/ukey/user/operation/promotePermission/decide';

describe.each(DIALECTS)('UKey permission requests [%s]', (dialect) => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  const { post } = f;
  let a: OrgFixture;
  let b: OrgFixture;
  const keys = new Map<string, KeyObject>();

  /** Binds a key (a software pair standing in for the token) to the organisation, as its administrator. */
  async function bindKey(o: OrgFixture, ukeySn: string) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const org = await t.db
      .selectFrom('organizations')
      .select(['name', 'uscc'])
      .where('id', '=', o.orgId)
      .executeTakeFirstOrThrow();
    const cert = await t.app.pki.issue(t.db, {
      profile: 'org-seal',
      subject: { commonName: 'UKey', organization: org.name, organizationIdentifier: org.uscc },
      owner: { type: 'organization', id: o.orgId },
      publicKeySpki: new Uint8Array(pair.publicKey.export({ format: 'der', type: 'spki' })),
    });
    const ch = await post('/v1/sealUKeyBinding/challenge', o.admin, { ukeySn });
    const bound = await post('/v1/sealUKeyBinding/binding', o.admin, {
      ukeySn,
      ukeyName: '经办钥匙',
      certificate: Buffer.from(cert.der).toString('base64'),
      challengeId: ch.body.data.challengeId,
      signature: sign('sha256', Buffer.from(ch.body.data.challenge), pair.privateKey).toString('base64'),
    });
    expect(bound.body.code, JSON.stringify(bound.body)).toBe(0);
    keys.set(ukeySn, pair.privateKey);
  }

  /** The agent's proof that the key is in their hands: its signature over their own challenge. */
  async function proof(token: string, ukeySn: string, key = keys.get(ukeySn)!) {
    const ch = await post('/v1/sealUKeyBinding/challenge', token, { ukeySn });
    expect(ch.body.code, JSON.stringify(ch.body)).toBe(0);
    return {
      challengeId: ch.body.data.challengeId as string,
      signature: sign('sha256', Buffer.from(ch.body.data.challenge), key).toString('base64'),
    };
  }

  const promote = async (token: string, ukeySn: string, operation: string, key?: KeyObject) =>
    post(PROMOTE, token, { ukeySn, operation, ...(await proof(token, ukeySn, key)), reason: '经办更换' });

  const withKey = (token: string, url: string, body: unknown, serial?: string) =>
    t.call('POST', url, { token, body, headers: serial ? { 'x-key-serial': serial } : {} });

  beforeAll(async () => {
    t = await startTestApp(dialect);
    a = await f.org();
    b = await f.org();
    for (const sn of ['AGENT01', 'AGENT02', 'AGENT03']) await bindKey(a, sn);
    await bindKey(b, 'AGENTB1');
  }, 120_000);
  afterAll(async () => t?.close());

  it('answers a holder at once, and records one waiting request for an agent', async () => {
    const held = await promote(a.sealAdmin, 'AGENT01', 'unbind');
    expect(held.body.code, JSON.stringify(held.body)).toBe(0);
    expect(held.body.data).toEqual({ status: 'held', point: 'seal.manage', request: null });

    const asked = await promote(a.staff, 'AGENT01', 'unbind');
    expect(asked.body.code, JSON.stringify(asked.body)).toBe(0);
    expect(asked.body.data).toMatchObject({
      status: 'pending',
      point: 'seal.manage',
      request: { ukeySn: 'AGENT01', operation: 'unbind', status: 'pending', reason: '经办更换' },
    });
    expect(asked.body.data.request.applicantMobile).toMatch(/^\d{3}\*{4}\d{4}$/);
    // Asking again answers the same request.
    const again = await promote(a.staff, 'AGENT01', 'unbind');
    expect(again.body.data.request.requestNo).toBe(asked.body.data.request.requestNo);
    const rows = await t.db.selectFrom('ukey_permission_requests').select('request_no').execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses without the key in hand, another organisation’s key, and persons', async () => {
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    expect((await promote(a.staff, 'AGENT01', 'unbind', stranger)).body.code).toBe(7018);
    // B's key is not bound in A; A's key is not bound in B.
    expect((await promote(a.staff, 'AGENTB1', 'unbind', keys.get('AGENTB1'))).body.code).toBe(7016);
    expect((await promote(b.staff, 'AGENT01', 'unbind', keys.get('AGENT01'))).body.code).toBe(7016);
    // A spent or foreign challenge proves nothing.
    const p = await proof(a.staff, 'AGENT02');
    expect((await post(PROMOTE, a.staff, { ukeySn: 'AGENT02', operation: 'unbind', ...p })).body.code).toBe(
      0,
    );
    expect((await post(PROMOTE, a.staff, { ukeySn: 'AGENT02', operation: 'unbind', ...p })).body.code).toBe(
      7017,
    );
    const person = await f.person();
    expect(
      (
        await post(PROMOTE, person.token, {
          ukeySn: 'AGENT01',
          operation: 'unbind',
          challengeId: 'uch_x',
          signature: 'AA==',
        })
      ).body.code,
    ).toBe(11007);
    expect((await post(PROMOTE, a.staff, { ukeySn: 'AGENT01', operation: 'format' })).status).toBe(400);
  });

  it('lets only the legal representative or super administrator decide, and lists by who asks', async () => {
    const mine = (await post(LIST, a.staff, {})).body.data;
    expect(mine.list.map((r: { ukeySn: string }) => r.ukeySn).sort()).toEqual(['AGENT01', 'AGENT02']);
    const sealAdminList = (await post(LIST, a.sealAdmin, {})).body.data;
    expect(sealAdminList.total).toBe(0);
    const legalList = (await post(LIST, a.legal, { status: 'pending' })).body.data;
    expect(legalList.total).toBe(2);
    expect((await post(LIST, b.admin, {})).body.data.total).toBe(0);

    const requestNo = mine.list.find((r: { ukeySn: string }) => r.ukeySn === 'AGENT01').requestNo;
    // Not a decider: the staff member themselves, a seal administrator.
    expect((await post(DECIDE, a.staff, { requestNo, action: 'approve' })).body.code).toBe(7036);
    expect((await post(DECIDE, a.sealAdmin, { requestNo, action: 'approve' })).body.code).toBe(7036);
    // Another organisation's super administrator does not find it.
    expect((await post(DECIDE, b.admin, { requestNo, action: 'approve' })).body.code).toBe(7034);
    // A rejection needs a reason.
    expect((await post(DECIDE, a.legal, { requestNo, action: 'reject' })).body.code).toBe(3123);
  });

  it('honours an approval once, only with the key named in x-key-serial, and never after it expires', async () => {
    const staffList = (await post(LIST, a.staff, {})).body.data.list as {
      requestNo: string;
      ukeySn: string;
    }[];
    const requestNo = staffList.find((r) => r.ukeySn === 'AGENT01')!.requestNo;
    // Before any approval the agent cannot unbind, header or not.
    expect(
      (await withKey(a.staff, '/v1/sealUKeyBinding/cancelBinding', { ukeySn: 'AGENT01' }, 'AGENT01')).body
        .code,
    ).toBe(11003);
    const approved = await post(DECIDE, a.admin, { requestNo, action: 'approve' });
    expect(approved.body.code, JSON.stringify(approved.body)).toBe(0);
    expect(approved.body.data).toMatchObject({ status: 'approved', deciderName: expect.any(String) });
    expect(Date.parse(approved.body.data.expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect((await post(DECIDE, a.legal, { requestNo, action: 'approve' })).body.code).toBe(7035);
    // Asking now answers the approval.
    expect((await promote(a.staff, 'AGENT01', 'unbind')).body.data.status).toBe('approved');

    // The approval is for unbinding AGENT01 by this member with that key named: nothing else.
    const cancel = (sn: string, token = a.staff, serial?: string) =>
      withKey(token, '/v1/sealUKeyBinding/cancelBinding', { ukeySn: sn }, serial);
    expect((await cancel('AGENT01')).body.code).toBe(11003);
    expect((await cancel('AGENT01', a.staff, 'AGENT03')).body.code).toBe(11003);
    expect((await cancel('AGENT03', a.staff, 'AGENT03')).body.code).toBe(11003);
    expect(
      (
        await withKey(
          a.staff,
          '/v1/sealUKeyBinding/updateBindingSeal',
          { ukeySn: 'AGENT01', sealCodes: [] },
          'AGENT01',
        )
      ).body.code,
    ).toBe(11003);
    const other = await f.member(a.admin, a.orgId);
    await f.verify(a.orgId);
    expect((await cancel('AGENT01', other.token, 'AGENT01')).body.code).toBe(11003);

    const done = await cancel('AGENT01', a.staff, 'AGENT01');
    expect(done.body.code, JSON.stringify(done.body)).toBe(0);
    expect(done.body.data).toEqual({ ukeySn: 'AGENT01', status: 'unbound' });
    const used = await t.db
      .selectFrom('ukey_permission_requests')
      .select(['status', 'used_at'])
      .where('request_no', '=', requestNo)
      .executeTakeFirstOrThrow();
    expect(used.status).toBe('used');
    const audit = await t.db
      .selectFrom('audit_logs')
      .select(['action', 'detail'])
      .where('target_id', '=', 'AGENT01')
      .where('action', '=', 'ukey.unbind')
      .executeTakeFirstOrThrow();
    expect(audit.detail).toMatchObject({ permissionRequest: requestNo });

    // Changing the seals of AGENT03: approved, then past its time it grants nothing.
    const asked = await promote(a.staff, 'AGENT03', 'updateSeals');
    const ok3 = await post(DECIDE, a.legal, {
      requestNo: asked.body.data.request.requestNo,
      action: 'approve',
    });
    expect(ok3.body.code, JSON.stringify(ok3.body)).toBe(0);
    await t.db
      .updateTable('ukey_permission_requests')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('request_no', '=', asked.body.data.request.requestNo)
      .execute();
    const late = await withKey(
      a.staff,
      '/v1/sealUKeyBinding/updateBindingSeal',
      { ukeySn: 'AGENT03', sealCodes: [] },
      'AGENT03',
    );
    expect(late.body.code).toBe(11003);
    const expired = (await post(LIST, a.staff, { status: 'expired' })).body.data.list;
    expect(expired.map((r: { ukeySn: string }) => r.ukeySn)).toEqual(['AGENT03']);
  });

  it('never lets a decider grant a point they do not hold, nor decide their own request', async () => {
    // The super administrator never holds seal.claim: a request for it cannot be approved by them.
    const base = {
      organization_id: a.orgId,
      ukey_sn: 'AGENT02',
      operation: 'unbind',
      status: 'pending' as const,
      reason: null,
      decider_person_id: null,
      decider_name: null,
      reject_reason: null,
      decided_at: null,
      expires_at: null,
      used_at: null,
    };
    const staff = await t.db
      .selectFrom('members')
      .select(['id', 'person_id'])
      .where('id', '=', a.staffMemberId)
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('ukey_permission_requests')
      .values({
        ...base,
        request_no: 'ukp_claim',
        member_id: staff.id,
        person_id: staff.person_id,
        point: 'seal.claim',
        operation: 'claim',
      })
      .execute();
    const refused = await post(DECIDE, a.admin, { requestNo: 'ukp_claim', action: 'approve' });
    expect(refused.body.code).toBe(11115);
    // The legal representative's own request (were there one) is not theirs to decide.
    const legal = await t.db
      .selectFrom('members')
      .select(['id', 'person_id'])
      .where('id', '=', a.legalMemberId)
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('ukey_permission_requests')
      .values({
        ...base,
        request_no: 'ukp_self',
        member_id: legal.id,
        person_id: legal.person_id,
        point: 'seal.manage',
      })
      .execute();
    expect((await post(DECIDE, a.legal, { requestNo: 'ukp_self', action: 'approve' })).body.code).toBe(3105);
    // A rejection is final.
    const rejected = await post(DECIDE, a.admin, {
      requestNo: 'ukp_self',
      action: 'reject',
      rejectReason: '不需要',
    });
    expect(rejected.body.data).toMatchObject({ status: 'rejected', rejectReason: '不需要' });
  });
});
