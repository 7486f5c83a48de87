import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, mobile, startTestApp, uscc, type TestApp } from './harness';

describe.each(DIALECTS)('organisations [%s]', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const create = (token: string, organizeName: string, code: string) =>
    t.call('POST', '/v1/organizes/add', { token, body: { organizeName, uscc: code } });
  const uniqueName = () => `测试科技（${Math.random().toString(36).slice(2, 8)}）有限公司`;

  describe('create (spec 4 and 5)', () => {
    it('creates with trimmed values, makes the creator super administrator, and hands a token into it (status 0)', async () => {
      const token = await t.loginBySms(mobile());
      const name = uniqueName();
      const code = uscc();
      const r = await create(token, `  ${name} `, ` ${code} `);
      expect(r.body.code).toBe(0);
      expect(r.body.data).toMatchObject({ status: 0, organizeId: expect.stringMatching(/^org_/) });
      const info = await t.call('GET', '/v1/accounts/info', { token: r.body.data.accessToken });
      expect(info.body.data).toMatchObject({
        identityType: 1,
        accountId: r.body.data.organizeId,
        realNameStatus: 0,
      });
      expect(info.body.data.userInfoOrg).toMatchObject({
        organizeName: name,
        uscc: code,
        hasRealName: false,
      });
      expect(info.body.data.roles.map((x: { code: string }) => x.code)).toEqual(['superAdmin']);
      // The token it replaced has ended; the creation was audited.
      expect((await t.call('GET', '/v1/accounts/info', { token })).body.code).toBe(225);
      const audit = await t.db
        .selectFrom('audit_logs')
        .selectAll()
        .where('action', '=', 'organization.create')
        .where('target_id', '=', r.body.data.organizeId)
        .execute();
      expect(audit).toHaveLength(1);
    });
    it.each([
      ['', 'valid', 3001],
      ['   ', 'valid', 3001],
      ['12345', 'valid', 3002],
      ['Acme & Sons', 'valid', 3002],
      ['甲'.repeat(101), 'valid', 3002],
      ['name-ok', '', 3004],
      ['name-ok', '91110108551385082F', 3005],
      ['name-ok', '9137000072861193', 3005],
    ])('refuses name %j / code %j with %i', async (name, code, expected) => {
      const token = await t.loginBySms(mobile());
      const r = await create(
        token,
        name === 'name-ok' ? uniqueName() : name,
        code === 'valid' ? uscc() : code,
      );
      expect([r.status, r.body.code]).toEqual([400, expected]);
    });
    it('accepts the full 100-character name and full-width brackets', async () => {
      const token = await t.loginBySms(mobile());
      const name = `（${Math.random().toString(36).slice(2, 8)}）`.padEnd(100, '甲');
      expect((await create(token, name, uscc())).body.data.status).toBe(0);
    });
    it('refuses a taken name (3003) and a taken credit code (3006), and the duplicate check agrees', async () => {
      const a = await t.loginBySms(mobile());
      const name = uniqueName();
      const code = uscc();
      expect((await create(a, name, code)).body.code).toBe(0);
      const b = await t.loginBySms(mobile());
      expect((await create(b, name, uscc())).body.code).toBe(3003);
      expect((await create(b, uniqueName(), code)).body.code).toBe(3006);
      expect(
        (
          await t.call('GET', `/v1/organizes/duplicateCheck?organizeName=${encodeURIComponent(name)}`, {
            token: b,
          })
        ).body.data,
      ).toBe(true);
      expect(
        (
          await t.call(
            'GET',
            `/v1/organizes/duplicateCheck?organizeName=${encodeURIComponent(` ${name} `)}`,
            { token: b },
          )
        ).body.data,
      ).toBe(true);
      expect((await t.call('GET', `/v1/organizes/duplicateCheck?uscc=${code}`, { token: b })).body.data).toBe(
        true,
      );
      expect(
        (
          await t.call(
            'GET',
            `/v1/organizes/duplicateCheck?organizeName=${encodeURIComponent(uniqueName())}`,
            { token: b },
          )
        ).body.data,
      ).toBe(false);
      expect(
        (await t.call('GET', `/v1/organizes/duplicateCheck?uscc=${uscc()}`, { token: b })).body.data,
      ).toBe(false);
    });
    it('duplicate check needs exactly one of the two (1001) and a session (102)', async () => {
      const token = await t.loginBySms(mobile());
      expect((await t.call('GET', '/v1/organizes/duplicateCheck', { token })).body.code).toBe(1001);
      expect(
        (await t.call('GET', `/v1/organizes/duplicateCheck?organizeName=a&uscc=${uscc()}`, { token })).body
          .code,
      ).toBe(1001);
      expect((await t.call('GET', '/v1/organizes/duplicateCheck?organizeName=a')).body.code).toBe(102);
    });
    it('answers status 1, with no token, for an organisation that has no valid super administrator', async () => {
      const a = await t.loginBySms(mobile());
      const code = uscc();
      const name = uniqueName();
      const made = await create(a, name, code);
      await t.db
        .updateTable('members')
        .set({ status: 'removed' })
        .where('organization_id', '=', made.body.data.organizeId)
        .execute();
      // The creator's organisation session ended with the membership (312).
      expect(
        (await t.call('GET', '/v1/accounts/info', { token: made.body.data.accessToken })).body.code,
      ).toBe(312);
      const b = await t.loginBySms(mobile());
      expect((await t.call('GET', `/v1/organizes/duplicateCheck?uscc=${code}`, { token: b })).body.data).toBe(
        false,
      );
      // Its name does not block the form either: the same name and code lead into the takeover.
      const check = await t.call(
        'GET',
        `/v1/organizes/duplicateCheck?organizeName=${encodeURIComponent(name)}`,
        { token: b },
      );
      expect(check.body.data).toBe(false);
      const r = await create(b, name, code);
      expect(r.body).toMatchObject({
        code: 0,
        data: { status: 1, accessToken: null, organizeId: made.body.data.organizeId },
      });
      expect((await t.call('GET', '/v1/accounts/info', { token: b })).body.code).toBe(0);
    });
    it('is refused when LEGAL_CREATE_DISABLE is on (3010)', async () => {
      // A separate app, so the configuration cache of the shared one is not involved.
      const t2 = await startTestApp(dialect);
      try {
        const tok2 = await t2.loginBySms(mobile());
        await t2.db
          .updateTable('config_values')
          .set({ value: 'true' })
          .where('code', '=', 'LEGAL_CREATE_DISABLE')
          .execute();
        const r = await t2.call('POST', '/v1/organizes/add', {
          token: tok2,
          body: { organizeName: uniqueName(), uscc: uscc() },
        });
        expect([r.status, r.body.code]).toEqual([403, 3010]);
      } finally {
        await t2.close();
      }
    });
    it('needs a session (102) and a well-formed body (1001)', async () => {
      expect(
        (await t.call('POST', '/v1/organizes/add', { body: { organizeName: 'x', uscc: uscc() } })).body.code,
      ).toBe(102);
      const token = await t.loginBySms(mobile());
      expect(
        (await t.call('POST', '/v1/organizes/add', { token, body: { organizeName: 5 } })).body.code,
      ).toBe(1001);
    });
  });

  describe('lists', () => {
    it('orders the firm list: chosen first, then verified, and the older list agrees', async () => {
      const token = await t.loginByPassword('13800000001', 'Demo1234');
      const made = await create(token, uniqueName(), uscc());
      const inNew = made.body.data.accessToken;
      const back = (await t.call('POST', '/v1/organizes/handover/login', { token: inNew, body: { type: 2 } }))
        .body.data.accessToken;
      const list = (await t.call('POST', '/v1/accounts', { token: back })).body.data.ownAccounts;
      expect(list[0]).toMatchObject({ type: 2, chooseStatus: true });
      const orgs = list.filter((a: { type: number }) => a.type === 1);
      const demoIdx = orgs.findIndex((o: { accountId: string }) => o.accountId === 'org_demo');
      const newIdx = orgs.findIndex((o: { accountId: string }) => o.accountId === made.body.data.organizeId);
      expect(demoIdx).toBeLessThan(newIdx); // verified before unverified
      const older = (await t.call('POST', '/v1/organizes', { token: back })).body.data;
      expect(older.defaultChooseOrganizeId).toBeNull();
      expect(older.ownOrganizes[0]).toMatchObject({
        organizeId: 'org_demo',
        realNameStatus: 1,
        roles: ['legalPerson', 'superAdmin'],
      });
    });
  });

  describe('delete', () => {
    it('deletes a non-current unverified organisation; its sessions end; the name and code are free again', async () => {
      const m = mobile();
      const token = await t.loginBySms(m);
      const name = uniqueName();
      const code = uscc();
      const made = await create(token, name, code);
      const orgToken = made.body.data.accessToken;
      expect(
        (
          await t.call('POST', '/v1/organizes/delete', {
            token: orgToken,
            body: { organizeId: made.body.data.organizeId },
          })
        ).body.code,
      ).toBe(3008);
      const personal = (
        await t.call('POST', '/v1/organizes/handover/login', { token: orgToken, body: { type: 2 } })
      ).body.data.accessToken;
      // A second session inside the organisation, to see it end.
      const inside = (
        await t.call('POST', '/v1/accounts/handover/login', {
          token: await t.loginBySms(m),
          body: { accountId: made.body.data.organizeId },
        })
      ).body.data.accessToken;
      const del = await t.call('POST', '/v1/organizes/delete', {
        token: personal,
        body: { organizeId: made.body.data.organizeId },
      });
      expect(del.body).toMatchObject({ code: 0, data: { deleted: true } });
      expect((await t.call('GET', '/v1/accounts/info', { token: inside })).body.code).toBe(225);
      expect((await t.call('POST', '/v1/accounts', { token: personal })).body.data.ownAccounts).toHaveLength(
        1,
      );
      expect((await create(personal, name, code)).body.data.status).toBe(0);
    });
    it('refuses a verified organisation (3009), a stranger (3007), and a member who is not an administrator (11006)', async () => {
      const legal = await t.loginByPassword('13800000001', 'Demo1234');
      expect(
        (await t.call('POST', '/v1/organizes/delete', { token: legal, body: { organizeId: 'org_demo' } }))
          .body.code,
      ).toBe(3009);
      const owner = await t.loginBySms(mobile());
      const made = await create(owner, uniqueName(), uscc());
      const stranger = await t.loginBySms(mobile());
      expect(
        (
          await t.call('POST', '/v1/organizes/delete', {
            token: stranger,
            body: { organizeId: made.body.data.organizeId },
          })
        ).body.code,
      ).toBe(3007);
      const staffMobile = mobile();
      const staff = await t.loginBySms(staffMobile);
      const staffId = (await t.call('GET', '/v1/accounts/info', { token: staff })).body.data.accountId;
      await t.db
        .insertInto('members')
        .values({
          id: `mbr_s_${staffMobile}`,
          organization_id: made.body.data.organizeId,
          person_id: staffId,
          roles: ['staff'],
        })
        .execute();
      const r = await t.call('POST', '/v1/organizes/delete', {
        token: staff,
        body: { organizeId: made.body.data.organizeId },
      });
      expect([r.status, r.body.code]).toEqual([403, 11006]);
    });
  });

  describe('isolation', () => {
    it('one person cannot enter, list or delete another organisation', async () => {
      const a = await t.loginBySms(mobile());
      const made = await create(a, uniqueName(), uscc());
      const b = await t.loginBySms(mobile());
      expect(
        (
          await t.call('POST', '/v1/accounts/handover/login', {
            token: b,
            body: { accountId: made.body.data.organizeId },
          })
        ).body.code,
      ).toBe(2013);
      const list = (await t.call('POST', '/v1/accounts', { token: b })).body.data.ownAccounts;
      expect(list.map((x: { accountId: string }) => x.accountId)).not.toContain(made.body.data.organizeId);
      expect(
        (
          await t.call('POST', '/v1/organizes/delete', {
            token: b,
            body: { organizeId: made.body.data.organizeId },
          })
        ).body.code,
      ).toBe(3007);
    });
  });
});
