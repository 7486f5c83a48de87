import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import {
  changedRegistryUscc,
  HAS_CHROMIUM,
  uniqueMobile,
  uniqueOrgName,
  uniqueResidentId,
  uniqueUscc,
  PAGE_DIALECTS,
} from './support';

/**
 * The organisation real-name paths the first browser test leaves out, against the real server and the
 * sandbox verifier: the legal representative's SMS (taken by a staff member of an organisation whose
 * super administrator left, who becomes super administrator), the bank micro-payment (three wrong
 * amounts fail the flow and it is retried; then one wrong amount, then the right one), and the
 * info-change tip and dialog after login for an organisation whose registry data changed. Fixtures
 * (users, organisations, memberships) are made through the API. One screenshot per step under
 * test-results/e2e/<dialect>/realname-paths-*.png.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('real-name paths in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect, { env: { REALNAME_SANDBOX_DELAY_MS: '300' } });
  let page: Page;
  let loggedIn = false;

  // The viewport only: for a full-page capture Chromium reports a 1×1 viewport for a moment, which the
  // app takes for a phone and answers by moving to its H5 pages in the middle of a step.
  const shot = (name: string) => suite.shot(page, `realname-paths-${name}`, { settle: false });
  const visible = (testId: string) => () => page.getByTestId(testId).isVisible();
  const resultStatus = () => page.getByTestId('realname-result').getAttribute('data-status');
  const dropdownName = () => page.getByTestId('user-dropdown-name').textContent();

  /** A fresh browser (no storage shared with the previous user) logged in by SMS code on the login page. */
  async function logInAs(mobile: string) {
    if (loggedIn) await suite.close(page);
    page = await suite.desktop();
    loggedIn = true;
    await page.goto(`${suite.base}/login`);
    await page.getByTestId('login-mobile').fill(mobile);
    const sentAt = Date.now() - 1_000;
    await page.getByTestId('login-send-code').click();
    const code = await suite.smsCode(mobile, sentAt);
    await page.getByTestId('login-code').fill(code);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
  }

  /** A new user and an organisation of theirs (they are its super administrator, and it is their space). */
  async function orgOfNewUser(uscc = uniqueUscc()) {
    const mobile = uniqueMobile();
    const personToken = await suite.login(mobile);
    const name = uniqueOrgName();
    const created = await suite.api<{ accessToken: string; organizeId: string; status: number }>(
      'POST',
      '/v1/organizes/add',
      personToken,
      { organizeName: name, uscc },
    );
    expect(created.code, created.message).toBe(0);
    expect(created.data.status).toBe(0);
    return { mobile, name, uscc, orgId: created.data.organizeId, token: created.data.accessToken };
  }

  /** A new user added to the organisation as staff, whose last space (where a login lands) is that organisation. */
  async function staffOf(adminToken: string, orgId: string) {
    const mobile = uniqueMobile();
    const personToken = await suite.login(mobile);
    const added = await suite.api<{ status: string }>('POST', '/v1/organizes/members', adminToken, {
      mobile,
      roles: ['staff'],
    });
    expect(added.code, added.message).toBe(0);
    expect(added.data.status).toBe('active');
    const handover = await suite.api('POST', '/v1/organizes/handover/login', personToken, {
      type: 1,
      organizeId: orgId,
    });
    expect(handover.code, handover.message).toBe(0);
    return mobile;
  }

  describe("legal representative's SMS", () => {
    let org: Awaited<ReturnType<typeof orgOfNewUser>>;
    const legalMobile = uniqueMobile();

    it('a staff member of an organisation without a super administrator sees only the staff role', async () => {
      org = await orgOfNewUser();
      const staffMobile = await staffOf(org.token, org.orgId);
      // The founder left: no valid super administrator, so a member may take the organisation over by
      // real-name (the API has no call that pauses the last super administrator, so the fixture does).
      const founder = await suite.db
        .selectFrom('persons')
        .select('id')
        .where('mobile', '=', org.mobile)
        .executeTakeFirstOrThrow();
      await suite.db
        .updateTable('members')
        .set({ status: 'paused' })
        .where('organization_id', '=', org.orgId)
        .where('person_id', '=', founder.id)
        .execute();
      await logInAs(staffMobile);
      await expect.poll(dropdownName, { timeout: 15_000 }).toBe(org.name);
      await page.goto(`${suite.base}/userCenter/infoEnt`);
      const info = page.getByTestId('info-ent-page');
      await expect.poll(() => info.getByText('员工').isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await info.getByText('超级管理员').count()).toBe(0);
      expect(await info.getByText('未实名').isVisible()).toBe(true);
      await shot('01-sms-staff-before');
    });

    it('sends the code to the legal representative and verifies with it', async () => {
      await page.goto(`${suite.base}/userCenter/infoEnt/realName`);
      await expect.poll(visible('realname-org-form'), { timeout: 15_000 }).toBe(true);
      expect(await page.getByTestId('realname-org-name').inputValue()).toBe(org.name);
      expect(await page.getByTestId('realname-org-uscc').inputValue()).toBe(org.uscc);
      await page.getByTestId('realname-legal-name').fill('王五');
      await page.getByTestId('realname-legal-id').fill(uniqueResidentId());
      // The SMS path is the default method.
      await page.getByTestId('realname-legal-mobile').fill(legalMobile);
      const sentAt = Date.now() - 1_000;
      await page.getByTestId('realname-send-code').click();
      const code = await suite.smsCode(legalMobile, sentAt);
      await expect.poll(visible('realname-sandbox')).toBe(true);
      await page.getByTestId('realname-code').fill(code);
      await shot('02-sms-form');
      await page.getByTestId('realname-org-submit').click();
      await expect.poll(resultStatus, { timeout: 20_000 }).toBe('success');
      await shot('03-sms-success');
    });

    it('leaves the organisation real-named with the verifier as super administrator', async () => {
      await page.goto(`${suite.base}/userCenter/infoEnt`);
      const info = page.getByTestId('info-ent-page');
      await expect.poll(() => info.getByText('超级管理员').isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await info.getByText('已实名').isVisible()).toBe(true);
      expect(await info.getByText('未实名').count()).toBe(0);
      await shot('04-sms-super-admin');
    });
  });

  describe('bank micro-payment', () => {
    let org: Awaited<ReturnType<typeof orgOfNewUser>>;
    const legalId = uniqueResidentId();

    /** The amount the sandbox "paid", as the page shows it (the sandbox has no bank statement to read). */
    async function sandboxAmount(): Promise<string> {
      await expect.poll(visible('realname-sandbox-amount'), { timeout: 15_000 }).toBe(true);
      const text = (await page.getByTestId('realname-sandbox-amount').textContent()) ?? '';
      const amount = /¥(0\.\d{2})/.exec(text)?.[1];
      expect(amount, text).toBeDefined();
      return amount!;
    }
    const wrongFor = (right: string) => (right === '0.01' ? '0.02' : '0.01');
    const amountHelp = () =>
      page
        .locator('.ant-form-item')
        .filter({ has: page.getByTestId('realname-amount') })
        .locator('.ant-form-item-explain')
        .textContent();

    async function startBank() {
      await expect.poll(visible('realname-org-form'), { timeout: 15_000 }).toBe(true);
      await page.getByTestId('realname-legal-name').fill('赵六');
      await page.getByTestId('realname-legal-id').fill(legalId);
      await page.getByTestId('realname-method-bank').click();
      await page.getByTestId('realname-bank-account').fill('6222 0202 0000 1234 567');
      await page.getByTestId('realname-org-submit').click();
      return sandboxAmount();
    }

    async function enterAmount(amount: string) {
      await page.getByTestId('realname-amount').fill(amount);
      await page.getByTestId('realname-amount-submit').click();
    }

    it('fails the flow after three wrong amounts and offers a retry', async () => {
      org = await orgOfNewUser();
      await logInAs(org.mobile);
      await expect.poll(dropdownName, { timeout: 15_000 }).toBe(org.name);
      await page.goto(`${suite.base}/userCenter/infoEnt/realName`);
      const right = await startBank();
      await shot('05-bank-amount');
      const wrong = wrongFor(right);
      await enterAmount(wrong);
      await expect.poll(amountHelp).toBe('金额不正确，还可尝试 2 次');
      await enterAmount(wrong);
      await expect.poll(amountHelp).toBe('金额不正确，还可尝试 1 次');
      await enterAmount(wrong);
      await expect.poll(resultStatus, { timeout: 15_000 }).toBe('failure');
      // The platform's own reason is catalogued, so it reads in the page's language.
      expect(await page.getByTestId('realname-reason').textContent()).toBe(
        '失败原因：打款金额错误次数过多，请重新认证',
      );
      expect(new URL(page.url()).searchParams.get('flowId')).toMatch(/\S/);
      await shot('06-bank-failed');
    });

    it('retries: a wrong amount says how many tries are left, the right one verifies', async () => {
      await page.getByTestId('realname-retry').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('flowId')).toBeNull();
      const right = await startBank();
      await enterAmount(wrongFor(right));
      await expect.poll(amountHelp).toBe('金额不正确，还可尝试 2 次');
      await shot('07-bank-wrong-amount');
      await enterAmount(right);
      await expect.poll(resultStatus, { timeout: 20_000 }).toBe('success');
      await shot('08-bank-success');
      await page.goto(`${suite.base}/userCenter/infoEnt`);
      const info = page.getByTestId('info-ent-page');
      await expect.poll(() => info.getByText('已实名').isVisible(), { timeout: 15_000 }).toBe(true);
      // The organisation's records hold the failed flow and the successful one.
      const token = await page.evaluate<string | null>("localStorage.getItem('accessToken')");
      const records = await suite.api<{ list: { method: string; status: string }[] }>(
        'GET',
        '/v1/accounts/auth/records',
        token,
      );
      expect(records.data.list.map((r) => `${r.method}:${r.status}`).sort()).toEqual([
        'bank:failure',
        'bank:success',
      ]);
    });
  });

  describe('info-change dialog', () => {
    let org: Awaited<ReturnType<typeof orgOfNewUser>>;
    let staffMobile = '';
    const tip = () => page.getByTestId('info-change-tip');
    const dialog = () => page.getByTestId('info-change-dialog');

    it('makes a real-named organisation whose registry data changed, with a staff member', async () => {
      org = await orgOfNewUser(changedRegistryUscc());
      const flow = await suite.api<{ flowId: string }>('POST', '/v1/accounts/auth/flow', org.token, {
        organizeType: 1,
      });
      expect(flow.code, flow.message).toBe(0);
      const flowId = flow.data.flowId;
      const submitted = await suite.api<{ sandboxAmountCents: number }>(
        'POST',
        `/v1/accounts/auth/${flowId}/organization`,
        org.token,
        {
          method: 'bank',
          organizeName: org.name,
          uscc: org.uscc,
          legalName: '李四',
          legalIdNumber: uniqueResidentId(),
          bankAccount: '62220202000012',
        },
      );
      expect(submitted.code, submitted.message).toBe(0);
      const confirmed = await suite.api('POST', `/v1/accounts/auth/${flowId}/confirmAmount`, org.token, {
        amountCents: submitted.data.sandboxAmountCents,
      });
      expect(confirmed.code, confirmed.message).toBe(0);
      await expect
        .poll(
          async () =>
            (await suite.api<{ status: string }>('GET', `/v1/accounts/auth/${flowId}/result`, org.token)).data
              .status,
          { timeout: 15_000 },
        )
        .toBe('success');
      staffMobile = await staffOf(org.token, org.orgId);
    });

    it('shows a staff member the tip and the changes after login, and who may confirm them', async () => {
      await logInAs(staffMobile);
      await expect.poll(visible('info-change-dialog'), { timeout: 20_000 }).toBe(true);
      expect(await tip().isVisible()).toBe(true);
      expect((await tip().boundingBox())?.height).toBe(44);
      expect(await dialog().getAttribute('data-may-confirm')).toBe('false');
      expect(await page.getByTestId('info-change-confirm').count()).toBe(0);
      const items = dialog().getByTestId('info-change-item');
      expect(await items.count()).toBe(2);
      expect(await items.nth(0).getAttribute('data-field')).toBe('organizeName');
      expect(await items.nth(0).getByTestId('info-change-current').textContent()).toBe(org.name);
      expect(await items.nth(0).getByTestId('info-change-registry').textContent()).toBe(
        `${org.name}（变更后）`,
      );
      expect(await items.nth(1).getByTestId('info-change-registry').textContent()).toBe('新法人');
      // The holders come from the members module: the founder is super administrator.
      const masked = `${org.mobile.slice(0, 3)}****${org.mobile.slice(-4)}`;
      await expect
        .poll(() => page.getByTestId('info-change-holders').textContent(), { timeout: 10_000 })
        .toMatch(new RegExp(`^请联系：超级管理员 \\S+（${masked.replace(/\*/g, '\\*')}）$`));
      expect(await page.getByTestId('realname-sandbox').isVisible()).toBe(true);
      await shot('09-info-change-staff');
    });

    it('closing reloads the page without flowId, and the dialog opens again', async () => {
      await page.goto(`${suite.base}/userCenter/infoEnt?flowId=rnf_done&tab=1`);
      await expect.poll(visible('info-change-dialog'), { timeout: 20_000 }).toBe(true);
      const reloaded = page.waitForEvent('load', { timeout: 20_000 });
      await page.locator('.ant-modal-close').click();
      await reloaded;
      const url = new URL(page.url());
      expect(url.pathname).toBe('/userCenter/infoEnt');
      expect(url.searchParams.has('flowId')).toBe(false);
      expect(url.searchParams.get('tab')).toBe('1');
      await expect.poll(visible('info-change-dialog'), { timeout: 20_000 }).toBe(true);
    });

    it('cancelling keeps the dialog closed for the session while the tip stays and reopens it', async () => {
      await page.getByTestId('info-change-later').click();
      await expect.poll(visible('info-change-dialog')).toBe(false);
      expect(await tip().isVisible()).toBe(true);
      await page.reload();
      await expect.poll(() => tip().isVisible(), { timeout: 20_000 }).toBe(true);
      // The tip comes from the same answer that would open the dialog, so the dialog had its chance.
      expect(await dialog().count()).toBe(0);
      expect(
        await page.evaluate<string[]>(
          "Object.keys(sessionStorage).filter((k) => k.startsWith('infoChange'))",
        ),
      ).toHaveLength(1);
      await shot('10-info-change-cancelled');
      await page.getByTestId('info-change-tip-open').click();
      await expect.poll(visible('info-change-dialog')).toBe(true);
    });

    it('the super administrator confirms: a new token, the tip is gone and the new name shows', async () => {
      await logInAs(org.mobile);
      await expect.poll(visible('info-change-dialog'), { timeout: 20_000 }).toBe(true);
      expect(await tip().isVisible()).toBe(true);
      expect(await dialog().getAttribute('data-may-confirm')).toBe('true');
      expect(await dropdownName()).toBe(org.name);
      const before = await page.evaluate<string | null>("localStorage.getItem('accessToken')");
      await shot('11-info-change-dialog');
      const reloaded = page.waitForEvent('load', { timeout: 20_000 });
      await page.getByTestId('info-change-confirm').click();
      await reloaded;
      await expect.poll(dropdownName, { timeout: 15_000 }).toBe(`${org.name}（变更后）`);
      const after = await page.evaluate<string | null>("localStorage.getItem('accessToken')");
      expect(after).not.toBe(before);
      // The old token ended; the new one sees no more changes, so nothing is left to show.
      expect((await suite.api('GET', '/v1/accounts/info', before)).code).toBe(225);
      const check = await suite.api<{ discoverChangedItems: unknown[] }>(
        'POST',
        '/v1/organizes/discoverChangedItems',
        after,
      );
      expect(check.data.discoverChangedItems).toEqual([]);
      await page.waitForLoadState('networkidle');
      expect(await tip().count()).toBe(0);
      expect(await dialog().count()).toBe(0);
      await page.goto(`${suite.base}/userCenter/infoEnt`);
      await expect
        .poll(() => page.getByTestId('info-org-name').textContent(), { timeout: 15_000 })
        .toBe(`${org.name}（变更后）`);
      await page.waitForLoadState('networkidle');
      expect(await tip().count()).toBe(0);
      await shot('12-info-change-confirmed');
    });
  });
});
