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
} from './support';

/**
 * The operator console in a real browser against the real server: a user submits a manual organisation
 * real-name through the user API; the operator logs in at /manage/login, finds it in the real-name queue,
 * approves it (and rejects a second one with a reason), the user's result turns to success, and the audit
 * log shows the decisions. One screenshot per step under test-results/e2e/<dialect>/manage-*.png.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('operator console in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect, { env: { REALNAME_SANDBOX_DELAY_MS: '300' } });
  let page: Page;

  const shot = (name: string) => suite.shot(page, `manage-${name}`, { fullPage: true, settle: false });
  const visible = (testId: string) => () => page.getByTestId(testId).first().isVisible();
  const api = suite.api;

  async function upload(token: string, kind: 'licence' | 'authorisation', name: string, bytes: Buffer) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const r = await api<{ fileKey: string }>('POST', `/v1/accounts/auth/material?kind=${kind}`, token, form);
    expect(r.code, r.message).toBe(0);
    return r.data.fileKey;
  }

  /** A new user, an organisation of theirs and a manual real-name application waiting for review. */
  async function pendingManualApplication() {
    const mobile = uniqueMobile();
    const sentAt = Date.now() - 1_000;
    expect((await api('POST', '/v1/msgs/loginRegister/send', null, { mobile })).code).toBe(0);
    const code = await suite.smsCode(mobile, sentAt);
    const login = await api<{ accessToken: string }>('POST', '/v1/accounts/login', null, { mobile, code });
    expect(login.code, login.message).toBe(0);
    const orgName = uniqueOrgName();
    const uscc = uniqueUscc();
    const org = await api<{ accessToken: string; organizeId: string }>(
      'POST',
      '/v1/organizes/add',
      login.data.accessToken,
      { organizeName: orgName, uscc },
    );
    expect(org.code, org.message).toBe(0);
    const token = org.data.accessToken;
    const flow = await api<{ flowId: string }>('POST', '/v1/accounts/auth/flow', token, { organizeType: 1 });
    expect(flow.code, flow.message).toBe(0);
    const flowId = flow.data.flowId;
    const licenceFileKey = await upload(token, 'licence', '营业执照.png', drawLogoPng(64));
    const authorisationFileKey = await upload(token, 'authorisation', '授权书.pdf', tinyPdf('authorisation'));
    const submitted = await api<{ step: string }>('POST', `/v1/accounts/auth/${flowId}/organization`, token, {
      organizeName: orgName,
      uscc,
      legalName: '李四',
      legalIdNumber: uniqueResidentId(),
      method: 'manual',
      licenceFileKey,
      authorisationFileKey,
    });
    expect(submitted.code, submitted.message).toBe(0);
    expect(submitted.data.step).toBe('awaitingReview');
    return { token, flowId, orgName, uscc, organizeId: org.data.organizeId };
  }

  const result = async (token: string, flowId: string) =>
    (await api<{ status: string; reason: string | null }>('GET', `/v1/accounts/auth/${flowId}/result`, token))
      .data;

  let approveMe: Awaited<ReturnType<typeof pendingManualApplication>>;
  let rejectMe: Awaited<ReturnType<typeof pendingManualApplication>>;

  beforeAll(async () => {
    page = await suite.desktop();
  });

  it('has two manual organisation real-name applications waiting for review (user API)', async () => {
    approveMe = await pendingManualApplication();
    rejectMe = await pendingManualApplication();
    expect((await result(approveMe.token, approveMe.flowId)).status).toBe('pending');
  });

  it('sends an operator without a token to the console login, and shows a wrong password', async () => {
    await page.goto(`${suite.base}/manage`);
    await page.waitForURL((url) => url.pathname === '/manage/login');
    await expect.poll(visible('manage-login-username'), { timeout: 15_000 }).toBe(true);
    // The console is not the user site: no user header.
    expect(await page.getByTestId('app-header').count()).toBe(0);
    await shot('01-login');
    await page.getByTestId('manage-login-username').fill('admin');
    await page.getByTestId('manage-login-password').fill('wrong-password');
    await page.getByTestId('manage-login-submit').click();
    await expect.poll(visible('manage-login-error')).toBe(true);
    expect(await page.getByTestId('manage-login-error').textContent()).toContain('用户名或密码错误');
    await shot('02-login-wrong-password');
  });

  it('logs the operator in and lists the application in the real-name queue', async () => {
    await page.getByTestId('manage-login-password').fill('Operator1234');
    await page.getByTestId('manage-login-submit').click();
    await page.waitForURL((url) => url.pathname === '/manage');
    await expect.poll(visible('manage-queue-realname'), { timeout: 15_000 }).toBe(true);
    // Its own token, apart from the user's session.
    expect(await page.evaluate("localStorage.getItem('operatorToken')")).toMatch(/\S/);
    expect(await page.evaluate("localStorage.getItem('accessToken')")).toBeNull();
    await expect
      .poll(() => page.getByTestId('manage-operator-name').textContent(), { timeout: 10_000 })
      .toMatch(/\S/);
    const row = page.locator(`[data-testid="manage-queue-row"][data-id="${approveMe.flowId}"]`);
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row.textContent()).toContain(approveMe.orgName);
    expect(await row.textContent()).toContain(approveMe.uscc);
    // Settled: no loading overlay over the table.
    const blur = page.locator('[data-testid="manage-queue-realname"] .ant-spin-blur');
    await expect.poll(() => blur.count(), { timeout: 10_000 }).toBe(0);
    await shot('03-realname-queue');
  });

  it('approves it; the user-side result answers success', async () => {
    const row = page.locator(`[data-testid="manage-queue-row"][data-id="${approveMe.flowId}"]`);
    await row.getByTestId('manage-approve').click();
    await expect.poll(visible('manage-approve-confirm')).toBe(true);
    await page.getByTestId('manage-approve-confirm').click();
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
    await shot('04-approved');
    await expect
      .poll(async () => (await result(approveMe.token, approveMe.flowId)).status, { timeout: 15_000 })
      .toBe('success');
  });

  it('rejects the other one only with a reason; the user sees the reason', async () => {
    const row = page.locator(`[data-testid="manage-queue-row"][data-id="${rejectMe.flowId}"]`);
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    await row.getByTestId('manage-reject').click();
    await expect.poll(visible('manage-reject-reason')).toBe(true);
    expect(await page.getByTestId('manage-reject-confirm').isDisabled()).toBe(true);
    await page.getByTestId('manage-reject-reason').fill('营业执照不清晰');
    await expect.poll(() => page.getByTestId('manage-reject-confirm').isEnabled()).toBe(true);
    await shot('05-reject-reason');
    await page.getByTestId('manage-reject-confirm').click();
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
    await expect
      .poll(async () => (await result(rejectMe.token, rejectMe.flowId)).status, { timeout: 15_000 })
      .toBe('failure');
    expect((await result(rejectMe.token, rejectMe.flowId)).reason).toBe('营业执照不清晰');
  });

  it('opens the authority queue', async () => {
    await page.getByTestId('manage-tab-authority').click();
    await expect.poll(visible('manage-queue-authority'), { timeout: 15_000 }).toBe(true);
    await shot('06-authority-queue');
  });

  it('shows the decisions in the audit log and filters by action prefix', async () => {
    await page.getByTestId('manage-tab-audit').click();
    await expect.poll(visible('manage-audit-table'), { timeout: 15_000 }).toBe(true);
    const approved = page.locator(
      `[data-testid="manage-audit-row"][data-action="operator.realname.approve"][data-target="${approveMe.flowId}"]`,
    );
    await expect.poll(() => approved.count(), { timeout: 15_000 }).toBe(1);
    await page.getByTestId('manage-audit-action').fill('operator.realname');
    await page.getByTestId('manage-audit-search').click();
    const rows = page.getByTestId('manage-audit-row');
    await expect
      .poll(
        async () => (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-action')))).sort(),
        {
          timeout: 15_000,
        },
      )
      .toEqual(['operator.realname.approve', 'operator.realname.reject']);
    await shot('07-audit-log');
  });

  it('logs out back to the console login; the console then asks for a login again', async () => {
    await page.getByTestId('manage-logout').click();
    await page.waitForURL((url) => url.pathname === '/manage/login');
    expect(await page.evaluate("localStorage.getItem('operatorToken')")).toBeNull();
    await page.goto(`${suite.base}/manage`);
    await page.waitForURL((url) => url.pathname === '/manage/login');
  });
});
