/**
 * Internal flows (POST /v1/sign/internalFlow, issue 15): a flow inside the caller's organisation, every
 * signer one of its active members; outsiders, paused members and persons in their personal space are
 * refused with catalogued codes; the signers sign for the organisation with its seals under the usual
 * rules (seal administrators directly, staff after a seal-use approval); other organisations see nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, mobile, startTestApp, type TestApp } from './harness';
import { sealFixtures, type OrgFixture } from './seals-fixtures';
import { signFixtures } from './sign-fixtures';
import { tinyPdf } from './upload-fixtures';

describe.each(DIALECTS)('internal flows [%s]', (dialect) => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  const { upload, mobileOf, willFor } = signFixtures(() => t);
  const { post, get } = f;
  let a: OrgFixture;
  let b: OrgFixture;
  let sealA: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const op = await f.operator();
    a = await f.org();
    b = await f.org();
    sealA = (await f.madeSeal(a, op)).sealCode;
  }, 120_000);
  afterAll(async () => t?.close());

  const internal = async (token: string, signers: unknown[], extra: Record<string, unknown> = {}) =>
    post('/v1/sign/internalFlow', token, {
      name: '内部审批单',
      files: [{ fileKey: await upload(token, tinyPdf('internal')) }],
      signers,
      ...extra,
    });

  it('refuses anyone who is not an active member of the caller’s organisation', async () => {
    const bMember = await f.member(b.admin, b.orgId);
    const outsider = await internal(a.admin, [{ memberId: bMember.memberId }]);
    expect(outsider.body.code).toBe(15017);
    expect(outsider.body.message).toContain(bMember.memberId);
    const stranger = mobile();
    await t.loginBySms(stranger);
    const byMobile = await internal(a.admin, [{ memberId: a.staffMemberId }, { mobile: stranger }]);
    expect(byMobile.body.code).toBe(15017);
    // B's administrator, naming A's member from B's space, is refused the same way.
    expect((await internal(b.admin, [{ memberId: a.staffMemberId }])).body.code).toBe(15017);
    // A paused member is no signer.
    const paused = await f.member(a.admin, a.orgId);
    expect(
      (await post('/v1/organizes/membersPause', a.admin, { memberId: paused.memberId, pause: true })).body
        .code,
    ).toBe(0);
    expect((await internal(a.admin, [{ memberId: paused.memberId }])).body.code).toBe(15017);
    // A person in their personal space has no organisation to sign inside.
    const p = await f.person();
    expect((await internal(p.token, [{ mobile: await mobileOf(a.staff) }])).body.code).toBe(11007);
    // Neither memberId nor mobile: the request is invalid; no session: login first.
    expect((await internal(a.admin, [{ placements: [] }])).status).toBe(400);
    const noSession = await t.call('POST', '/v1/sign/internalFlow', {
      body: { name: 'x', files: [{ fileKey: 'fil_x' }], signers: [{ memberId: a.staffMemberId }] },
    });
    expect(noSession.body.code).toBe(102);
    // Nothing was stored by any refusal.
    const flows = await t.db.selectFrom('sign_flows').select('id').where('scene', '=', 'internal').execute();
    expect(flows).toEqual([]);
  });

  it('creates the flow for members who sign with the organisation’s seal under the approval rules', async () => {
    const staffMobile = await mobileOf(a.staff);
    const created = await internal(
      a.admin,
      [{ memberId: a.staffMemberId }, { mobile: await mobileOf(a.sealAdmin), order: 2 }],
      { remark: '部门内部' },
    );
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const flow = created.body.data;
    expect(flow).toMatchObject({ scene: 'internal', status: 'pendingSign', initiatorOrganizeName: a.name });
    expect(flow.signers).toHaveLength(2);
    for (const s of flow.signers) expect(s).toMatchObject({ type: 'organization', organizeName: a.name });
    // The first signer was told by text; the second waits for their turn.
    const outbox = await t.call('GET', `/v1/dev/sms-outbox?mobile=${staffMobile}`);
    expect(outbox.body.data.messages[0].scene).toBe('signInvite');
    const [staffTask, adminTask] = flow.signers as { taskId: string; status: string }[];
    expect([staffTask!.status, adminTask!.status]).toEqual(['pending', 'waiting']);

    // Staff may not use the seal directly: an approval first, decided by the seal administrator.
    const placements = [{ fileId: flow.files[0].fileId, kind: 'seal', page: 1, x: 60, y: 60 }];
    const options = await get(`/v1/sign/flow/${flow.flowId}/task/${staffTask!.taskId}/options`, a.staff);
    expect(options.body.data.seals.find((s: { sealCode: string }) => s.sealCode === sealA).access).toBe(
      'approval',
    );
    const w1 = await willFor(a.staff, staffTask!.taskId);
    const refused = await post('/v1/sign/flowsTask', a.staff, {
      flowId: flow.flowId,
      taskId: staffTask!.taskId,
      willBizId: w1,
      sealCode: sealA,
      placements,
    });
    expect(refused.body.code).toBe(15104);
    const asked = await post(`/v1/sign/flow/${flow.flowId}/task/${staffTask!.taskId}/approval`, a.staff, {
      sealCode: sealA,
      placements,
    });
    expect(asked.body.code, JSON.stringify(asked.body)).toBe(0);
    const approved = await post(`/seal/approve/${asked.body.data.approvalId}`, a.sealAdmin, {
      action: 'approve',
    });
    expect(approved.body.data.status).toBe('approved');
    const staffSigned = await post('/v1/sign/flowsTask', a.staff, {
      flowId: flow.flowId,
      taskId: staffTask!.taskId,
      willBizId: await willFor(a.staff, staffTask!.taskId),
      sealCode: sealA,
      placements,
    });
    expect(staffSigned.body.code, JSON.stringify(staffSigned.body)).toBe(0);
    expect(staffSigned.body.data.flowStatus).toBe('signing');

    // The seal administrator signs directly; the flow completes.
    const adminSigned = await post('/v1/sign/flowsTask', a.sealAdmin, {
      flowId: flow.flowId,
      taskId: adminTask!.taskId,
      willBizId: await willFor(a.sealAdmin, adminTask!.taskId),
      sealCode: sealA,
      placements: [{ fileId: flow.files[0].fileId, kind: 'seal', page: 1, x: 30, y: 30 }],
    });
    expect(adminSigned.body.code, JSON.stringify(adminSigned.body)).toBe(0);
    expect(adminSigned.body.data.flowStatus).toBe('completed');

    // The organisation's records list it as internal; another organisation cannot even see it.
    const records = await post('/v1/sign/accounts/flows', a.admin, { role: 'initiated' });
    expect(records.body.data.list.find((x: { flowId: string }) => x.flowId === flow.flowId).scene).toBe(
      'internal',
    );
    expect((await get(`/v1/sign/flow/${flow.flowId}`, b.admin)).body.code).toBe(15001);
  }, 60_000);

  it('lets the initiator sign first and refuses signing with another organisation’s seal', async () => {
    const created = await internal(a.admin, [{ memberId: a.staffMemberId }], { initiatorSigns: true });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const flow = created.body.data;
    expect(flow.signers[0]).toMatchObject({ isInitiator: true, type: 'organization', status: 'pending' });
    // Listing the initiator again as a signer is a duplicate.
    const adminMember = (
      await t.db
        .selectFrom('members as m')
        .innerJoin('persons as p', 'p.id', 'm.person_id')
        .select('m.id')
        .where('m.organization_id', '=', a.orgId)
        .where('p.mobile', '=', await mobileOf(a.admin))
        .executeTakeFirstOrThrow()
    ).id;
    expect((await internal(a.admin, [{ memberId: adminMember }], { initiatorSigns: true })).body.code).toBe(
      15008,
    );
    const op = await f.operator();
    const sealB = (await f.madeSeal(b, op)).sealCode;
    const taskId = flow.signers[0].taskId as string;
    const wrongSeal = await post('/v1/sign/flowsTask', a.admin, {
      flowId: flow.flowId,
      taskId,
      willBizId: await willFor(a.admin, taskId),
      sealCode: sealB,
      placements: [{ fileId: flow.files[0].fileId, kind: 'seal', page: 1, x: 60, y: 60 }],
    });
    expect(wrongSeal.body.code).toBe(15103);
  }, 60_000);
});
