import { messageFor } from '@openseal/core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { consumeAuthorization } from '../apps/server/src/modules/seals/seal-authorizations.service';
import { useE2eSuite } from './fixtures';
import { madeSealByApi, sealOrgByApi, type SealOrg } from './seal-support';
import { HAS_CHROMIUM, PAGE_DIALECTS } from './support';

/**
 * Seal authorisation in a real browser against the real server: the administrator grants a made seal to a
 * staff member with three uses for a dated validity, sees it in effect in the list and the detail, watches
 * the remaining uses fall as the seal is used (the signing module's use, taken here in the server's own
 * transaction), edits it to unlimited, and terminates it; the staff member sees the seal on /sealAuth, on a
 * desktop and on a phone, until it is terminated. A refusal shows the server's catalogued message.
 * Screenshots under test-results/e2e/<dialect>/seal-authorize-*.png.
 */
const pad = (n: number) => String(n).padStart(2, '0');
const dayText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const DAY = 86_400_000;

describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('seal authorisation in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect);
  let admin: Page;
  let staff: Page;
  let org: SealOrg;
  let sealCode = '';
  let sealName = '';
  let authCode = '';
  const start = new Date();
  const end = new Date(Date.now() + 30 * DAY);

  const shot = (page: Page, name: string, fullPage = false) =>
    suite.shot(page, `seal-authorize-${name}`, { fullPage });
  const visible = (page: Page, testId: string) => () => page.getByTestId(testId).first().isVisible();
  const row = (page: Page, code: string) => page.locator(`[data-testid="authz-row"][data-id="${code}"]`);
  const toastText = (page: Page) => page.locator('.ant-message-notice').allInnerTexts();
  /** One use of the seal by the staff member, as the signing module takes it. */
  const useSeal = () =>
    suite.db.transaction().execute((tx) =>
      consumeAuthorization(tx, suite.server.app.evidence, {
        sealCode,
        organizationId: org.organizeId,
        grantee: { type: 'member', id: org.staffMemberId },
        reference: 'e2e',
      }),
    );
  const detailUses = (page: Page) => page.getByTestId('authz-detail-uses').getByTestId('authz-uses');

  beforeAll(async () => {
    org = await sealOrgByApi(suite.server);
    ({ sealCode } = await madeSealByApi(suite.server, org));
    sealName = (await suite.mustApi<{ name: string }>('GET', `/v1/seals/${sealCode}`, org.admin)).name;

    admin = await suite.desktop({ viewport: { width: 1280, height: 1000 } });
    staff = await suite.desktop();
    await suite.openSignedIn(admin, org.admin, '/sealService/authorizeMng');
  });

  it('the list starts empty, with a way to a new authorisation', async () => {
    await expect.poll(visible(admin, 'authz-empty'), { timeout: 20_000 }).toBe(true);
    expect(await admin.getByTestId('authz-create').isVisible()).toBe(true);
    await shot(admin, '01-list-empty');
    await admin.getByTestId('authz-create').click();
    await expect.poll(visible(admin, 'authz-form'), { timeout: 15_000 }).toBe(true);
    expect(new URL(admin.url()).pathname).toBe('/sealService/authorizeCreate');
  });

  it('the form names what is missing before anything is sent', async () => {
    await admin.getByTestId('authz-uses-counted').click();
    await admin.getByTestId('authz-validity-dated').click();
    await admin.getByTestId('authz-submit').click();
    const errors = admin.locator('.ant-form-item-explain-error');
    await expect
      .poll(() => errors.allInnerTexts())
      .toEqual([
        '请选择要授权的印章',
        '请至少选择一位成员或输入一个应用',
        '可用次数须为 1 至 1000000 之间的整数',
        '请选择授权的开始和结束日期',
      ]);
    await shot(admin, '02-create-problems');
  });

  it('grants the seal to the staff member: 3 uses, dated', async () => {
    await admin.getByTestId('authz-seal-select').click();
    await admin.locator('.ant-select-item-option').filter({ hasText: sealName }).first().click();
    await expect.poll(visible(admin, 'authz-chosen-seal')).toBe(true);

    await admin.getByTestId('authz-member-select').click();
    await admin.keyboard.type('员工甲');
    await admin.locator('.ant-select-item-option').filter({ hasText: '员工甲' }).first().click();
    await admin.keyboard.press('Escape');

    await admin
      .locator('input[data-testid="authz-uses-limit"], [data-testid="authz-uses-limit"] input')
      .first()
      .fill('3');
    const dates = admin.locator('.ant-picker-range input');
    await dates.nth(0).click();
    await dates.nth(0).fill(dayText(start));
    await dates.nth(0).press('Enter');
    await dates.nth(1).fill(dayText(end));
    // Leaving the field keeps the typed day (Enter would send the form at once).
    await admin.getByTestId('authz-chosen-seal').click();
    await expect.poll(() => dates.nth(1).inputValue()).toBe(dayText(end));
    expect(await dates.nth(0).inputValue()).toBe(dayText(start));
    await admin.getByTestId('authz-submit').hover();
    await expect.poll(() => admin.locator('.ant-form-item-explain-error').allInnerTexts()).toEqual([]);
    await shot(admin, '03-create-filled');

    await admin.getByTestId('authz-submit').click();
    await expect.poll(visible(admin, 'authz-detail'), { timeout: 15_000 }).toBe(true);
    const detail = admin.getByTestId('authz-detail');
    authCode = (await detail.getAttribute('data-id')) ?? '';
    expect(authCode).toMatch(/^sau/);
    expect(await detail.getAttribute('data-status')).toBe('inEffect');
    expect(await detailUses(admin).getAttribute('data-remaining')).toBe('3');
    expect(await detailUses(admin).getAttribute('data-total')).toBe('3');
    const validity = admin.getByTestId('authz-validity').first();
    expect(await validity.getAttribute('data-permanent')).toBe('false');
    expect(await validity.innerText()).toContain(dayText(end));
    expect(await admin.getByTestId('authz-grantee').first().getAttribute('data-grantee-type')).toBe('member');
    expect(await admin.getByTestId('authz-usable').getAttribute('data-usable')).toBe('true');

    // What the server keeps is what the form said.
    const kept = await suite.mustApi<{ usesLimit: number; validTo: string; granteeId: string }>(
      'GET',
      `/v1/sealAuth/sealAuthDetail/${authCode}`,
      org.admin,
    );
    expect(kept).toMatchObject({ usesLimit: 3, granteeId: org.staffMemberId });
    expect(dayText(new Date(kept.validTo))).toBe(dayText(end));
    await shot(admin, '04-detail');
  });

  it('the list shows it in effect with 3 of 3 uses', async () => {
    await admin.goto(`${suite.base}/sealService/authorizeMng`);
    const r = row(admin, authCode);
    await expect.poll(() => r.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await r.getAttribute('data-status')).toBe('inEffect');
    const uses = r.getByTestId('authz-uses');
    expect(await uses.getAttribute('data-remaining')).toBe('3');
    expect(await uses.getAttribute('data-total')).toBe('3');
    expect(await uses.innerText()).toContain('3/3');
    expect(await r.getByTestId('authz-seal-thumb').getAttribute('data-has-image')).toBe('true');
    // The status filter asks the server: nothing is terminated yet.
    await admin.getByTestId('authz-filter-status').click();
    await admin.locator('.ant-select-item-option').filter({ hasText: '已终止' }).click();
    await expect.poll(visible(admin, 'authz-empty'), { timeout: 15_000 }).toBe(true);
    await admin.getByTestId('authz-filter-status').hover();
    await admin.locator('[data-testid="authz-filter-status"] .ant-select-clear').click();
    await expect.poll(() => r.isVisible(), { timeout: 15_000 }).toBe(true);
    await shot(admin, '05-list');
  });

  it('the remaining uses fall as the seal is used', async () => {
    expect(await useSeal()).toEqual({ authCode, usesRemaining: 2 });
    await admin.goto(`${suite.base}/sealService/authorizeDetail?authCode=${authCode}`);
    await expect.poll(() => detailUses(admin).getAttribute('data-remaining'), { timeout: 15_000 }).toBe('2');
    expect(await admin.getByTestId('authz-detail-uses').innerText()).toContain('已使用 1 次');
  });

  it('edits the grant to unlimited uses', async () => {
    await admin.getByTestId('authz-detail-edit').click();
    const form = admin.getByTestId('authz-form');
    await expect.poll(() => form.getAttribute('data-mode'), { timeout: 15_000 }).toBe('edit');
    await admin.getByTestId('authz-uses-unlimited').click();
    await shot(admin, '06-edit');
    await admin.getByTestId('authz-submit').click();
    await expect
      .poll(() => detailUses(admin).getAttribute('data-unlimited'), { timeout: 15_000 })
      .toBe('true');
    expect(new URL(admin.url()).searchParams.get('authCode')).toBe(authCode);
    // The validity stayed as it was.
    expect(await admin.getByTestId('authz-validity').first().innerText()).toContain(dayText(end));
  });

  it('the staff member sees the seal on /sealAuth, on a desktop and on a phone', async () => {
    await suite.openSignedIn(staff, org.staff, '/sealAuth');
    const card = staff.locator(`[data-testid="seal-auth-card"][data-id="${authCode}"]`);
    await expect.poll(() => card.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await card.getAttribute('data-seal-code')).toBe(sealCode);
    expect(await card.innerText()).toContain(sealName);
    expect(await card.getByTestId('authz-uses').getAttribute('data-unlimited')).toBe('true');
    const own = staff.locator(`[data-testid="seal-auth-grant"][data-id="${authCode}"]`);
    expect(await own.isVisible()).toBe(true);
    await shot(staff, '07-seal-auth', true);

    const phone = await suite.phone({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 });
    await suite.openSignedIn(phone, org.staff, '/sealAuth');
    const phoneCard = phone.locator(`[data-testid="seal-auth-card"][data-id="${authCode}"]`);
    await expect.poll(() => phoneCard.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(new URL(phone.url()).pathname).toBe('/sealAuth');
    // The card fits the phone's width: nothing scrolls sideways.
    const box = await phoneCard.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    const content = await phone.getByTestId('seal-auth-page').evaluate((el) => ({
      scroll: el.scrollWidth,
      right: el.getBoundingClientRect().right,
    }));
    expect(content.scroll).toBeLessThanOrEqual(375);
    expect(content.right).toBeLessThanOrEqual(375);
    await shot(phone, '08-seal-auth-phone', true);
    await suite.close(phone);
  });

  it('a refused termination shows the server’s catalogued message', async () => {
    // A second grant, ended elsewhere while the administrator's list still offers to end it.
    const other = await suite.mustApi<{ list: { authCode: string }[] }>(
      'POST',
      '/v1/sealAuth/addSealAuth',
      org.admin,
      { sealCode, grantees: [{ type: 'app', id: 'app_demo_01' }], appRange: [] },
    );
    const otherCode = other.list[0]!.authCode;
    await admin.goto(`${suite.base}/sealService/authorizeMng`);
    const r = row(admin, otherCode);
    await expect.poll(() => r.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await r.getByTestId('authz-grantee').getAttribute('data-grantee-type')).toBe('app');
    await suite.mustApi('POST', `/v1/sealAuth/cancelAuth/${otherCode}`, org.admin, {});
    await r.getByTestId('authz-cancel').click();
    await admin.getByTestId('authz-cancel-dialog-confirm').click();
    await expect
      .poll(() => toastText(admin), { timeout: 15_000 })
      .toContain(messageFor('sealAuth.status', 'zh-CN'));
  });

  it('terminates the grant: terminated in the list and detail, gone from the staff member’s seals', async () => {
    await admin.getByTestId('authz-cancel-dialog-cancel').click();
    await admin.goto(`${suite.base}/sealService/authorizeMng`);
    const r = row(admin, authCode);
    await expect.poll(() => r.isVisible(), { timeout: 15_000 }).toBe(true);
    await r.getByTestId('authz-cancel').click();
    await expect.poll(visible(admin, 'authz-cancel-dialog-body')).toBe(true);
    expect(await admin.getByTestId('authz-cancel-dialog-body').innerText()).toContain(sealName);
    await shot(admin, '09-cancel-confirm');
    await admin.getByTestId('authz-cancel-dialog-confirm').click();
    await expect.poll(() => r.getAttribute('data-status'), { timeout: 15_000 }).toBe('terminated');
    expect(await r.getByTestId('authz-edit').count()).toBe(0);
    expect(await r.getByTestId('authz-cancel').count()).toBe(0);
    await shot(admin, '10-list-terminated');

    await r.getByTestId('authz-detail').click();
    await expect
      .poll(() => admin.getByTestId('authz-detail').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('terminated');
    expect(await admin.getByTestId('authz-terminate-time').innerText()).not.toBe('-');
    expect(await admin.getByTestId('authz-detail-edit').count()).toBe(0);

    await staff.reload();
    await expect.poll(visible(staff, 'seal-auth-empty'), { timeout: 20_000 }).toBe(true);
    const own = staff.locator(`[data-testid="seal-auth-grant"][data-id="${authCode}"]`);
    await expect.poll(() => own.getAttribute('data-status'), { timeout: 15_000 }).toBe('terminated');
    await shot(staff, '11-seal-auth-after', true);
  });

  it('the staff member, without the authorise permission, cannot grant', async () => {
    await staff.goto(`${suite.base}/sealService/authorizeCreate?sealCode=${sealCode}`);
    await expect.poll(visible(staff, 'authz-no-permission'), { timeout: 15_000 }).toBe(true);
    // And the server says the same when asked directly.
    const refused = await fetch(`${suite.base}/v1/sealAuth/addSealAuth`, {
      method: 'POST',
      headers: {
        'x-access-token': org.staff,
        'x-owner-switch': 'PROMOTE',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ sealCode, grantees: [{ type: 'member', id: org.staffMemberId }] }),
    }).then((res) => res.json() as Promise<{ code: number }>);
    expect(refused.code).not.toBe(0);
  });
});
