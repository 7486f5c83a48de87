import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import { expireSealIn, sealOrgByApi, type SealOrg } from './seal-support';
import { HAS_CHROMIUM, PAGE_DIALECTS } from './support';

/**
 * A seal's whole life through the pages, one person at a time, as the issue tells it: the administrator
 * applies for a contract seal; the operator approves it in the console; the legal representative claims it
 * (the seal is made: image, certificate); the administrator authorises a member to use it, disables it,
 * enables it, and renews it once its certificate is within 30 days of its end. Each step is checked on the
 * page and against the server, with a screenshot under test-results/e2e/<dialect>/seal-lifecycle-*.png.
 */
interface SealOut {
  status: string;
  certSerial: string | null;
  certStatus: string | null;
  validTo: string | null;
  imageUrl: string | null;
}

const DAY = 86_400_000;

describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('a seal’s life in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect);
  let org: SealOrg;
  let admin: Page;
  let operator: Page;
  let legal: Page;
  let applyNo = '';
  let sealCode = '';

  const shot = (page: Page, name: string) =>
    suite.shot(page, `seal-lifecycle-${name}`, { fullPage: true, top: true });
  const visible = (page: Page, testId: string) => () => page.getByTestId(testId).first().isVisible();
  const newPage = () => suite.desktop();
  const sealOf = () => suite.mustApi<SealOut>('GET', `/v1/seals/${sealCode}`, org.admin);
  const sealRow = () => admin.locator(`[data-testid="seal-row"][data-id="${sealCode}"]`);
  const openSeals = async (query = '') => {
    await admin.goto(`${suite.base}/sealService/mySealList${query}`);
    await expect.poll(visible(admin, 'my-seal-list-page'), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => sealRow().isVisible(), { timeout: 15_000 }).toBe(true);
  };
  const confirmSealAction = async () => {
    await admin.getByTestId('seal-confirm-confirm').click();
    await expect.poll(() => admin.getByTestId('seal-confirm-body').count(), { timeout: 15_000 }).toBe(0);
  };

  beforeAll(async () => {
    org = await sealOrgByApi(suite.server);
    admin = await newPage();
    operator = await newPage();
    legal = await newPage();
  });

  it('1. the administrator applies for a contract seal, with its preview', async () => {
    await suite.openSignedIn(admin, org.admin, '/sealService/applySeal');
    const card = admin.getByTestId('apply-kind-contract');
    await expect.poll(() => card.getAttribute('data-can-apply'), { timeout: 20_000 }).toBe('true');
    await card.click();
    await expect.poll(() => card.getAttribute('data-selected')).toBe('true');
    await expect
      .poll(() => admin.getByTestId('seal-preview-canvas').getAttribute('data-drawn'), { timeout: 30_000 })
      .toBe('true');
    expect(await admin.getByTestId('apply-preview-name').textContent()).toContain(org.orgName);
    await shot(admin, '01-apply');
    await admin.getByTestId('apply-submit').click();
    const result = admin.getByTestId('apply-result');
    await expect.poll(() => result.getAttribute('data-status'), { timeout: 15_000 }).toBe('pendingReview');
    applyNo = (await result.getAttribute('data-apply-no')) ?? '';
    expect(applyNo).toMatch(/\S/);
    await shot(admin, '02-applied');
  });

  it('2. the operator approves it in the console', async () => {
    await suite.loginOperator(operator);
    await expect.poll(visible(operator, 'manage-tab-sealApply'), { timeout: 15_000 }).toBe(true);
    await operator.getByTestId('manage-tab-sealApply').click();
    const row = operator.locator(`[data-testid="manage-queue-row"][data-id="${applyNo}"]`);
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row.textContent()).toContain(org.orgName);
    await shot(operator, '03-console');
    await row.getByTestId('manage-approve').click();
    await operator.getByTestId('manage-approve-confirm').click();
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
    const order = await suite.mustApi<{ status: string }>('GET', `/v1/seals/sealApply/${applyNo}`, org.admin);
    expect(order.status).toBe('pendingProduction');
  });

  it('3. the legal representative claims it, after accepting the agreement, and it is made', async () => {
    await suite.openSignedIn(legal, org.legal, `/getSealFlow?applyNo=${applyNo}`);
    await expect.poll(visible(legal, 'flow-claim-page'), { timeout: 15_000 }).toBe(true);
    const card = legal.locator(`[data-testid="flow-seal"][data-id="${applyNo}"]`);
    await expect
      .poll(() => card.getByTestId('flow-seal-preview').isVisible(), { timeout: 15_000 })
      .toBe(true);
    await legal.getByTestId('flow-agreement').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await legal.getByTestId('flow-agree').click();
    await shot(legal, '04-claim');
    await legal.getByTestId('flow-claim').click();
    await legal.waitForURL((url) => url.pathname === '/getSealResult', { timeout: 60_000 });
    const made = legal.locator(`[data-testid="flow-made-seal"][data-id="${applyNo}"]`);
    await expect.poll(() => made.isVisible(), { timeout: 15_000 }).toBe(true);
    sealCode = (await made.getAttribute('data-seal-code')) ?? '';
    expect(sealCode).toMatch(/\S/);
    await expect.poll(() => made.getByTestId('flow-made-image').isVisible(), { timeout: 15_000 }).toBe(true);
    await shot(legal, '05-made');
    // Made for real: a normal seal with an image and a good certificate from the platform CA.
    const seal = await sealOf();
    expect(seal).toMatchObject({ status: 'normal', certStatus: 'good' });
    expect(seal.certSerial).toMatch(/^[0-9a-f]+$/i);
    expect((await suite.server.app.pki.certificate(suite.db, seal.certSerial!)).status).toBe('good');
  });

  it('4. the administrator authorises the staff member to use it', async () => {
    await admin.goto(`${suite.base}/sealService/authorizeCreate?sealCode=${sealCode}`);
    await expect.poll(visible(admin, 'authz-chosen-seal'), { timeout: 20_000 }).toBe(true);
    await admin.getByTestId('authz-member-select').click();
    await admin.keyboard.type('员工甲');
    await admin.locator('.ant-select-item-option').filter({ hasText: '员工甲' }).first().click();
    await admin.keyboard.press('Escape');
    await admin.getByTestId('authz-uses-counted').click();
    await admin
      .locator('input[data-testid="authz-uses-limit"], [data-testid="authz-uses-limit"] input')
      .first()
      .fill('5');
    await shot(admin, '06-authorise');
    await admin.getByTestId('authz-submit').click();
    const detail = admin.getByTestId('authz-detail');
    await expect.poll(() => detail.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await detail.getAttribute('data-status')).toBe('inEffect');
    await shot(admin, '07-authorised');
    // The member now may use the seal.
    const usable = await suite.mustApi<{ list: { sealCode: string }[] } | { sealCode: string }[]>(
      'GET',
      '/v1/accounts/getAuthorSeals',
      org.staff,
    );
    const list = Array.isArray(usable) ? usable : usable.list;
    expect(list.map((s) => s.sealCode)).toContain(sealCode);
  });

  it('5. disables it: the certificate goes on hold', async () => {
    await openSeals();
    await sealRow().getByTestId('seal-disable').click();
    await expect.poll(visible(admin, 'seal-confirm-text')).toBe(true);
    await confirmSealAction();
    await expect.poll(() => sealRow().getAttribute('data-status'), { timeout: 15_000 }).toBe('disabled');
    expect(await sealRow().getAttribute('data-cert-status')).toBe('hold');
    await shot(admin, '08-disabled');
    expect(await sealOf()).toMatchObject({ status: 'disabled', certStatus: 'hold' });
  });

  it('6. enables it: the certificate is good again', async () => {
    await sealRow().getByTestId('seal-enable').click();
    await expect.poll(visible(admin, 'seal-confirm-text')).toBe(true);
    await confirmSealAction();
    await expect.poll(() => sealRow().getAttribute('data-status'), { timeout: 15_000 }).toBe('normal');
    expect(await sealRow().getAttribute('data-cert-status')).toBe('good');
    await shot(admin, '09-enabled');
    expect(await sealOf()).toMatchObject({ status: 'normal', certStatus: 'good' });
  });

  it('7. renews it within 30 days of its end: one more year, a new certificate', async () => {
    // Renewal is refused while the end is far off.
    await openSeals(`?sealCode=${sealCode}`);
    await expect.poll(visible(admin, 'seal-detail'), { timeout: 15_000 }).toBe(true);
    expect(await admin.getByTestId('seal-renew').isDisabled()).toBe(true);

    await expireSealIn(suite.server, sealCode, 10);
    const before = await sealOf();
    await openSeals(`?sealCode=${sealCode}`);
    const detail = admin.getByTestId('seal-detail');
    await expect
      .poll(() => detail.getByTestId('seal-expiry-hint').getAttribute('data-days'), { timeout: 15_000 })
      .toBe('10');
    await expect.poll(() => admin.getByTestId('seal-renew').isDisabled()).toBe(false);
    await shot(admin, '10-renew-due');
    await admin.getByTestId('seal-renew').click();
    await admin.getByTestId('seal-renew-confirm-confirm').click();
    const result = admin.getByTestId('seal-renew-result');
    await expect.poll(() => result.isVisible(), { timeout: 60_000 }).toBe(true);
    await shot(admin, '11-renewed');
    const after = await sealOf();
    expect(after.status).toBe('normal');
    expect(after.certSerial).not.toBe(before.certSerial);
    expect(Date.parse(after.validTo!) - Date.parse(before.validTo!)).toBe(365 * DAY);
    expect((await suite.server.app.pki.certificate(suite.db, after.certSerial!)).renewed_from).toBe(
      before.certSerial,
    );
  });
});
