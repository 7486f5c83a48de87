import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usccCheckChar } from '@openseal/core';
import { drawLogoPng } from '../src/seed/logo';
import { approveManual, listManualQueue, rejectManual } from '../src/modules/realname/realname.service';
import { DIALECTS, mobile, startTestApp, uscc, type TestApp } from './harness';
import { tinyPdf } from './upload-fixtures';

/** A resident ID number with a valid GB 11643-1999 check character; sequence `999` is on the sandbox deny list. */
function residentId(sequence = String(100 + Math.floor(Math.random() * 800))): string {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const first17 = `11010119900307${sequence}`;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * weights[i]!;
  return first17 + '10X98765432'[sum % 11];
}

/** A credit code in the sandbox registry's "changed" range (region digits 999999). */
function changedUscc(): string {
  const first17 = `91999999MA${Math.random().toString(16).slice(2, 9).toUpperCase().padEnd(7, '0')}`;
  return first17 + usccCheckChar(first17);
}

function multipart(name: string, bytes: Buffer) {
  const boundary = '----openseal' + Math.random().toString(16).slice(2);
  return {
    body: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const uniqueName = () => `实名科技（${Math.random().toString(36).slice(2, 8)}）有限公司`;

describe.each(DIALECTS)('real name [%s]', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    process.env.REALNAME_SANDBOX_DELAY_MS = '20';
    t = await startTestApp(dialect);
  });
  afterAll(async () => t?.close());

  async function finalResult(token: string, flowId: string) {
    for (let i = 0; i < 300; i++) {
      const r = await t.call('GET', `/v1/accounts/auth/${flowId}/result`, { token });
      expect(r.body.code).toBe(0);
      if (r.body.data.status !== 'pending') return r.body.data;
      await new Promise((res) => setTimeout(res, 10));
    }
    throw new Error('the flow never finished');
  }

  /** Person real-name end to end; answers the final result. */
  async function verifyPerson(token: string, mob: string, idNumber: string, name = '张三') {
    const flow = await t.call('POST', '/v1/accounts/auth/flow', { token, body: { organizeType: 2 } });
    expect(flow.body.code).toBe(0);
    const flowId = flow.body.data.flowId;
    const sent = await t.call('POST', `/v1/accounts/auth/${flowId}/person`, {
      token,
      body: { name, idNumber, mobile: mob },
    });
    expect(sent.body.code).toBe(0);
    const code = await t.smsCode(mob);
    const confirmed = await t.call('POST', `/v1/accounts/auth/${flowId}/confirmCode`, {
      token,
      body: { code },
    });
    expect(confirmed.body.code).toBe(0);
    expect(confirmed.body.data).toMatchObject({ status: 'pending', step: 'verifying' });
    return { flowId, result: await finalResult(token, flowId) };
  }

  /** A new organisation and a token inside it (its creator is super administrator). */
  async function newOrg(code = uscc()) {
    const mob = mobile();
    const token = await t.loginBySms(mob);
    const name = uniqueName();
    const r = await t.call('POST', '/v1/organizes/add', { token, body: { organizeName: name, uscc: code } });
    expect(r.body.code).toBe(0);
    return {
      mob,
      token: r.body.data.accessToken as string,
      orgId: r.body.data.organizeId as string,
      name,
      uscc: code,
    };
  }

  async function startOrgFlow(token: string, body: Record<string, unknown> = {}) {
    const r = await t.call('POST', '/v1/accounts/auth/flow', { token, body: { organizeType: 1, ...body } });
    expect(r.body.code).toBe(0);
    return r.body.data.flowId as string;
  }

  const orgBody = (o: { name: string; uscc: string }, extra: Record<string, unknown>) => ({
    organizeName: o.name,
    uscc: o.uscc,
    legalName: '李四',
    legalIdNumber: residentId(),
    ...extra,
  });

  async function upload(token: string, kind: 'licence' | 'authorisation', name: string, bytes: Buffer) {
    const m = multipart(name, bytes);
    return t.call('POST', `/v1/accounts/auth/material?kind=${kind}`, {
      token,
      body: m.body,
      headers: { 'content-type': m.contentType },
    });
  }

  async function manualFlow() {
    const o = await newOrg();
    const flowId = await startOrgFlow(o.token);
    const lic = await upload(o.token, 'licence', '营业执照.png', drawLogoPng(64));
    expect(lic.body.code).toBe(0);
    const auth = await upload(o.token, 'authorisation', '授权书.pdf', tinyPdf());
    expect(auth.body.code).toBe(0);
    const r = await t.call('POST', `/v1/accounts/auth/${flowId}/organization`, {
      token: o.token,
      body: orgBody(o, {
        method: 'manual',
        licenceFileKey: lic.body.data.fileKey,
        authorisationFileKey: auth.body.data.fileKey,
      }),
    });
    expect(r.body.code).toBe(0);
    expect(r.body.data.step).toBe('awaitingReview');
    return { ...o, flowId };
  }

  const rolesOf = async (orgId: string, personMobile: string) =>
    (
      await t.db
        .selectFrom('members as m')
        .innerJoin('persons as p', 'p.id', 'm.person_id')
        .select('m.roles')
        .where('m.organization_id', '=', orgId)
        .where('p.mobile', '=', personMobile)
        .executeTakeFirstOrThrow()
    ).roles;

  const orgStatus = async (orgId: string) =>
    (
      await t.db
        .selectFrom('organizations')
        .select('real_name_status')
        .where('id', '=', orgId)
        .executeTakeFirstOrThrow()
    ).real_name_status;

  describe('person', () => {
    it('verifies end to end through the asynchronous sandbox: status, name, audit', async () => {
      const mob = mobile();
      const token = await t.loginBySms(mob);
      const flow = await t.call('POST', '/v1/accounts/auth/flow', { token, body: { organizeType: 2 } });
      expect(flow.body.data).toMatchObject({
        flowId: expect.stringMatching(/^rnf_/),
        organizeType: 2,
        sandbox: true,
      });
      const pending = await t.call('GET', `/v1/accounts/auth/${flow.body.data.flowId}/result`, { token });
      expect(pending.body.data).toMatchObject({ status: 'pending', step: 'draft', sandbox: true });

      const { flowId, result } = await verifyPerson(token, mob, residentId(), '王小明');
      expect(result).toMatchObject({ status: 'success', reason: null });
      const info = await t.call('GET', '/v1/accounts/info', { token });
      expect(info.body.data.userInfoPerson).toMatchObject({ name: '王小明', hasRealName: true });
      expect(info.body.data.realNameStatus).toBe(1);
      const audit = await t.db
        .selectFrom('audit_logs')
        .select('action')
        .where('target_id', '=', flowId)
        .orderBy('id')
        .execute();
      expect(audit.map((a) => a.action)).toEqual([
        'realName.start',
        'realName.awaitingCode',
        'realName.verifying',
        'realName.success',
      ]);
      // Done once: a second flow is refused.
      const again = await t.call('POST', '/v1/accounts/auth/flow', { token, body: { organizeType: 2 } });
      expect(again.body.code).toBe(4103);
    });

    it('fails for a deny-listed ID number with the reason, and a retry with a new flow succeeds', async () => {
      const mob = mobile();
      const token = await t.loginBySms(mob);
      const failed = await verifyPerson(token, mob, residentId('999'));
      expect(failed.result.status).toBe('failure');
      // A catalogued reason: the page shows it in the applicant's language.
      expect(failed.result.reason).toBe('realName.identityMismatch');
      const info = await t.call('GET', '/v1/accounts/info', { token });
      expect(info.body.data.userInfoPerson.hasRealName).toBe(false);
      // The failed flow is final.
      const stale = await t.call('POST', `/v1/accounts/auth/${failed.flowId}/confirmCode`, {
        token,
        body: { code: '123456' },
      });
      expect(stale.body.code).toBe(4102);
      const retry = await verifyPerson(token, mob, residentId());
      expect(retry.result.status).toBe('success');
    });

    it('refuses a bad check digit, a bad mobile and a bad name with catalogued codes', async () => {
      const token = await t.loginBySms(mobile());
      const flow = await t.call('POST', '/v1/accounts/auth/flow', { token, body: { organizeType: 2 } });
      const flowId = flow.body.data.flowId;
      const good = residentId();
      const badCheck = good.slice(0, 17) + (good[17] === '0' ? '1' : '0');
      const submit = (body: object) => t.call('POST', `/v1/accounts/auth/${flowId}/person`, { token, body });
      expect((await submit({ name: '张三', idNumber: badCheck, mobile: mobile() })).body.code).toBe(4003);
      expect((await submit({ name: '张三', idNumber: good, mobile: '12345' })).body.code).toBe(2001);
      expect((await submit({ name: '1', idNumber: good, mobile: mobile() })).body.code).toBe(4104);
    });

    it("hides another person's flow and refuses a wrong code", async () => {
      const mob = mobile();
      const token = await t.loginBySms(mob);
      const other = await t.loginBySms(mobile());
      const flow = await t.call('POST', '/v1/accounts/auth/flow', { token, body: { organizeType: 2 } });
      const flowId = flow.body.data.flowId;
      expect((await t.call('GET', `/v1/accounts/auth/${flowId}/result`, { token: other })).body.code).toBe(
        4101,
      );
      expect(
        (await t.call('GET', `/v1/accounts/auth/${flowId}/auditDetail`, { token: other })).body.code,
      ).toBe(11001);
      expect((await t.call('GET', `/v1/accounts/auth/${flowId}/result`)).body.code).toBe(102);
      await t.call('POST', `/v1/accounts/auth/${flowId}/person`, {
        token,
        body: { name: '张三', idNumber: residentId(), mobile: mob },
      });
      const code = await t.smsCode(mob);
      const wrong = code === '000000' ? '111111' : '000000';
      expect(
        (await t.call('POST', `/v1/accounts/auth/${flowId}/confirmCode`, { token, body: { code: wrong } }))
          .body.code,
      ).toBe(2002);
    });
  });

  describe('organisation', () => {
    it('legal representative confirms by SMS; the verifier, also the legal representative, becomes superAdmin and legalPerson', async () => {
      const o = await newOrg();
      const legalId = residentId();
      // The verifier has their own real name with the legal representative's ID number.
      const personToken = await t.loginBySms(o.mob);
      expect((await verifyPerson(personToken, o.mob, legalId, '李四')).result.status).toBe('success');
      const token = o.token;
      const flowId = await startOrgFlow(token);
      const legalMobile = mobile();
      const r = await t.call('POST', `/v1/accounts/auth/${flowId}/organization`, {
        token,
        body: orgBody(o, { method: 'legalSms', legalMobile, legalIdNumber: legalId }),
      });
      expect(r.body.data).toMatchObject({ step: 'awaitingCode', sandbox: true });
      const code = await t.smsCode(legalMobile);
      const c = await t.call('POST', `/v1/accounts/auth/${flowId}/confirmCode`, { token, body: { code } });
      expect(c.body.data.step).toBe('verifying');
      expect((await finalResult(token, flowId)).status).toBe('success');
      expect(await orgStatus(o.orgId)).toBe(1);
      expect([...(await rolesOf(o.orgId, o.mob))].sort()).toEqual(['legalPerson', 'superAdmin']);
      const info = await t.call('GET', '/v1/accounts/info', { token });
      expect(info.body.data.userInfoOrg.hasRealName).toBe(true);
    });

    it('bank micro-payment: a wrong amount is refused, the right one verifies; three wrong ones fail the flow', async () => {
      const o = await newOrg();
      const flowId = await startOrgFlow(o.token);
      const r = await t.call('POST', `/v1/accounts/auth/${flowId}/organization`, {
        token: o.token,
        body: orgBody(o, { method: 'bank', bankAccount: '6222 0202 0000 1234 567' }),
      });
      expect(r.body.data.step).toBe('awaitingAmount');
      const cents = r.body.data.sandboxAmountCents as number;
      const wrong = cents === 1 ? 2 : cents - 1;
      const amount = (n: number, id = flowId, token = o.token) =>
        t.call('POST', `/v1/accounts/auth/${id}/confirmAmount`, { token, body: { amountCents: n } });
      expect((await amount(wrong)).body.code).toBe(4106);
      expect((await amount(cents)).body.data.step).toBe('verifying');
      expect((await finalResult(o.token, flowId)).status).toBe('success');
      expect(await orgStatus(o.orgId)).toBe(1);
      expect(await rolesOf(o.orgId, o.mob)).toEqual(['superAdmin']);

      const p = await newOrg();
      const f2 = await startOrgFlow(p.token);
      const r2 = await t.call('POST', `/v1/accounts/auth/${f2}/organization`, {
        token: p.token,
        body: orgBody(p, { method: 'bank', bankAccount: '6222020200001234567' }),
      });
      const w = r2.body.data.sandboxAmountCents === 1 ? 2 : r2.body.data.sandboxAmountCents - 1;
      expect((await amount(w, f2, p.token)).body.code).toBe(4106);
      expect((await amount(w, f2, p.token)).body.code).toBe(4106);
      expect((await amount(w, f2, p.token)).body.code).toBe(4107);
      expect(await finalResult(p.token, f2)).toMatchObject({
        status: 'failure',
        reason: 'realName.amountTooMany',
      });
      expect(await orgStatus(p.orgId)).toBe(0);
    });

    it('refuses details that do not match the organisation, and a material that is not jpg/png/pdf', async () => {
      const o = await newOrg();
      const flowId = await startOrgFlow(o.token);
      const r = await t.call('POST', `/v1/accounts/auth/${flowId}/organization`, {
        token: o.token,
        body: orgBody(
          { name: uniqueName(), uscc: o.uscc },
          { method: 'bank', bankAccount: '62220202000012' },
        ),
      });
      expect(r.body.code).toBe(4105);
      expect((await upload(o.token, 'licence', 'x.pdf', Buffer.from('not a pdf at all'))).body.code).toBe(
        4110,
      );
      const missing = await t.call('POST', `/v1/accounts/auth/${flowId}/organization`, {
        token: o.token,
        body: orgBody(o, { method: 'manual' }),
      });
      expect(missing.body.code).toBe(4109);
    });

    it('manual path: waits in the operator queue, approval verifies and the history shows who did what', async () => {
      const o = await manualFlow();
      const queue = await listManualQueue(t.db, { status: 'pending', page: 1, size: 100 });
      expect(queue.list.map((x) => x.applicationId)).toContain(o.flowId);
      const waiting = await t.call('GET', `/v1/accounts/auth/${o.flowId}/result`, { token: o.token });
      expect(waiting.body.data).toMatchObject({
        status: 'pending',
        step: 'awaitingReview',
        method: 'manual',
      });
      await approveManual(t.db, o.flowId, 'opr_test');
      expect((await finalResult(o.token, o.flowId)).status).toBe('success');
      expect(await orgStatus(o.orgId)).toBe(1);
      expect(await rolesOf(o.orgId, o.mob)).toEqual(['superAdmin']);
      const d = await t.call('GET', `/v1/accounts/auth/${o.flowId}/auditDetail`, { token: o.token });
      expect(d.body.code).toBe(0);
      expect(d.body.data.record).toMatchObject({ orgName: o.name, uscc: o.uscc, name: '李四' });
      expect(d.body.data.history.map((h: { toStatus: string }) => h.toStatus)).toEqual([
        'draft',
        'awaitingReview',
        'success',
      ]);
      expect(d.body.data.history[2]).toMatchObject({ actorType: 'operator', actorId: 'opr_test' });
      // A decided application cannot be decided again.
      await expect(rejectManual(t.db, o.flowId, 'opr_test', 'late')).rejects.toMatchObject({
        key: 'realName.flowState',
      });
    });

    it('manual path through the operator console: the operator sees it in the queue, approves it, and the decision is audited', async () => {
      const o = await manualFlow();
      const console = (method: 'GET' | 'POST', url: string, token?: string, body?: unknown) =>
        t.call(method, url, { headers: token ? { 'x-operator-token': token } : {}, body });
      const login = await console('POST', '/manage/api/v1/login', undefined, {
        username: 'admin',
        password: 'Operator1234',
      });
      expect(login.body.code).toBe(0);
      const op = login.body.data.operatorToken as string;
      // The applicant's user token opens nothing here.
      expect(
        (await console('GET', '/manage/api/v1/queues/realname?status=pending&page=1&size=100', o.token)).body
          .code,
      ).not.toBe(0);
      const queue = await console('GET', '/manage/api/v1/queues/realname?status=pending&page=1&size=100', op);
      expect(queue.body.code).toBe(0);
      expect(queue.body.data.list.map((x: { applicationId: string }) => x.applicationId)).toContain(o.flowId);
      // The operator opens the applicant's licence through a short-lived address; the user token cannot.
      const item = queue.body.data.list.find((x: { applicationId: string }) => x.applicationId === o.flowId);
      const link = await console('GET', `/manage/api/v1/materials/${item.licenceFileKey}/url`, op);
      expect(link.body.code).toBe(0);
      const fileRes = await t.app.inject({ method: 'GET', url: link.body.data.url });
      expect(fileRes.statusCode).toBe(200);
      expect(fileRes.rawPayload.subarray(1, 4).toString()).toBe('PNG');
      expect(
        (await console('GET', `/manage/api/v1/materials/${item.licenceFileKey}/url`, o.token)).body.code,
      ).not.toBe(0);
      const approved = await console('POST', `/manage/api/v1/queues/realname/${o.flowId}/approve`, op);
      expect(approved.body.code).toBe(0);
      expect((await finalResult(o.token, o.flowId)).status).toBe('success');
      expect(await orgStatus(o.orgId)).toBe(1);
      const audit = await console('GET', '/manage/api/v1/audit-logs?page=1&size=100', op);
      expect(JSON.stringify(audit.body.data)).toContain(o.flowId);
    });

    it('manual path: a rejection shows its reason in the result and the history', async () => {
      const o = await manualFlow();
      await expect(rejectManual(t.db, o.flowId, 'opr_test', '  ')).rejects.toMatchObject({
        key: 'realName.rejectReasonRequired',
      });
      await rejectManual(t.db, o.flowId, 'opr_test', '营业执照不清晰');
      const res = await finalResult(o.token, o.flowId);
      expect(res).toMatchObject({ status: 'failure', reason: '营业执照不清晰' });
      const d = await t.call('GET', `/v1/accounts/auth/${o.flowId}/auditDetail`, { token: o.token });
      expect(d.body.data.history.at(-1)).toMatchObject({
        toStatus: 'failure',
        actorType: 'operator',
        reason: '营业执照不清晰',
      });
      expect(await orgStatus(o.orgId)).toBe(0);
      const rejected = await listManualQueue(t.db, { status: 'rejected', page: 1, size: 100 });
      expect(rejected.list.find((x) => x.applicationId === o.flowId)?.reason).toBe('营业执照不清晰');
    });

    it("another organisation's member cannot read the audit detail nor start the flow for it", async () => {
      const o = await manualFlow();
      const other = await newOrg();
      const d = await t.call('GET', `/v1/accounts/auth/${o.flowId}/auditDetail`, { token: other.token });
      expect(d.body.code).toBe(11001);
      const start = await t.call('POST', '/v1/accounts/auth/flow', {
        token: other.token,
        body: { organizeType: 1, organizeId: o.orgId },
      });
      expect(start.body.code).toBe(11006);
    });

    it('creation status 1 (no valid super administrator) leads into real-name, after which the verifier is super administrator', async () => {
      const o = await newOrg();
      await t.db
        .updateTable('members')
        .set({ status: 'paused' })
        .where('organization_id', '=', o.orgId)
        .execute();
      const mob = mobile();
      const token = await t.loginBySms(mob);
      const created = await t.call('POST', '/v1/organizes/add', {
        token,
        body: { organizeName: o.name, uscc: o.uscc },
      });
      expect(created.body.data).toMatchObject({ status: 1, organizeId: o.orgId });
      const flowId = await startOrgFlow(token, { organizeId: o.orgId });
      const r = await t.call('POST', `/v1/accounts/auth/${flowId}/organization`, {
        token,
        body: orgBody(o, { method: 'bank', bankAccount: '62220202000012' }),
      });
      await t.call('POST', `/v1/accounts/auth/${flowId}/confirmAmount`, {
        token,
        body: { amountCents: r.body.data.sandboxAmountCents },
      });
      expect((await finalResult(token, flowId)).status).toBe('success');
      expect(await rolesOf(o.orgId, mob)).toEqual(['superAdmin']);
      const handover = await t.call('POST', '/v1/organizes/handover/login', {
        token,
        body: { type: 1, organizeId: o.orgId },
      });
      expect(handover.body.code).toBe(0);
    });
  });

  describe('info-change dialog', () => {
    async function verifiedOrg(code: string) {
      const o = await newOrg(code);
      const flowId = await startOrgFlow(o.token);
      const r = await t.call('POST', `/v1/accounts/auth/${flowId}/organization`, {
        token: o.token,
        body: orgBody(o, { method: 'bank', bankAccount: '62220202000012' }),
      });
      await t.call('POST', `/v1/accounts/auth/${flowId}/confirmAmount`, {
        token: o.token,
        body: { amountCents: r.body.data.sandboxAmountCents },
      });
      expect((await finalResult(o.token, flowId)).status).toBe('success');
      return o;
    }

    it('reports no change outside the sandbox test range', async () => {
      const o = await verifiedOrg(uscc());
      const r = await t.call('POST', '/v1/organizes/discoverChangedItems', { token: o.token });
      expect(r.body.data).toMatchObject({
        discoverChangedItems: [],
        legalChangedCurrentLoginUserHasChangePermission: true,
      });
      expect((await t.call('POST', '/v1/organizes/confirmChangedItems', { token: o.token })).body.code).toBe(
        4113,
      );
    });

    it('reports the changed items, refuses staff, and a super administrator confirms: new data and a new token', async () => {
      const o = await verifiedOrg(changedUscc());
      const r = await t.call('POST', '/v1/organizes/discoverChangedItems', { token: o.token });
      expect(r.body.data.discoverChangedItems).toEqual([
        { field: 'organizeName', current: o.name, registry: `${o.name}（变更后）` },
        { field: 'legalName', current: '李四', registry: '新法人' },
      ]);

      // A staff member sees the dialog without the right to confirm.
      const staffMobile = mobile();
      const staffPerson = await t.loginBySms(staffMobile);
      const staffId = (
        await t.db
          .selectFrom('persons')
          .select('id')
          .where('mobile', '=', staffMobile)
          .executeTakeFirstOrThrow()
      ).id;
      await t.db
        .insertInto('members')
        .values({
          id: `mbr_staff${Date.now()}`,
          organization_id: o.orgId,
          person_id: staffId,
          roles: ['staff'],
        })
        .execute();
      const staff = (
        await t.call('POST', '/v1/organizes/handover/login', {
          token: staffPerson,
          body: { type: 1, organizeId: o.orgId },
        })
      ).body.data.accessToken;
      const seen = await t.call('POST', '/v1/organizes/discoverChangedItems', { token: staff });
      expect(seen.body.data.legalChangedCurrentLoginUserHasChangePermission).toBe(false);
      expect((await t.call('POST', '/v1/organizes/confirmChangedItems', { token: staff })).body.code).toBe(
        4112,
      );

      const c = await t.call('POST', '/v1/organizes/confirmChangedItems', { token: o.token });
      expect(c.body.code).toBe(0);
      const fresh = c.body.data.changedBindAccessToken;
      expect((await t.call('GET', '/v1/accounts/info', { token: o.token })).body.code).toBe(225);
      const info = await t.call('GET', '/v1/accounts/info', { token: fresh });
      expect(info.body.data.userInfoOrg.organizeName).toBe(`${o.name}（变更后）`);
      const after = await t.call('POST', '/v1/organizes/discoverChangedItems', { token: fresh });
      expect(after.body.data.discoverChangedItems).toEqual([]);
    });

    it('is for organisation spaces only', async () => {
      const token = await t.loginBySms(mobile());
      expect((await t.call('POST', '/v1/organizes/discoverChangedItems', { token })).body.code).toBe(11007);
    });
  });
});
