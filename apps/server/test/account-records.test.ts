/**
 * What the platform keeps about the signed-in person (issue 15): their real-name level
 * (GET /v1/auth/accountRealNamedLevel, read through the real-name module), their verified records
 * (GET /v1/verifiedRecord/*: verifications made signed in, nobody else's) and the first-use guidance
 * log (GET /v1/guidanceLog/check, POST /v1/guidanceLog/save, governed by OPERATION_GUIDE).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, mobile, residentId, startTestApp, uscc, type TestApp } from './harness';
import { multipart, tinyPdf } from './upload-fixtures';

describe.each(DIALECTS)('account records [%s]', (dialect) => {
  let t: TestApp;
  const post = (url: string, token: string | null, body: unknown = {}) =>
    t.call('POST', url, { token, body });
  const get = (url: string, token: string | null) => t.call('GET', url, { token });

  beforeAll(async () => {
    t = await startTestApp(dialect, { REALNAME_SANDBOX_DELAY_MS: '20' });
  });
  afterAll(async () => t?.close());

  async function finalResult(token: string, flowId: string) {
    for (let i = 0; i < 300; i++) {
      const r = await get(`/v1/accounts/auth/${flowId}/result`, token);
      if (r.body.data.status !== 'pending') return r.body.data;
      await new Promise((res) => setTimeout(res, 10));
    }
    throw new Error('the flow never finished');
  }

  const level = async (token: string) => {
    const r = await get('/v1/auth/accountRealNamedLevel', token);
    expect(r.body.code, JSON.stringify(r.body)).toBe(0);
    return r.body.data;
  };

  describe('real-name level', () => {
    it('follows a person from none through pending to verified by SMS, then their organisation', async () => {
      const mob = mobile();
      const token = await t.loginBySms(mob);
      expect(await level(token)).toEqual({
        identityType: 2,
        level: 'none',
        person: { status: 'none', method: null, verifiedAt: null },
        organization: null,
      });

      const flowId = (await post('/v1/accounts/auth/flow', token, { organizeType: 2 })).body.data.flowId;
      const idNumber = residentId();
      expect(
        (await post(`/v1/accounts/auth/${flowId}/person`, token, { name: '张三', idNumber, mobile: mob }))
          .body.code,
      ).toBe(0);
      expect((await level(token)).person).toEqual({ status: 'pending', method: null, verifiedAt: null });
      const code = await t.smsCode(mob);
      await post(`/v1/accounts/auth/${flowId}/confirmCode`, token, { code });
      expect((await finalResult(token, flowId)).status).toBe('success');
      const verified = await level(token);
      expect(verified).toMatchObject({ identityType: 2, level: 'person', organization: null });
      expect(verified.person).toMatchObject({ status: 'verified', method: 'sms' });
      expect(Date.parse(verified.person.verifiedAt)).toBeGreaterThan(Date.now() - 60_000);

      // Their new organisation is not verified yet.
      const orgName = `等级测试（${Math.random().toString(36).slice(2, 8)}）有限公司`;
      const code18 = uscc();
      const created = await post('/v1/organizes/add', token, { organizeName: orgName, uscc: code18 });
      const orgToken = created.body.data.accessToken as string;
      const orgId = created.body.data.organizeId as string;
      expect(await level(orgToken)).toMatchObject({
        identityType: 1,
        level: 'person',
        organization: {
          organizeId: orgId,
          status: 'none',
          method: null,
          isLegalPerson: false,
          verifiedAsLegalPerson: false,
        },
      });

      // Verified by bank micro-payment with the caller as the legal representative.
      const orgFlow = (await post('/v1/accounts/auth/flow', orgToken, { organizeType: 1 })).body.data.flowId;
      const submitted = await post(`/v1/accounts/auth/${orgFlow}/organization`, orgToken, {
        method: 'bank',
        organizeName: orgName,
        uscc: code18,
        legalName: '张三',
        legalIdNumber: idNumber,
        bankAccount: '62220202000012',
      });
      expect(submitted.body.code, JSON.stringify(submitted.body)).toBe(0);
      expect((await level(orgToken)).organization.status).toBe('pending');
      await post(`/v1/accounts/auth/${orgFlow}/confirmAmount`, orgToken, {
        amountCents: submitted.body.data.sandboxAmountCents,
      });
      expect((await finalResult(orgToken, orgFlow)).status).toBe('success');
      const orgLevel = await level(orgToken);
      expect(orgLevel).toMatchObject({
        level: 'organization',
        organization: {
          status: 'verified',
          method: 'bank',
          isLegalPerson: true,
          verifiedAsLegalPerson: true,
        },
      });

      // A member of that organisation: the organisation's level, not its legal representative.
      const staffMobile = mobile();
      const staffPerson = await t.loginBySms(staffMobile);
      await post('/v1/organizes/members', orgToken, { mobile: staffMobile });
      const staff = (await post('/v1/organizes/handover/login', staffPerson, { type: 1, organizeId: orgId }))
        .body.data.accessToken as string;
      expect(await level(staff)).toMatchObject({
        level: 'none',
        person: { status: 'none' },
        organization: {
          status: 'verified',
          method: 'bank',
          isLegalPerson: false,
          verifiedAsLegalPerson: false,
        },
      });
    });

    it('names a real name recorded outside the platform’s flows, and needs a session', async () => {
      const token = await t.loginBySms(mobile());
      await t.markRealNamed(token);
      expect((await level(token)).person).toEqual({
        status: 'verified',
        method: 'platform',
        verifiedAt: null,
      });
      expect((await get('/v1/auth/accountRealNamedLevel', null)).body.code).toBe(102);
    });
  });

  describe('verified records', () => {
    const verify = async (token: string | null, name: string, text: string) => {
      const form = multipart([{ name, bytes: tinyPdf(text), type: 'application/pdf' }]);
      const r = await t.call('POST', '/v1/signFile/verify/pdf', {
        token,
        body: form.body,
        headers: { 'content-type': form.contentType },
      });
      expect(r.body.code, JSON.stringify(r.body)).toBe(0);
      return r.body.data as { reportId: string; sha256: string };
    };

    it('lists a person’s own verifications with their reports, and nobody else’s', async () => {
      const me = await t.loginBySms(mobile());
      const other = await t.loginBySms(mobile());
      const anonymous = await verify(null, 'anonymous.pdf', 'anonymous');
      const first = await verify(me, '合同一.pdf', 'one');
      const second = await verify(me, 'contract-two.pdf', 'two');
      const theirs = await verify(other, 'theirs.pdf', 'theirs');

      const list = (await get('/v1/verifiedRecord/list', me)).body.data;
      expect(list).toMatchObject({ total: 2, pageNum: 1, pageSize: 20 });
      expect(list.list.map((r: { verifiedUuid: string }) => r.verifiedUuid)).toEqual([
        second.reportId,
        first.reportId,
      ]);
      expect(list.list[1]).toMatchObject({
        fileName: '合同一.pdf',
        sha256: first.sha256,
        verdict: 'no-signatures',
        signatureCount: 0,
        organizationId: null,
      });
      // Filters: part of the name, the whole hash, the verdict; paging.
      const byName = (await get(`/v1/verifiedRecord/list?keyword=${encodeURIComponent('合同')}`, me)).body
        .data;
      expect(byName.list.map((r: { fileName: string }) => r.fileName)).toEqual(['合同一.pdf']);
      expect((await get(`/v1/verifiedRecord/list?keyword=${second.sha256}`, me)).body.data.total).toBe(1);
      expect((await get('/v1/verifiedRecord/list?verdict=invalid', me)).body.data.total).toBe(0);
      const page2 = (await get('/v1/verifiedRecord/list?pageSize=1&pageNum=2', me)).body.data;
      expect(page2.list.map((r: { verifiedUuid: string }) => r.verifiedUuid)).toEqual([first.reportId]);

      const detail = await get(`/v1/verifiedRecord/${first.reportId}`, me);
      expect(detail.body.code).toBe(0);
      expect(detail.body.data).toMatchObject({
        verifiedUuid: first.reportId,
        report: { reportId: first.reportId, fileName: '合同一.pdf', verdict: 'no-signatures' },
      });

      // Another person's record, an anonymous one, and nonsense are all answered as absent.
      for (const id of [theirs.reportId, anonymous.reportId, 'vr_nonsense', '../etc'])
        expect((await get(`/v1/verifiedRecord/${encodeURIComponent(id)}`, me)).body.code).toBe(12402);
      expect((await get('/v1/verifiedRecord/list', other)).body.data.list).toHaveLength(1);
      expect((await get('/v1/verifiedRecord/list', null)).body.code).toBe(102);
      expect((await get(`/v1/verifiedRecord/${first.reportId}`, null)).body.code).toBe(102);
    });

    it('records the space a verification was made in', async () => {
      const token = await t.loginBySms(mobile());
      const created = await post('/v1/organizes/add', token, {
        organizeName: `验签记录（${Math.random().toString(36).slice(2, 8)}）有限公司`,
        uscc: uscc(),
      });
      const orgToken = created.body.data.accessToken as string;
      const made = await verify(orgToken, 'org.pdf', 'org');
      const list = (await get('/v1/verifiedRecord/list', orgToken)).body.data.list;
      expect(list).toEqual([
        expect.objectContaining({
          verifiedUuid: made.reportId,
          organizationId: created.body.data.organizeId,
        }),
      ]);
    });
  });

  describe('guidance log', () => {
    const check = async (token: string | null, page: string) =>
      get(`/v1/guidanceLog/check?page=${page}`, token);

    const setGuide = async (value: string) => {
      await t.db.updateTable('config_values').set({ value }).where('code', '=', 'OPERATION_GUIDE').execute();
      t.app.configService.forget(); // the configuration cache would last 5 s
    };

    it('shows no tour while OPERATION_GUIDE is not switched on', async () => {
      const me = await t.loginBySms(mobile());
      // The seeded deployment names a guide's address there: that is not "on".
      expect((await check(me, 'signList')).body.data).toEqual({
        page: 'signList',
        enabled: false,
        show: false,
        seenAt: null,
      });
    });

    it('shows each page’s tour once per person while OPERATION_GUIDE is on', async () => {
      await setGuide('true');
      const me = await t.loginBySms(mobile());
      const other = await t.loginBySms(mobile());
      expect((await check(me, 'home')).body.data).toEqual({
        page: 'home',
        enabled: true,
        show: true,
        seenAt: null,
      });
      const saved = await post('/v1/guidanceLog/save', me, { page: 'home', action: 'closed', step: 1 });
      expect(saved.body.data.saved).toBe(true);
      const after = (await check(me, 'home')).body.data;
      expect(after).toMatchObject({ enabled: true, show: false, seenAt: saved.body.data.seenAt });
      // Finishing later changes nothing: the first answer stays.
      const again = await post('/v1/guidanceLog/save', me, { page: 'home', action: 'finished', step: 3 });
      expect(again.body.data).toEqual({ saved: false, seenAt: saved.body.data.seenAt });
      const row = await t.db
        .selectFrom('guidance_logs')
        .select(['action', 'step'])
        .where('page', '=', 'home')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ action: 'closed', step: 1 });
      // Other pages, other people: still to show.
      expect((await check(me, 'sealList')).body.data.show).toBe(true);
      expect((await check(other, 'home')).body.data.show).toBe(true);
      // The same person in an organisation space has seen it too.
      const created = await post('/v1/organizes/add', me, {
        organizeName: `引导（${Math.random().toString(36).slice(2, 8)}）有限公司`,
        uscc: uscc(),
      });
      expect((await check(created.body.data.accessToken, 'home')).body.data.show).toBe(false);

      // Unknown pages and actions, and missing sessions, are refused.
      expect((await check(me, 'nowhere')).status).toBe(400);
      expect((await post('/v1/guidanceLog/save', other, { page: 'home', action: 'ignored' })).status).toBe(
        400,
      );
      expect((await check(null, 'home')).body.code).toBe(102);
      expect((await post('/v1/guidanceLog/save', null, { page: 'home', action: 'closed' })).body.code).toBe(
        102,
      );

      // Switched off again: nobody is shown anything.
      await setGuide('false');
      expect((await check(other, 'home')).body.data).toMatchObject({ enabled: false, show: false });
      await setGuide('/docs');
    }, 30_000);
  });
});
