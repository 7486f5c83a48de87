import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { messageFor } from '@openseal/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawLogoPng } from '../apps/server/src/seed/logo';
import {
  ensureWebBuilt,
  HAS_CHROMIUM,
  launchChromium,
  readSmsCode,
  ROOT,
  uniqueMobile,
  uniqueOrgName,
  uniqueUscc,
  startE2eServer,
  type E2eServer,
  JOURNEY_DIALECTS,
  openUserPanel,
} from './support';
import { tinyPdf } from '../apps/server/test/upload-fixtures';

/** A resident ID number with a valid GB 11643-1999 check character (sequence 999 is the sandbox's deny list). */
function residentId(): string {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const first17 = `33010619880512${String(100 + Math.floor(Math.random() * 800))}`;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * weights[i]!;
  return first17 + '10X98765432'[sum % 11]!;
}

/**
 * Real-name in a real browser against the real server: a new user verifies their person by SMS (sandbox
 * verifier), then creates an organisation and verifies it by the manual path, which an operator approves
 * through the console API. One screenshot per step under test-results/e2e/<dialect>/.
 */
describe.skipIf(!HAS_CHROMIUM).each(JOURNEY_DIALECTS)('real-name flow in the browser (%s)', (dialect) => {
  let server: E2eServer;
  let dataDir: string;
  let base = '';
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const shots = join(ROOT, 'test-results', 'e2e', dialect);
  const mobile = uniqueMobile();
  const idNumber = residentId();
  const orgName = uniqueOrgName();
  const uscc = uniqueUscc();
  let licencePath = '';
  let letterPath = '';

  const shot = (name: string) =>
    page.screenshot({ path: join(shots, `realname-${name}.png`), fullPage: true });
  const visible = (testId: string) => () => page.getByTestId(testId).isVisible();
  const resultStatus = () => page.getByTestId('realname-result').getAttribute('data-status');
  const resultStep = () => page.getByTestId('realname-result').getAttribute('data-step');

  beforeAll(async () => {
    ensureWebBuilt();
    await mkdir(shots, { recursive: true });
    server = await startE2eServer(dialect, { REALNAME_SANDBOX_DELAY_MS: '300' });
    ({ base, dataDir } = server);
    licencePath = join(dataDir, 'licence.png');
    letterPath = join(dataDir, 'authorisation.pdf');
    await writeFile(licencePath, drawLogoPng(64));
    await writeFile(letterPath, tinyPdf('authorisation'));

    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    page = await context.newPage();
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
  });

  it('logs a new user in by SMS code', async () => {
    await page.goto(`${base}/login`);
    await page.getByTestId('login-mobile').fill(mobile);
    const sentAt = Date.now() - 1_000;
    await page.getByTestId('login-send-code').click();
    const code = await readSmsCode(base, mobile, sentAt);
    await page.getByTestId('login-code').fill(code);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.evaluate("localStorage.getItem('accessToken')")).not.toBeNull();
  });

  it('checks the resident ID number on the page before sending anything', async () => {
    await page.goto(`${base}/userCenter/infoPersonal/realName`);
    await expect.poll(visible('realname-person-form'), { timeout: 15_000 }).toBe(true);
    await page.getByTestId('realname-mobile').fill(mobile);
    await page.getByTestId('realname-name').fill('张三');
    // The last character is wrong: the check digit refuses it.
    const wrong = idNumber.slice(0, 17) + (idNumber[17] === '1' ? '2' : '1');
    await page.getByTestId('realname-id-number').fill(wrong);
    await page.getByTestId('realname-mobile').focus();
    await expect.poll(() => page.getByText(messageFor('realName.idFormat', 'zh-CN')).isVisible()).toBe(true);
    await shot('01-person-id-wrong');
  });

  it('verifies the person with the sandbox SMS code and sees success', async () => {
    await page.getByTestId('realname-id-number').fill(idNumber);
    const sentAt = Date.now() - 1_000;
    await page.getByTestId('realname-send-code').click();
    const code = await readSmsCode(base, mobile, sentAt);
    // The sandbox verifier is labelled as such once the flow says so.
    await expect.poll(visible('realname-sandbox')).toBe(true);
    await page.getByTestId('realname-code').fill(code);
    await shot('02-person-form');
    await page.getByTestId('realname-submit').click();
    await expect.poll(resultStatus, { timeout: 15_000 }).toBe('success');
    expect(new URL(page.url()).searchParams.get('flowId')).toMatch(/\S/);
    expect(await page.getByTestId('realname-sandbox').isVisible()).toBe(true);
    await shot('03-person-success');
  });

  it('creates an organisation', async () => {
    await page.goto(`${base}/userCenter/infoPersonal`);
    await openUserPanel(page);
    await page.getByTestId('create-org-open').click();
    await page.getByTestId('create-org-name').fill(orgName);
    await page.getByTestId('create-org-uscc').fill(uscc);
    await page.getByTestId('create-org-name').focus();
    const confirm = page.getByTestId('create-org-confirm');
    await expect.poll(() => confirm.isEnabled(), { timeout: 10_000 }).toBe(true);
    const loaded = page.waitForEvent('load', { timeout: 20_000 });
    await confirm.click();
    await loaded;
    await expect
      .poll(() => page.getByTestId('user-dropdown-name').textContent(), { timeout: 15_000 })
      .toBe(orgName);
  });

  let flowId = '';

  it('submits the manual path with a business licence and an authorisation letter, and waits for review', async () => {
    await page.goto(`${base}/userCenter/infoEnt/realName`);
    await expect.poll(visible('realname-org-form'), { timeout: 15_000 }).toBe(true);
    expect(await page.getByTestId('realname-org-name').inputValue()).toBe(orgName);
    expect(await page.getByTestId('realname-org-uscc').inputValue()).toBe(uscc);
    await page.getByTestId('realname-legal-name').fill('张三');
    await page.getByTestId('realname-legal-id').fill(idNumber);
    await page.getByTestId('realname-method-manual').click();
    await page.getByTestId('realname-licence-input').setInputFiles(licencePath);
    await expect.poll(visible('realname-licence-name'), { timeout: 10_000 }).toBe(true);
    await page.getByTestId('realname-authorisation-input').setInputFiles(letterPath);
    await expect.poll(visible('realname-authorisation-name'), { timeout: 10_000 }).toBe(true);
    await shot('04-org-manual-form');
    await page.getByTestId('realname-org-submit').click();
    await expect.poll(resultStep, { timeout: 15_000 }).toBe('awaitingReview');
    expect(await resultStatus()).toBe('pending');
    flowId = new URL(page.url()).searchParams.get('flowId') ?? '';
    expect(flowId).toMatch(/\S/);
    await shot('05-org-awaiting-review');
  });

  it('shows success once an operator approves it', async () => {
    const login = await fetch(`${base}/manage/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'Operator1234' }),
    });
    const operator = (await login.json()) as { code: number; data: { operatorToken: string } };
    expect(operator.code).toBe(0);
    const approved = await fetch(`${base}/manage/api/v1/queues/realname/${flowId}/approve`, {
      method: 'POST',
      headers: { 'x-operator-token': operator.data.operatorToken },
    });
    expect(((await approved.json()) as { code: number }).code).toBe(0);
    // The page polls the flow while it waits for review.
    await expect.poll(resultStatus, { timeout: 20_000 }).toBe('success');
    await shot('06-org-success');
  });

  it('shows the record and its history on the audit detail page', async () => {
    await page.getByTestId('realname-detail-link').click();
    await page.waitForURL(/\/userCenter\/infoEnt\/realNameAuditDetail\?flowId=/);
    await expect
      .poll(() => page.getByTestId('realname-detail').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('success');
    const items = page.getByTestId('realname-history-item');
    await expect.poll(() => items.count()).toBe(3);
    expect(await items.nth(0).getAttribute('data-to')).toBe('draft');
    expect(await items.nth(1).getAttribute('data-to')).toBe('awaitingReview');
    expect(await items.nth(2).getAttribute('data-to')).toBe('success');
    expect(await items.nth(2).getAttribute('data-actor')).toBe('operator');
    expect(await page.getByTestId('realname-detail-licence').isVisible()).toBe(true);
    expect(await page.getByText(orgName).first().isVisible()).toBe(true);
    await shot('07-org-audit-detail');
  });
});
