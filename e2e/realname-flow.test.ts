import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { messageFor } from '@openseal/core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { drawLogoPng } from '../apps/server/src/seed/logo';
import { tinyPdf } from '../apps/server/test/upload-fixtures';
import { useE2eSuite } from './fixtures';
import {
  HAS_CHROMIUM,
  uniqueMobile,
  uniqueOrgName,
  uniqueResidentId,
  uniqueUscc,
  PAGE_DIALECTS,
  openUserPanel,
} from './support';

/**
 * Real-name in a real browser against the real server: a new user verifies their person by SMS (sandbox
 * verifier), then creates an organisation and verifies it by the manual path, which an operator approves
 * through the console API. One screenshot per step under test-results/e2e/<dialect>/.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('real-name flow in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect, { env: { REALNAME_SANDBOX_DELAY_MS: '300' } });
  let page: Page;
  const mobile = uniqueMobile();
  const idNumber = uniqueResidentId();
  const orgName = uniqueOrgName();
  const uscc = uniqueUscc();
  let licencePath = '';
  let letterPath = '';

  const shot = (name: string) => suite.shot(page, `realname-${name}`, { fullPage: true, settle: false });
  const visible = (testId: string) => () => page.getByTestId(testId).isVisible();
  const resultStatus = () => page.getByTestId('realname-result').getAttribute('data-status');
  const resultStep = () => page.getByTestId('realname-result').getAttribute('data-step');

  beforeAll(async () => {
    licencePath = join(suite.server.dataDir, 'licence.png');
    letterPath = join(suite.server.dataDir, 'authorisation.pdf');
    await writeFile(licencePath, drawLogoPng(64));
    await writeFile(letterPath, tinyPdf('authorisation'));
    page = await suite.desktop();
  });

  it('logs a new user in by SMS code', async () => {
    await page.goto(`${suite.base}/login`);
    await page.getByTestId('login-mobile').fill(mobile);
    const sentAt = Date.now() - 1_000;
    await page.getByTestId('login-send-code').click();
    const code = await suite.smsCode(mobile, sentAt);
    await page.getByTestId('login-code').fill(code);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.evaluate("localStorage.getItem('accessToken')")).not.toBeNull();
  });

  it('checks the resident ID number on the page before sending anything', async () => {
    await page.goto(`${suite.base}/userCenter/infoPersonal/realName`);
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
    const code = await suite.smsCode(mobile, sentAt);
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
    await page.goto(`${suite.base}/userCenter/infoPersonal`);
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
    await page.goto(`${suite.base}/userCenter/infoEnt/realName`);
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
    await suite.approve('realname', flowId);
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
