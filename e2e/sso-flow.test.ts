import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../apps/server/test/oidc-provider';
import { useE2eSuite } from './fixtures';
import { createOrgByApi, HAS_CHROMIUM, uniqueMobile, PAGE_DIALECTS } from './support';

const CLIENT_ID = 'openseal-web';
const CLIENT_SECRET = 'openseal-e2e-client-secret-0123456789';
/**
 * Single sign-on in a real browser: the server under test is the relying party of a real OpenID provider
 * (oidc-provider) that this test starts, with a login form a person fills in. A member of an organisation
 * logs in through the provider, lands on /selectSpace, enters the organisation and arrives home logged in;
 * a person the provider places in an organisation they do not belong to gets the operateType 3 dialog, and
 * cancelling at the provider ends in the 315 login-exception dialog; a member of two organisations
 * chooses one (operateType 2). One screenshot per step under test-results/e2e/<dialect>/.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('single sign-on in the browser (%s)', (dialect) => {
  let op: TestOidcProvider;
  // The provider must know the server's callback address, and the server its provider: the port comes first.
  const suite = useE2eSuite(dialect, {
    envForPort: async (port) => {
      const redirectUri = `http://127.0.0.1:${port}/v1/sso/callback`;
      op = await startOidcProvider({
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        redirectUris: [redirectUri],
        interactive: true,
      });
      return {
        SSO_ISSUER_URL: op.issuer,
        SSO_CLIENT_ID: CLIENT_ID,
        SSO_CLIENT_SECRET: CLIENT_SECRET,
        SSO_REDIRECT_URI: redirectUri,
        SSO_SCOPE: 'openid profile phone org',
      };
    },
  });
  let page: Page;
  /** Screenshots wait for antd's dialog and toast animations to finish, so no half-faded frame is kept. */
  const shot = (name: string) => suite.shot(page, name);
  const token = () => page.evaluate<string | null>("localStorage.getItem('accessToken')");
  const tag = randomBytes(3).toString('hex');

  const member = { mobile: uniqueMobile(), subject: `member-${tag}`, password: `pw-${tag}-member` };
  const outsider = { mobile: uniqueMobile(), subject: `outsider-${tag}`, password: `pw-${tag}-outsider` };
  let org: Awaited<ReturnType<typeof createOrgByApi>>;

  const info = (t: string) =>
    suite.api<{
      identityType: number;
      userInfoPerson: { name: string };
      userInfoOrg: { organizeId: string; organizeName: string } | null;
    }>('GET', '/v1/accounts/info', t);

  /** A fresh browser (no provider session, no stored token) on the login page. */
  async function freshLoginPage() {
    page = await suite.desktop();
    await page.goto(`${suite.base}/login`);
    await expect.poll(() => page.getByTestId('sso-entry').isVisible(), { timeout: 15_000 }).toBe(true);
  }

  /** Starts single sign-on from the login page and waits for the provider's login form. */
  async function toProviderForm(button: 'sso-login-person' | 'sso-login-organization') {
    await page.getByTestId(button).click();
    await page.waitForURL((url) => url.href.startsWith(`${op.issuer}/interaction/`), { timeout: 20_000 });
    await expect.poll(() => page.getByTestId('op-login').isVisible()).toBe(true);
  }

  async function signInAtProvider(who: { subject: string; password: string }) {
    await page.getByTestId('op-login').fill(who.subject);
    await page.getByTestId('op-password').fill(who.password);
  }

  beforeAll(async () => {
    // A platform account with an organisation (created, so administered, not yet real-named).
    org = await createOrgByApi(suite.base, await suite.login(member.mobile));
    op.accounts.set(member.subject, {
      name: '单点成员',
      phone_number: `+86${member.mobile}`,
      phone_number_verified: true,
    });
    op.passwords.set(member.subject, member.password);
    // The provider places this person in the organisation above, which has not added them.
    op.accounts.set(outsider.subject, {
      name: '单点访客',
      phone_number: `+86${outsider.mobile}`,
      phone_number_verified: true,
      org_uscc: org.uscc,
      org_name: org.orgName,
    });
    op.passwords.set(outsider.subject, outsider.password);
  });

  afterAll(async () => {
    await op?.close();
  });

  it('offers single sign-on on the login page because the server has a provider', async () => {
    const status = await suite.api<{ enabled: boolean }>('GET', '/v1/sso/status', null);
    expect(status).toMatchObject({ code: 0, data: { enabled: true } });
    await freshLoginPage();
    expect(await page.getByTestId('sso-login-person').isVisible()).toBe(true);
    expect(await page.getByTestId('sso-login-organization').isVisible()).toBe(true);
    expect(await token()).toBeNull();
    await shot('sso-01-login-entry');
  });

  it("logs in through the provider's own login form", async () => {
    await toProviderForm('sso-login-person');
    // A wrong password stays at the provider.
    await signInAtProvider({ subject: member.subject, password: 'not-the-password' });
    await page.getByTestId('op-submit').click();
    await expect.poll(() => page.getByTestId('op-error').isVisible()).toBe(true);
    await signInAtProvider(member);
    await shot('sso-02-provider-login');
    await page.getByTestId('op-submit').click();
    await page.waitForURL((url) => url.origin === suite.base && url.pathname === '/selectSpace', {
      timeout: 30_000,
    });
    const personToken = await token();
    expect(personToken).toMatch(/^ost_/);
    const me = await info(personToken!);
    expect(me.code).toBe(0);
    // The subject was linked to the existing account by its verified mobile: the personal space.
    expect(me.data.identityType).toBe(2);
    expect(me.data.userInfoOrg).toBeNull();
  });

  it('lands on /selectSpace, listing the personal space and the organisation with its real-name status', async () => {
    const items = page.getByTestId('select-space-item');
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBe(2);
    const personal = page.locator('[data-testid="select-space-item"][data-kind="person"]');
    expect(await personal.getAttribute('data-current')).toBe('true');
    const orgItem = page.locator(`[data-testid="select-space-item"][data-account-id="${org.organizeId}"]`);
    expect(await orgItem.getByTestId('select-space-name').textContent()).toBe(org.orgName);
    expect(await orgItem.getByTestId('select-space-realname').getAttribute('data-status')).toBe('0');
    expect(await page.getByTestId('app-header').count()).toBe(0);
    await shot('sso-03-select-space');
  });

  it('enters the chosen organisation and arrives home logged in', async () => {
    const before = await token();
    const loaded = page.waitForEvent('load', { timeout: 20_000 });
    await page.locator(`[data-testid="select-space-item"][data-account-id="${org.organizeId}"]`).click();
    await loaded;
    await page.waitForURL((url) => url.origin === suite.base && url.pathname === '/');
    const after = await token();
    expect(after).toMatch(/^ost_/);
    expect(after).not.toBe(before);
    const me = await info(after!);
    expect(me.data.identityType).toBe(1);
    expect(me.data.userInfoOrg?.organizeId).toBe(org.organizeId);
    // The switch ended the personal-space token.
    expect((await info(before!)).code).not.toBe(0);
    await expect
      .poll(() => page.getByTestId('user-dropdown-name').textContent(), { timeout: 15_000 })
      .toBe(org.orgName);
    await shot('sso-04-home-logged-in');
  });

  it('operateType 3: the provider names an organisation that has not added the person', async () => {
    await freshLoginPage();
    await toProviderForm('sso-login-organization');
    await signInAtProvider(outsider);
    await page.getByTestId('op-submit').click();
    await page.waitForURL((url) => url.origin === suite.base && url.pathname === '/ssoResult', {
      timeout: 30_000,
    });
    await expect.poll(() => page.getByTestId('sso-dialog-body').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByTestId('sso-dialog-title').getAttribute('data-kind')).toBe('notInEnterprise');
    expect(await page.getByTestId('sso-dialog-title').textContent()).toBe('登录手机号不在该企业中');
    expect(await page.getByTestId('sso-dialog-text').textContent()).toContain('管理员');
    expect(await page.getByTestId('sso-dialog-body').textContent()).toContain(org.orgName);
    expect(await token()).toBeNull();
    await shot('sso-05-not-in-enterprise');
    await page.getByTestId('sso-dialog-confirm').click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await token()).toBeNull();
  });

  it('315: cancelling at the provider ends in the login-exception dialog', async () => {
    await freshLoginPage();
    await toProviderForm('sso-login-person');
    await page.getByTestId('op-cancel').click();
    await page.waitForURL((url) => url.origin === suite.base && url.pathname === '/ssoResult', {
      timeout: 30_000,
    });
    await expect.poll(() => page.getByTestId('sso-dialog-body').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByTestId('sso-dialog-title').getAttribute('data-kind')).toBe('loginException');
    expect(await page.getByTestId('sso-dialog-title').textContent()).toBe('登录异常');
    expect(await page.getByTestId('sso-dialog-text').textContent()).toContain('重新登录');
    expect(await token()).toBeNull();
    await shot('sso-06-login-exception');
    await page.getByTestId('sso-dialog-confirm').click();
    await page.waitForURL((url) => url.pathname === '/login');
  });

  it('operateType 2: an organisation login of a member of two organisations chooses one', async () => {
    const second = await createOrgByApi(suite.base, await suite.login(member.mobile));
    await freshLoginPage();
    await toProviderForm('sso-login-organization');
    await signInAtProvider(member);
    await page.getByTestId('op-submit').click();
    await page.waitForURL((url) => url.origin === suite.base && url.pathname === '/ssoResult', {
      timeout: 30_000,
    });
    const items = page.getByTestId('sso-choose-org-item');
    await expect.poll(() => items.count(), { timeout: 15_000 }).toBe(2);
    // The waiting step names who is logging in, with the mobile masked.
    await expect
      .poll(() => page.getByTestId('sso-choose-org').textContent())
      .toContain(`${member.mobile.slice(0, 3)}****${member.mobile.slice(-4)}`);
    expect(await token()).toBeNull();
    await shot('sso-07-choose-org');
    await page
      .locator(`[data-testid="sso-choose-org-item"][data-org-id="${second.organizeId}"]`)
      .getByTestId('sso-choose-org-enter')
      .click();
    // An organisation login continues home, not to /selectSpace.
    await page.waitForURL((url) => url.origin === suite.base && url.pathname === '/', { timeout: 20_000 });
    await expect.poll(token).toMatch(/^ost_/);
    const me = await info((await token())!);
    expect(me.data.identityType).toBe(1);
    expect(me.data.userInfoOrg?.organizeId).toBe(second.organizeId);
    await expect
      .poll(() => page.getByTestId('user-dropdown-name').textContent(), { timeout: 15_000 })
      .toBe(second.orgName);
  });

  it("/haiNanSSO, the government portal's entry, goes straight to the provider, on a phone too, and back logged in", async () => {
    for (const kind of ['phone', 'desktop'] as const) {
      page = kind === 'phone' ? await suite.phone() : await suite.desktop();
      await page.goto(`${suite.base}/haiNanSSO?redirect=${encodeURIComponent('/userCenter/infoPersonal')}`);
      // No login page and no phone frame on the way: the provider's own form comes first.
      await page.waitForURL((url) => url.href.startsWith(`${op.issuer}/interaction/`), { timeout: 20_000 });
      await expect.poll(() => page.getByTestId('op-login').isVisible()).toBe(true);
      if (kind === 'phone') {
        await suite.close(page);
        continue;
      }
      await signInAtProvider(member);
      await page.getByTestId('op-submit').click();
      await page.waitForURL((url) => url.origin === suite.base && url.pathname === '/selectSpace', {
        timeout: 30_000,
      });
      await expect.poll(token).toMatch(/^ost_/);
      await shot('sso-08-entry-select-space');
    }
  });
});
