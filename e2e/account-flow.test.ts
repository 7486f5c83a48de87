import { checkUscc, maskPhone } from '@openseal/core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import {
  HAS_CHROMIUM,
  uniqueMobile,
  uniqueOrgName,
  uniqueUscc,
  PAGE_DIALECTS,
  openUserPanel,
} from './support';

/**
 * The account journey in a real browser against the real server: register with an SMS code, create an
 * organisation, switch into it and back to the personal space, log out. One screenshot per step under
 * test-results/e2e/<dialect>/.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('account flow in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect);
  let page: Page;
  const mobile = uniqueMobile();
  const orgName = uniqueOrgName();
  const uscc = uniqueUscc();
  const tokens: string[] = [];

  const shot = (name: string) => suite.shot(page, name, { settle: false });
  const token = () => page.evaluate<string | null>("localStorage.getItem('accessToken')");
  const dropdownName = () => page.getByTestId('user-dropdown-name').textContent();
  const info = (t: string) =>
    suite.api<{ identityType: number; userInfoOrg: { organizeName: string } | null }>(
      'GET',
      '/v1/accounts/info',
      t,
    );
  /** Run an action that ends in a full page load (token change) and wait for that load. */
  const reloadAfter = async (action: () => Promise<unknown>) => {
    const loaded = page.waitForEvent('load', { timeout: 20_000 });
    await action();
    await loaded;
  };
  let personName = '';
  const openDropdown = () => openUserPanel(page);

  beforeAll(async () => {
    expect(checkUscc(uscc).ok).toBe(true);
    page = await suite.desktop();
  });

  it('shows the public home page with the configured system name', async () => {
    await page.goto(`${suite.base}/`);
    await expect.poll(() => page.getByTestId('home-page').isVisible()).toBe(true);
    // The seeded configuration shows the announcement once per session; it opens when the config arrives.
    const announcement = page.getByTestId('announcement-ok');
    await expect.poll(() => announcement.isVisible(), { timeout: 15_000 }).toBe(true);
    await shot('00-announcement');
    await announcement.click();
    await expect.poll(() => announcement.isVisible()).toBe(false);
    await expect.poll(() => page.getByTestId('system-name').textContent()).toMatch(/\S+/);
    expect(await page.getByTestId('header-login').isVisible()).toBe(true);
    expect(await token()).toBeNull();
    await shot('01-home');
  });

  it('registers a new mobile number with a sandbox SMS code', async () => {
    await page.getByTestId('header-login').click();
    await page.waitForURL(/\/login/);
    await page.getByTestId('login-mobile').fill(mobile);
    const sentAt = Date.now() - 1_000;
    await page.getByTestId('login-send-code').click();
    await expect.poll(() => page.getByTestId('sandbox-notice').isVisible()).toBe(true);
    const code = await suite.smsCode(mobile, sentAt);
    // The sandbox outbox on the page shows the same code the API hands out.
    await page.getByTestId('sandbox-outbox-link').click();
    await expect
      .poll(() => page.getByTestId('sandbox-outbox-code').textContent(), { timeout: 10_000 })
      .toContain(code);
    await page.getByTestId('login-code').fill(code);
    await shot('02-login');
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(token).not.toBeNull();
    tokens.push((await token())!);
    const me = await info(tokens[0]!);
    expect(me.code).toBe(0);
    expect(me.data.identityType).toBe(2);
  });

  it('is logged in on the personal space with the phone number masked', async () => {
    await expect.poll(() => page.getByTestId('user-dropdown').isVisible()).toBe(true);
    await expect.poll(dropdownName).toMatch(/\S/);
    personName = (await dropdownName()) ?? '';
    await expect.poll(() => page.getByTestId('realname-banner').getAttribute('data-verified')).toBe('false');
    await openDropdown();
    expect(await page.getByTestId('current-space').getAttribute('data-identity')).toBe('2');
    expect(await page.getByTestId('current-space-name').textContent()).toBe('个人空间');
    expect(await page.getByTestId('user-panel-mobile').textContent()).toContain(maskPhone(mobile));
    expect(await page.getByTestId('org-item').count()).toBe(0);
    await shot('03-logged-in');
  });

  it('creates an organisation and lands in its space', async () => {
    await page.getByTestId('create-org-open').click();
    const confirm = page.getByTestId('create-org-confirm');
    await page.getByTestId('create-org-name').fill(`  ${orgName}  `);
    await page.getByTestId('create-org-uscc').fill('91330000MA1234567X');
    await page.getByTestId('create-org-name').focus();
    // A credit code with a wrong check character is refused on blur, and confirm stays off.
    await expect.poll(() => page.getByText('统一社会信用代码格式不正确').isVisible()).toBe(true);
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByTestId('create-org-uscc').fill(uscc);
    await page.getByTestId('create-org-name').focus();
    await expect.poll(() => confirm.isEnabled(), { timeout: 10_000 }).toBe(true);
    await shot('04-create-org');
    // Created: the new token is stored and the page reloads after a second.
    await reloadAfter(() => confirm.click());
    await expect.poll(dropdownName, { timeout: 15_000 }).toBe(orgName);
    const orgToken = (await token())!;
    expect(orgToken).not.toBe(tokens[0]);
    tokens.push(orgToken);
    const me = await info(orgToken);
    expect(me.data.identityType).toBe(1);
    expect(me.data.userInfoOrg?.organizeName).toBe(orgName);
    await openDropdown();
    const item = page.getByTestId('org-item').filter({ hasText: orgName });
    expect(await item.getAttribute('data-current')).toBe('true');
    expect(await page.getByTestId('current-space').getAttribute('data-identity')).toBe('1');
    await shot('05-org-created');
  });

  it('switches back to the personal space', async () => {
    await reloadAfter(async () => {
      await page.getByTestId('switch-personal').click();
      await expect.poll(() => page.getByText('正在切换空间').isVisible()).toBe(true);
    });
    await expect.poll(dropdownName, { timeout: 15_000 }).toBe(personName);
    const personalToken = (await token())!;
    expect(tokens).not.toContain(personalToken);
    tokens.push(personalToken);
    expect((await info(personalToken)).data.identityType).toBe(2);
    await openDropdown();
    expect(await page.getByTestId('current-space-name').textContent()).toBe('个人空间');
    expect(await page.getByTestId('switch-personal').count()).toBe(0);
    await shot('06-personal');
  });

  it('switches into the organisation from the list', async () => {
    const item = page.getByTestId('org-item').filter({ hasText: orgName });
    expect(await item.getAttribute('data-current')).toBe('false');
    await reloadAfter(() => item.click());
    await expect.poll(dropdownName, { timeout: 15_000 }).toBe(orgName);
    const orgToken = (await token())!;
    expect(tokens).not.toContain(orgToken);
    tokens.push(orgToken);
    expect((await info(orgToken)).data.identityType).toBe(1);
    await openDropdown();
    expect(await page.getByTestId('current-space-name').textContent()).toBe(orgName);
    // The current space cannot be chosen again, and the way back to the personal space is offered.
    expect(
      await page.getByTestId('org-item').filter({ hasText: orgName }).getAttribute('aria-disabled'),
    ).toBe('true');
    expect(await page.getByTestId('switch-personal').isVisible()).toBe(true);
    await shot('07-org-space');
  });

  it('goes back to the personal space again', async () => {
    await openDropdown();
    await reloadAfter(() => page.getByTestId('switch-personal').click());
    await expect.poll(dropdownName, { timeout: 15_000 }).toBe(personName);
    const personalToken = (await token())!;
    tokens.push(personalToken);
    expect((await info(personalToken)).data.identityType).toBe(2);
    await shot('08-personal-again');
  });

  it('logs out after confirming', async () => {
    const last = (await token())!;
    await openDropdown();
    await page.getByTestId('logout-button').click();
    await expect.poll(() => page.getByTestId('confirm-dialog-confirm').isVisible()).toBe(true);
    await shot('09-logout-confirm');
    await reloadAfter(() => page.getByTestId('confirm-dialog-confirm').click());
    await expect.poll(() => page.getByTestId('header-login').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await token()).toBeNull();
    expect(new URL(page.url()).pathname).toBe('/');
    const status = await suite.api<{ valid: boolean }>('GET', '/v1/accounts/checkLoginStatus', last);
    expect(status.data.valid).toBe(false);
    await shot('10-logged-out');
  });

  it('sends a protected page to login with the address to come back to', async () => {
    await page.goto(`${suite.base}/sealService/mySealList`);
    await page.waitForURL(/\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/sealService/mySealList');
    await shot('11-login-redirect');
  });
});
