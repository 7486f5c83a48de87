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

/**
 * Quick sign through the pages, as the issue tells it: the seal administrator of an organisation uploads a
 * PDF, drags the organisation's seal onto the first page, confirms intent with the SMS code from the
 * sandbox outbox, signs, downloads the signed file (pdfsig: a valid signature covering the whole file) and
 * checks it on /verifySign. Screenshots under test-results/e2e/<dialect>/sign-quick-*.png.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('quick sign in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect);
  let org: SignOrg;
  let page: Page;
  let work = '';
  let flowId = '';
  let signedFile = '';

  const shot = (name: string) => suite.shot(page, `sign-quick-${name}`, { fullPage: true, top: true });
  const visible = (testId: string) => () => page.getByTestId(testId).first().isVisible();

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'openseal-sign-quick-'));
    org = await signOrgByApi(suite.server);
    page = await suite.desktop({ acceptDownloads: true });
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('1. uploads a contract; a second copy of it is refused in the browser', async () => {
    await suite.openSignedIn(page, org.admin, '/signService/signQuickly');
    await expect.poll(visible('sign-upload'), { timeout: 20_000 }).toBe(true);
    const pdf = join(work, '采购合同.pdf');
    await writeFile(pdf, contractPdf('Purchase contract', 2));
    const input = page.locator('[data-testid="sign-upload"] input[type="file"]');
    await input.setInputFiles(pdf);
    const row = page.getByTestId('sign-file');
    await expect.poll(() => row.first().getAttribute('data-stored'), { timeout: 15_000 }).toBe('true');
    // The same bytes under another name: refused by its SHA-256 before any upload.
    const copy = join(work, 'copy.pdf');
    await writeFile(copy, await readFile(pdf));
    await input.setInputFiles(copy);
    await expect
      .poll(() => page.locator('.ant-message-error').count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await row.count()).toBe(1);
    await expect.poll(() => page.getByTestId('quick-next').isEnabled()).toBe(true);
    await shot('01-upload');
  });

  it('2. creates the quick flow and places the seal by drag and drop', async () => {
    await page.getByTestId('quick-next').click();
    await expect
      .poll(() => page.getByTestId('sign-quickly-page').getAttribute('data-step'), { timeout: 15_000 })
      .toBe('1');
    flowId = new URL(page.url()).searchParams.get('flowId') ?? '';
    expect(flowId).toMatch(/\S/);
    await expect
      .poll(() => page.locator('[data-testid="pdf-page"][data-page="1"]').getAttribute('data-drawn'), {
        timeout: 30_000,
      })
      .toBe('true');
    await expect
      .poll(() => page.getByTestId('palette-seal').getAttribute('data-enabled'), { timeout: 15_000 })
      .toBe('true');
    expect(await page.getByTestId('seal-access').first().getAttribute('data-access')).toBe('direct');
    await dragOntoPage(page, 'palette-seal', { fx: 0.65, fy: 0.75 });
    const placed = page.getByTestId('placed-item');
    await expect.poll(() => placed.count()).toBe(1);
    // Arrow keys nudge a millimetre.
    const y = Number(await placed.getAttribute('data-y'));
    await placed.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => Number(await placed.getAttribute('data-y'))).toBeCloseTo(y + 1, 5);
    expect(await page.getByTestId('placement-count').getAttribute('data-count')).toBe('1');
    await shot('02-placed');
  });

  it('3. confirms intent by SMS code and signs', async () => {
    await page.getByTestId('sign-submit').click();
    await confirmWill(page, suite.base, org.adminMobile);
    await shot('03-will-auth');
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

  it('4. downloads the signed file: a PDF whose signature pdfsig finds valid over the whole file', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('quick-download').first().click(),
    ]);
    signedFile = join(work, 'signed.pdf');
    await download.saveAs(signedFile);
    const bytes = await readFile(signedFile);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    if (HAS_PDFSIG) {
      const sigs = pdfsig(signedFile);
      expect(sigs).toHaveLength(1);
      expect(sigs[0]).toEqual({ valid: true, total: true });
    }
  });

  it('5. checks the signed file on /verifySign: valid', async () => {
    await page.goto(`${suite.base}/verifySign`);
    const input = page.locator('[data-testid="verify-upload"] input[type="file"]');
    await input.waitFor({ state: 'attached', timeout: 20_000 });
    await input.setInputFiles(signedFile);
    await expect
      .poll(() => page.getByTestId('verify-verdict').first().getAttribute('data-verdict'), {
        timeout: 30_000,
      })
      .toBe('valid');
    await expect
      .poll(() => page.locator('[data-testid="pdf-page"][data-page="1"]').getAttribute('data-drawn'), {
        timeout: 30_000,
      })
      .toBe('true');
    await shot('05-verify');
  });

  it('6. the detail page shows the log and the evidence record with its proof', async () => {
    await page.goto(`${suite.base}/signService/signRecordDetail?flowId=${flowId}`);
    await expect
      .poll(() => page.getByTestId('sign-detail-page').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('completed');
    await expect
      .poll(() => page.locator('[data-testid="detail-log-entry"][data-action="sign"]').count(), {
        timeout: 15_000,
      })
      .toBe(1);
    await expect.poll(() => page.getByTestId('chain-record').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('chain-download').first().click(),
    ]);
    const bundle = JSON.parse(await readFile((await download.path())!, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(bundle).length).toBeGreaterThan(0);
    await expect
      .poll(() => page.locator('[data-testid="pdf-page"][data-page="1"]').getAttribute('data-drawn'), {
        timeout: 30_000,
      })
      .toBe('true');
    await shot('06-detail');
  });
});
