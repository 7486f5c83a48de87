/**
 * Will-auth methods (issue 15): POST /v1/auth/willAuthConfig says which ways of confirming intent apply to
 * the caller for a business, and each way really confirms one: the login password (throttled), the face
 * check (sandbox only), a UKey bound to the organisation; the deployment's WILL_AUTH_METHODS chooses what
 * is offered and the default. A will-auth so confirmed signs a task; refusals are catalogued.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/lib/secrets';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { sealFixtures, type OrgFixture } from './seals-fixtures';
import { signFixtures } from './sign-fixtures';
import { tinyPdf } from './upload-fixtures';

const PASSWORD = 'Will-Passw0rd';

describe.each(DIALECTS)('will-auth methods [%s]', (dialect) => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  const { upload, mobileOf } = signFixtures(() => t);
  const { post } = f;
  let a: OrgFixture;
  let sealA: string;
  let ukeySn: string;
  let ukeyKey: ReturnType<typeof generateKeyPairSync>;

  const config = (token: string, body: Record<string, unknown>) =>
    post('/v1/auth/willAuthConfig', token, body);
  const methodOf = (data: { methods: { method: string }[] }, m: string) =>
    data.methods.find((x) => x.method === m) as Record<string, unknown>;

  async function setPassword(token: string) {
    const row = await t.db
      .selectFrom('persons')
      .select('id')
      .where('mobile', '=', await mobileOf(token))
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('persons')
      .set({ password_hash: await hashPassword(PASSWORD) })
      .where('id', '=', row.id)
      .execute();
  }

  /** A quick flow of the caller's with a fresh will-auth record (created, not yet verified). */
  async function openTask(token: string) {
    const key = await upload(token, tinyPdf('will'));
    const created = await post('/v1/sign/flows', token, {
      name: 'will',
      scene: 'quick',
      files: [{ fileKey: key }],
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const taskId = created.body.data.signers[0].taskId as string;
    const will = await post('/v1/will/createWillUrl', token, { source: 3, bizId: taskId });
    expect(will.body.code, JSON.stringify(will.body)).toBe(0);
    return {
      flowId: created.body.data.flowId as string,
      fileId: created.body.data.files[0].fileId as string,
      taskId,
      willBizId: will.body.data.willBizId as string,
    };
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const op = await f.operator();
    a = await f.org();
    sealA = (await f.madeSeal(a, op)).sealCode;
    // A UKey bound to organisation A: a software key pair standing in for the token.
    ukeyKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const org = await t.db
      .selectFrom('organizations')
      .select(['name', 'uscc'])
      .where('id', '=', a.orgId)
      .executeTakeFirstOrThrow();
    const cert = await t.app.pki.issue(t.db, {
      profile: 'org-seal',
      subject: { commonName: 'UKey', organization: org.name, organizationIdentifier: org.uscc },
      owner: { type: 'organization', id: a.orgId },
      publicKeySpki: new Uint8Array(ukeyKey.publicKey.export({ format: 'der', type: 'spki' })),
    });
    ukeySn = 'WILLKEY01';
    const ch = await post('/v1/sealUKeyBinding/challenge', a.admin, { ukeySn });
    const bound = await post('/v1/sealUKeyBinding/binding', a.admin, {
      ukeySn,
      ukeyName: '意愿钥匙',
      certificate: Buffer.from(cert.der).toString('base64'),
      challengeId: ch.body.data.challengeId,
      signature: sign('sha256', Buffer.from(ch.body.data.challenge), ukeyKey.privateKey).toString('base64'),
    });
    expect(bound.body.code, JSON.stringify(bound.body)).toBe(0);
  }, 120_000);
  afterAll(async () => t?.close());

  it('answers the methods that apply to a person for their own task, and refuses another person’s', async () => {
    const p = await f.person('韩梅梅');
    const task = await openTask(p.token);
    const r = await config(p.token, { source: 3, bizId: task.taskId });
    expect(r.body.code, JSON.stringify(r.body)).toBe(0);
    const d = r.body.data;
    expect(d).toMatchObject({ source: 3, bizId: task.taskId, defaultMethod: 'sms' });
    expect(d.methods.map((m: { method: string }) => m.method)).toEqual(['sms', 'password', 'ukey', 'face']);
    const mobile = await mobileOf(p.token);
    expect(methodOf(d, 'sms')).toMatchObject({
      available: true,
      reason: null,
      mobile: `${mobile.slice(0, 3)}****${mobile.slice(-4)}`,
    });
    expect(methodOf(d, 'password')).toMatchObject({ available: false, reason: 'noPassword' });
    // The face check exists only beside the sandbox identity service, and says so.
    expect(methodOf(d, 'face')).toMatchObject({ available: true, sandbox: true });
    expect(methodOf(d, 'ukey')).toMatchObject({ available: false, reason: 'personalBusiness', ukeys: [] });

    // Someone else's task is not theirs to ask about (answered as absent), nor an unknown seal.
    const other = await f.person('李雷');
    expect((await config(other.token, { source: 3, bizId: task.taskId })).body.code).toBe(15010);
    expect((await config(other.token, { source: 1, bizId: sealA })).body.code).toBe(6101);
    // Without a session: login first.
    expect((await t.call('POST', '/v1/auth/willAuthConfig', { body: { source: 3 } })).body.code).toBe(102);

    // A person not yet real-named cannot be compared with a verified identity.
    const fresh = await t.loginBySms(`139${String(Date.now()).slice(-8)}`);
    const unverified = (await config(fresh, { source: 3 })).body.data;
    expect(methodOf(unverified, 'face')).toMatchObject({ available: false, reason: 'notRealNamed' });
  });

  it('confirms with the login password (wrong ones refused) and the confirmation signs the task', async () => {
    // The super administrator signs for the organisation with its seal: a quick flow of theirs.
    await setPassword(a.admin);
    const task = await openTask(a.admin);
    const d = (await config(a.admin, { source: 3, bizId: task.taskId })).body.data;
    expect(methodOf(d, 'password')).toMatchObject({ available: true, reason: null });

    const wrong = await post(`/v1/will/${task.willBizId}/verifyPassword`, a.admin, {
      password: 'nope-Passw0rd',
    });
    expect(wrong.body.code).toBe(2006);
    // Another person cannot confirm it, even with the right password of their own.
    const other = await f.person('赵敏');
    await setPassword(other.token);
    expect(
      (await post(`/v1/will/${task.willBizId}/verifyPassword`, other.token, { password: PASSWORD })).body
        .code,
    ).toBe(15301);
    // Not yet confirmed: the task cannot be signed with it.
    const placements = [{ fileId: task.fileId, kind: 'seal', page: 1, x: 60, y: 60 }];
    const early = await post('/v1/sign/flowsTask', a.admin, {
      flowId: task.flowId,
      taskId: task.taskId,
      willBizId: task.willBizId,
      sealCode: sealA,
      placements,
    });
    expect(early.body.code).toBe(15302);
    const ok = await post(`/v1/will/${task.willBizId}/verifyPassword`, a.admin, { password: PASSWORD });
    expect(ok.body.code, JSON.stringify(ok.body)).toBe(0);
    expect(ok.body.data).toMatchObject({ status: 'verified', method: 'password' });

    const signed = await post('/v1/sign/flowsTask', a.admin, {
      flowId: task.flowId,
      taskId: task.taskId,
      willBizId: task.willBizId,
      sealCode: sealA,
      placements,
    });
    expect(signed.body.code, JSON.stringify(signed.body)).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');
  });

  it('confirms by the sandbox face check, and with a bound UKey for an organisation’s task', async () => {
    const p = await f.person('周芷若');
    const task = await openTask(p.token);
    const face = await post(`/v1/will/${task.willBizId}/verifyFace`, p.token);
    expect(face.body.code, JSON.stringify(face.body)).toBe(0);
    expect(face.body.data).toMatchObject({ status: 'verified', method: 'face' });

    // A personal task cannot be confirmed with a UKey.
    const personal = await openTask(p.token);
    expect(
      (
        await post(`/v1/will/${personal.willBizId}/verifyUkey`, p.token, {
          ukeySn,
          challengeId: 'uch_x',
          signature: 'AA==',
        })
      ).body,
    ).toMatchObject({ code: 15306 });

    // The staff member signs for organisation A: the organisation's bound key applies.
    const key = await upload(a.admin, tinyPdf('org will'));
    const flow = await post('/v1/sign/flows', a.admin, {
      name: '组织意愿',
      files: [{ fileKey: key }],
      signers: [
        { type: 'organization', name: '员工', mobile: await mobileOf(a.staff), organizeName: a.name },
      ],
    });
    expect(flow.body.code, JSON.stringify(flow.body)).toBe(0);
    const taskId = flow.body.data.signers[0].taskId as string;
    const d = (await config(a.staff, { source: 3, bizId: taskId })).body.data;
    expect(methodOf(d, 'ukey')).toMatchObject({ available: true, ukeys: [{ ukeySn, name: '意愿钥匙' }] });
    const will = (await post('/v1/will/createWillUrl', a.staff, { source: 3, bizId: taskId })).body.data;
    const ch = (await post('/v1/sealUKeyBinding/challenge', a.staff, { ukeySn })).body.data;
    // A signature by another key proves nothing.
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const forged = await post(`/v1/will/${will.willBizId}/verifyUkey`, a.staff, {
      ukeySn,
      challengeId: ch.challengeId,
      signature: sign('sha256', Buffer.from(ch.challenge), stranger.privateKey).toString('base64'),
    });
    expect(forged.body.code).toBe(7018);
    const ch2 = (await post('/v1/sealUKeyBinding/challenge', a.staff, { ukeySn })).body.data;
    const proved = await post(`/v1/will/${will.willBizId}/verifyUkey`, a.staff, {
      ukeySn,
      challengeId: ch2.challengeId,
      signature: sign('sha256', Buffer.from(ch2.challenge), ukeyKey.privateKey).toString('base64'),
    });
    expect(proved.body.code, JSON.stringify(proved.body)).toBe(0);
    expect(proved.body.data).toMatchObject({ status: 'verified', method: 'ukey' });
    // The seal needs an approval for staff, as in any flow; the will-auth itself was accepted.
    const signed = await post('/v1/sign/flowsTask', a.staff, {
      flowId: flow.body.data.flowId,
      taskId,
      willBizId: will.willBizId,
      sealCode: sealA,
      placements: [{ fileId: flow.body.data.files[0].fileId, kind: 'seal', page: 1, x: 60, y: 60 }],
    });
    expect(signed.body.code).toBe(15104);
    // Another organisation's admin sees no key of A's and cannot use A's key.
    const b = await f.org();
    const dB = (await config(b.admin, { source: 3 })).body.data;
    expect(methodOf(dB, 'ukey')).toMatchObject({ available: false, reason: 'noBoundUkey', ukeys: [] });
  });

  it('offers what WILL_AUTH_METHODS lists, in its order, and refuses the others', async () => {
    const p = await f.person('张无忌');
    await setPassword(p.token);
    await t.db.deleteFrom('config_values').where('code', '=', 'WILL_AUTH_METHODS').execute();
    await t.db
      .insertInto('config_values')
      .values({
        code: 'WILL_AUTH_METHODS',
        value: JSON.stringify(['password', 'sms', 'nonsense']),
        file_key: null,
        is_public: false,
      })
      .execute();
    t.app.configService.forget(); // the configuration cache would last 5 s
    const task = await openTask(p.token);
    const d = (await config(p.token, { source: 3, bizId: task.taskId })).body.data;
    expect(d.defaultMethod).toBe('password');
    // The offered ones first in the deployment's order, then the others (unknown names ignored).
    expect(d.methods.map((m: { method: string }) => m.method)).toEqual(['password', 'sms', 'face', 'ukey']);
    expect(methodOf(d, 'face')).toMatchObject({ available: false, reason: 'notOffered' });
    const face = await post(`/v1/will/${task.willBizId}/verifyFace`, p.token);
    expect(face.body.code).toBe(15306);

    await t.db
      .updateTable('config_values')
      .set({ value: JSON.stringify(['password']) })
      .where('code', '=', 'WILL_AUTH_METHODS')
      .execute();
    t.app.configService.forget();
    expect((await post(`/v1/will/${task.willBizId}/sendCode`, p.token)).body.code).toBe(15306);
    const ok = await post(`/v1/will/${task.willBizId}/verifyPassword`, p.token, { password: PASSWORD });
    expect(ok.body.data).toMatchObject({ status: 'verified', method: 'password' });
    await t.db.deleteFrom('config_values').where('code', '=', 'WILL_AUTH_METHODS').execute();
  }, 30_000);
});
