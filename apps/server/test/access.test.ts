/**
 * Downloads follow visibility (issue 13 point 9): a download address is issued only through an object
 * the caller may see (their upload, a flow they take part in, a seal they may view, their organisation's
 * materials for its administrators, an applicant's material for an active operator), lives minutes, and
 * is judged again when used, so a removed member's addresses stop at once. Will-auths are created only
 * for the caller's own business.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashToken } from '../src/lib/secrets';
import { createOperator } from '../src/modules/operators/operators.service';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { sealFixtures, type OrgFixture } from './seals-fixtures';
import { multipart, tinyPdf } from './upload-fixtures';

describe.each(DIALECTS)('downloads follow visibility [%s]', (dialect) => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  const { post, get } = f;
  let op: string;
  let a: OrgFixture;
  let b: OrgFixture;
  let sealA: string;
  let signer: { token: string; personId: string };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    op = await f.operator();
    a = await f.org();
    b = await f.org();
    sealA = (await f.madeSeal(a, op)).sealCode;
    signer = await f.person('钱七');
  }, 180_000);
  afterAll(async () => t?.close());

  async function upload(token: string, bytes: Buffer, purpose: 'sign' | 'material' = 'sign') {
    const m = multipart([{ name: 'contract.pdf', bytes, type: 'application/pdf' }]);
    const r = await t.call('POST', `/v1/file/uploadInside?purpose=${purpose}`, {
      token,
      body: m.body,
      headers: { 'content-type': m.contentType },
    });
    expect(r.body.code, JSON.stringify(r.body)).toBe(0);
    return r.body.data.fileKey as string;
  }

  async function mobileOf(token: string) {
    const row = await t.db
      .selectFrom('sessions as s')
      .innerJoin('persons as p', 'p.id', 's.person_id')
      .select('p.mobile')
      .where('s.token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    return row.mobile;
  }

  const urlOf = (token: string, fileKey: string) => post('/v1/file/url', token, { fileKey });
  const fetchUrl = (url: string) => t.app.inject({ method: 'GET', url });
  const param = (url: string, name: string) => new URL(url, 'http://x').searchParams.get(name);

  /** A flow started by org A's administrator, signed by a person outside the organisation. */
  async function flowWithOutsideSigner(bytes = tinyPdf(`flow ${Math.random()}`)) {
    const fileKey = await upload(a.admin, bytes);
    const created = await post('/v1/sign/flows', a.admin, {
      name: '保密合同',
      files: [{ fileKey }],
      signers: [{ type: 'person', name: '钱七', mobile: await mobileOf(signer.token) }],
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    return { fileKey, bytes, flowId: created.body.data.flowId as string, flow: created.body.data };
  }

  it('gives no address for a contract to a member outside its flow; its participants get one', async () => {
    const { fileKey, bytes, flowId } = await flowWithOutsideSigner();
    // A member of the initiating organisation who takes no part in the flow, and another organisation.
    for (const token of [a.staff, a.sealAdmin, b.admin]) {
      const refused = await urlOf(token, fileKey);
      expect([refused.status, refused.body.code]).toEqual([403, 5201]);
      const staticUrl = await get(`/v1/organizes/downloadUrl?fileKey=${fileKey}&needStaticUrl=true`, token);
      expect(staticUrl.body.code).toBe(5201);
    }
    // An unknown key answers the same: nothing tells whether a file exists.
    expect((await urlOf(a.staff, 'fil_doesnotexist')).body.code).toBe(5201);

    // The uploader reads it as their own upload; the outside signer through the flow.
    const own = await urlOf(a.admin, fileKey);
    expect(own.body.code).toBe(0);
    expect(param(own.body.data.url, 'via')).toBe('own');
    const through = await urlOf(signer.token, fileKey);
    expect(through.body.code).toBe(0);
    expect([param(through.body.data.url, 'via'), param(through.body.data.url, 'id')]).toEqual([
      'flow',
      flowId,
    ]);
    const dl = await fetchUrl(through.body.data.url);
    expect(dl.statusCode).toBe(200);
    expect(Buffer.compare(dl.rawPayload, bytes)).toBe(0);
    expect(Number(/max-age=(\d+)/.exec(String(dl.headers['cache-control']))?.[1])).toBeLessThanOrEqual(300);

    // Every address lives DOWNLOAD_URL_TTL_SECONDS (300 s), a "static" one too.
    for (const r of [
      own,
      through,
      await get(`/v1/organizes/downloadUrl?fileKey=${fileKey}&needStaticUrl=true`, a.admin),
    ]) {
      const left = Date.parse(r.body.data.expiresAt) - Date.now();
      expect(left).toBeGreaterThan(250_000);
      expect(left).toBeLessThanOrEqual(300_000);
    }
  });

  it('binds an address to its holder, its object and its time', async () => {
    const { fileKey } = await flowWithOutsideSigner();
    const url = (await urlOf(signer.token, fileKey)).body.data.url as string;
    const staffPerson = (await get('/v1/accounts/info', a.staff)).body.data.userInfoPerson
      .accountId as string;
    const swapped = (name: string, value: string) => {
      const u = new URL(url, 'http://x');
      u.searchParams.set(name, value);
      return `${u.pathname}${u.search}`;
    };
    // Naming another holder, another object or a later time breaks the signature (5007).
    for (const forged of [
      swapped('by', `p.${staffPerson}.${a.orgId}`),
      swapped('via', 'own'),
      swapped('id', 'flo_other'),
      swapped('expires', String(Number(param(url, 'expires')) + 3600)),
    ])
      expect((await fetchUrl(forged)).json().code).toBe(5007);
    // Once its minutes are over, it has expired (5203).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 301_000);
      const late = await fetchUrl(url);
      expect([late.statusCode, late.json().code]).toEqual([410, 5203]);
    } finally {
      vi.useRealTimers();
    }
    expect((await fetchUrl(url)).statusCode).toBe(200);
  });

  it("stops a removed member's addresses at once: own uploads, seal pictures, a flow's approval", async () => {
    const m = await f.member(a.admin, a.orgId);
    await f.verify(a.orgId);
    const mine = await upload(m.token, tinyPdf('my own draft'));
    const ownUrl = (await urlOf(m.token, mine)).body.data.url as string;
    const seal = await get(`/v1/seals/${sealA}`, m.token);
    expect(seal.body.code).toBe(0);
    const sealUrl = seal.body.data.imageUrl as string;
    expect([param(sealUrl, 'via'), param(sealUrl, 'id')]).toEqual(['seal', sealA]);

    // The member signs for the organisation in a flow and asks for a seal-use approval.
    const fileKey = await upload(a.admin, tinyPdf('approval'));
    const created = await post('/v1/sign/flows', a.admin, {
      name: '采购合同',
      files: [{ fileKey }],
      signers: [
        { type: 'organization', name: '经办', mobile: await mobileOf(m.token), organizeName: a.name },
      ],
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const flow = created.body.data;
    const asked = await post(
      `/v1/sign/flow/${flow.flowId}/task/${flow.signers[0].taskId}/approval`,
      m.token,
      {
        sealCode: sealA,
        placements: [{ fileId: flow.files[0].fileId, kind: 'seal', page: 1, x: 50, y: 50 }],
        reason: '合同需盖章',
      },
    );
    expect(asked.body.code, JSON.stringify(asked.body)).toBe(0);
    const approvalUrl = asked.body.data.sealImageUrl as string;
    expect([param(approvalUrl, 'via'), param(approvalUrl, 'id')]).toEqual(['flow', flow.flowId]);
    const contractUrl = (await urlOf(m.token, fileKey)).body.data.url as string;
    expect(param(contractUrl, 'via')).toBe('flow');
    // The seal administrator deciding it sees the same picture through the flow.
    const decider = (await get(`/seal/approves/receive`, a.sealAdmin)).body.data.list.find(
      (x: { approvalId: string }) => x.approvalId === asked.body.data.approvalId,
    );
    expect((await fetchUrl(decider.sealImageUrl)).statusCode).toBe(200);

    for (const u of [ownUrl, sealUrl, approvalUrl, contractUrl])
      expect((await fetchUrl(u)).statusCode).toBe(200);
    // Paused, the member reads nothing; resumed, the same addresses work again (judged at use).
    expect(
      (await post('/v1/organizes/membersPause', a.admin, { memberId: m.memberId, pause: true })).body.code,
    ).toBe(0);
    for (const u of [ownUrl, sealUrl, approvalUrl, contractUrl]) {
      const r = await fetchUrl(u);
      expect([r.statusCode, r.json().code]).toEqual([403, 5202]);
    }
    expect(
      (await post('/v1/organizes/membersPause', a.admin, { memberId: m.memberId, pause: false })).body.code,
    ).toBe(0);
    expect((await fetchUrl(sealUrl)).statusCode).toBe(200);
    // Removed, every address they hold stops, minutes before it would expire.
    expect((await post(`/v1/organizes/members/delete/${m.memberId}`, a.admin)).body.code).toBe(0);
    for (const u of [ownUrl, sealUrl, approvalUrl, contractUrl]) {
      const r = await fetchUrl(u);
      expect([r.statusCode, r.json().code]).toEqual([403, 5202]);
    }
    // Those still in the organisation are not affected.
    expect((await fetchUrl((await get(`/v1/seals/${sealA}`, a.staff)).body.data.imageUrl)).statusCode).toBe(
      200,
    );
  });

  it('reads seal pictures through the seal, materials through the organisation or a reviewer', async () => {
    const seal = (await get(`/v1/seals/${sealA}`, a.staff)).body.data;
    const imageKey = (
      await t.db
        .selectFrom('seals')
        .select('image_file_key')
        .where('seal_code', '=', sealA)
        .executeTakeFirstOrThrow()
    ).image_file_key!;
    expect(seal.imageUrl).toContain(encodeURIComponent(imageKey));
    // By key: a member of the seal's organisation may (seal.view), another organisation may not.
    const viaKey = await urlOf(a.staff, imageKey);
    expect([viaKey.body.code, param(viaKey.body.data.url, 'via')]).toEqual([0, 'seal']);
    expect((await urlOf(b.admin, imageKey)).body.code).toBe(5201);
    expect((await urlOf(signer.token, imageKey)).body.code).toBe(5201);

    // A staff member's authority material: theirs, and their organisation's administrators', not a colleague's.
    const material = await upload(a.staff, tinyPdf('licence'), 'material');
    expect((await urlOf(a.staff, material)).body.code).toBe(0);
    expect((await urlOf(a.sealAdmin, material)).body.code).toBe(5201);
    const byAdmin = await urlOf(a.admin, material);
    expect([byAdmin.body.code, param(byAdmin.body.data.url, 'via')]).toEqual([0, 'material']);

    // An operator reads it from the console while their account is active.
    const username = `reviewer${Math.random().toString(36).slice(2, 8)}`;
    await createOperator(
      t.db,
      { username, password: 'Reviewer1234', name: '审核员' },
      {
        operatorId: null,
        client: { ip: null, userAgent: null },
      },
    );
    const login = await t.call('POST', '/manage/api/v1/login', {
      body: { username, password: 'Reviewer1234' },
    });
    const opToken = login.body.data.operatorToken as string;
    const consoleUrl = (key: string) =>
      t.call('GET', `/manage/api/v1/materials/${key}/url`, { headers: { 'x-operator-token': opToken } });
    const link = await consoleUrl(material);
    expect(link.body.code).toBe(0);
    expect(param(link.body.data.url, 'via')).toBe('review');
    expect((await fetchUrl(link.body.data.url)).statusCode).toBe(200);
    // Only materials: a contract is not the console's to read.
    const { fileKey: contract } = await flowWithOutsideSigner();
    expect((await consoleUrl(contract)).body.code).toBe(5201);
    await t.db
      .updateTable('operators')
      .set({ status: 'disabled' })
      .where('username', '=', username)
      .execute();
    expect((await fetchUrl(link.body.data.url)).json().code).toBe(5202);
  });

  it('creates will-auths only for the caller’s own business', async () => {
    const will = (token: string, source: number, bizId: string) =>
      post('/v1/will/createWillUrl', token, { source, bizId });
    const { flow } = await flowWithOutsideSigner();
    const taskId = flow.signers[0].taskId as string;
    // Signing (3): the signer's own open task only.
    expect((await will(signer.token, 3, taskId)).body.code).toBe(0);
    for (const token of [a.admin, a.staff, b.admin])
      expect((await will(token, 3, taskId)).body.code).toBe(15010);
    expect((await will(signer.token, 3, 'stk_doesnotexist')).body.code).toBe(15010);
    // Withdrawn, the task is nobody's to sign any more.
    expect((await post(`/v1/sign/flow/${flow.flowId}/withdraw`, a.admin, { reason: '撤回' })).body.code).toBe(
      0,
    );
    expect((await will(signer.token, 3, taskId)).body.code).toBe(15010);

    // Renewal (2): a seal the caller manages; authorisation (1): a seal the caller may authorise.
    expect((await will(a.sealAdmin, 2, sealA)).body.code).toBe(0);
    expect((await will(a.admin, 1, sealA)).body.code).toBe(0);
    for (const token of [a.staff, b.admin, signer.token]) {
      expect((await will(token, 2, sealA)).body.code).toBe(6101);
      expect((await will(token, 1, sealA)).body.code).toBe(6101);
    }
    // Claim (2): an approved application awaiting its claim, by the organisation's legal representative.
    const applied = await post('/v1/seals/sealApply', a.admin, { sealKind: 'business' });
    expect(applied.body.code, JSON.stringify(applied.body)).toBe(0);
    await f.approve(op, 'sealApply', applied.body.data.applyNo);
    expect((await will(a.legal, 2, applied.body.data.applyNo)).body.code).toBe(0);
    for (const token of [a.admin, b.legal])
      expect((await will(token, 2, applied.body.data.applyNo)).body.code).toBe(6101);
    // Nothing was recorded for the refused ones.
    const wills = await t.db
      .selectFrom('will_auths')
      .select('biz_id')
      .where('biz_id', 'in', [taskId, sealA])
      .execute();
    expect(wills).toHaveLength(3);
  });
});
