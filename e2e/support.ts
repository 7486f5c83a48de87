import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { usccCheckChar } from '@openseal/core';
import { chromium, type Browser } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import type { DialectName } from '@openseal/db';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openTestDatabase } from '../apps/server/test/harness';

/** Helpers for the browser tests: the built web app, Chromium, unique test data. */
export const ROOT = resolve(import.meta.dirname, '..');
export const WEB_DIST = join(ROOT, 'apps/web/dist');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Without Chromium the browser tests skip with a notice (scripts/ensure-test-deps.mjs installs it). */
export const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM)
  console.warn(`browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

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

/** The real server on a random loopback port, on a fresh database of the dialect, with limits lifted for tests. */
export interface E2eServer {
  app: FastifyInstance;
  base: string;
  dataDir: string;
  close(): Promise<void>;
}

export async function startE2eServer(
  dialect: DialectName,
  env: Record<string, string> = {},
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
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    base: `http://127.0.0.1:${port}`,
    dataDir,
    async close() {
      await app.close();
      await database.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
