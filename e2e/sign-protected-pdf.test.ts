import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import {
  confirmWill,
  contractPdf,
  dragOntoPage,
  HAS_PDFSIG,
  pdfsig,
  signOrgByApi,
  type SignOrg,
} from './sign-support';
import { HAS_CHROMIUM, PAGE_DIALECTS } from './support';

const HAS_QPDF = spawnSync('qpdf', ['--version']).error === undefined;
const PASSWORD = 'Open-2026';

/**
 * Quick sign of a password-protected PDF through the pages: the upload asks for the password (a wrong one
 * is asked again), the viewer opens the file with it, the seal is placed and signed, and the signed file
 * stays protected by the same password while pdfsig finds its signature valid; a phone then shows it in
 * the record detail. Screenshots under test-results/e2e/<dialect>/sign-protected-*.png.
 */
describe.skipIf(!HAS_CHROMIUM || !HAS_QPDF).each(PAGE_DIALECTS)(
  'a password-protected PDF (%s)',
  (dialect) => {
    const suite = useE2eSuite(dialect);
    let org: SignOrg;
    let page: Page;
    let work = '';
    let locked = '';
    let flowId = '';

    const shot = (name: string) => suite.shot(page, `sign-protected-${name}`, { fullPage: true, top: true });
    const visible = (testId: string) => () => page.getByTestId(testId).first().isVisible();

    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), 'openseal-sign-protected-'));
      const plain = join(work, 'plain.pdf');
      await writeFile(plain, contractPdf('Protected contract', 1));
      locked = join(work, '加密合同.pdf');
      const r = spawnSync('qpdf', ['--encrypt', PASSWORD, 'owner-only', '256', '--', plain, locked]);
      expect(r.status, String(r.stderr)).toBe(0);
      org = await signOrgByApi(suite.server);
    });

    afterAll(async () => {
      if (work) await rm(work, { recursive: true, force: true });
    });

    async function answer(password: string) {
      const input = page.getByTestId('pdf-password-input');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill(password);
      await page.getByTestId('pdf-password-ok').click();
    }

    it('1. asks for the password, again after a wrong one, and stores the file with the right one', async () => {
      page = await suite.desktop({ acceptDownloads: true });
      await suite.openSignedIn(page, org.admin, '/signService/signQuickly');
      await expect.poll(visible('sign-upload'), { timeout: 20_000 }).toBe(true);
      await page.locator('[data-testid="sign-upload"] input[type="file"]').setInputFiles(locked);
      await answer('wrong-one');
      await expect.poll(visible('pdf-password-wrong'), { timeout: 15_000 }).toBe(true);
      await shot('01-wrong');
      await answer(PASSWORD);
      const row = page.getByTestId('sign-file');
      await expect.poll(() => row.first().getAttribute('data-stored'), { timeout: 15_000 }).toBe('true');
      await shot('02-stored');
    });

    it('2. shows the protected file and signs it with a placed seal', async () => {
      await page.getByTestId('quick-next').click();
      await expect
        .poll(() => page.getByTestId('sign-quickly-page').getAttribute('data-step'), { timeout: 15_000 })
        .toBe('1');
      flowId = new URL(page.url()).searchParams.get('flowId') ?? '';
      // pdf.js opens the file with the password the flow hands its participants.
      await expect
        .poll(() => page.locator('[data-testid="pdf-page"][data-page="1"]').getAttribute('data-drawn'), {
          timeout: 30_000,
        })
        .toBe('true');
      await expect
        .poll(() => page.getByTestId('palette-seal').getAttribute('data-enabled'), { timeout: 15_000 })
        .toBe('true');
      await dragOntoPage(page, 'palette-seal', { fx: 0.6, fy: 0.7 });
      await expect.poll(() => page.getByTestId('placed-item').count()).toBe(1);
      await shot('03-placed');
      await page.getByTestId('sign-submit').click();
      await confirmWill(page, suite.base, org.adminMobile);
      await page.getByTestId('will-verify').click();
      await expect.poll(visible('quick-result'), { timeout: 60_000 }).toBe(true);
      const flow = await suite.mustApi<{ status: string; files: { signatures: number }[] }>(
        'GET',
        `/v1/sign/flow/${flowId}`,
        org.admin,
      );
      expect(flow.status).toBe('completed');
      expect(flow.files[0]!.signatures).toBe(1);
      await shot('04-signed');
    });

    it('3. the signed file stays protected by the same password, and its signature is valid', async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('quick-download').first().click(),
      ]);
      const signed = join(work, 'signed.pdf');
      await download.saveAs(signed);
      expect((await readFile(signed)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const check = spawnSync('qpdf', [`--password=${PASSWORD}`, '--check', signed], { encoding: 'utf8' });
      expect(check.status, check.stdout + check.stderr).toBe(0);
      expect(check.stdout).toContain('R = 6');
      expect(spawnSync('qpdf', ['--check', signed]).status).not.toBe(0);
      if (HAS_PDFSIG) expect(pdfsig(signed, PASSWORD)).toEqual([{ valid: true, total: true }]);
    });

    it('4. a phone opens the signed, still protected file in the record detail at 390 px', async () => {
      const phone = await suite.phone();
      await suite.openSignedIn(phone, org.admin, `/h5/signService/signRecordDetail?flowId=${flowId}`);
      await expect
        .poll(() => phone.locator('[data-testid="pdf-page"][data-page="1"]').getAttribute('data-drawn'), {
          timeout: 30_000,
        })
        .toBe('true');
      const width = await phone.evaluate('document.documentElement.scrollWidth');
      expect(width).toBeLessThanOrEqual(390);
      await suite.shot(phone, 'sign-protected-05-phone-detail', { fullPage: true, top: true });
      await phone.close();
    });
  },
);
