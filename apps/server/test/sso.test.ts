import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, mobile, startTestApp, uscc, type ApiBody, type TestApp } from './harness';
import { startOidcProvider, type Claims } from './oidc-provider';
import { createSsoService, FLOW_TRANSITIONS, OUTCOMES } from '../src/modules/sso/sso.service';
import { mainlandMobile } from '../src/modules/sso/relying-party';
import { SSO_COOKIE } from '../src/modules/sso/sso.routes';
import { createPersonDirectory } from '../src/modules/sso/person-directory';
import { createSessionService } from '../src/modules/session/session.service';
import { createOrganizesService } from '../src/modules/organizes/organizes.service';
import { hashToken } from '../src/lib/secrets';

const REDIRECT_URI = 'http://localhost:8080/v1/sso/callback';
const CLIENT_ID = 'openseal-web';
const CLIENT_SECRET = 'openseal-test-client-secret-0123456789';

/** The provider approves login (whoever `state.nextSubject` names) and consent in code. */
const startProvider = () =>
  startOidcProvider({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [REDIRECT_URI] });

/** Follows the provider's redirects like a browser (with its own cookie jar) until it sends us back. */
async function browseToCallback(authorizationUrl: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const [name, ...value] = pair!.split('=');
      const expired = attrs.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value.join('=') === '') jar.delete(name!.trim());
      else jar.set(name!.trim(), value.join('='));
    }
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location)
      throw new Error(`provider stopped at ${res.status}: ${await res.text()}`);
    const next = new URL(location, url);
    if (next.href.startsWith(REDIRECT_URI)) return next;
    url = next.href;
  }
  throw new Error('too many redirects');
}

describe('relying-party helpers', () => {
  it('accepts mainland mobiles in E.164 or bare form only', () => {
    expect(mainlandMobile('+8613712345678')).toBe('13712345678');
    expect(mainlandMobile('13712345678')).toBe('13712345678');
    expect(mainlandMobile('+14155550100')).toBeNull();
    expect(mainlandMobile(42)).toBeNull();
  });

  it('keeps the outcome table and the transition table consistent with spec 4', () => {
    expect(new Set(Object.values(OUTCOMES).map((o) => o.operateType))).toEqual(new Set([0, 3, 4, 5, 6]));
    for (const o of Object.values(OUTCOMES)) expect(o.issuesToken).toBe([0, 5, 6].includes(o.operateType));
    expect(FLOW_TRANSITIONS.collected).toEqual([]);
    expect(FLOW_TRANSITIONS.failed).toEqual([]);
  });
});

describe.each(DIALECTS)('single sign-on over OpenID Connect [%s]', (dialect) => {
  let t: TestApp;
  let op: Awaited<ReturnType<typeof startProvider>>;

  beforeAll(async () => {
    op = await startProvider();
    t = await startTestApp(dialect, {
      SSO_ISSUER_URL: op.issuer,
      SSO_CLIENT_ID: CLIENT_ID,
      SSO_CLIENT_SECRET: CLIENT_SECRET,
      SSO_REDIRECT_URI: REDIRECT_URI,
      SSO_SCOPE: 'openid profile phone org',
    });
  });
  afterAll(async () => {
    await t?.close();
    await op?.close();
  });

  let subjects = 0;
  function account(claims: Claims): string {
    const sub = `sub-${dialect}-${++subjects}`;
    op.accounts.set(sub, claims);
    return sub;
  }
  const verified = (m: string, more: Claims = {}): Claims => ({
    name: '单点用户',
    phone_number: `+86${m}`,
    phone_number_verified: true,
    ...more,
  });

  async function begin(loginType: 'person' | 'organization' = 'person', redirectUrl = '/ssoResult') {
    const r = await t.call('POST', '/v1/sso/beforeLogin', { body: { loginType, redirectUrl } });
    expect(r.body.code).toBe(0);
    const cookie = String(r.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const binding = /openseal_sso=([^;]+)/.exec(cookie)![1]!;
    return { flowId: r.body.data.flowId as string, url: r.body.data.url as string, binding };
  }
  const cookieOf = (binding: string) => ({ cookie: `${SSO_COOKIE}=${binding}` });
  const callback = (u: URL, binding: string) =>
    t.call('GET', `${u.pathname}${u.search}`, { headers: cookieOf(binding) });
  const result = (flowId: string, binding: string, lang?: string) =>
    t.call('GET', `/v1/sso/${flowId}/result`, { headers: cookieOf(binding), ...(lang ? { lang } : {}) });

  /** The whole dance: start, provider login and consent, callback, result. */
  async function login(
    sub: string,
    loginType: 'person' | 'organization' = 'person',
  ): Promise<{ flowId: string; binding: string; body: ApiBody }> {
    op.state.nextSubject = sub;
    const f = await begin(loginType);
    const back = await browseToCallback(f.url);
    const cb = await callback(back, f.binding);
    expect(cb.status).toBe(302);
    expect(cb.headers.location).toBe(`/ssoResult?flowId=${f.flowId}`);
    return { flowId: f.flowId, binding: f.binding, body: (await result(f.flowId, f.binding)).body };
  }

  const createOrg = async (token: string, name: string, code = uscc()) => {
    const r = await t.call('POST', '/v1/organizes/add', { token, body: { organizeName: name, uscc: code } });
    expect(r.body.data.status).toBe(0);
    return {
      token: r.body.data.accessToken as string,
      organizeId: r.body.data.organizeId as string,
      uscc: code,
    };
  };
  const orgName = () => `单点科技（${Math.random().toString(36).slice(2, 8)}）有限公司`;

  it('tells anyone, without a session, that single sign-on is configured', async () => {
    const r = await t.call('GET', '/v1/sso/status');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 0, data: { enabled: true } });
  });

  it('sends the browser to the provider with code flow, PKCE (S256), state and nonce', async () => {
    const f = await begin();
    const u = new URL(f.url);
    expect(u.origin).toBe(op.issuer);
    expect(u.searchParams.get('response_type')).toBe('code');
    expect(u.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(u.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(u.searchParams.get('state')).toBeTruthy();
    expect(u.searchParams.get('nonce')).toBeTruthy();
    // The verifier never leaves the server.
    expect(f.url).not.toContain(
      (
        await t.db
          .selectFrom('sso_flows')
          .select('code_verifier')
          .where('id', '=', f.flowId)
          .executeTakeFirstOrThrow()
      ).code_verifier,
    );
  });

  it('operateType 5: a first login with a verified mobile creates the person, links the subject and issues a session', async () => {
    const m = mobile();
    const sub = account(verified(m, { name: '张单点' }));
    const { body, flowId, binding } = await login(sub);
    expect(body.code).toBe(0);
    expect(body.data).toMatchObject({
      operateType: 5,
      loginType: 'person',
      identityType: 2,
      exceptionMsg: null,
    });
    expect(body.data.message).toBeTruthy();
    expect(body.data.token).toMatch(/^ost_/);
    // Seeded PSN_EP_SWITCH=true and PERSON_SSO_SPACE=["person","org"]: the person picks a space next.
    expect(body.data.nextPath).toBe('/selectSpace');
    const info = await t.call('GET', '/v1/accounts/info', { token: body.data.token });
    expect(info.body.data.userInfoPerson).toMatchObject({ name: '张单点', accountId: body.data.accountId });
    const link = await t.db
      .selectFrom('sso_links')
      .selectAll()
      .where('subject', '=', sub)
      .executeTakeFirstOrThrow();
    expect(link).toMatchObject({ issuer: op.issuer, person_id: body.data.accountId });
    // The token is answered once.
    expect((await result(flowId, binding)).body.code).toBe(14004);
    const actions = (
      await t.db
        .selectFrom('audit_logs')
        .select('action')
        .where('target_id', 'in', [flowId, link.person_id])
        .execute()
    ).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'sso.start',
        'account.register',
        'sso.link',
        'sso.resolved',
        'sso.collected',
        'account.login',
      ]),
    );
  });

  it('operateType 0: a linked subject logs in again to the same person', async () => {
    const sub = account(verified(mobile()));
    const first = await login(sub);
    const again = await login(sub);
    expect(again.body.data).toMatchObject({
      operateType: 0,
      accountId: first.body.data.accountId,
      message: null,
    });
    expect(again.body.data.token).toMatch(/^ost_/);
    expect(again.body.data.token).not.toBe(first.body.data.token);
  });

  it('operateType 0: an existing platform account is found by the verified mobile', async () => {
    const m = mobile();
    await t.loginBySms(m);
    const { body } = await login(account(verified(m)));
    expect(body.data.operateType).toBe(0);
    const info = await t.call('GET', '/v1/accounts/info', { token: body.data.token });
    expect(info.body.data.userInfoPerson.registerMobile).toBe(`${m.slice(0, 3)}****${m.slice(-4)}`);
  });

  it('operateType 1: without a verified mobile the user binds one by SMS code, then logs in', async () => {
    const sub = account({ name: '无手机', phone_number: '13800000000', phone_number_verified: false });
    const { body, flowId, binding } = await login(sub);
    expect(body.data).toMatchObject({ operateType: 1, token: null });
    const m = mobile();
    await t.call('POST', '/v1/msgs/loginRegister/send', { body: { mobile: m } });
    const code = await t.smsCode(m);
    const wrong = await t.call('POST', '/v1/sso/checkMobile', {
      body: { flowId, mobile: m, code: code === '000000' ? '111111' : '000000' },
      headers: cookieOf(binding),
    });
    expect(wrong.body.code).not.toBe(0);
    const ok = await t.call('POST', '/v1/sso/checkMobile', {
      body: { flowId, mobile: m, code },
      headers: cookieOf(binding),
    });
    expect(ok.body.code).toBe(0);
    expect(ok.body.data).toMatchObject({ operateType: 5, identityType: 2 });
    // The subject is now linked: the next login needs no mobile.
    expect((await login(sub)).body.data.operateType).toBe(0);
  });

  it('operateType 2: a member of several organisations chooses one (agent/after/info and confirm)', async () => {
    const m = mobile();
    const first = await createOrg(await t.loginBySms(m), orgName());
    const second = await createOrg(first.token, orgName());
    const { body, flowId, binding } = await login(account(verified(m)), 'organization');
    expect(body.data).toMatchObject({ operateType: 2, token: null });
    expect(body.data.ownOrganizes.map((o: { organizeId: string }) => o.organizeId).sort()).toEqual(
      [first.organizeId, second.organizeId].sort(),
    );
    const info = await t.call('POST', '/v1/sso/agent/after/info', {
      body: { flowId },
      headers: cookieOf(binding),
    });
    expect(info.body.data).toMatchObject({ operateType: 2, mobile: `${m.slice(0, 3)}****${m.slice(-4)}` });
    expect(info.body.data.ownOrganizes).toHaveLength(2);

    // Another organisation's id is refused.
    const stranger = await createOrg(await t.loginBySms(mobile()), orgName());
    const foreign = await t.call('POST', '/v1/sso/agent/after/confirm', {
      body: { flowId, organizeId: stranger.organizeId },
      headers: cookieOf(binding),
    });
    expect(foreign.body.code).toBe(14006);

    const chosen = await t.call('POST', '/v1/sso/agent/after/confirm', {
      body: { flowId, organizeId: second.organizeId },
      headers: cookieOf(binding),
    });
    expect(chosen.body.data).toMatchObject({
      operateType: 0,
      identityType: 1,
      accountId: second.organizeId,
      nextPath: null,
    });
    const acct = await t.call('GET', '/v1/accounts/info', { token: chosen.body.data.token });
    expect(acct.body.data.userInfoOrg.organizeId).toBe(second.organizeId);
  });

  it('operateType 0 into the only organisation of an organisation login', async () => {
    const m = mobile();
    const org = await createOrg(await t.loginBySms(m), orgName());
    const { body } = await login(account(verified(m)), 'organization');
    expect(body.data).toMatchObject({ operateType: 0, identityType: 1, accountId: org.organizeId });
    expect(body.data.memberId).toMatch(/^mbr_/);
  });

  it('operateType 3: the provider names an administered organisation the person is not a member of', async () => {
    const org = await createOrg(await t.loginBySms(mobile()), orgName());
    const { body } = await login(
      account(verified(mobile(), { org_uscc: org.uscc, org_name: '别家公司' })),
      'organization',
    );
    expect(body.data).toMatchObject({ operateType: 3, token: null, orgName: '别家公司' });
    expect(body.data.message).toBeTruthy();
  });

  it('operateType 4: a disabled account gets a login-exception message and no token', async () => {
    const sub = account(verified(mobile()));
    const first = await login(sub);
    await t.db
      .updateTable('persons')
      .set({ status: 'disabled' })
      .where('id', '=', first.body.data.accountId)
      .execute();
    const { body } = await login(sub);
    expect(body.data).toMatchObject({ operateType: 4, token: null });
    expect(body.data.exceptionMsg).toBeTruthy();
  });

  it('operateType 4: a second provider subject cannot take over an account already linked', async () => {
    const m = mobile();
    await login(account(verified(m)));
    const { body } = await login(account(verified(m)));
    expect(body.data).toMatchObject({ operateType: 4, token: null });
  });

  it('operateType 6: an organisation login without any organisation logs in to the personal space with a warning', async () => {
    const { body } = await login(account(verified(mobile())), 'organization');
    expect(body.data).toMatchObject({ operateType: 6, identityType: 2, nextPath: null });
    expect(body.data.token).toMatch(/^ost_/);
    expect(body.data.message).toBeTruthy();
  });

  it('refuses a callback whose state matches no flow, or comes from another browser, or comes twice', async () => {
    op.state.nextSubject = account(verified(mobile()));
    const f = await begin();
    const back = await browseToCallback(f.url);
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state');
    const r1 = await callback(forged, f.binding);
    expect(r1.status).toBe(400);
    expect(r1.body.code).toBe(14002);
    const r2 = await t.call('GET', `${back.pathname}${back.search}`);
    expect(r2.body.code).toBe(14002);
    const other = await begin();
    expect((await callback(back, other.binding)).body.code).toBe(14002);
    // The real one still works, once; the result belongs to this browser only.
    expect((await callback(back, f.binding)).status).toBe(302);
    expect((await callback(back, f.binding)).body.code).toBe(14002);
    expect((await result(f.flowId, other.binding)).body.code).toBe(14003);
    expect((await result(f.flowId, f.binding)).body.data.operateType).toBe(5);
  });

  it('315: a tampered code fails the flow with a login-exception dialog message', async () => {
    op.state.nextSubject = account(verified(mobile()));
    const f = await begin();
    const back = await browseToCallback(f.url);
    back.searchParams.set('code', `${back.searchParams.get('code')}x`);
    expect((await callback(back, f.binding)).status).toBe(302);
    const r = await result(f.flowId, f.binding, 'en');
    expect(r.status).toBe(401);
    expect(r.body.code).toBe(315);
    expect(r.body.data).toMatchObject({
      flowId: f.flowId,
      exceptionMsg: expect.stringMatching(/log in again/),
    });
    const failed = await t.db
      .selectFrom('sso_flows')
      .selectAll()
      .where('id', '=', f.flowId)
      .executeTakeFirstOrThrow();
    expect(failed.status).toBe('failed');
    expect(failed.failure).toMatch(/invalid_grant/);
  });

  it('315: an expired code fails the flow', async () => {
    op.state.nextSubject = account(verified(mobile()));
    op.state.codeTtlSeconds = 1;
    try {
      const f = await begin();
      const back = await browseToCallback(f.url);
      await new Promise((res) => setTimeout(res, 1500));
      await callback(back, f.binding);
      expect((await result(f.flowId, f.binding)).body.code).toBe(315);
    } finally {
      op.state.codeTtlSeconds = 60;
    }
  });

  it('315: a provider error (access denied) fails the flow', async () => {
    const f = await begin();
    const state = new URL(f.url).searchParams.get('state')!;
    const back = new URL(
      `${REDIRECT_URI}?error=access_denied&state=${encodeURIComponent(state)}&iss=${encodeURIComponent(op.issuer)}`,
    );
    expect((await callback(back, f.binding)).status).toBe(302);
    expect((await result(f.flowId, f.binding)).body.code).toBe(315);
  });

  it('keeps other redirect targets same-site', async () => {
    op.state.nextSubject = account(verified(mobile()));
    const r = await t.call('POST', '/v1/sso/beforeLogin', {
      body: { loginType: 'person', redirectUrl: 'https://evil.example/steal' },
    });
    const binding = /openseal_sso=([^;]+)/.exec(String(r.headers['set-cookie']))![1]!;
    const back = await browseToCallback(r.body.data.url);
    const cb = await callback(back, binding);
    expect(cb.headers.location).toBe(`/?flowId=${r.body.data.flowId}`);
  });
});

describe('single sign-on switched off', () => {
  it('answers status disabled and refuses to start a flow with 14001', async () => {
    const t = await startTestApp('pglite');
    try {
      expect((await t.call('GET', '/v1/sso/status')).body).toMatchObject({
        code: 0,
        data: { enabled: false },
      });
      const r = await t.call('POST', '/v1/sso/beforeLogin', {
        body: { loginType: 'person', redirectUrl: '/' },
      });
      // A platform without single sign-on has no such endpoint: a 404, not a server failure (5xx).
      expect([r.status, r.body.code]).toEqual([404, 14001]);
    } finally {
      await t.close();
    }
  });
});

describe('selectSpace after SSO (spec 4)', () => {
  // The service with a stub configuration and an already resolved flow: the seeded values are covered above.
  it('sends persons to /selectSpace only when PSN_EP_SWITCH is on and PERSON_SSO_SPACE includes org', async () => {
    const cases: Array<[Record<string, string>, string | null]> = [
      [{ PSN_EP_SWITCH: 'true', PERSON_SSO_SPACE: '["person","org"]' }, '/selectSpace'],
      [{ PSN_EP_SWITCH: 'true', PERSON_SSO_SPACE: '["person"]' }, null],
      [{ PSN_EP_SWITCH: 'false', PERSON_SSO_SPACE: '["person","org"]' }, null],
    ];
    const t = await startTestApp('pglite');
    try {
      const personToken = await t.loginBySms(mobile());
      const personId = (await t.call('GET', '/v1/accounts/info', { token: personToken })).body.data.accountId;
      for (const [values, expected] of cases) {
        const config = {
          get: async (code: string) => values[code] ?? null,
          flag: async (code: string, fallback: boolean) =>
            values[code] === undefined ? fallback : values[code] === 'true',
          json: async <T>(code: string, fallback: T) =>
            values[code] ? (JSON.parse(values[code]) as T) : fallback,
        };
        const sso = createSsoService({
          relyingParty: null,
          sessions: createSessionService({ ttlHours: 1 }),
          organizes: createOrganizesService(),
          config: config as never,
          msgs: {} as never,
          persons: createPersonDirectory(),
        });
        const flowId = `sso_test_${Math.random().toString(36).slice(2)}`;
        const binding = `b_${flowId}`;
        await t.db
          .insertInto('sso_flows')
          .values({
            id: flowId,
            state: flowId,
            nonce: 'n',
            code_verifier: 'v',
            binding_hash: hashToken(binding),
            login_type: 'person',
            redirect_url: '/',
            status: 'resolved',
            outcome: 'loggedIn',
            person_id: personId,
            expires_at: new Date(Date.now() + 60_000),
          })
          .execute();
        const r = await sso.result(t.db, flowId, binding, { ip: null, userAgent: null }, 'zh-CN');
        expect(r.nextPath).toBe(expected);
        expect(r.token).toMatch(/^ost_/);
      }
    } finally {
      await t.close();
    }
  });
});
