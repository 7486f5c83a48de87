import { maskPhone } from '@openseal/core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import {
  HAS_CHROMIUM,
  uniqueMobile,
  uniqueOrgName,
  uniqueUscc,
  PAGE_DIALECTS,
  openUserPanel,
} from './support';

/**
 * Member invitation in a real browser against the real server: a new user creates an organisation (and
 * becomes its super administrator), adds an unregistered mobile as staff; that person logs in with an SMS
 * code from the sandbox outbox, finds the organisation in their space list and switches into it; the
 * administrator pauses them and the member list shows it. One screenshot per step under
 * test-results/e2e/<dialect>/members-*.png.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('member invitation in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect);
  let admin: Page;
  let invitee: Page;
  const adminMobile = uniqueMobile();
  const inviteeMobile = uniqueMobile();
  const orgName = uniqueOrgName();
  const uscc = uniqueUscc();

  /** Screenshots wait for antd's dialog and toast animations to finish, so no half-faded frame is kept. */
  const shot = (page: Page, name: string) => suite.shot(page, `members-${name}`);
  const dropdownName = (page: Page) => page.getByTestId('user-dropdown-name').textContent();
  const reloadAfter = async (page: Page, action: () => Promise<unknown>) => {
    const loaded = page.waitForEvent('load', { timeout: 20_000 });
    await action();
    await loaded;
  };
  const openDropdown = openUserPanel;

  /** Home page, the once-per-session announcement, then login with a code read from the sandbox outbox. */
  const loginBySms = async (page: Page, mobile: string) => {
    await page.goto(`${suite.base}/`);
    await expect.poll(() => page.getByTestId('home-page').isVisible()).toBe(true);
    const announcement = page.getByTestId('announcement-ok');
    await expect.poll(() => announcement.isVisible(), { timeout: 15_000 }).toBe(true);
    await announcement.click();
    await expect.poll(() => announcement.isVisible()).toBe(false);
    await page.getByTestId('header-login').click();
    await page.waitForURL(/\/login/);
    await page.getByTestId('login-mobile').fill(mobile);
    const sentAt = Date.now() - 1_000;
    await page.getByTestId('login-send-code').click();
    await expect.poll(() => page.getByTestId('sandbox-notice').isVisible()).toBe(true);
    const code = await suite.smsCode(mobile, sentAt);
    await page.getByTestId('sandbox-outbox-link').click();
    await expect
      .poll(() => page.getByTestId('sandbox-outbox-code').textContent(), { timeout: 10_000 })
      .toContain(code);
    await page.getByTestId('login-code').fill(code);
  };
  const submitLogin = async (page: Page) => {
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.getByTestId('user-dropdown').isVisible(), { timeout: 15_000 }).toBe(true);
  };
  const memberRow = (page: Page, mobile: string) =>
    page.getByTestId('member-row').filter({ hasText: maskPhone(mobile) });

  beforeAll(async () => {
    admin = await suite.desktop();
    invitee = await suite.desktop();
  });

  it('a new user logs in and creates an organisation, becoming its super administrator', async () => {
    await loginBySms(admin, adminMobile);
    await shot(admin, '01-admin-login');
    await submitLogin(admin);
    await openDropdown(admin);
    await admin.getByTestId('create-org-open').click();
    await admin.getByTestId('create-org-name').fill(orgName);
    await admin.getByTestId('create-org-uscc').fill(uscc);
    await admin.getByTestId('create-org-name').focus();
    const confirm = admin.getByTestId('create-org-confirm');
    await expect.poll(() => confirm.isEnabled(), { timeout: 10_000 }).toBe(true);
    await reloadAfter(admin, () => confirm.click());
    await expect.poll(() => dropdownName(admin), { timeout: 15_000 }).toBe(orgName);
    await shot(admin, '02-org-created');
  });

  it('opens the member list: the creator alone, as super administrator, with the management buttons', async () => {
    await admin.goto(`${suite.base}/userCenter/infoMemberList`);
    await expect.poll(() => admin.getByTestId('member-list-page').isVisible()).toBe(true);
    const self = memberRow(admin, adminMobile);
    await expect.poll(() => self.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await admin.getByTestId('member-row').count()).toBe(1);
    expect(await self.getByTestId('member-roles').textContent()).toContain('超级管理员');
    expect(await self.getByTestId('member-status').getAttribute('data-status')).toBe('active');
    // Holders cannot be paused or removed from the list; their seat moves only through the change.
    expect(await self.getByTestId('member-pause').count()).toBe(0);
    expect(await admin.getByTestId('member-add-open').isVisible()).toBe(true);
    await shot(admin, '03-member-list');
  });

  it('adds an unregistered mobile as staff: an invitation is listed separately', async () => {
    await admin.getByTestId('member-add-open').click();
    await expect.poll(() => admin.getByTestId('member-add-form').isVisible()).toBe(true);
    await admin.getByTestId('member-add-mobile').fill(inviteeMobile);
    // Staff is the default role; the holder roles are never offered.
    expect(await admin.getByTestId('member-role-staff').isChecked()).toBe(true);
    expect(await admin.getByTestId('member-role-superAdmin').count()).toBe(0);
    expect(await admin.getByTestId('member-role-legalPerson').count()).toBe(0);
    await shot(admin, '04-add-member');
    await admin.getByTestId('member-add-confirm').click();
    const invite = admin.getByTestId('invite-row').filter({ hasText: maskPhone(inviteeMobile) });
    await expect.poll(() => invite.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await invite.getByTestId('member-status').getAttribute('data-status')).toBe('invited');
    expect(await invite.getByTestId('member-roles').textContent()).toContain('员工');
    await shot(admin, '05-invited');
  });

  it('the invitee logs in and finds the organisation in the space list', async () => {
    await loginBySms(invitee, inviteeMobile);
    await shot(invitee, '06-invitee-login');
    await submitLogin(invitee);
    await openDropdown(invitee);
    expect(await invitee.getByTestId('current-space').getAttribute('data-identity')).toBe('2');
    const item = invitee.getByTestId('org-item').filter({ hasText: orgName });
    await expect.poll(() => item.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await item.getAttribute('data-current')).toBe('false');
    await shot(invitee, '07-invitee-spaces');
  });

  it('the invitee switches into the organisation', async () => {
    const item = invitee.getByTestId('org-item').filter({ hasText: orgName });
    await reloadAfter(invitee, () => item.click());
    await expect.poll(() => dropdownName(invitee), { timeout: 15_000 }).toBe(orgName);
    await openDropdown(invitee);
    expect(await invitee.getByTestId('current-space').getAttribute('data-identity')).toBe('1');
    expect(await invitee.getByTestId('current-space-name').textContent()).toBe(orgName);
    await shot(invitee, '08-invitee-in-org');
  });

  it('the administrator sees the new member, pauses them, and the list shows it', async () => {
    await admin.reload();
    await expect.poll(() => admin.getByTestId('member-list-page').isVisible()).toBe(true);
    const row = memberRow(admin, inviteeMobile);
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row.getByTestId('member-status').getAttribute('data-status')).toBe('active');
    expect(await row.getByTestId('member-roles').textContent()).toContain('员工');
    // The invitation turned into the membership.
    await admin.getByTestId('member-tab-invited').click();
    await expect.poll(() => admin.getByTestId('invite-row').count()).toBe(0);
    await admin.getByTestId('member-tab-members').click();
    await expect.poll(() => row.isVisible()).toBe(true);

    await row.getByTestId('member-pause').click();
    await expect.poll(() => admin.getByTestId('member-confirm-confirm').isVisible()).toBe(true);
    await shot(admin, '09-pause-confirm');
    await admin.getByTestId('member-confirm-confirm').click();
    await expect
      .poll(() => row.getByTestId('member-status').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('paused');
    expect(await row.getByTestId('member-status').textContent()).toBe('已暂停');
    expect(await row.getByTestId('member-resume').isVisible()).toBe(true);
    await shot(admin, '10-paused');
  });
});
