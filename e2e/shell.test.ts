import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openTestDatabase } from '../apps/server/test/harness';
import { expireSealIn, madeSealByApi, sealOrgByApi } from './seal-support';
import {
  type E2eServer,
  ensureWebBuilt,
  HAS_CHROMIUM,
  launchChromium,
  loginByApi,
  MOTION,
  openSignedIn,
  ROOT,
  uniqueMobile,
  WEB_DIST,
  PAGE_DIALECTS,
  openUserPanel,
} from './support';

/**
 * The web shell's rules of spec sections 2, 8 and 9 in a real browser: unknown paths and plugin routes,
 * protected menus, the phone redirect, the language kept in storage, the warning dialog that only its
 * buttons close, dialog widths, and the session-invalid handling.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('web shell in the browser (%s)', (dialect) => {
  let app: FastifyInstance;
  let dispose: () => Promise<void>;
  let db: E2eServer['db'];
  let dataDir: string;
  let base = '';
  let browser: Browser;
  const shots = join(ROOT, 'test-results', 'e2e', dialect, 'shell');

  beforeAll(async () => {
    ensureWebBuilt();
    await mkdir(shots, { recursive: true });
    dataDir = await mkdtemp(join(tmpdir(), 'openseal-e2e-shell-'));
    const database = await openTestDatabase(dialect);
    dispose = database.dispose;
    db = database.db;
    app = await buildApp({
      config: loadConfig({
        DATA_DIR: dataDir,
        APP_SECRET: 'e2e-secret-0123456789-abcdefghijklmnopq',
        LOG_LEVEL: 'silent',
        WEB_DIST,
      }),
      database,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await dispose?.();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** A page in a context of its own: fresh storage, so every test starts logged out. */
  async function freshPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
    return context.newPage();
  }
  async function dismissAnnouncement(page: Page) {
    const ok = page.getByTestId('announcement-ok');
    await expect.poll(() => ok.isVisible(), { timeout: 15_000 }).toBe(true);
    await ok.click();
    await expect.poll(() => ok.isVisible()).toBe(false);
  }
  async function loginAsDemo(page: Page) {
    await page.goto(`${base}/login`);
    await page.getByTestId('login-tab-password').click();
    await page.getByTestId('login-password-mobile').fill('13800000003');
    await page.getByTestId('login-password').fill('Demo1234');
    await page.getByTestId('login-password-submit').click();
    await page.waitForURL((u) => u.pathname === '/');
    await dismissAnnouncement(page);
  }

  it('sends an unknown path home, and opens a configured plugin route inside the layout', async () => {
    const page = await freshPage();
    await page.goto(`${base}/no/such/page`);
    await page.waitForURL((u) => u.pathname === '/', { timeout: 15_000 });
    await page.goto(`${base}/plugin/apiDocs`);
    await expect
      .poll(() => page.getByTestId('plugin-route-page').getAttribute('data-kind'), { timeout: 15_000 })
      .toBe('iframe');
    expect(await page.getByTestId('plugin-iframe').getAttribute('src')).toBe('/docs');
    expect(await page.getByTestId('app-header').isVisible()).toBe(true);
    // The embedded page really loads inside the frame (headers allow same-site framing).
    const framed = page.frameLocator('[data-testid="plugin-iframe"]').getByText('OpenSeal API').first();
    await expect.poll(() => framed.isVisible(), { timeout: 15_000 }).toBe(true);
    await page.screenshot({ path: join(shots, 'plugin-route.png') });
    await page.context().close();
  });

  it('sends a logged-out click on a protected menu to login, with the way back', async () => {
    const page = await freshPage();
    await page.goto(`${base}/`);
    await dismissAnnouncement(page);
    await page.getByTestId('nav-sealService').click();
    await page.waitForURL(/\/login/);
    expect(new URL(page.url()).searchParams.get('redirect')).toContain('/sealService');
    await page.context().close();
  });

  it('tells a signed-in user without a real name to verify first, and leads to the real-name page', async () => {
    const token = await loginByApi(base, uniqueMobile());
    const page = await freshPage();
    await page.addInitScript(`localStorage.setItem('accessToken', ${JSON.stringify(token)})`);
    await page.goto(`${base}/`);
    await dismissAnnouncement(page);
    await expect.poll(() => page.getByTestId('user-dropdown').isVisible(), { timeout: 15_000 }).toBe(true);
    await page.getByTestId('nav-sealService').click();
    const dialog = page.getByTestId('realname-required-dialog-body');
    await expect.poll(() => dialog.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/');
    // The dialog zooms in: wait for the animation to end so the picture is the settled dialog.
    await expect.poll(() => page.locator('.ant-zoom-enter, .ant-zoom-appear').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'realname-required.png') });
    await page.getByTestId('realname-required-dialog-confirm').click();
    await page.waitForURL(/\/userCenter\/infoPersonal\/realName/);
    await page.context().close();
  });

  it('redirects a phone to the mobile base path (same path when the route has H5, root otherwise; never /sealAuth)', async () => {
    const phone = {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    };
    const page = await freshPage(phone);
    await page.goto(`${base}/verifySign`);
    await page.waitForURL((u) => u.pathname === '/h5/verifySign', { timeout: 15_000 });
    await expect.poll(() => page.getByTestId('h5-page').isVisible()).toBe(true);
    await page.screenshot({ path: join(shots, 'phone-h5.png') });
    await page.goto(`${base}/openPlatform`);
    await page.waitForURL((u) => u.pathname === '/h5/' || u.pathname === '/h5', { timeout: 15_000 });
    await page.goto(`${base}/sealAuth`);
    await page.waitForURL((u) => !u.pathname.startsWith('/h5'), { timeout: 15_000 });
    expect(new URL(page.url()).pathname).toMatch(/^\/(sealAuth|login)$/);
    await page.context().close();
  });

  it('switches to English and keeps the language in local storage across a reload', async () => {
    const page = await freshPage();
    await page.goto(`${base}/`);
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
    await page.screenshot({ path: join(shots, 'english.png') });
    await page.context().close();
  });

  it('the logout warning dialog is 440 px and closes only by its buttons; the create dialog is 510 px', async () => {
    const page = await freshPage();
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
    await page.screenshot({ path: join(shots, 'warning-dialog.png') });
    await warning.getByRole('button').first().click();
    await expect.poll(() => warning.isVisible()).toBe(false);
    expect(await page.evaluate<string | null>("localStorage.getItem('accessToken')")).not.toBeNull();
    await page.context().close();
  });

  it('fits a phone on /sealAuth: the header folds into a menu that navigates; a desktop keeps the full bar', async () => {
    const server: E2eServer = { app, base, dataDir, db, close: () => Promise.resolve() };
    const org = await sealOrgByApi(server);
    const { sealCode } = await madeSealByApi(server, org);
    // A certificate inside the renewal window: the seal-expiry tip shows under the header.
    await expireSealIn(server, sealCode, 12);
    const settle = (page: Page) =>
      expect.poll(() => page.locator(MOTION).count(), { timeout: 10_000 }).toBe(0);
    const scrollWidth = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth');

    // A desktop: the whole bar, no menu button.
    const desktop = await freshPage({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    await openSignedIn(desktop, base, org.admin, '/');
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
    await desktop.screenshot({ path: join(shots, 'desktop-home.png') });
    await desktop.getByTestId('nav-sealService').click();
    await desktop.waitForURL((u) => u.pathname.startsWith('/sealService'), { timeout: 15_000 });
    await desktop.goto(`${base}/sealService/mySealList`);
    await expect
      .poll(() => desktop.getByTestId('my-seal-list-page').isVisible(), { timeout: 20_000 })
      .toBe(true);
    await expect.poll(() => desktop.locator('.ant-spin-spinning').count(), { timeout: 15_000 }).toBe(0);
    await settle(desktop);
    await desktop.screenshot({ path: join(shots, 'desktop-my-seals.png') });
    await desktop.context().close();

    // A phone on /sealAuth: the page stays (no H5 redirect) and nothing scrolls sideways.
    const phone = await freshPage({
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
      locale: 'zh-CN',
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    });
    await openSignedIn(phone, base, org.admin, '/sealAuth');
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
    await phone.screenshot({ path: join(shots, 'phone-seal-auth.png'), fullPage: true });
    for (const width of [320, 414]) {
      await phone.setViewportSize({ width, height: 740 });
      await expect.poll(() => scrollWidth(phone)).toBeLessThanOrEqual(width);
      await phone.screenshot({ path: join(shots, `phone-seal-auth-${width}.png`) });
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
    await phone.screenshot({ path: join(shots, 'phone-menu.png') });
    // The account dropdown opens from the drawer and fits the screen.
    await phone.getByTestId('user-dropdown').click();
    await expect.poll(() => phone.getByTestId('user-panel').isVisible()).toBe(true);
    await settle(phone);
    const panel = await phone.getByTestId('user-panel').boundingBox();
    expect(panel!.x).toBeGreaterThanOrEqual(0);
    expect(panel!.x + panel!.width).toBeLessThanOrEqual(375);
    await phone.screenshot({ path: join(shots, 'phone-account.png') });
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
    await phone.context().close();

    // A protected item from the phone menu keeps the rule: no real name yet, the dialog says so first.
    const newcomer = await freshPage({
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
      locale: 'zh-CN',
    });
    await openSignedIn(newcomer, base, await loginByApi(base, uniqueMobile()), '/sealAuth');
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
    await newcomer.screenshot({ path: join(shots, 'phone-realname-required.png') });
    await newcomer.context().close();
  });

  it('a session ended elsewhere (code 225): a toast, the session cleared, then the login page', async () => {
    const page = await freshPage();
    await loginAsDemo(page);
    const token = await page.evaluate<string | null>("localStorage.getItem('accessToken')");
    const ended = await fetch(`${base}/v1/accounts/logout`, {
      method: 'POST',
      headers: { 'x-access-token': token!, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(((await ended.json()) as { code: number }).code).toBe(0);
    await page.goto(`${base}/userCenter/infoPersonal`);
    await expect
      .poll(() => page.locator('.ant-message').textContent(), { timeout: 15_000 })
      .toMatch(/退出登录|logged out/);
    await page.waitForURL(/\/login/, { timeout: 15_000 });
    expect(await page.evaluate<string | null>("localStorage.getItem('accessToken')")).toBeNull();
    await page.context().close();
  });
});
