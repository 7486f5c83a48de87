import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { DialectName } from '@openseal/db';
import { DEMO_OPERATOR } from '../apps/server/src/modules/operators/seed-operator';
import { approveByApi, operatorTokenByApi } from './seal-support';
import {
  apiCall,
  ensureWebBuilt,
  freePort,
  launchChromium,
  loginByApi,
  MOTION,
  mustCallApi,
  openSignedIn,
  readSmsCode,
  ROOT,
  startE2eServer,
  uniqueMobile,
  type E2eServer,
  type Envelope,
} from './support';

/**
 * The one set-up of every browser test file: inside a `describe` per database it starts the real server on
 * a fresh database of that dialect, opens Chromium, hands out desktop and phone pages (each in a context of
 * its own, so sessions never mix), logs users and operators in, calls the API, keeps a screenshot of every
 * open page when a test fails, and closes it all after the last test.
 */

/** A desktop browser: 1280 px wide, Chinese. */
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 }, locale: 'zh-CN' };

export const PHONE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';

/** A phone: 390 px wide, touch, a mobile browser's user agent, Chinese. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  userAgent: PHONE_USER_AGENT,
  locale: 'zh-CN',
};

export interface E2eSuiteOptions {
  /** Settings of the server beside the test defaults (see `startE2eServer`). */
  env?: Record<string, string>;
  /**
   * Settings that must name the server's own address (a single sign-on callback): called with a free
   * port before the server starts, which then listens on that port.
   */
  envForPort?: (port: number) => Promise<Record<string, string>> | Record<string, string>;
  /** A folder of its own for the screenshots, under test-results/e2e/<dialect>/. */
  shotsDir?: string;
}

export interface ShotOptions {
  fullPage?: boolean;
  /** Wait for antd's dialog and toast animations to end first (default), so no half-faded frame is kept. */
  settle?: boolean;
  /** Scroll to the top first: a full-page picture of a scrolled page repeats the sticky header mid-page. */
  top?: boolean;
}

export interface E2eSuite {
  readonly dialect: DialectName;
  /** Ready from the first test on (and in `beforeAll` hooks declared after `useE2eSuite`). */
  readonly server: E2eServer;
  readonly base: string;
  readonly db: E2eServer['db'];
  readonly browser: Browser;
  /** test-results/e2e/<dialect>[/shotsDir], made before the first test. */
  readonly shots: string;
  /** A page in a fresh desktop context (no storage of any other page); closed with the suite. */
  desktop(options?: BrowserContextOptions): Promise<Page>;
  /** A page in a fresh phone context; closed with the suite. */
  phone(options?: BrowserContextOptions): Promise<Page>;
  /** A fresh desktop page signed in with a token, opened at a path. */
  signedIn(token: string, path: string, options?: BrowserContextOptions): Promise<Page>;
  /** Opens a path on a page signed in with a token. */
  openSignedIn(page: Page, token: string, path: string): Promise<void>;
  /** Logs the demo operator in on the console's login page (the page then opens the console). */
  loginOperator(page: Page): Promise<void>;
  /** The demo operator's console token, through the API. */
  operatorToken(): Promise<string>;
  /** The demo operator approves an application of a review queue, through the API. */
  approve(queue: 'realname' | 'sealApply' | 'sealChange', id: string): Promise<void>;
  /** Logs a mobile in by SMS code through the API (registering it on first use); the access token. */
  login(mobile?: string): Promise<string>;
  /** The newest sandbox SMS code of a mobile sent after `since`. */
  smsCode(mobile: string, since?: number): Promise<string>;
  /** One call to the API as the web app makes it. */
  api<T = Record<string, unknown>>(
    method: 'GET' | 'POST',
    path: string,
    token: string | null,
    body?: unknown,
  ): Promise<Envelope<T>>;
  /** Like `api`, but a call that fails stops the test with the server's message; answers the data. */
  mustApi<T = Record<string, unknown>>(
    method: 'GET' | 'POST',
    path: string,
    token: string | null,
    body?: unknown,
  ): Promise<T>;
  /** A screenshot of a page under `shots` as `<name>.png`. */
  shot(page: Page, name: string, options?: ShotOptions): Promise<void>;
  /** Closes a page's context before the suite ends (a test done with a user). */
  close(page: Page): Promise<void>;
}

/**
 * Declares the set-up and teardown of one database's browser suite; call it first in the `describe`.
 * Hooks declared after it run after its `beforeAll` and before its `afterAll`.
 */
export function useE2eSuite(dialect: DialectName, options: E2eSuiteOptions = {}): E2eSuite {
  let server: E2eServer | undefined;
  let browser: Browser | undefined;
  const contexts = new Set<BrowserContext>();
  const shots = join(ROOT, 'test-results', 'e2e', dialect, ...(options.shotsDir ? [options.shotsDir] : []));
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not ready: use it in a test or a later beforeAll`);
    return value;
  };

  async function newPage(defaults: BrowserContextOptions, options: BrowserContextOptions = {}) {
    const context = await ready(browser, 'the browser').newContext({ ...defaults, ...options });
    contexts.add(context);
    context.on('close', () => contexts.delete(context));
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    return page;
  }

  const suite: E2eSuite = {
    dialect,
    get server() {
      return ready(server, 'the server');
    },
    get base() {
      return ready(server, 'the server').base;
    },
    get db() {
      return ready(server, 'the server').db;
    },
    get browser() {
      return ready(browser, 'the browser');
    },
    shots,
    desktop: (o) => newPage(DESKTOP, o),
    phone: (o) => newPage(PHONE, o),
    async signedIn(token, path, o) {
      const page = await newPage(DESKTOP, o);
      await openSignedIn(page, suite.base, token, path);
      return page;
    },
    openSignedIn: (page, token, path) => openSignedIn(page, suite.base, token, path),
    async loginOperator(page) {
      await page.goto(`${suite.base}/manage/login`);
      await expect
        .poll(() => page.getByTestId('manage-login-username').isVisible(), { timeout: 15_000 })
        .toBe(true);
      await page.getByTestId('manage-login-username').fill(DEMO_OPERATOR.username);
      await page.getByTestId('manage-login-password').fill(DEMO_OPERATOR.password);
      await page.getByTestId('manage-login-submit').click();
    },
    operatorToken: () => operatorTokenByApi(suite.base),
    approve: async (queue, id) => approveByApi(suite.base, await operatorTokenByApi(suite.base), queue, id),
    login: (mobile = uniqueMobile()) => loginByApi(suite.base, mobile),
    smsCode: (mobile, since) => readSmsCode(suite.base, mobile, since),
    api: (method, path, token, body) => apiCall(suite.base, method, path, token, body),
    mustApi: (method, path, token, body) => mustCallApi(suite.base, method, path, token, body),
    async shot(page, name, { fullPage = false, settle = true, top = false } = {}) {
      if (settle) await expect.poll(() => page.locator(MOTION).count()).toBe(0);
      if (top) await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: join(shots, `${name}.png`), fullPage });
    },
    async close(page) {
      await page.context().close();
    },
  };

  beforeAll(async () => {
    ensureWebBuilt();
    await mkdir(shots, { recursive: true });
    if (options.envForPort) {
      const port = await freePort();
      const env = { ...options.env, ...(await options.envForPort(port)) };
      server = await startE2eServer(dialect, env, { port });
    } else {
      server = await startE2eServer(dialect, options.env);
    }
    browser = await launchChromium();
  });

  // When a test fails, a picture of every page still open, to see what the browser showed.
  beforeEach(({ task, onTestFailed }) => {
    onTestFailed(async () => {
      const dir = join(ROOT, 'test-results', 'e2e', dialect, 'failures');
      const file = basename(task.file.name, '.test.ts');
      const name = `${file}-${task.name.replace(/[^\p{L}\p{N}]+/gu, '-').slice(0, 80)}`;
      await mkdir(dir, { recursive: true });
      let i = 0;
      for (const context of contexts)
        for (const page of context.pages())
          await page
            .screenshot({ path: join(dir, `${name}-${++i}.png`), timeout: 10_000 })
            .catch(() => undefined);
    });
  });

  afterAll(async () => {
    for (const context of [...contexts]) await context.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  return suite;
}
