import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import { confirmWill, contractPdf, dragOntoPage, signOrgByApi, type SignOrg } from './sign-support';
import { HAS_CHROMIUM, JOURNEY_DIALECTS } from './support';

/**
 * A two-organisation sequential flow through the pages: organisation A's administrator sends a contract to
 * A (signed by a staff member who does not administer A's seal) and then B. The staff member asks for a
 * seal-use approval, A's seal administrator approves it in approveReceived, the staff member signs; B's
 * signer finds the flow in signByMe and signs; the flow completes and its detail shows the log and the
 * evidence records. Screenshots under test-results/e2e/<dialect>/sign-flow-*.png.
 */
interface FlowOut {
  flowId: string;
  status: string;
  signers: { taskId: string; status: string; organizeName: string | null }[];
}

describe.skipIf(!HAS_CHROMIUM).each(JOURNEY_DIALECTS)(
  'a two-organisation flow in the browser (%s)',
  (dialect) => {
    const suite = useE2eSuite(dialect);
    let a: SignOrg;
    let b: SignOrg;
    let flowId = '';

    const shot = (page: Page, name: string) =>
      suite.shot(page, `sign-flow-${name}`, { fullPage: true, top: true });
    const newPage = () => suite.desktop();
    const flowOf = () => suite.mustApi<FlowOut>('GET', `/v1/sign/flow/${flowId}`, a.admin);
    const taskRow = (page: Page) => page.locator(`[data-testid="task-row"][data-id="${flowId}"]`);

    /** Opens signByMe, the flow's row and its signing drawer, with the first page drawn. */
    const openTask = async (page: Page, token: string) => {
      await suite.openSignedIn(page, token, '/signService/signByMe');
      await expect.poll(() => taskRow(page).isVisible(), { timeout: 20_000 }).toBe(true);
      await taskRow(page).getByTestId('task-sign').click();
      await expect
        .poll(() => page.locator('[data-testid="pdf-page"][data-page="1"]').getAttribute('data-drawn'), {
          timeout: 30_000,
        })
        .toBe('true');
      await expect
        .poll(() => page.getByTestId('palette-seal').getAttribute('data-enabled'), { timeout: 15_000 })
        .toBe('true');
    };

    beforeAll(async () => {
      [a, b] = [await signOrgByApi(suite.server), await signOrgByApi(suite.server)];

      // The initiator's side is not this test's subject: the flow is sent through the API.
      const form = new FormData();
      form.append(
        'file',
        new Blob([contractPdf('Supply agreement', 2)], { type: 'application/pdf' }),
        'supply.pdf',
      );
      const uploaded = await suite.mustApi<{ fileKey: string }>(
        'POST',
        '/v1/file/uploadInside?purpose=sign',
        a.admin,
        form,
      );
      const flow = await suite.mustApi<FlowOut>('POST', '/v1/sign/flows', a.admin, {
        name: '供货协议',
        scene: 'flow',
        files: [{ fileKey: uploaded.fileKey, role: 'contract' }],
        order: 'sequential',
        validity: '3m',
        signers: [
          { type: 'organization', name: '经办人', mobile: a.staffMobile, organizeName: a.orgName },
          { type: 'organization', name: '乙方管理员', mobile: b.adminMobile, organizeName: b.orgName },
        ],
      });
      flowId = flow.flowId;
    });

    it('1. A’s staff member, not the seal’s administrator, asks for a seal-use approval', async () => {
      const staff = await newPage();
      await openTask(staff, a.staff);
      expect(await staff.getByTestId('seal-access').first().getAttribute('data-access')).toBe('approval');
      await dragOntoPage(staff, 'palette-seal', { fx: 0.3, fy: 0.8 });
      await expect.poll(() => staff.getByTestId('placed-item').count()).toBe(1);
      await staff.getByTestId('approval-reason').fill('供货协议盖章');
      await shot(staff, '01-staff-places');
      await staff.getByTestId('approval-request').click();
      await expect
        .poll(() => staff.getByTestId('task-approval').getAttribute('data-status'), { timeout: 15_000 })
        .toBe('inApproval');
      expect((await flowOf()).status).toBe('inApproval');
      await shot(staff, '02-approval-requested');
    });

    it('2. A’s seal administrator approves it in approveReceived, on a phone', async () => {
      const admin = await suite.phone();
      await suite.openSignedIn(admin, a.admin, '/h5/signService/approveReceived');
      const row = admin.locator(`[data-testid="approval-row"][data-flow-id="${flowId}"]`);
      await expect.poll(() => row.isVisible(), { timeout: 20_000 }).toBe(true);
      expect(await row.getAttribute('data-status')).toBe('inApproval');
      await row.getByTestId('approval-detail').click();
      await expect.poll(() => admin.getByTestId('approval-placements').isVisible()).toBe(true);
      // The drawer takes the phone's width, and nothing is wider than the screen (once it has slid in).
      await admin.waitForTimeout(600);
      const drawer = await admin.locator('.ant-drawer-content-wrapper').boundingBox();
      expect(drawer!.width).toBeLessThanOrEqual(390);
      expect(await admin.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await shot(admin, '03-approval-detail');
      await admin.keyboard.press('Escape');
      await row.getByTestId('approval-approve').click();
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('approved');
      await shot(admin, '04-approved');
    });

    it('3. the staff member signs with the approved seal', async () => {
      const staff = await newPage();
      await openTask(staff, a.staff);
      expect(await staff.getByTestId('seal-access').first().getAttribute('data-access')).toBe('approved');
      await dragOntoPage(staff, 'palette-seal', { fx: 0.3, fy: 0.8 });
      await expect.poll(() => staff.getByTestId('placed-item').count()).toBe(1);
      await staff.getByTestId('sign-submit').click();
      await confirmWill(staff, suite.base, a.staffMobile);
      await staff.getByTestId('will-verify').click();
      await expect.poll(() => staff.getByTestId('sign-drawer').count(), { timeout: 60_000 }).toBe(0);
      const flow = await flowOf();
      expect(flow.signers.map((s) => s.status)).toEqual(['signed', 'pending']);
      await shot(staff, '05-staff-signed');
    });

    it('4. B’s signer finds it in signByMe and signs; the flow completes', async () => {
      const signer = await newPage();
      await openTask(signer, b.admin);
      expect(await signer.getByTestId('seal-access').first().getAttribute('data-access')).toBe('direct');
      await dragOntoPage(signer, 'palette-seal', { fx: 0.7, fy: 0.8 });
      await expect.poll(() => signer.getByTestId('placed-item').count()).toBe(1);
      await shot(signer, '06-b-places');
      await signer.getByTestId('sign-submit').click();
      await confirmWill(signer, suite.base, b.adminMobile);
      await signer.getByTestId('will-verify').click();
      await expect.poll(() => signer.getByTestId('sign-drawer').count(), { timeout: 60_000 }).toBe(0);
      expect((await flowOf()).status).toBe('completed');
      await signer.getByTestId('task-tab-done').click();
      await expect
        .poll(() => taskRow(signer).getAttribute('data-status'), { timeout: 15_000 })
        .toBe('signed');
      await shot(signer, '07-b-done');
    });

    it('5. the detail page shows the signers, the log and the evidence records', async () => {
      const admin = await newPage();
      await suite.openSignedIn(admin, a.admin, `/signService/signRecordDetail?flowId=${flowId}`);
      await expect
        .poll(() => admin.getByTestId('sign-detail-page').getAttribute('data-status'), { timeout: 20_000 })
        .toBe('completed');
      const statuses = await admin
        .getByTestId('detail-signer')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
      expect(statuses).toEqual(['signed', 'signed']);
      const acts = () =>
        admin
          .getByTestId('detail-log-entry')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
      await expect
        .poll(acts, { timeout: 15_000 })
        .toEqual(expect.arrayContaining(['create', 'requestApproval', 'approve', 'sign']));
      expect((await acts()).filter((x) => x === 'sign')).toHaveLength(2);
      await expect
        .poll(() => admin.getByTestId('chain-record').count(), { timeout: 15_000 })
        .toBeGreaterThan(2);
      // The evidence records name the participants, with the opaque id of the public log beneath.
      const names = await admin.getByTestId('chain-actor-name').allTextContents();
      expect(names.length).toBeGreaterThan(0);
      expect(names.every((n) => n.trim().length > 0)).toBe(true);
      expect(await admin.getByTestId('chain-actor-id').count()).toBe(names.length);
      expect(await admin.getByTestId('chain-actor-id').first().getAttribute('title')).toMatch(/\S{8,}/);
      await expect
        .poll(() => admin.locator('[data-testid="pdf-page"][data-page="1"]').getAttribute('data-drawn'), {
          timeout: 30_000,
        })
        .toBe('true');
      await shot(admin, '08-detail');
    });
  },
);
