import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import { expireSealIn, madeSealByApi, sealOrgByApi } from './seal-support';
import { HAS_CHROMIUM, MOTION, PAGE_DIALECTS, openUserPanel } from './support';

/**
 * The web shell's rules of spec sections 2, 8 and 9 in a real browser: unknown paths and plugin routes,
 * protected menus, the phone redirect, the language kept in storage, the warning dialog that only its
 * buttons close, dialog widths, and the session-invalid handling.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('web shell in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect, { shotsDir: 'shell' });

  async function dismissAnnouncement(page: Page) {
    const ok = page.getByTestId('announcement-ok');
    await expect.poll(() => ok.isVisible(), { timeout: 15_000 }).toBe(true);
    await ok.click();
    await expect.poll(() => ok.isVisible()).toBe(false);
  }
  async function loginAsDemo(page: Page) {
    await page.goto(`${suite.base}/login`);
    await page.getByTestId('login-tab-password').click();
    await page.getByTestId('login-password-mobile').fill('13800000003');
    await page.getByTestId('login-password').fill('Demo1234');
    await page.getByTestId('login-password-submit').click();
    await page.waitForURL((u) => u.pathname === '/');
    await dismissAnnouncement(page);
  }

  it('sends an unknown path home, and opens a configured plugin route inside the layout', async () => {
    const page = await suite.desktop();
    await page.goto(`${suite.base}/no/such/page`);
    await page.waitForURL((u) => u.pathname === '/', { timeout: 15_000 });
    await page.goto(`${suite.base}/plugin/apiDocs`);
    await expect
      .poll(() => page.getByTestId('plugin-route-page').getAttribute('data-kind'), { timeout: 15_000 })
      .toBe('iframe');
    expect(await page.getByTestId('plugin-iframe').getAttribute('src')).toBe('/docs');
    expect(await page.getByTestId('app-header').isVisible()).toBe(true);
    // The embedded page really loads inside the frame (headers allow same-site framing).
    const framed = page.frameLocator('[data-testid="plugin-iframe"]').getByText('OpenSeal API').first();
    await expect.poll(() => framed.isVisible(), { timeout: 15_000 }).toBe(true);
    await suite.shot(page, 'plugin-route', { settle: false });
    await suite.close(page);
  });

  it('sends a logged-out click on a protected menu to login, with the way back', async () => {
    const page = await suite.desktop();
    await page.goto(`${suite.base}/`);
    await dismissAnnouncement(page);
    await page.getByTestId('nav-sealService').click();
    await page.waitForURL(/\/login/);
    expect(new URL(page.url()).searchParams.get('redirect')).toContain('/sealService');
    await suite.close(page);
  });

  it('tells a signed-in user without a real name to verify first, and leads to the real-name page', async () => {
    const token = await suite.login();
    const page = await suite.desktop();
    await page.addInitScript(`localStorage.setItem('accessToken', ${JSON.stringify(token)})`);
    await page.goto(`${suite.base}/`);
    await dismissAnnouncement(page);
    await expect.poll(() => page.getByTestId('user-dropdown').isVisible(), { timeout: 15_000 }).toBe(true);
    await page.getByTestId('nav-sealService').click();
    const dialog = page.getByTestId('realname-required-dialog-body');
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/');
    // The dialog zooms in: wait for the animation to end so the picture is the settled dialog.
    await expect.poll(() => page.locator('.ant-zoom-enter, .ant-zoom-appear').count()).toBe(0);
    await suite.shot(page, 'realname-required', { settle: false });
    await page.getByTestId('realname-required-dialog-confirm').click();
    await page.waitForURL(/\/userCenter\/infoPersonal\/realName/);
    await suite.close(page);
  });

  it('redirects a phone to the mobile base path (same path when the route has H5, root otherwise; never /sealAuth)', async () => {
    const page = await suite.phone();
    await page.goto(`${suite.base}/verifySign`);
    await page.waitForURL((u) => u.pathname === '/h5/verifySign', { timeout: 15_000 });
    await expect.poll(() => page.getByTestId('mobile-shell').getAttribute('data-route')).toBe('/verifySign');
    await suite.shot(page, 'phone-h5', { settle: false });
    // /sealAuth is never moved; a guest is asked to log in first, on the phone's login page.
    await page.goto(`${suite.base}/sealAuth`);
    await page.waitForURL((u) => u.pathname === '/h5/login', { timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/sealAuth');
    // A page without a phone version: the mobile home names it and offers the desktop site, which returns
    // to that very page and stays chosen for the session.
    await page.goto(`${suite.base}/openPlatform?tab=apps`);
    await page.waitForURL((u) => u.pathname === '/h5/', { timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('from')).toBe('/openPlatform?tab=apps');
    await expect
      .poll(() => page.getByTestId('mobile-desktop-only').isVisible(), { timeout: 15_000 })
      .toBe(true);
    await suite.shot(page, 'phone-desktop-only', { settle: false });
    await page.getByTestId('mobile-continue-desktop').tap();
    await page.waitForURL((u) => u.pathname === '/openPlatform' && u.search === '?tab=apps', {
      timeout: 15_000,
    });
    await page.goto(`${suite.base}/verifySign`);
    await page.waitForTimeout(1_000);
    expect(new URL(page.url()).pathname).toBe('/verifySign');
    await suite.close(page);
  });

  it('switches to English and keeps the language in local storage across a reload', async () => {
    const page = await suite.desktop();
    await page.goto(`${suite.base}/`);
    await dismissAnnouncement(page);
    await page.getByTestId('language-switch').click();
    // The menu takes clicks once it has opened.
    await expect.poll(() => page.locator(MOTION).count()).toBe(0);
    await page.getByRole('menuitem', { name: /English/ }).click();
    await expect.poll(() => page.getByTestId('nav-sealService').textContent()).toBe('Seal service');
    expect(await page.evaluate("localStorage.getItem('language')")).toBe('en');
    await page.reload();
    await expect
      .poll(() => page.getByTestId('nav-sealService').textContent(), { timeout: 15_000 })
      .toBe('Seal service');
    // Configured texts follow the language too.
    await expect
      .poll(() => page.getByTestId('system-name').textContent())
      .toBe('Unified Electronic Seal Public Service Platform');
    await suite.shot(page, 'english', { settle: false });
    await suite.close(page);
  });

  it('shows every navigation item in English and in Chinese from 1280 to 1920 px, signed in', async () => {
    for (const language of ['en', 'zh-CN']) {
      for (const width of [1280, 1440, 1920]) {
        const page = await suite.desktop({ viewport: { width, height: 800 } });
        await page.addInitScript(`localStorage.setItem('language', '${language}')`);
        await loginAsDemo(page);
        const nav = page.getByTestId('top-nav');
        await expect.poll(() => nav.locator('.ant-menu-item').count()).toBeGreaterThanOrEqual(6);
        // antd folds what does not fit into a "···" item; it must stay folded away.
        const folded = await page.evaluate(`(() => {
          const rest = document.querySelector('[data-testid=top-nav] .ant-menu-overflow-item-rest');
          return rest ? rest.getBoundingClientRect().width > 0 && !rest.hasAttribute('aria-hidden') : false;
        })()`);
        expect(folded, `${language} at ${width} px folds the navigation`).toBe(false);
        const overflow = await page.evaluate('document.documentElement.scrollWidth > window.innerWidth');
        expect(overflow, `${language} at ${width} px is wider than the window`).toBe(false);
        await suite.shot(page, `nav-${language}-${width}`, { settle: false });
        await suite.close(page);
      }
    }
  });

  it('the logout warning dialog is 440 px and closes only by its buttons; the create dialog is 510 px', async () => {
    const page = await suite.desktop();
    await loginAsDemo(page);
    await openUserPanel(page);
    await page.getByTestId('create-org-open').click();
    const createDialog = page.locator('.ant-modal').filter({ has: page.getByTestId('create-org-form') });
    await expect.poll(() => createDialog.boundingBox().then((b) => Math.round(b?.width ?? 0))).toBe(510);
    await page.getByTestId('create-org-cancel').click();
    await openUserPanel(page);
    await page.getByTestId('logout-button').click();
    const warning = page
      .locator('.ant-modal')
      .filter({ hasText: /退出|log out/i })
      .last();
    await expect.poll(() => warning.isVisible()).toBe(true);
    // Measured once the opening animation has finished (it scales the dialog up from a point).
    await expect.poll(() => warning.boundingBox().then((b) => Math.round(b?.width ?? 0))).toBe(440);
    await page.keyboard.press('Escape');
    await page.mouse.click(10, 790);
    await page.waitForTimeout(400);
    expect(await warning.isVisible()).toBe(true);
    await suite.shot(page, 'warning-dialog', { settle: false });
    await warning.getByRole('button').first().click();
    await expect.poll(() => warning.isVisible()).toBe(false);
    expect(await page.evaluate<string | null>("localStorage.getItem('accessToken')")).not.toBeNull();
    await suite.close(page);
  });

  it('fits a phone on /sealAuth: the header folds into a menu that navigates; a desktop keeps the full bar', async () => {
    const org = await sealOrgByApi(suite.server);
    const { sealCode } = await madeSealByApi(suite.server, org);
    // A certificate inside the renewal window: the seal-expiry tip shows under the header.
    await expireSealIn(suite.server, sealCode, 12);
    const settle = (page: Page) =>
      expect.poll(() => page.locator(MOTION).count(), { timeout: 10_000 }).toBe(0);
    const scrollWidth = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth');

    // A desktop: the whole bar, no menu button.
    const desktop = await suite.desktop();
    await suite.openSignedIn(desktop, org.admin, '/');
    await dismissAnnouncement(desktop);
    await expect.poll(() => desktop.getByTestId('user-dropdown').isVisible(), { timeout: 15_000 }).toBe(true);
    for (const key of ['home', 'sealService', 'signService', 'verifySign', 'openPlatform']) {
      expect(await desktop.getByTestId(`nav-${key}`).isVisible()).toBe(true);
    }
    expect(await desktop.getByTestId('language-switch').isVisible()).toBe(true);
    expect(await desktop.getByTestId('mobile-nav-toggle').count()).toBe(0);
    await expect
      .poll(() => desktop.getByTestId('seal-expiry-tip').isVisible(), { timeout: 15_000 })
      .toBe(true);
    await settle(desktop);
    await suite.shot(desktop, 'desktop-home', { settle: false });
    await desktop.getByTestId('nav-sealService').click();
    await desktop.waitForURL((u) => u.pathname.startsWith('/sealService'), { timeout: 15_000 });
    await desktop.goto(`${suite.base}/sealService/mySealList`);
    await expect
      .poll(() => desktop.getByTestId('my-seal-list-page').isVisible(), { timeout: 20_000 })
      .toBe(true);
    await expect.poll(() => desktop.locator('.ant-spin-spinning').count(), { timeout: 15_000 }).toBe(0);
    await settle(desktop);
    await suite.shot(desktop, 'desktop-my-seals', { settle: false });
    await suite.close(desktop);

    // A phone on /sealAuth: the page stays (no H5 redirect) and nothing scrolls sideways.
    const phone = await suite.phone({ viewport: { width: 375, height: 740 } });
    await suite.openSignedIn(phone, org.admin, '/sealAuth');
    await expect.poll(() => phone.getByTestId('seal-auth-page').isVisible(), { timeout: 20_000 }).toBe(true);
    expect(new URL(phone.url()).pathname).toBe('/sealAuth');
    await expect.poll(() => phone.getByTestId('seal-expiry-tip').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => phone.locator('.ant-spin-spinning').count(), { timeout: 15_000 }).toBe(0);
    expect(await phone.getByTestId('top-nav').count()).toBe(0);
    expect(await phone.getByTestId('system-name').isVisible()).toBe(true);
    await expect.poll(() => scrollWidth(phone)).toBeLessThanOrEqual(375);
    // The tip wraps its text inside the screen instead of cutting it off.
    const tip = await phone.getByTestId('seal-expiry-tip').boundingBox();
    expect(tip!.x + tip!.width).toBeLessThanOrEqual(375);
    await settle(phone);
    await suite.shot(phone, 'phone-seal-auth', { fullPage: true, settle: false });
    for (const width of [320, 414]) {
      await phone.setViewportSize({ width, height: 740 });
      await expect.poll(() => scrollWidth(phone)).toBeLessThanOrEqual(width);
      await suite.shot(phone, `phone-seal-auth-${width}`, { settle: false });
    }
    await phone.setViewportSize({ width: 375, height: 740 });

    // The menu button opens the navigation with the account entry, the language and every top item.
    await phone.getByTestId('mobile-nav-toggle').click();
    await expect.poll(() => phone.getByTestId('mobile-nav').isVisible()).toBe(true);
    for (const key of ['home', 'sealService', 'signService', 'verifySign', 'openPlatform']) {
      expect(await phone.getByTestId(`mobile-nav-${key}`).isVisible()).toBe(true);
    }
    expect(await phone.getByTestId('mobile-nav-language').isVisible()).toBe(true);
    await expect.poll(() => phone.getByTestId('user-dropdown').isVisible(), { timeout: 15_000 }).toBe(true);
    await settle(phone);
    await suite.shot(phone, 'phone-menu', { settle: false });
    // The account dropdown opens from the drawer and fits the screen.
    await phone.getByTestId('user-dropdown').click();
    await expect.poll(() => phone.getByTestId('user-panel').isVisible()).toBe(true);
    await settle(phone);
    const panel = await phone.getByTestId('user-panel').boundingBox();
    expect(panel!.x).toBeGreaterThanOrEqual(0);
    expect(panel!.x + panel!.width).toBeLessThanOrEqual(375);
    await suite.shot(phone, 'phone-account', { settle: false });
    await phone.getByTestId('user-dropdown').click();
    await expect.poll(() => phone.getByTestId('user-panel').isVisible()).toBe(false);
    // The language switch in the drawer changes the interface language.
    await phone.getByTestId('mobile-nav-language-en').click();
    await expect
      .poll(() => phone.getByTestId('mobile-nav-verifySign').textContent())
      .toBe('Verify signature');
    await phone.getByTestId('mobile-nav-language-zh-CN').click();
    await expect.poll(() => phone.getByTestId('mobile-nav-verifySign').textContent()).toBe('验证签名');
    // A navigation item leaves the page; the phone rule then sends it to its H5 page.
    await phone.getByTestId('mobile-nav-verifySign').click();
    await phone.waitForURL((u) => u.pathname === '/h5/verifySign', { timeout: 15_000 });
    await suite.close(phone);

    // A protected item from the phone menu keeps the rule: no real name yet, the dialog says so first.
    const newcomer = await suite.phone({ viewport: { width: 375, height: 740 } });
    await suite.openSignedIn(newcomer, await suite.login(), '/sealAuth');
    await expect
      .poll(() => newcomer.getByTestId('mobile-nav-toggle').isVisible(), { timeout: 20_000 })
      .toBe(true);
    await newcomer.getByTestId('mobile-nav-toggle').click();
    await expect
      .poll(() => newcomer.getByTestId('user-dropdown').isVisible(), { timeout: 15_000 })
      .toBe(true);
    await newcomer.getByTestId('mobile-nav-sealService').click();
    const dialog = newcomer.getByTestId('realname-required-dialog-body');
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(new URL(newcomer.url()).pathname).toBe('/sealAuth');
    await expect.poll(() => newcomer.getByTestId('mobile-nav').isVisible()).toBe(false);
    await settle(newcomer);
    await suite.shot(newcomer, 'phone-realname-required', { settle: false });
    await suite.close(newcomer);
  });

  it('a session ended elsewhere (code 225): a toast, the session cleared, then the login page', async () => {
    const page = await suite.desktop();
    await loginAsDemo(page);
    const token = await page.evaluate<string | null>("localStorage.getItem('accessToken')");
    const ended = await fetch(`${suite.base}/v1/accounts/logout`, {
      method: 'POST',
      headers: { 'x-access-token': token!, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(((await ended.json()) as { code: number }).code).toBe(0);
    await page.goto(`${suite.base}/userCenter/infoPersonal`);
    await expect
      .poll(() => page.locator('.ant-message').textContent(), { timeout: 15_000 })
      .toMatch(/退出登录|logged out/);
    await page.waitForURL(/\/login/, { timeout: 15_000 });
    expect(await page.evaluate<string | null>("localStorage.getItem('accessToken')")).toBeNull();
    await suite.close(page);
  });
});
