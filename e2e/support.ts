import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { usccCheckChar } from '@openseal/core';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Db, DialectName } from '@openseal/db';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { DIALECTS, openTestDatabase } from '../apps/server/test/harness';

/** Helpers for the browser tests: the built web app, Chromium, unique test data. */
export const ROOT = resolve(import.meta.dirname, '..');
export const WEB_DIST = join(ROOT, 'apps/web/dist');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Without Chromium the browser tests skip with a notice (scripts/ensure-test-deps.mjs installs it). */
export const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM)
  console.warn(`browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);

/**
 * Databases of the browser tests. The server suites run every API on PGlite and, with DATABASE_URL, on
 * PostgreSQL; a browser test's subject is the pages, which do not know the database. So one journey that
 * crosses the most modules (the two-organisation signing flow: accounts, members, seals, approvals,
 * signing, evidence) walks the pages on both databases, and every other browser suite on the embedded
 * default only, which keeps CI inside its time limit on two cores. `E2E_ALL_DIALECTS=1` runs every
 * browser suite on both.
 */
export const JOURNEY_DIALECTS: DialectName[] = DIALECTS;
export const PAGE_DIALECTS: DialectName[] = process.env.E2E_ALL_DIALECTS ? DIALECTS : ['pglite'];

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** antd's motion classes of dialogs, masks and toasts while they animate in or out; wait for none before a screenshot. */
export const MOTION = ['zoom', 'fade', 'move-up', 'slide-up']
  .flatMap((m) => ['enter', 'appear', 'leave'].map((phase) => `.ant-${m}-${phase}`))
  .join(', ');

/**
 * Opens an antd select and returns its dropdown once it stands still. A dialog that is still opening moves
 * the focus into itself when its motion ends, which closes a dropdown opened a moment before; so this waits
 * for no motion and opens the select again if its dropdown has closed.
 */
export async function openSelect(page: Page, select: Locator): Promise<Locator> {
  const dropdown = page.locator('.ant-select-dropdown:visible');
  await expect
    .poll(
      async () => {
        if ((await page.locator(MOTION).count()) > 0) return false;
        if ((await dropdown.count()) === 0) await select.click();
        return (await dropdown.count()) > 0 && (await page.locator(MOTION).count()) === 0;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return dropdown;
}

/**
 * Opens the account dropdown and waits until it stands still: opened, and its organisation list loaded,
 * which moves the buttons below it (a click aimed at one while the list arrives lands on another).
 */
export async function openUserPanel(page: Page): Promise<Locator> {
  const panel = page.getByTestId('user-panel');
  // A panel still closing from the step before is visible but takes no clicks.
  await expect.poll(() => page.locator(MOTION).count()).toBe(0);
  if (!(await panel.isVisible())) await page.getByTestId('user-dropdown').click();
  await expect
    .poll(
      async () =>
        (await panel.isVisible()) &&
        (await panel.locator('.os-user-panel__loading').count()) === 0 &&
        (await page.locator(MOTION).count()) === 0,
    )
    .toBe(true);
  return panel;
}

/** The server serves apps/web/dist; build it once if a plain `vitest` run comes without `npm test`'s pretest. */
export function ensureWebBuilt(): void {
  if (existsSync(join(WEB_DIST, 'index.html'))) return;
  execFileSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: 'inherit' });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** A mainland mobile number no other run uses. */
export function uniqueMobile(): string {
  return `139${String(randomInt(0, 1e8)).padStart(8, '0')}`;
}

/** A valid unified social credit code (GB 32100-2015 check character), unique per call. */
export function uniqueUscc(): string {
  // 2 registry characters, 6 region digits, 9 body characters (upper-case hex is inside the alphabet).
  const body = randomBytes(4).toString('hex').toUpperCase().slice(0, 7);
  const first17 = `9133${String(randomInt(0, 1e4)).padStart(4, '0')}MA${body}`;
  const check = usccCheckChar(first17);
  if (!check) throw new Error(`bad credit code body ${first17}`);
  return first17 + check;
}

export function uniqueOrgName(): string {
  return `浙江测试科技有限公司${randomInt(100000, 999999)}`;
}

/**
 * A valid credit code in the sandbox registry's "changed" range (region digits 999999): once such an
 * organisation is real-named, the registry reports a new name and legal representative for it.
 */
export function changedRegistryUscc(): string {
  const body = randomBytes(4).toString('hex').toUpperCase().slice(0, 7);
  const first17 = `91999999MA${body}`;
  const check = usccCheckChar(first17);
  if (!check) throw new Error(`bad credit code body ${first17}`);
  return first17 + check;
}

/** A resident ID number with a valid GB 11643-1999 check character; sequence `999` is the sandbox's deny list. */
export function uniqueResidentId(sequence = String(randomInt(100, 900))): string {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const first17 = `33010619880512${sequence}`;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * weights[i]!;
  return first17 + '10X98765432'[sum % 11]!;
}

interface SmsMessage {
  code: string | null;
  createdAt: string;
}

/** Poll the sandbox outbox until a code newer than `since` arrives for the number. */
export async function readSmsCode(base: string, mobile: string, since = 0): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${base}/v1/dev/sms-outbox?mobile=${mobile}`);
    const body = (await res.json()) as { code: number; data: { messages: SmsMessage[] } };
    const latest = body.data?.messages?.[0];
    if (latest?.code && Date.parse(latest.createdAt) >= since) return latest.code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no SMS code arrived for ${mobile}`);
}

/** A loopback port free right now, for a server whose settings must name its address before it listens. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((res) => probe.listen(0, '127.0.0.1', res));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((res) => probe.close(() => res()));
  return port;
}

/** The real server on a random loopback port, on a fresh database of the dialect, with limits lifted for tests. */
export interface E2eServer {
  app: FastifyInstance;
  base: string;
  dataDir: string;
  /** The server's database, for fixtures the API cannot make (as the server tests' harness does). */
  db: Db;
  close(): Promise<void>;
}

export async function startE2eServer(
  dialect: DialectName,
  env: Record<string, string> = {},
  /** A fixed port, for settings that must name the server's own address (see `freePort`). */
  options: { port?: number } = {},
): Promise<E2eServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'openseal-e2e-'));
  const database = await openTestDatabase(dialect);
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_SECRET: 'e2e-secret-0123456789-abcdefghijklmnopq',
    LOG_LEVEL: 'silent',
    WEB_DIST,
    SMS_SANDBOX_DELAY_MS: '50',
    SMS_RESEND_SECONDS: '0',
    RATE_LIMIT_LOGIN_PER_MINUTE: '10000',
    RATE_LIMIT_SMS_PER_MINUTE: '10000',
    RATE_LIMIT_GLOBAL_PER_MINUTE: '100000',
    ...env,
  });
  const app = await buildApp({ config, database });
  await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    base: `http://127.0.0.1:${port}`,
    dataDir,
    db: database.db,
    async close() {
      await app.close();
      await database.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/**
 * One call to the API with the headers the web app sends, for fixtures made through the API: a JSON body,
 * or a form (an upload) as it is.
 */
export async function apiCall<T = Record<string, unknown>>(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  token: string | null,
  body?: unknown,
): Promise<Envelope<T>> {
  const headers: Record<string, string> = { 'x-owner-switch': 'PROMOTE' };
  if (token) headers['x-access-token'] = token;
  let payload: string | FormData | null = null;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${base}${path}`, { method, headers, body: payload });
  return (await res.json()) as Envelope<T>;
}

/** Logs a mobile in by SMS code through the API (registering it on first use); answers the access token. */
export async function loginByApi(base: string, mobile: string): Promise<string> {
  const sentAt = Date.now() - 1_000;
  const sent = await apiCall(base, 'POST', '/v1/msgs/loginRegister/send', null, { mobile });
  if (sent.code !== 0) throw new Error(`SMS send failed: ${sent.message}`);
  const code = await readSmsCode(base, mobile, sentAt);
  const login = await apiCall<{ accessToken: string }>(base, 'POST', '/v1/accounts/login', null, {
    mobile,
    code,
  });
  if (login.code !== 0) throw new Error(`login failed: ${login.message}`);
  return login.data.accessToken;
}

// --- more fixtures through the API, for browser tests whose subject is elsewhere ---

/** Like apiCall, but a fixture step that fails stops the test with the server's message. */
export async function mustCallApi<T = Record<string, unknown>>(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  token: string | null,
  body?: unknown,
): Promise<T> {
  const r = await apiCall<T>(base, method, path, token, body);
  if (r.code !== 0) throw new Error(`${method} ${path}: ${r.code} ${r.message}`);
  return r.data;
}

/** An organisation made by a logged-in person, who becomes its super administrator; the token inside it. */
export async function createOrgByApi(base: string, personToken: string) {
  const orgName = uniqueOrgName();
  const uscc = uniqueUscc();
  const org = await mustCallApi<{ accessToken: string; organizeId: string }>(
    base,
    'POST',
    '/v1/organizes/add',
    personToken,
    { organizeName: orgName, uscc },
  );
  return { token: org.accessToken, organizeId: org.organizeId, orgName, uscc };
}

/** A registered person added by an administrator (an active member at once); their token inside the organisation. */
export async function joinOrgByApi(
  base: string,
  adminToken: string,
  organizeId: string,
  member: { mobile: string; personToken: string; nickname?: string; roles?: string[] },
) {
  const added = await mustCallApi<{ memberId: string | null; status: string }>(
    base,
    'POST',
    '/v1/organizes/members',
    adminToken,
    { mobile: member.mobile, nickname: member.nickname, roles: member.roles },
  );
  if (added.status !== 'active' || !added.memberId) throw new Error(`${member.mobile} was not added at once`);
  const inside = await mustCallApi<{ accessToken: string }>(
    base,
    'POST',
    '/v1/organizes/handover/login',
    member.personToken,
    { type: 1, organizeId },
  );
  return { memberId: added.memberId, token: inside.accessToken };
}

/** Opens a path signed in with a token: the web app keeps its session in local storage of the origin. */
export async function openSignedIn(page: Page, base: string, token: string, path: string): Promise<void> {
  await page.goto(`${base}/livez`);
  await page.evaluate(`localStorage.setItem('accessToken', ${JSON.stringify(token)})`);
  await page.goto(`${base}${path}`);
}
