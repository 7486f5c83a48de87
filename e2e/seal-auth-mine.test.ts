import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import { madeSealByApi, sealOrgByApi, type SealOrg } from './seal-support';
import { HAS_CHROMIUM, PAGE_DIALECTS } from './support';

/**
 * The grantee's page and the operator's seal-change queue against the real server: an administrator who
 * holds the authorise permission sees on /sealAuth only the grants made to them (paged by the server),
 * never the staff member's or an app's; the operator console's seal-changes tab names the organisation
 * and the applicant of each change. Screenshots under test-results/e2e/<dialect>/seal-auth-mine-*.png.
 */
const OWN_GRANTS = 13;
const PAGE_SIZE = 12;

describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('own grants and the seal-change queue (%s)', (dialect) => {
  const suite = useE2eSuite(dialect);
  let org: SealOrg;
  let sealCode = '';
  let staffGrant = '';
  let appGrant = '';
  const ownGrants: string[] = [];

  const shot = (page: Page, name: string) => suite.shot(page, `seal-auth-mine-${name}`, { fullPage: true });
  const visible = (page: Page, testId: string) => () => page.getByTestId(testId).first().isVisible();
  const newPage = () => suite.desktop();
  const grant = async (grantee: { type: 'member' | 'app'; id: string }) => {
    const r = await suite.mustApi<{ list: { authCode: string }[] }>(
      'POST',
      '/v1/sealAuth/addSealAuth',
      org.admin,
      { sealCode, grantees: [grantee] },
    );
    return r.list[0]!.authCode;
  };
  const shownGrants = (page: Page) =>
    page
      .getByTestId('seal-auth-all')
      .getByTestId('seal-auth-grant')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-id') ?? ''));

  beforeAll(async () => {
    org = await sealOrgByApi(suite.server);
    ({ sealCode } = await madeSealByApi(suite.server, org));
    const me = await suite.mustApi<{ memberId: string }>('GET', '/v1/accounts/info', org.admin);
    staffGrant = await grant({ type: 'member', id: org.staffMemberId });
    for (let i = 0; i < OWN_GRANTS; i++) ownGrants.push(await grant({ type: 'member', id: me.memberId }));
    appGrant = await grant({ type: 'app', id: 'app_erp' });
  });

  it('an administrator sees only the grants made to them on /sealAuth, page by page', async () => {
    const admin = await newPage();
    await suite.openSignedIn(admin, org.admin, '/sealAuth');
    await expect.poll(visible(admin, 'seal-auth-all'), { timeout: 20_000 }).toBe(true);
    expect(await admin.getByTestId('seal-auth-all').getAttribute('data-total')).toBe(String(OWN_GRANTS));
    await expect.poll(() => shownGrants(admin)).toHaveLength(PAGE_SIZE);
    const first = await shownGrants(admin);
    expect(first.every((code) => ownGrants.includes(code))).toBe(true);
    expect(first).not.toContain(staffGrant);
    expect(first).not.toContain(appGrant);
    await shot(admin, '01-own-grants');

    // The second page holds the rest, from the server.
    await admin.getByTestId('seal-auth-pager').locator('.ant-pagination-item-2').click();
    await expect.poll(() => shownGrants(admin)).toHaveLength(OWN_GRANTS - PAGE_SIZE);
    const second = await shownGrants(admin);
    expect([...first, ...second].sort()).toEqual([...ownGrants].sort());
    await shot(admin, '02-own-grants-page-2');
  });

  it('the staff member sees only their own grant and no pager', async () => {
    const staff = await newPage();
    await suite.openSignedIn(staff, org.staff, '/sealAuth');
    await expect.poll(visible(staff, 'seal-auth-all'), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => shownGrants(staff)).toEqual([staffGrant]);
    expect(await staff.getByTestId('seal-auth-pager').count()).toBe(0);
  });

  it('the console’s seal-changes tab names the organisation and the applicant', async () => {
    const change = await suite.mustApi<{ changeNo: string }>(
      'POST',
      '/v1/sealChanges/applySealChange',
      org.admin,
      { sealCode, sealType: 1, reason: '更换印章样式' },
    );
    const operator = await newPage();
    await suite.loginOperator(operator);
    await expect.poll(visible(operator, 'manage-tab-sealChange'), { timeout: 15_000 }).toBe(true);
    await operator.getByTestId('manage-tab-sealChange').click();
    const row = operator.locator(`[data-testid="manage-queue-row"][data-id="${change.changeNo}"]`);
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    const owner = row.getByTestId('manage-org-name');
    expect(await owner.textContent()).toBe(org.orgName);
    expect(await owner.getAttribute('data-personal')).toBe('false');
    expect(await row.getByTestId('manage-seal-code').textContent()).toContain(sealCode);
    const applicant = await suite.mustApi<{ userInfoPerson: { name: string } }>(
      'GET',
      '/v1/accounts/info',
      org.admin,
    );
    expect(applicant.userInfoPerson.name).not.toBe('');
    expect(await row.textContent()).toContain(applicant.userInfoPerson.name);
    await shot(operator, '03-console-seal-changes');
  });
});
