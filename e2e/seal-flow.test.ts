import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import {
  approveByApi,
  expireSealIn,
  madeSealByApi,
  operatorTokenByApi,
  sealOrgByApi,
  type SealOrg,
} from './seal-support';
import { HAS_CHROMIUM, mustCallApi, openSignedIn, startE2eServer, PAGE_DIALECTS } from './support';

/**
 * The seal-collection flow, the operator's seal queue and the seal-expiry tip in a real browser against
 * the real server. The administrator applies through the API; the operator approves in the console; the
 * administrator (not the legal representative) is sent to the only-legal page and makes a claim link; the
 * legal representative opens it, must accept the agreement, claims, and sees the made seal. A tampered
 * link, a member without the permission and an application under review get their own pages. A second
 * server makes seals as jobs (ASYNCHRONOUS_SEAL_MAKE) and the waiting page follows the progress. Then two
 * certificates near their end show the expiry tip, one after the other. One screenshot per screen under
 * test-results/e2e/<dialect>/seal-flow-*.png.
 */
/** A page with the full header and no announcement over it (the home page shows one once). */
const RECORDS = '/sealService/applyRecordList';

describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('seal collection flow in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect);
  let org: SealOrg;
  let operator: Page;
  let admin: Page;
  let legal: Page;
  let staff: Page;
  let applyNo = '';
  let claimPath = '';
  let sealCode = '';

  const shot = (page: Page, name: string) =>
    suite.shot(page, `seal-flow-${name}`, { fullPage: true, top: true });
  const visible = (page: Page, testId: string) => () => page.getByTestId(testId).first().isVisible();
  const pathOf = (page: Page) => new URL(page.url()).pathname;
  const newPage = () => suite.desktop();
  const workOrder = (token: string, no: string) =>
    suite.mustApi<{ status: string; receiveStatus: string }>('GET', `/v1/seals/sealApply/${no}`, token);

  beforeAll(async () => {
    org = await sealOrgByApi(suite.server);
    operator = await newPage();
    admin = await newPage();
    legal = await newPage();
    staff = await newPage();
  });

  it('the operator approves a seal application in the console’s seal-applications tab', async () => {
    ({ applyNo } = await suite.mustApi<{ applyNo: string }>('POST', '/v1/seals/sealApply', org.admin, {
      sealKind: 'contract',
    }));
    await suite.loginOperator(operator);
    await expect.poll(visible(operator, 'manage-tab-sealApply'), { timeout: 15_000 }).toBe(true);
    await operator.getByTestId('manage-tab-sealApply').click();
    const row = operator.locator(`[data-testid="manage-queue-row"][data-id="${applyNo}"]`);
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row.textContent()).toContain(org.orgName);
    expect(await row.getByTestId('manage-seal-name').textContent()).toContain('合同专用章');
    expect(await row.getByTestId('manage-row-status').getAttribute('data-status')).toBe('pendingReview');
    // The row opens to show the seal's style and size.
    await row.locator('.ant-table-row-expand-icon').click();
    await expect.poll(visible(operator, 'manage-seal-detail')).toBe(true);
    expect(await operator.getByTestId('manage-seal-detail').textContent()).toContain('圆形章');
    await shot(operator, '01-console-seal-applications');

    await row.getByTestId('manage-approve').click();
    await operator.getByTestId('manage-approve-confirm').click();
    await expect.poll(() => row.count()).toBe(0);
    expect(await workOrder(org.admin, applyNo)).toMatchObject({
      status: 'pendingProduction',
      receiveStatus: 'unclaimed',
    });
    await operator.getByTestId('manage-tab-sealChange').click();
    await expect.poll(visible(operator, 'manage-queue-sealChange')).toBe(true);
    await shot(operator, '02-console-seal-changes');
  });

  it('the administrator, not the legal representative, is told to send a claim link, and makes one', async () => {
    await suite.openSignedIn(admin, org.admin, `/getSealFlow?applyNo=${applyNo}`);
    await admin.waitForURL((url) => url.pathname === '/getSealResultOnlyLegal', { timeout: 15_000 });
    expect(new URL(admin.url()).searchParams.get('applyNo')).toBe(applyNo);
    await expect.poll(visible(admin, 'seal-flow-header')).toBe(true);
    expect(await admin.getByTestId('flow-result-title').textContent()).toBe('仅法定代表人可领取印章');
    await admin.getByTestId('flow-make-link').click();
    await expect.poll(visible(admin, 'flow-claim-link')).toBe(true);
    const link = new URL(await admin.getByTestId('flow-claim-link').inputValue());
    expect(link.pathname).toBe('/getSealFlow');
    expect(link.searchParams.get('getSealFlowId')).toMatch(/\S/);
    expect(link.searchParams.get('sig')).toMatch(/\S/);
    expect(await admin.getByTestId('flow-link-expires').textContent()).toContain('链接有效期至');
    claimPath = `${link.pathname}${link.search}`;
    await shot(admin, '03-only-legal');
    // Nothing was claimed by the visit.
    expect(await workOrder(org.admin, applyNo)).toMatchObject({ receiveStatus: 'unclaimed' });
  });

  it('a tampered or expired link leads to the no-result page with the reason', async () => {
    const link = new URL(claimPath, suite.base);
    link.searchParams.set('sig', `${link.searchParams.get('sig')}0`);
    await suite.openSignedIn(legal, org.legal, `${link.pathname}${link.search}`);
    await legal.waitForURL((url) => url.pathname === '/noGetSealResult', { timeout: 15_000 });
    expect(await legal.getByTestId('flow-result-reason').getAttribute('data-reason')).toBe('linkInvalid');
    expect(await legal.getByTestId('flow-result-reason').textContent()).toContain('领章链接无效或已过期');
    await shot(legal, '04-link-invalid');

    const expired = new URL(claimPath, suite.base);
    expired.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 60));
    await legal.goto(`${suite.base}${expired.pathname}${expired.search}`);
    await legal.waitForURL((url) => url.pathname === '/noGetSealResult', { timeout: 15_000 });
    expect(await legal.getByTestId('flow-result-reason').getAttribute('data-reason')).toBe('linkInvalid');
    // The reason stays on reload: it is in the address.
    await legal.reload();
    await expect.poll(visible(legal, 'flow-result-reason')).toBe(true);
    expect(await legal.getByTestId('flow-result-reason').getAttribute('data-reason')).toBe('linkInvalid');
  });

  it('a member without the claim permission is refused', async () => {
    await suite.openSignedIn(staff, org.staff, `/getSealFlow?applyNo=${applyNo}`);
    await staff.waitForURL((url) => url.pathname === '/noGetSealAuthResult', { timeout: 15_000 });
    expect(await staff.getByTestId('flow-result-reason').getAttribute('data-reason')).toBe(
      'noClaimPermission',
    );
    await shot(staff, '05-no-auth');
  });

  it('the legal representative opens the link, must accept the agreement, claims, and sees the seal made', async () => {
    await legal.goto(`${suite.base}${claimPath}`);
    await expect.poll(visible(legal, 'flow-claim-page'), { timeout: 15_000 }).toBe(true);
    expect(await legal.getByTestId('flow-org-name').textContent()).toBe(org.orgName);
    const card = legal.locator(`[data-testid="flow-seal"][data-id="${applyNo}"]`);
    expect(await card.getByTestId('flow-seal-name').textContent()).toContain('合同专用章');
    await expect
      .poll(() => card.getByTestId('flow-seal-preview').isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await card.getByTestId('flow-seal-preview').getAttribute('src')).toMatch(
      /^data:image\/png;base64,/,
    );
    await shot(legal, '06-claim');

    // Without the agreement nothing is claimed.
    await legal.getByTestId('flow-claim').click();
    await expect.poll(visible(legal, 'flow-must-agree')).toBe(true);
    expect(pathOf(legal)).toBe('/getSealFlow');
    expect(await workOrder(org.legal, applyNo)).toMatchObject({ receiveStatus: 'unclaimed' });
    await shot(legal, '07-claim-must-agree');

    await legal.getByTestId('flow-agreement').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await legal.getByTestId('flow-agree').click();
    expect(await legal.getByTestId('flow-claim').getAttribute('data-agreed')).toBe('true');
    await legal.getByTestId('flow-claim').click();
    await legal.waitForURL((url) => url.pathname === '/getSealResult', { timeout: 60_000 });
    expect(new URL(legal.url()).searchParams.get('applyNo')).toBe(applyNo);
    const made = legal.locator(`[data-testid="flow-made-seal"][data-id="${applyNo}"]`);
    await expect.poll(() => made.isVisible(), { timeout: 15_000 }).toBe(true);
    sealCode = (await made.getAttribute('data-seal-code')) ?? '';
    expect(sealCode).toMatch(/\S/);
    await expect.poll(() => made.getByTestId('flow-made-image').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await legal.getByTestId('flow-result-title').textContent()).toBe('印章领取成功');
    await shot(legal, '08-made');
    const seal = await suite.mustApi<{ status: string; certStatus: string }>(
      'GET',
      `/v1/seals/${sealCode}`,
      org.admin,
    );
    expect(seal).toMatchObject({ status: 'normal', certStatus: 'good' });

    // A reload reads the same result from the server.
    await legal.reload();
    await expect.poll(() => made.isVisible(), { timeout: 15_000 }).toBe(true);
    // The used link now shows the result instead of a second claim.
    await legal.goto(`${suite.base}${claimPath}`);
    await legal.waitForURL((url) => url.pathname === '/getSealResult', { timeout: 15_000 });
  });

  it('an application still under review shows the manual-review result', async () => {
    const pending = await suite.mustApi<{ applyNo: string }>('POST', '/v1/seals/sealApply', org.admin, {
      sealKind: 'finance',
    });
    await admin.goto(`${suite.base}/getSealFlow?applyNo=${pending.applyNo}`);
    await admin.waitForURL((url) => url.pathname === '/getArtificialSealtResult', { timeout: 15_000 });
    const item = admin.locator(`[data-testid="flow-review-item"][data-id="${pending.applyNo}"]`);
    await expect.poll(() => item.getAttribute('data-status'), { timeout: 15_000 }).toBe('pendingReview');
    expect(await admin.getByTestId('flow-result-title').textContent()).toBe('已提交人工审核');
    await shot(admin, '09-manual-review');
    await suite.mustApi('POST', `/v1/seals/sealApply/revoke/${pending.applyNo}`, org.admin, {});
  });

  it('with production as a job, the waiting page follows the progress to the end', async () => {
    const jobServer = await startE2eServer(dialect);
    try {
      const { db } = jobServer;
      const updated = await db
        .updateTable('config_values')
        .set({ value: 'true' })
        .where('code', '=', 'ASYNCHRONOUS_SEAL_MAKE')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0)
        await db
          .insertInto('config_values')
          .values({ code: 'ASYNCHRONOUS_SEAL_MAKE', value: 'true', file_key: null, is_public: false })
          .execute();
      const setAt = Date.now();
      const jobOrg = await sealOrgByApi(jobServer);
      const applied = await mustCallApi<{ applyNo: string }>(
        jobServer.base,
        'POST',
        '/v1/seals/sealApply',
        jobOrg.admin,
        { sealKind: 'contract' },
      );
      await approveByApi(
        jobServer.base,
        await operatorTokenByApi(jobServer.base),
        'sealApply',
        applied.applyNo,
      );
      // The server reads its settings through a five-second cache.
      await expect.poll(() => Date.now() - setAt, { timeout: 10_000, interval: 500 }).toBeGreaterThan(5_500);

      const page = await newPage();
      await openSignedIn(page, jobServer.base, jobOrg.legal, `/getSealFlow?applyNo=${applied.applyNo}`);
      await expect.poll(visible(page, 'flow-claim-page'), { timeout: 15_000 }).toBe(true);
      await page.getByTestId('flow-agree').click();
      await page.getByTestId('flow-claim').click();
      await page.waitForURL((url) => url.pathname === '/getSealWaitResult', { timeout: 30_000 });
      const making = page.locator(`[data-testid="flow-making"][data-id="${applied.applyNo}"]`);
      await expect.poll(() => making.isVisible(), { timeout: 15_000 }).toBe(true);
      await expect
        .poll(() => page.getByTestId('flow-result-title').getAttribute('data-state'), { timeout: 60_000 })
        .toBe('done');
      expect(await making.getAttribute('data-progress')).toBe('100');
      expect(await making.getAttribute('data-status')).toBe('made');
      expect(await page.getByTestId('flow-result-title').textContent()).toBe('印章制作完成');
      await expect
        .poll(() => making.getByTestId('flow-made-image').isVisible(), { timeout: 15_000 })
        .toBe(true);
      await shot(page, '10-wait-done');
      const check = await mustCallApi<{ receiveStatus: string; making: { state: string } | null }>(
        jobServer.base,
        'POST',
        '/v1/seals/checkSealAsync',
        jobOrg.legal,
        { applyNo: applied.applyNo },
      );
      expect(check.receiveStatus).toBe('made');
    } finally {
      await jobServer.close();
    }
  });

  it('the expiry tip names the soonest certificate, renews at my seal list, and closes to the next', async () => {
    const second = await madeSealByApi(suite.server, org, { sealKind: 'invoice' });
    await expireSealIn(suite.server, sealCode, 10);
    await expireSealIn(suite.server, second.sealCode, 20);

    await admin.goto(`${suite.base}${RECORDS}`);
    const tip = admin.getByTestId('seal-expiry-tip');
    await expect.poll(() => tip.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await tip.getAttribute('data-seal-code')).toBe(sealCode);
    expect(await tip.getAttribute('data-remind-type')).toBe('IN_OF_DATE');
    expect(await admin.getByTestId('seal-expiry-tip-text').textContent()).toContain('10 天后到期');
    expect((await tip.boundingBox())?.height).toBe(44);
    await shot(admin, '11-expiry-tip');

    // Not on the make-UKey page.
    const asked: string[] = [];
    admin.on('request', (r) => {
      if (r.url().includes('/v1/sealRemind/getLastRemind')) asked.push(r.url());
    });
    await admin.goto(`${suite.base}/makeUKey`);
    await admin.waitForLoadState('networkidle');
    expect(await tip.count()).toBe(0);
    expect(asked).toHaveLength(0);

    await admin.goto(`${suite.base}${RECORDS}`);
    await expect.poll(() => tip.isVisible(), { timeout: 15_000 }).toBe(true);
    await admin.getByTestId('seal-expiry-tip-renew').click();
    await admin.waitForURL((url) => url.pathname === '/sealService/mySealList');
    expect(new URL(admin.url()).searchParams.get('sealCode')).toBe(sealCode);
    // On the page where the renewal happens the tip stays, without its renew button.
    await expect.poll(() => tip.isVisible()).toBe(true);
    await expect.poll(() => admin.getByTestId('seal-expiry-tip-renew').count()).toBe(0);
    // The list opens the seal's own panel there; the tip is closed from another page.
    await admin.goto(`${suite.base}${RECORDS}`);
    await expect.poll(() => tip.isVisible(), { timeout: 15_000 }).toBe(true);

    await admin.getByTestId('seal-expiry-tip-close').click();
    await expect.poll(() => tip.getAttribute('data-seal-code')).toBe(second.sealCode);
    expect(await admin.getByTestId('seal-expiry-tip-text').textContent()).toContain('20 天后到期');
    await shot(admin, '12-expiry-tip-next');
    await admin.getByTestId('seal-expiry-tip-close').click();
    await expect.poll(() => tip.count()).toBe(0);
    await admin.reload();
    await admin.waitForLoadState('networkidle');
    expect(await tip.count()).toBe(0);
    // Closing is per person: the legal representative still sees the first tip.
    await legal.goto(`${suite.base}/`);
    await expect.poll(() => legal.getByTestId('seal-expiry-tip').isVisible(), { timeout: 15_000 }).toBe(true);
  });

  it('a staff member without sealManage or receiveUkey gets no tip, and the server agrees', async () => {
    const asked: string[] = [];
    staff.on('request', (r) => {
      if (r.url().includes('/v1/sealRemind/getLastRemind')) asked.push(r.url());
    });
    await staff.goto(`${suite.base}/`);
    await staff.waitForLoadState('networkidle');
    expect(await staff.getByTestId('seal-expiry-tip').count()).toBe(0);
    expect(asked).toHaveLength(0);
    const refused = await suite.api('GET', '/v1/sealRemind/getLastRemind', org.staff);
    expect(refused.code).not.toBe(0);
  });
});
