import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, mobile, startTestApp, type ApiBody, type TestApp } from './harness';
import { createQueryCounter } from './query-counter';

describe.each(DIALECTS)('accounts and messages [%s]', (dialect) => {
  let t: TestApp;
  const counter = createQueryCounter();
  beforeAll(async () => {
    t = await startTestApp(dialect, {}, undefined, [counter.plugin]);
  });
  afterAll(async () => t?.close());

  describe('SMS codes (sandbox provider)', () => {
    it('rejects a malformed mobile with 2001', async () => {
      const r = await t.call('POST', '/v1/msgs/loginRegister/send', { body: { mobile: '12345' } });
      expect([r.status, r.body.code]).toEqual([400, 2001]);
    });
    it('queues a code, delivers it asynchronously, and says it is sandbox', async () => {
      const m = mobile();
      const r = await t.call('POST', '/v1/msgs/loginRegister/send', { body: { mobile: m } });
      expect(r.body.code).toBe(0);
      expect(r.body.data).toMatchObject({ sandbox: true, expiresInSeconds: 300 });
      expect(r.body.data.flowId).toMatch(/^flw_/);
      const code = await t.smsCode(m);
      expect(code).toMatch(/^\d{6}$/);
      const box = await t.call('GET', `/v1/dev/sms-outbox?mobile=${m}`);
      expect(box.body.data.messages[0]).toMatchObject({ scene: 'loginRegister', status: 'delivered' });
      expect(box.body.data.messages[0].body).toContain(code);
    });
    it('reports failed delivery for a number in the sandbox deny range, without a code', async () => {
      const m = '19900001234';
      await t.call('POST', '/v1/msgs/loginRegister/send', { body: { mobile: m } });
      let msg: { status: string; code: string | null; error: string | null } | undefined;
      for (let i = 0; i < 100 && msg?.status !== 'failed'; i++) {
        await new Promise((res) => setTimeout(res, 10));
        msg = (await t.call('GET', `/v1/dev/sms-outbox?mobile=${m}`)).body.data.messages[0];
      }
      expect(msg).toMatchObject({ status: 'failed', code: null });
      expect(msg?.error).toContain('unreachable');
    });
    it('refuses a resend inside the resend window with 1003', async () => {
      const t2 = await startTestApp(dialect, { SMS_RESEND_SECONDS: '60' });
      try {
        const m = mobile();
        expect(
          (await t2.call('POST', '/v1/msgs/loginRegister/send', { body: { mobile: m } })).body.code,
        ).toBe(0);
        const again = await t2.call('POST', '/v1/msgs/loginRegister/send', { body: { mobile: m } });
        expect([again.status, again.body.code]).toEqual([429, 1003]);
        expect(again.body.data.retryAfterSeconds).toBeGreaterThan(0);
      } finally {
        await t2.close();
      }
    });
    it('the outbox rejects a malformed mobile', async () => {
      expect((await t.call('GET', '/v1/dev/sms-outbox?mobile=abc')).body.code).toBe(2001);
    });
  });

  describe('login', () => {
    it('registers a new mobile on first SMS login, then logs it in again as the same account', async () => {
      const m = mobile();
      await t.call('POST', '/v1/msgs/loginRegister/send', { body: { mobile: m } });
      const first = await t.call('POST', '/v1/accounts/login', {
        body: { mobile: m, code: await t.smsCode(m) },
      });
      expect(first.body.code).toBe(0);
      expect(first.body.data).toMatchObject({ isNewAccount: true, identityType: 2, memberId: null });
      expect(first.body.data.accessToken).toMatch(/^ost_/);
      const again = await t.loginBySms(m);
      const info = await t.call('GET', '/v1/accounts/info', { token: again });
      expect(info.body.data.accountId).toBe(first.body.data.accountId);
    });
    it('a code works once only', async () => {
      const m = mobile();
      await t.call('POST', '/v1/msgs/loginRegister/send', { body: { mobile: m } });
      const code = await t.smsCode(m);
      expect((await t.call('POST', '/v1/accounts/login', { body: { mobile: m, code } })).body.code).toBe(0);
      expect((await t.call('POST', '/v1/accounts/login', { body: { mobile: m, code } })).body.code).toBe(
        2003,
      );
    });
    it('wrong code 2002, malformed code 2004, no code sent 2003, too many tries 2010', async () => {
      const m = mobile();
      expect(
        (await t.call('POST', '/v1/accounts/login', { body: { mobile: m, code: '123456' } })).body.code,
      ).toBe(2003);
      await t.call('POST', '/v1/msgs/loginRegister/send', { body: { mobile: m } });
      const code = await t.smsCode(m);
      const wrong = code === '000000' ? '000001' : '000000';
      expect(
        (await t.call('POST', '/v1/accounts/login', { body: { mobile: m, code: '12ab' } })).body.code,
      ).toBe(2004);
      for (let i = 0; i < 4; i++)
        expect(
          (await t.call('POST', '/v1/accounts/login', { body: { mobile: m, code: wrong } })).body.code,
        ).toBe(2002);
      expect(
        (await t.call('POST', '/v1/accounts/login', { body: { mobile: m, code: wrong } })).body.code,
      ).toBe(2010);
      // Even the right code is refused once the flow is exhausted.
      expect((await t.call('POST', '/v1/accounts/login', { body: { mobile: m, code } })).body.code).toBe(
        2010,
      );
    });
    it('password login: demo account works; wrong password and unknown mobile answer alike (2006)', async () => {
      const ok = await t.call('POST', '/v1/accounts/login', {
        body: { mobile: '13800000003', password: 'Demo1234' },
      });
      expect(ok.body.code).toBe(0);
      expect(
        (
          await t.call('POST', '/v1/accounts/login', {
            body: { mobile: '13800000003', password: 'nope12345' },
          })
        ).body.code,
      ).toBe(2006);
      expect(
        (await t.call('POST', '/v1/accounts/login', { body: { mobile: mobile(), password: 'Demo1234' } }))
          .body.code,
      ).toBe(2006);
    });
    it('slows down the address that guesses wrong passwords (2101), not the person from another address', async () => {
      const m = mobile();
      const token = await t.loginBySms(m);
      await setPassword(t, token, m, 'Secret123');
      const from = async (ip: string, password: string) => {
        const r = await t.app.inject({
          method: 'POST',
          url: '/v1/accounts/login',
          remoteAddress: ip,
          payload: { mobile: m, password },
        });
        return { status: r.statusCode, body: r.json() as ApiBody };
      };
      const attacker = '203.0.113.9';
      for (let i = 0; i < 5; i++) expect((await from(attacker, `Wrong${i}234`)).body.code).toBe(2006);
      // From the attacker's address even the right password now waits, with the wait in the answer.
      const slowed = await from(attacker, 'Secret123');
      expect([slowed.status, slowed.body.code]).toEqual([429, 2101]);
      const wait = slowed.body.data.retryAfterSeconds as number;
      expect(wait).toBeGreaterThan(20);
      expect(wait).toBeLessThanOrEqual(30);
      expect(slowed.body.message).toContain(String(wait));
      for (let i = 0; i < 20; i++) expect((await from(attacker, `Guess${i}234`)).body.code).toBe(2101);
      // The person, from their own address, logs in at once; the attacker is still slowed.
      expect((await from('198.51.100.4', 'Secret123')).body.code).toBe(0);
      expect((await from('2001:db8:aa::1', 'Secret123')).body.code).toBe(0);
      expect((await from(attacker, 'Secret123')).body.code).toBe(2101);
      // One IPv6 client holds a /64: its other addresses share the count.
      for (let i = 0; i < 5; i++) await from(`2001:db8:bad:1::${i + 1}`, `Wrong${i}234`);
      expect((await from('2001:db8:bad:1::99', 'Secret123')).body.code).toBe(2101);
      // An unknown mobile is counted alike, so waiting does not tell who is registered.
      const unknown = mobile();
      const guess = async () =>
        (
          await t.app.inject({
            method: 'POST',
            url: '/v1/accounts/login',
            remoteAddress: attacker,
            payload: { mobile: unknown, password: 'Wrong1234' },
          })
        ).json().code as number;
      const codes: number[] = [];
      for (let i = 0; i < 6; i++) codes.push(await guess());
      expect(codes).toEqual([2006, 2006, 2006, 2006, 2006, 2101]);
    });
    it.skipIf(!process.env.REDIS_URL)(
      'counts in Redis when REDIS_URL is set, shared by two instances',
      async () => {
        const env = {
          REDIS_URL: process.env.REDIS_URL!,
          REDIS_PREFIX: `test-${Date.now()}-${Math.random().toString(36).slice(2, 8)}:`,
          LOGIN_FREE_FAILURES: '3',
        };
        const a = await startTestApp(dialect, env);
        const b = await startTestApp(dialect, env);
        try {
          const guess = (x: TestApp, ip: string, password: string) =>
            x.app.inject({
              method: 'POST',
              url: '/v1/accounts/login',
              remoteAddress: ip,
              payload: { mobile: '13800000003', password },
            });
          for (const x of [a, b, a])
            expect((await guess(x, '203.0.113.50', 'Wrong1234')).json().code).toBe(2006);
          // The fourth guess waits whichever instance it reaches; nothing was counted in either database.
          expect((await guess(b, '203.0.113.50', 'Demo1234')).json().code).toBe(2101);
          expect((await guess(a, '203.0.113.50', 'Demo1234')).json().code).toBe(2101);
          expect((await guess(a, '203.0.113.51', 'Demo1234')).json().code).toBe(0);
          for (const x of [a, b])
            expect(await x.db.selectFrom('login_throttles').selectAll().execute()).toEqual([]);
        } finally {
          await a.close();
          await b.close();
        }
      },
    );
    it('rejects a body that is neither shape with 1001', async () => {
      const r = await t.call('POST', '/v1/accounts/login', { body: { mobile: '13800000003' } });
      expect([r.status, r.body.code]).toEqual([400, 1001]);
    });
    it('a disabled person cannot log in (310) and their sessions end with 310', async () => {
      const m = mobile();
      const token = await t.loginBySms(m);
      await t.db.updateTable('persons').set({ status: 'disabled' }).where('mobile', '=', m).execute();
      expect((await t.call('GET', '/v1/accounts/info', { token })).body.code).toBe(310);
      await t.call('POST', '/v1/msgs/loginRegister/send', { body: { mobile: m } });
      expect(
        (await t.call('POST', '/v1/accounts/login', { body: { mobile: m, code: await t.smsCode(m) } })).body
          .code,
      ).toBe(310);
    });
  });

  describe('session codes of section 8', () => {
    it('no token 102, unknown token 201, expired 202, logged out 225', async () => {
      const none = await t.call('GET', '/v1/accounts/info');
      expect([none.status, none.body.code]).toEqual([401, 102]);
      expect((await t.call('GET', '/v1/accounts/info', { token: 'ost_' + 'x'.repeat(43) })).body.code).toBe(
        201,
      );
      expect((await t.call('GET', '/v1/accounts/info', { token: 'garbage' })).body.code).toBe(201);
      const token = await t.loginBySms(mobile());
      await t.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('revoked_at', 'is', null)
        .where('id', 'in', t.db.selectFrom('sessions').select('id').orderBy('created_at', 'desc').limit(1))
        .execute();
      expect((await t.call('GET', '/v1/accounts/info', { token })).body.code).toBe(202);
      const token2 = await t.loginBySms(mobile());
      expect((await t.call('POST', '/v1/accounts/logout', { token: token2, body: {} })).body.code).toBe(0);
      expect((await t.call('GET', '/v1/accounts/info', { token: token2 })).body.code).toBe(225);
    });
    it('accepts the token as a bearer too', async () => {
      const token = await t.loginBySms(mobile());
      expect(
        (await t.call('GET', '/v1/accounts/info', { headers: { authorization: `Bearer ${token}` } })).body
          .code,
      ).toBe(0);
    });
    it('checkLoginStatus answers valid or not, never an error', async () => {
      const token = await t.loginBySms(mobile());
      const ok = await t.call('GET', '/v1/accounts/checkLoginStatus', { token });
      expect(ok.body).toMatchObject({ code: 0, data: { valid: true, identityType: 2 } });
      const none = await t.call('GET', '/v1/accounts/checkLoginStatus');
      expect(none.body).toMatchObject({ code: 0, data: { valid: false, accountId: null } });
      const bad = await t.call('GET', '/v1/accounts/checkLoginStatus', { token: 'ost_nope' });
      expect(bad.body).toMatchObject({ code: 0, data: { valid: false } });
    });
  });

  describe('account info and list', () => {
    it('info masks the phone and follows the language header', async () => {
      const m = mobile();
      const token = await t.loginBySms(m);
      const zh = await t.call('GET', '/v1/accounts/info', { token });
      expect(zh.body.message).toBe('成功');
      expect(zh.body.data.userInfoPerson).toMatchObject({
        registerMobile: `${m.slice(0, 3)}****${m.slice(-4)}`,
        hasRealName: false,
        hasPassword: false,
      });
      expect(zh.body.data.userInfoOrg).toBeNull();
      const en = await t.call('GET', '/v1/accounts/info', { lang: 'en' });
      expect(en.body.message).toBe('Please log in first');
    });
    it('info is one statement, the session included, in the personal and the organisation space, and none while the session is cached', async () => {
      const personal = await t.loginByPassword('13800000001', 'Demo1234');
      const org = (await t.call('POST', '/v1/accounts', { token: personal })).body.data.ownAccounts.find(
        (a: { type: number }) => a.type === 1,
      );
      const inOrg = (
        await t.call('POST', '/v1/accounts/handover/login', {
          token: personal,
          body: { accountId: org.accountId },
        })
      ).body.data.accessToken as string;
      const person = await t.db
        .selectFrom('persons')
        .selectAll()
        .where('mobile', '=', '13800000001')
        .executeTakeFirstOrThrow();
      const orgRow = await t.db
        .selectFrom('organizations')
        .selectAll()
        .where('id', '=', org.accountId)
        .executeTakeFirstOrThrow();
      const member = await t.db
        .selectFrom('members')
        .select(['id', 'roles'])
        .where('person_id', '=', person.id)
        .where('organization_id', '=', orgRow.id)
        .executeTakeFirstOrThrow();
      // A change to a table a session is judged by empties the session cache: the next read is the one
      // statement, and the ones right after it are none.
      await t.db
        .updateTable('organizations')
        .set({ name: orgRow.name })
        .where('id', '=', orgRow.id)
        .execute();
      let answer: { raw: string } | undefined;
      const statements = await counter.during(async () => {
        answer = await t.call('GET', '/v1/accounts/info', { token: inOrg, lang: 'en' });
      });
      expect(statements.map((q) => `${q.kind} ${q.tables.join(',')}`)).toEqual([
        'SelectQueryNode sessions,persons,members,organizations',
      ]);
      const again = await counter.during(async () => {
        expect(
          JSON.parse((await t.call('GET', '/v1/accounts/info', { token: inOrg, lang: 'en' })).raw),
        ).toEqual(JSON.parse(answer!.raw));
      });
      expect(again).toEqual([]);
      // Field for field and in order, what the person and organisation rows say.
      expect(JSON.parse(answer!.raw).data).toStrictEqual({
        identityType: 1,
        accountId: orgRow.id,
        memberId: member.id,
        userInfoPerson: {
          accountId: person.id,
          name: person.name,
          hasRealName: person.real_name_status === 1,
          registerMobile: '138****0001',
          hasPassword: true,
        },
        userInfoOrg: {
          organizeId: orgRow.id,
          organizeName: orgRow.name,
          uscc: orgRow.uscc,
          hasRealName: orgRow.real_name_status === 1,
          orgGmtCreateTime: orgRow.created_at.toISOString(),
        },
        roles: [
          { code: 'legalPerson', name: 'Legal representative' },
          { code: 'superAdmin', name: 'Super administrator' },
        ],
        realNameStatus: orgRow.real_name_status,
      });
      expect(Object.keys(JSON.parse(answer!.raw).data)).toEqual([
        'identityType',
        'accountId',
        'memberId',
        'userInfoPerson',
        'userInfoOrg',
        'roles',
        'realNameStatus',
      ]);
      expect(member.roles).toEqual(['legalPerson', 'superAdmin']);

      const fresh = await t.loginBySms(mobile());
      const own = await counter.during(async () => {
        const r = await t.call('GET', '/v1/accounts/info', { token: fresh });
        expect(r.body.data).toMatchObject({
          identityType: 2,
          userInfoOrg: null,
          roles: [],
          realNameStatus: 0,
        });
      });
      expect(own).toHaveLength(1);
      // Back to the personal space, where the other tests expect the demo person.
      await t.call('POST', '/v1/accounts/handover/login', { token: inOrg, body: { accountId: person.id } });
    });
    it('{info} accepts only "info"', async () => {
      const token = await t.loginBySms(mobile());
      expect((await t.call('GET', '/v1/accounts/other', { token })).body.code).toBe(1001);
    });
    it('the demo legal representative sees the demo organisation with roles', async () => {
      const token = await t.loginByPassword('13800000001', 'Demo1234');
      const list = await t.call('POST', '/v1/accounts', { token });
      expect(list.body.code).toBe(0);
      const { ownAccounts, personAccount, defaultChooseId } = list.body.data;
      expect(personAccount).toMatchObject({ type: 2, chooseStatus: true, realNameStatus: 1 });
      expect(defaultChooseId).toBe(personAccount.accountId);
      expect(ownAccounts[0].chooseStatus).toBe(true);
      const org = ownAccounts.find((a: { type: number }) => a.type === 1);
      expect(org).toMatchObject({ name: '杭州示例科技有限公司', realNameStatus: 1, chooseStatus: false });
      const switched = await t.call('POST', '/v1/accounts/handover/login', {
        token,
        body: { accountId: org.accountId },
      });
      const info = await t.call('GET', '/v1/accounts/info', {
        token: switched.body.data.accessToken,
        lang: 'en',
      });
      expect(info.body.data.roles).toEqual([
        { code: 'legalPerson', name: 'Legal representative' },
        { code: 'superAdmin', name: 'Super administrator' },
      ]);
      expect(info.body.data.userInfoOrg).toMatchObject({
        organizeName: '杭州示例科技有限公司',
        hasRealName: true,
      });
    });
  });

  describe('space switching', () => {
    it('into an organisation and back; each switch ends the old token; the current space is refused', async () => {
      const token = await t.loginByPassword('13800000002', 'Demo1234');
      expect(
        (
          await t.call('POST', '/v1/accounts/handover/login', {
            token,
            body: { accountId: 'psn_demo_admin' },
          })
        ).body.code,
      ).toBe(2012);
      const toOrg = await t.call('POST', '/v1/accounts/handover/login', {
        token,
        body: { accountId: 'org_demo' },
      });
      expect(toOrg.body.data).toMatchObject({
        identityType: 1,
        accountId: 'org_demo',
        memberId: 'mbr_demo_admin',
      });
      expect((await t.call('GET', '/v1/accounts/info', { token })).body.code).toBe(225);
      const orgToken = toOrg.body.data.accessToken;
      expect(
        (
          await t.call('POST', '/v1/accounts/handover/login', {
            token: orgToken,
            body: { accountId: 'org_demo' },
          })
        ).body.code,
      ).toBe(2012);
      const back = await t.call('POST', '/v1/organizes/handover/login', {
        token: orgToken,
        body: { type: 2 },
      });
      expect(back.body.data).toMatchObject({ identityType: 2, accountId: 'psn_demo_admin', memberId: null });
      // The last space chosen is where the next login lands.
      const again = await t.call('POST', '/v1/organizes/handover/login', {
        token: back.body.data.accessToken,
        body: { type: 1, organizeId: 'org_demo' },
      });
      expect(again.body.data.identityType).toBe(1);
      const relogin = await t.call('POST', '/v1/accounts/login', {
        body: { mobile: '13800000002', password: 'Demo1234' },
      });
      expect(relogin.body.data).toMatchObject({ identityType: 1, accountId: 'org_demo' });
    });
    it('refuses a space the caller does not belong to (2013), and type 1 without an organisation (1001)', async () => {
      const token = await t.loginBySms(mobile());
      expect(
        (await t.call('POST', '/v1/accounts/handover/login', { token, body: { accountId: 'org_demo' } })).body
          .code,
      ).toBe(2013);
      expect(
        (
          await t.call('POST', '/v1/organizes/handover/login', {
            token,
            body: { type: 1, organizeId: 'org_demo' },
          })
        ).body.code,
      ).toBe(2013);
      expect(
        (await t.call('POST', '/v1/organizes/handover/login', { token, body: { type: 1 } })).body.code,
      ).toBe(1001);
    });
    it('a member removed from the organisation loses the organisation session (312)', async () => {
      const m = mobile();
      const token = await t.loginBySms(m);
      const person = await t.call('GET', '/v1/accounts/info', { token });
      await t.db
        .insertInto('members')
        .values({
          id: `mbr_t_${m}`,
          organization_id: 'org_demo',
          person_id: person.body.data.accountId,
          roles: ['staff'],
        })
        .execute();
      const toOrg = await t.call('POST', '/v1/accounts/handover/login', {
        token,
        body: { accountId: 'org_demo' },
      });
      expect(toOrg.body.code).toBe(0);
      await t.db.updateTable('members').set({ status: 'removed' }).where('id', '=', `mbr_t_${m}`).execute();
      const r = await t.call('GET', '/v1/accounts/info', { token: toOrg.body.data.accessToken });
      expect([r.status, r.body.code]).toEqual([401, 312]);
    });
  });

  describe('logout and token change', () => {
    it('logout keeps a same-site redirect and replaces any other with /', async () => {
      for (const [given, expected] of [
        ['/userCenter/infoEnt?x=1', '/userCenter/infoEnt?x=1'],
        ['//evil.example/', '/'],
        ['https://evil.example/', '/'],
        ['/\\evil.example', '/'],
        [undefined, '/'],
      ] as const) {
        const token = await t.loginBySms(mobile());
        const r = await t.call('POST', '/v1/accounts/logout', {
          token,
          body: given === undefined ? {} : { redirectUrl: given },
        });
        expect(r.body.data.redirectUrl).toBe(expected);
      }
    });
    it('logout without a session is 102', async () => {
      expect((await t.call('POST', '/v1/accounts/logout', { body: {} })).body.code).toBe(102);
    });
    it('changeToken issues a new token for the same space and ends the old one', async () => {
      const token = await t.loginBySms(mobile());
      const r = await t.call('POST', '/v1/accounts/changeToken', { token });
      expect(r.body.data.changedBindAccessToken).not.toBe(token);
      expect((await t.call('GET', '/v1/accounts/info', { token })).body.code).toBe(225);
      expect(
        (await t.call('GET', '/v1/accounts/info', { token: r.body.data.changedBindAccessToken })).body.data
          .accountId,
      ).toBe(r.body.data.accountId);
    });
  });

  describe('password and mobile', () => {
    it('first password needs SMS proof; change by old password; weak 2008; same 2014; other sessions end', async () => {
      const m = mobile();
      const token = await t.loginBySms(m);
      const noProof = await t.call('POST', '/v1/accounts/updatePassword', {
        token,
        body: { newPassword: 'Secret123' },
      });
      expect(noProof.body.code).toBe(2003);
      await setPassword(t, token, m, 'Secret123');
      const other = await t.loginByPassword(m, 'Secret123');
      expect(
        (
          await t.call('POST', '/v1/accounts/updatePassword', {
            token,
            body: { newPassword: 'short', oldPassword: 'Secret123' },
          })
        ).body.code,
      ).toBe(2008);
      expect(
        (
          await t.call('POST', '/v1/accounts/updatePassword', {
            token,
            body: { newPassword: 'Secret123', oldPassword: 'Secret123' },
          })
        ).body.code,
      ).toBe(2014);
      expect(
        (
          await t.call('POST', '/v1/accounts/updatePassword', {
            token,
            body: { newPassword: 'Secret456', oldPassword: 'Wrong1234' },
          })
        ).body.code,
      ).toBe(2006);
      expect(
        (
          await t.call('POST', '/v1/accounts/updatePassword', {
            token,
            body: { newPassword: 'Secret456', oldPassword: 'Secret123' },
          })
        ).body.code,
      ).toBe(0);
      expect((await t.call('GET', '/v1/accounts/info', { token })).body.code).toBe(0);
      expect((await t.call('GET', '/v1/accounts/info', { token: other })).body.code).toBe(225);
      expect(
        (await t.call('POST', '/v1/accounts/login', { body: { mobile: m, password: 'Secret456' } })).body
          .code,
      ).toBe(0);
    });
    it('a verified flow unlocks one step only, and only for its owner', async () => {
      const m = mobile();
      const token = await t.loginBySms(m);
      const flowId = await verifiedOwnMobileFlow(t, token, m);
      const stranger = await t.loginBySms(mobile());
      expect(
        (
          await t.call('POST', '/v1/accounts/updatePassword', {
            token: stranger,
            body: { newPassword: 'Secret123', flowId },
          })
        ).body.code,
      ).toBe(2003);
      expect(
        (
          await t.call('POST', '/v1/accounts/updatePassword', {
            token,
            body: { newPassword: 'Secret123', flowId },
          })
        ).body.code,
      ).toBe(0);
      expect(
        (
          await t.call('POST', '/v1/accounts/updatePassword', {
            token,
            body: { newPassword: 'Secret789', flowId },
          })
        ).body.code,
      ).toBe(2003);
    });
    it('changes the mobile: prove the old number, then confirm the new one; a taken number is 2011', async () => {
      const m = mobile();
      const token = await t.loginBySms(m);
      const proofFlowId = await verifiedOwnMobileFlow(t, token, m);
      expect(
        (
          await t.call('POST', '/v1/msgs/newMobile/send', {
            token,
            body: { mobile: '13800000001', proofFlowId },
          })
        ).body.code,
      ).toBe(2011);
      const next = mobile();
      const sent = await t.call('POST', '/v1/msgs/newMobile/send', {
        token,
        body: { mobile: next, proofFlowId },
      });
      expect(sent.body.code).toBe(0);
      const r = await t.call('POST', '/v1/msgs/newMobile/verify', {
        token,
        body: { flowId: sent.body.data.flowId, code: await t.smsCode(next), proofFlowId },
      });
      expect(r.body.data.registerMobile).toBe(`${next.slice(0, 3)}****${next.slice(-4)}`);
      expect(
        (await t.call('GET', '/v1/accounts/info', { token })).body.data.userInfoPerson.registerMobile,
      ).toBe(r.body.data.registerMobile);
      // The proof was used up with the change.
      expect(
        (await t.call('POST', '/v1/msgs/newMobile/send', { token, body: { mobile: mobile(), proofFlowId } }))
          .body.code,
      ).toBe(2003);
    });
    it('newMobile/send without a verified proof is 2003; mobileModify/send needs a session', async () => {
      const token = await t.loginBySms(mobile());
      expect(
        (
          await t.call('POST', '/v1/msgs/newMobile/send', {
            token,
            body: { mobile: mobile(), proofFlowId: 'flw_nope' },
          })
        ).body.code,
      ).toBe(2003);
      expect((await t.call('POST', '/v1/msgs/mobileModify/send')).body.code).toBe(102);
      expect(
        (await t.call('POST', '/v1/msgs/verify/flw_nope', { token, body: { code: '123456' } })).body.code,
      ).toBe(2003);
    });
  });
});

async function verifiedOwnMobileFlow(t: TestApp, token: string, m: string): Promise<string> {
  const sent = await t.call('POST', '/v1/msgs/mobileModify/send', { token });
  expect(sent.body.code).toBe(0);
  const code = await t.smsCode(m);
  const v = await t.call('POST', `/v1/msgs/verify/${sent.body.data.flowId}`, { token, body: { code } });
  expect(v.body).toMatchObject({ code: 0, data: { verified: true } });
  return sent.body.data.flowId;
}

async function setPassword(t: TestApp, token: string, m: string, password: string) {
  const flowId = await verifiedOwnMobileFlow(t, token, m);
  const r = await t.call('POST', '/v1/accounts/updatePassword', {
    token,
    body: { newPassword: password, flowId },
  });
  expect(r.body.code).toBe(0);
}
