import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { maskPhone } from '@openseal/core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { tinyPdf } from '../apps/server/test/upload-fixtures';
import { useE2eSuite } from './fixtures';
import {
  createOrgByApi,
  HAS_CHROMIUM,
  joinOrgByApi,
  uniqueMobile,
  uniqueResidentId,
  PAGE_DIALECTS,
} from './support';

/**
 * Role holders and authority applications in a real browser against the real server. The organisation's
 * verifier is both its super administrator and its legal representative (real-named through the API,
 * the legal representative confirming by SMS); on /userCenter/infoModifyLegal they hand the super
 * administrator's seat to one member and the legal representative's to another, each change confirmed by
 * the code sent to the old holder and the code sent to the new one (both read from the sandbox outbox).
 * Then a member applies for the seal administrator's role with an application file, the new super
 * administrator rejects it with a reason the applicant reads in their records, the member applies again
 * and the administrator approves: the role is granted. One screenshot per step under
 * test-results/e2e/<dialect>/members-holders-*.png.
 */
const PERMISSIONS_IN_PAGE = `fetch('/v1/permissions', {
  headers: { 'x-access-token': localStorage.getItem('accessToken') ?? '', 'x-owner-switch': 'PROMOTE' },
}).then((res) => res.json()).then((body) => body.data)`;

const REJECT_REASON = '申请材料缺少盖章页，请补充后重新提交';

describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)(
  'role holders and authority applications (%s)',
  (dialect) => {
    const suite = useE2eSuite(dialect, { env: { REALNAME_SANDBOX_DELAY_MS: '100' } });
    /** The verifier (super administrator and legal representative at first). */
    let founder: Page;
    /** The member who becomes super administrator, then reviews applications. */
    let successor: Page;
    /** The member who applies for a role. */
    let applicant: Page;
    const founderMobile = uniqueMobile();
    const successorMobile = uniqueMobile();
    const legalMobile = uniqueMobile();
    const applicantMobile = uniqueMobile();
    const tokens = { founder: '', successor: '', applicant: '' };
    let applicationPath = '';

    /** Screenshots wait for antd's dialog and toast animations to finish (slowly on a loaded machine). */
    const shot = (page: Page, name: string) => suite.shot(page, `members-holders-${name}`);
    const visible = (page: Page, testId: string) => () => page.getByTestId(testId).first().isVisible();
    const text = (page: Page, testId: string) => () => page.getByTestId(testId).first().textContent();
    /** antd puts a radio's test id on its input or on its label, depending on the version: read either. */
    const radioChecked = (page: Page, testId: string) =>
      page.getByTestId(testId).evaluate((el) => {
        const box = el as unknown as {
          checked?: boolean;
          querySelector(selector: string): { checked?: boolean } | null;
        };
        return box.checked ?? box.querySelector('input')?.checked ?? false;
      });

    /**
     * The founder through the API: their person real-named, then their organisation (made after it, as
     * making one ends the personal-space session) real-named with them as legal representative confirming
     * by SMS, which seats them as super administrator and legal representative. Answers the organisation.
     */
    async function realNamedFounder(personToken: string) {
      const idNumber = uniqueResidentId();
      /** The sandbox verifier answers asynchronously; a fixture outside a test polls by hand. */
      const finished = async (token: string, flowId: string) => {
        for (let i = 0; i < 200; i++) {
          const r = await suite.mustApi<{ status: string; reason: string | null }>(
            'GET',
            `/v1/accounts/auth/${flowId}/result`,
            token,
          );
          if (r.status === 'success') return;
          if (r.status !== 'pending') throw new Error(`real-name ended ${r.status}: ${r.reason}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error('the real-name flow never finished');
      };
      /** A real-name flow of the token's space, its details, and the SMS code that confirms them. */
      const verify = async (
        token: string,
        organizeType: 1 | 2,
        details: (flowId: string) => Promise<unknown>,
      ) => {
        const flow = await suite.mustApi<{ flowId: string }>('POST', '/v1/accounts/auth/flow', token, {
          organizeType,
        });
        const sentAt = Date.now() - 1_000;
        await details(flow.flowId);
        await suite.mustApi('POST', `/v1/accounts/auth/${flow.flowId}/confirmCode`, token, {
          code: await suite.smsCode(founderMobile, sentAt),
        });
        await finished(token, flow.flowId);
      };

      await verify(personToken, 2, (flowId) =>
        suite.mustApi('POST', `/v1/accounts/auth/${flowId}/person`, personToken, {
          name: '张三',
          idNumber,
          mobile: founderMobile,
        }),
      );
      const org = await createOrgByApi(suite.base, personToken);
      await verify(org.token, 1, (flowId) =>
        suite.mustApi('POST', `/v1/accounts/auth/${flowId}/organization`, org.token, {
          method: 'legalSms',
          organizeName: org.orgName,
          uscc: org.uscc,
          legalName: '张三',
          legalIdNumber: idNumber,
          legalMobile: founderMobile,
        }),
      );
      return org;
    }

    /** The caller's role codes, asked inside the page with the page's own session. */
    const pageRoles = async (page: Page) =>
      (await page.evaluate<{ roles: { code: string }[] }>(PERMISSIONS_IN_PAGE)).roles
        .map((r) => r.code)
        .sort();

    /**
     * One holder change on the open page: the current holder's code, then the new holder's. Codes are read
     * from the sandbox outbox only after the page asked for them, so each belongs to this step.
     */
    async function changeHolder(
      oldMobile: string,
      newMobile: string,
      names: { oldCode: string; newCode: string; done: string },
    ) {
      let sentAt = Date.now() - 100;
      await founder.getByTestId('holder-old-send').click();
      await expect
        .poll(text(founder, 'holder-sandbox-notice'), { timeout: 15_000 })
        .toContain(maskPhone(oldMobile));
      await founder.getByTestId('holder-old-code').fill(await suite.smsCode(oldMobile, sentAt));
      await shot(founder, names.oldCode);
      await founder.getByTestId('holder-old-next').click();

      await expect.poll(visible(founder, 'holder-new-mobile'), { timeout: 15_000 }).toBe(true);
      await founder.getByTestId('holder-new-mobile').fill(newMobile);
      sentAt = Date.now() - 100;
      await founder.getByTestId('holder-new-send').click();
      await expect
        .poll(text(founder, 'holder-sandbox-notice'), { timeout: 15_000 })
        .toContain(maskPhone(newMobile));
      await founder.getByTestId('holder-new-code').fill(await suite.smsCode(newMobile, sentAt));
      await shot(founder, names.newCode);
      await founder.getByTestId('holder-new-submit').click();

      await expect.poll(visible(founder, 'holder-done'), { timeout: 15_000 }).toBe(true);
      await expect
        .poll(text(founder, 'holder-new-current'), { timeout: 15_000 })
        .toContain(maskPhone(newMobile));
      await shot(founder, names.done);
    }

    /** The application form: a role ticked, the file uploaded through the page, a remark; then submitted. */
    async function apply(name: string) {
      await expect.poll(visible(applicant, 'apply-role-sealAdmin'), { timeout: 15_000 }).toBe(true);
      await applicant.getByTestId('apply-role-sealAdmin').click();
      await applicant.locator('input[type="file"]').setInputFiles(applicationPath);
      await expect
        .poll(() => applicant.locator('.ant-upload-list-item-done').count(), { timeout: 15_000 })
        .toBe(1);
      await applicant.getByTestId('apply-remark').fill('负责本部门印章的日常管理');
      await shot(applicant, name);
      await applicant.getByTestId('apply-submit').click();
      await applicant.waitForURL(/\/userCenter\/applyAuthorityRecord/, { timeout: 15_000 });
    }
    const rowsWithStatus = (page: Page, status: string) =>
      page
        .getByTestId('apply-row')
        .filter({ has: page.locator(`[data-testid="apply-status"][data-status="${status}"]`) });
    /** The reviewer's view: the organisation's applications. */
    const openReview = async () => {
      await successor.goto(`${suite.base}/userCenter/applyAuthorityRecord`);
      await expect.poll(visible(successor, 'apply-tab-organization'), { timeout: 15_000 }).toBe(true);
      await successor.getByTestId('apply-tab-organization').click();
    };

    beforeAll(async () => {
      applicationPath = join(suite.server.dataDir, '权限申请.pdf');
      await writeFile(applicationPath, tinyPdf('application'));

      const founderPerson = await suite.login(founderMobile);
      const org = await realNamedFounder(founderPerson);
      tokens.founder = org.token;
      const join_ = async (mobile: string, nickname: string) =>
        (
          await joinOrgByApi(suite.base, org.token, org.organizeId, {
            mobile,
            personToken: await suite.login(mobile),
            nickname,
          })
        ).token;
      tokens.successor = await join_(successorMobile, '李四');
      await join_(legalMobile, '王五');
      tokens.applicant = await join_(applicantMobile, '赵六');

      founder = await suite.signedIn(tokens.founder, '/userCenter/infoModifyLegal');
      successor = await suite.signedIn(tokens.successor, '/userCenter/infoPersonal');
      applicant = await suite.signedIn(tokens.applicant, '/userCenter/infoPersonal');
    });

    it('the verifier holds both seats and opens the holder change', async () => {
      expect(await pageRoles(founder)).toEqual(['legalPerson', 'superAdmin']);
      await expect.poll(visible(founder, 'holder-current'), { timeout: 15_000 }).toBe(true);
      expect(await radioChecked(founder, 'holder-type-superAdmin')).toBe(true);
      const current = await text(founder, 'holder-current')();
      expect(current).toContain('张三');
      expect(current).toContain(maskPhone(founderMobile));
      await shot(founder, '01-start');
    });

    it('super administrator change: the old holder’s code, then the new holder’s', async () => {
      await changeHolder(founderMobile, successorMobile, {
        oldCode: '02-super-admin-old-code',
        newCode: '03-super-admin-new-code',
        done: '04-super-admin-done',
      });
      expect(await pageRoles(founder)).toEqual(['legalPerson']);
      expect(await pageRoles(successor)).toEqual(['superAdmin']);
    });

    it('legal representative change: the old holder’s code, then the new holder’s', async () => {
      await founder.goto(`${suite.base}/userCenter/infoModifyLegal?type=legalPerson`);
      await expect.poll(visible(founder, 'holder-current'), { timeout: 15_000 }).toBe(true);
      expect(await radioChecked(founder, 'holder-type-legalPerson')).toBe(true);
      expect(await text(founder, 'holder-current')()).toContain(maskPhone(founderMobile));
      await shot(founder, '05-legal-start');
      await changeHolder(founderMobile, legalMobile, {
        oldCode: '06-legal-old-code',
        newCode: '07-legal-new-code',
        done: '08-legal-done',
      });
      expect(await pageRoles(founder)).toEqual(['staff']);
    });

    it('the former holder may start no change; the member list shows the new holders', async () => {
      await founder.reload();
      await expect.poll(visible(founder, 'holder-only'), { timeout: 15_000 }).toBe(true);
      await shot(founder, '09-former-holder');

      await successor.goto(`${suite.base}/userCenter/infoMemberList`);
      const row = (mobile: string) =>
        successor
          .getByTestId('member-row')
          .filter({ hasText: maskPhone(mobile) })
          .getByTestId('member-roles');
      await expect.poll(() => row(successorMobile).textContent(), { timeout: 15_000 }).toBe('超级管理员');
      expect(await row(legalMobile).textContent()).toBe('法定代表人');
      expect(await row(founderMobile).textContent()).toBe('员工');
      expect(await successor.getByTestId('member-holder-change').isVisible()).toBe(true);
      await shot(successor, '10-new-holders');
    });

    it('a member applies for a role with an application file', async () => {
      await applicant.goto(`${suite.base}/userCenter/infoPersonal/applyAuthority`);
      // Holder seats are not offered: the legal representative never, the super administrator while one serves.
      await expect.poll(visible(applicant, 'apply-role-sealAdmin'), { timeout: 15_000 }).toBe(true);
      expect(await applicant.getByTestId('apply-role-legalPerson').count()).toBe(0);
      expect(await applicant.getByTestId('apply-role-superAdmin').count()).toBe(0);
      await apply('11-apply');
      await expect.poll(() => rowsWithStatus(applicant, 'pending').count(), { timeout: 15_000 }).toBe(1);
      await shot(applicant, '12-applied');
    });

    it('the new super administrator rejects it with a reason', async () => {
      await openReview();
      const pending = rowsWithStatus(successor, 'pending');
      await expect.poll(() => pending.count(), { timeout: 15_000 }).toBe(1);
      expect(await pending.textContent()).toContain(maskPhone(applicantMobile));
      await pending.getByTestId('apply-reject').click();
      await expect.poll(visible(successor, 'apply-reject-reason-input')).toBe(true);
      await successor.getByTestId('apply-reject-reason-input').fill(REJECT_REASON);
      await shot(successor, '13-reject');
      await successor.getByTestId('apply-reject-confirm').click();
      await expect.poll(() => rowsWithStatus(successor, 'rejected').count(), { timeout: 15_000 }).toBe(1);
      expect(await rowsWithStatus(successor, 'pending').count()).toBe(0);
      await shot(successor, '14-rejected');
    });

    it('the applicant reads the reason in their records', async () => {
      await applicant.reload();
      const rejected = rowsWithStatus(applicant, 'rejected');
      await expect.poll(() => rejected.count(), { timeout: 15_000 }).toBe(1);
      expect(await rejected.getByTestId('apply-reject-reason').textContent()).toBe(REJECT_REASON);
      expect(await pageRoles(applicant)).toEqual(['staff']);
      await shot(applicant, '15-reason');
    });

    it('the member applies again and the administrator approves: the role is granted', async () => {
      await applicant.getByTestId('apply-open').click();
      await applicant.waitForURL(/\/userCenter\/infoPersonal\/applyAuthority/);
      await apply('16-apply-again');
      await expect.poll(() => rowsWithStatus(applicant, 'pending').count(), { timeout: 15_000 }).toBe(1);

      await openReview();
      const pending = rowsWithStatus(successor, 'pending');
      await expect.poll(() => pending.count(), { timeout: 15_000 }).toBe(1);
      await pending.getByTestId('apply-approve').click();
      await expect.poll(visible(successor, 'apply-confirm-confirm')).toBe(true);
      await shot(successor, '17-approve');
      await successor.getByTestId('apply-confirm-confirm').click();
      await expect.poll(() => rowsWithStatus(successor, 'approved').count(), { timeout: 15_000 }).toBe(1);
      await shot(successor, '18-approved');

      expect(await pageRoles(applicant)).toEqual(['sealAdmin']);
      await applicant.reload();
      await expect.poll(() => rowsWithStatus(applicant, 'approved').count(), { timeout: 15_000 }).toBe(1);
      expect(await rowsWithStatus(applicant, 'rejected').count()).toBe(1);
      await shot(applicant, '19-granted');

      await successor.goto(`${suite.base}/userCenter/infoMemberList`);
      const row = successor.getByTestId('member-row').filter({ hasText: maskPhone(applicantMobile) });
      await expect
        .poll(() => row.getByTestId('member-roles').textContent(), { timeout: 15_000 })
        .toBe('印章管理员');
      await shot(successor, '20-member-list');
    });
  },
);
