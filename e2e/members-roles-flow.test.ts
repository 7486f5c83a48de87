import { maskPhone, messageFor } from '@openseal/core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import { createOrgByApi, HAS_CHROMIUM, joinOrgByApi, uniqueMobile, PAGE_DIALECTS } from './support';

/**
 * Custom roles in a real browser against the real server: an administrator opens the roles section of the
 * member list (built-in roles read-only), creates a role with two function points from the server's tree,
 * assigns it to a staff member, whose screens and permission answer change with it; the role is edited,
 * its deletion is refused while the member holds it, and it is deleted once they do not. The organisation
 * and the member are made through the API. One screenshot per step under
 * test-results/e2e/<dialect>/members-roles-*.png.
 */
const ROLE_NAME = '成员审核员';
const RENAMED = '成员查看员';

/** Asked inside the page with the page's own session: the server decides what the screens show. */
const PERMISSIONS_IN_PAGE = `fetch('/v1/permissions', {
  headers: { 'x-access-token': localStorage.getItem('accessToken') ?? '', 'x-owner-switch': 'PROMOTE' },
}).then((res) => res.json()).then((body) => body.data)`;

interface PermissionsAnswer {
  roles: { code: string; name: string }[];
  points: string[];
}

describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('custom roles in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect);
  let admin: Page;
  let member: Page;
  let adminToken = '';
  let memberToken = '';
  let roleCode = '';
  const adminMobile = uniqueMobile();
  const memberMobile = uniqueMobile();

  /** Screenshots wait for antd's dialog and toast animations to finish (slowly on a loaded machine). */
  const shot = (page: Page, name: string) => suite.shot(page, `members-roles-${name}`);
  const visible = (page: Page, testId: string) => () => page.getByTestId(testId).first().isVisible();
  const memberRow = (page: Page) =>
    page.getByTestId('member-row').filter({ hasText: maskPhone(memberMobile) });
  const roleRow = (page: Page, name: string) => page.getByTestId('role-row').filter({ hasText: name });
  /** The permission answer as the page's own session gets it (the server decides what the screens show). */
  const pagePermissions = (page: Page) => page.evaluate<PermissionsAnswer>(PERMISSIONS_IN_PAGE);
  const openRoles = async () => {
    await admin.goto(`${suite.base}/userCenter/infoMemberList`);
    await expect.poll(visible(admin, 'member-section-roles'), { timeout: 15_000 }).toBe(true);
    await admin.getByTestId('member-section-roles').click();
    await expect.poll(() => admin.getByTestId('role-row').count(), { timeout: 15_000 }).toBeGreaterThan(5);
  };
  const openMembers = async () => {
    await admin.goto(`${suite.base}/userCenter/infoMemberList`);
    await expect.poll(() => memberRow(admin).isVisible(), { timeout: 15_000 }).toBe(true);
  };
  /** Ticks or clears a point in the open role editor by clicking its title, as a user would. */
  const togglePoint = async (point: string, checked: boolean) => {
    const node = admin.getByTestId('role-tree-editor').getByTestId(`role-point-${point}`);
    await node.click();
    await expect.poll(() => node.getAttribute('data-checked')).toBe(String(checked));
  };

  /**
   * Sets a role box in the member dialog. The dialog opens with a zoom, and a click that lands while it
   * settles may not register; the test clicks until the box shows the wanted state, as a person would.
   */
  const setBox = async (testId: string, want: boolean) => {
    const box = admin.getByTestId(testId);
    await expect
      .poll(async () => {
        if ((await box.isChecked()) !== want) await box.click();
        return box.isChecked();
      })
      .toBe(want);
  };

  beforeAll(async () => {
    const adminPerson = await suite.login(adminMobile);
    const org = await createOrgByApi(suite.base, adminPerson);
    adminToken = org.token;
    const memberPerson = await suite.login(memberMobile);
    memberToken = (
      await joinOrgByApi(suite.base, adminToken, org.organizeId, {
        mobile: memberMobile,
        personToken: memberPerson,
        nickname: '王五',
      })
    ).token;

    admin = await suite.signedIn(adminToken, '/userCenter/infoMemberList');
    member = await suite.signedIn(memberToken, '/userCenter/infoMemberList');
  });

  it('the member, staff only, may not see the member list', async () => {
    await expect.poll(visible(member, 'members-no-permission'), { timeout: 15_000 }).toBe(true);
    const perms = await pagePermissions(member);
    expect(perms.roles.map((r) => r.code)).toEqual(['staff']);
    expect(perms.points).not.toContain('member.view');
    await shot(member, '01-member-before');
  });

  it('the administrator opens the roles section: built-in roles read-only, their points a checked tree', async () => {
    await openRoles();
    expect(new URL(admin.url()).searchParams.get('section')).toBe('roles');
    const rows = admin.getByTestId('role-row');
    expect(await rows.count()).toBe(6);
    for (let i = 0; i < 6; i++) expect(await rows.nth(i).getAttribute('data-built-in')).toBe('true');
    expect(await admin.getByTestId('role-edit').count()).toBe(0);
    expect(await admin.getByTestId('role-delete').count()).toBe(0);

    const superAdmin = admin.locator('[data-testid="role-row"][data-role-code="superAdmin"]');
    await superAdmin.locator('.ant-table-row-expand-icon').click();
    const tree = admin.getByTestId('role-tree-superAdmin');
    await expect.poll(() => tree.isVisible()).toBe(true);
    // Every point but claiming seals, which only the legal representative holds; the boxes are locked.
    expect(await tree.getByTestId('role-point-member.manage').getAttribute('data-checked')).toBe('true');
    expect(await tree.getByTestId('role-point-seal.claim').getAttribute('data-checked')).toBe('false');
    expect(await tree.locator('.ant-tree-checkbox-disabled').count()).toBeGreaterThan(0);
    // Groups read as a tree: all of "members" checked, "seals" only in part.
    const groupNode = (group: string) =>
      tree.locator('.ant-tree-treenode', { has: admin.getByTestId(`role-group-${group}`) });
    expect(await groupNode('member').getAttribute('class')).toContain('ant-tree-treenode-checkbox-checked');
    expect(await groupNode('seal').getAttribute('class')).toContain(
      'ant-tree-treenode-checkbox-indeterminate',
    );
    await tree.getByTestId('role-point-seal.claim').click();
    expect(await tree.getByTestId('role-point-seal.claim').getAttribute('data-checked')).toBe('false');
    await shot(admin, '02-built-in');
  });

  it('creates a custom role with two points from the server’s tree', async () => {
    await admin.getByTestId('role-create-open').click();
    await expect.poll(visible(admin, 'role-form')).toBe(true);
    // The editor's groups are the server's: one per group of the tree it answered.
    expect(await admin.getByTestId('role-tree-editor').locator('[data-testid^="role-group-"]').count()).toBe(
      6,
    );
    await admin.getByTestId('role-name-input').fill(ROLE_NAME);
    await togglePoint('member.view', true);
    await togglePoint('authority.review', true);
    await shot(admin, '03-create');
    await admin.getByTestId('role-save').click();
    const row = roleRow(admin, ROLE_NAME);
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row.getAttribute('data-built-in')).toBe('false');
    expect(await row.getByTestId('role-points').getAttribute('data-count')).toBe('2');
    expect(await row.getByTestId('role-kind').textContent()).toBe('自定义');
    roleCode = (await row.getAttribute('data-role-code')) ?? '';
    expect(roleCode).toMatch(/^custom_/);
    await shot(admin, '04-created');
  });

  it('the custom role is offered when adding a member, and is assigned to the member', async () => {
    await openMembers();
    await admin.getByTestId('member-add-open').click();
    await expect.poll(visible(admin, 'member-add-form')).toBe(true);
    // The box of the custom role, labelled with its name, among the built-in ones.
    expect(await admin.getByTestId(`member-role-${roleCode}`).count()).toBe(1);
    expect(await admin.getByTestId('member-add-form').getByText(ROLE_NAME).isVisible()).toBe(true);
    await admin.getByTestId('member-add-cancel').click();
    await expect.poll(visible(admin, 'member-add-form')).toBe(false);

    await memberRow(admin).getByTestId('member-edit').click();
    const box = admin.getByTestId(`member-edit-role-${roleCode}`);
    await expect.poll(() => box.isVisible()).toBe(true);
    await setBox(`member-edit-role-${roleCode}`, true);
    await shot(admin, '05-assign');
    await admin.getByTestId('member-edit-confirm').click();
    await expect.poll(() => admin.getByTestId('member-edit-confirm').isVisible()).toBe(false);
    await expect
      .poll(() => memberRow(admin).getByTestId('member-roles').textContent(), { timeout: 15_000 })
      .toBe(ROLE_NAME);
    await shot(admin, '06-assigned');
  });

  it('the member’s permissions follow the role: the member list opens, applications can be reviewed', async () => {
    await member.reload();
    await expect.poll(visible(member, 'member-table'), { timeout: 15_000 }).toBe(true);
    // Viewing is not managing: no add button, and no roles section without role.manage.
    expect(await member.getByTestId('member-add-open').count()).toBe(0);
    expect(await member.getByTestId('member-section-roles').count()).toBe(0);
    const perms = await pagePermissions(member);
    expect(perms.roles).toEqual([{ code: roleCode, name: ROLE_NAME }]);
    expect(perms.points).toEqual(expect.arrayContaining(['member.view', 'authority.review']));
    expect(perms.points).not.toContain('member.manage');
    expect(perms.points).not.toContain('role.manage');
    await shot(member, '07-member-list');

    await member.goto(`${suite.base}/userCenter/applyAuthorityRecord`);
    await expect.poll(visible(member, 'apply-tab-organization'), { timeout: 15_000 }).toBe(true);
    await shot(member, '08-member-reviews');
  });

  it('the role is edited: renamed, one point taken away, and the member loses it at once', async () => {
    await openRoles();
    await roleRow(admin, ROLE_NAME).getByTestId('role-edit').click();
    await expect.poll(visible(admin, 'role-form')).toBe(true);
    expect(await admin.getByTestId('role-name-input').inputValue()).toBe(ROLE_NAME);
    const editor = admin.getByTestId('role-tree-editor');
    expect(await editor.getByTestId('role-point-member.view').getAttribute('data-checked')).toBe('true');
    await admin.getByTestId('role-name-input').fill(RENAMED);
    await togglePoint('authority.review', false);
    await shot(admin, '09-edit');
    await admin.getByTestId('role-save').click();
    const row = roleRow(admin, RENAMED);
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row.getByTestId('role-points').getAttribute('data-count')).toBe('1');
    expect(await roleRow(admin, ROLE_NAME).count()).toBe(0);
    await shot(admin, '10-edited');

    const perms = await pagePermissions(member);
    expect(perms.roles).toEqual([{ code: roleCode, name: RENAMED }]);
    expect(perms.points).toContain('member.view');
    expect(perms.points).not.toContain('authority.review');
    await member.reload();
    await expect.poll(visible(member, 'apply-authority-record-page'), { timeout: 15_000 }).toBe(true);
    await expect.poll(visible(member, 'apply-open')).toBe(true);
    expect(await member.getByTestId('apply-tab-organization').count()).toBe(0);
    await shot(member, '11-member-after-edit');
  });

  it('deleting the role while the member holds it is refused with the server’s reason', async () => {
    await roleRow(admin, RENAMED).getByTestId('role-delete').click();
    await expect.poll(visible(admin, 'role-confirm-confirm')).toBe(true);
    await admin.getByTestId('role-confirm-confirm').click();
    const refusal = admin.getByTestId('role-delete-refusal');
    await expect.poll(() => refusal.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await refusal.textContent()).toContain(messageFor('role.inUse', 'zh-CN'));
    await shot(admin, '12-delete-refused');
    await admin.getByTestId('role-confirm-cancel').click();
    await expect.poll(() => roleRow(admin, RENAMED).isVisible()).toBe(true);
  });

  it('once the member is staff again the role is deleted, and nobody is offered it', async () => {
    await openMembers();
    await memberRow(admin).getByTestId('member-edit').click();
    await expect.poll(() => admin.getByTestId(`member-edit-role-${roleCode}`).isVisible()).toBe(true);
    await setBox(`member-edit-role-${roleCode}`, false);
    await setBox('member-edit-role-staff', true);
    await admin.getByTestId('member-edit-confirm').click();
    await expect
      .poll(() => memberRow(admin).getByTestId('member-roles').textContent(), { timeout: 15_000 })
      .toBe('员工');

    await openRoles();
    await roleRow(admin, RENAMED).getByTestId('role-delete').click();
    await expect.poll(visible(admin, 'role-confirm-confirm')).toBe(true);
    await admin.getByTestId('role-confirm-confirm').click();
    await expect.poll(() => roleRow(admin, RENAMED).count(), { timeout: 15_000 }).toBe(0);
    expect(await admin.getByTestId('role-row').count()).toBe(6);
    await shot(admin, '13-deleted');

    await openMembers();
    await admin.getByTestId('member-add-open').click();
    await expect.poll(visible(admin, 'member-add-form')).toBe(true);
    expect(await admin.getByTestId(`member-role-${roleCode}`).count()).toBe(0);
    await admin.getByTestId('member-add-cancel').click();

    expect((await pagePermissions(member)).roles.map((r) => r.code)).toEqual(['staff']);
    await member.goto(`${suite.base}/userCenter/infoMemberList`);
    await expect.poll(visible(member, 'members-no-permission'), { timeout: 15_000 }).toBe(true);
    await shot(member, '14-member-staff-again');
  });
});
