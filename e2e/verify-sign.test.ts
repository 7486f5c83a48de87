import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPdfSigning } from '../apps/server/src/modules/signing/pdf-signing';
import { useE2eSuite } from './fixtures';
import { HAS_CHROMIUM, PAGE_DIALECTS } from './support';

/** A one-page A4 PDF written by hand, with some text to show. */
function plainPdf(lines: string[], padding = 0): Buffer {
  const content = lines.map((l, i) => `BT /F1 16 Tf 72 ${760 - i * 28} Td (${l}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Count 1 /Kids [3 0 R] >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = `%PDF-1.7\n${padding > 0 ? `%${' '.repeat(padding)}\n` : ''}`;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A red ring on transparency: enough of a seal image for a visible signature. */
function ringPng(size = 240): Buffer {
  const png = new PNG({ width: size, height: size });
  const c = size / 2;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x - c, y - c);
      const on = (d < c - 4 && d > c - 22) || d < c / 5;
      const i = (y * size + x) * 4;
      png.data[i] = 200;
      png.data[i + 1] = 22;
      png.data[i + 2] = 29;
      png.data[i + 3] = on ? 255 : 0;
    }
  return PNG.sync.write(png);
}

/**
 * The public verification pages in a real browser, logged out: upload a PDF the platform signed twice,
 * see both seals boxed where they sit and a card per signature, move between boxes and cards, download the
 * PDF report and read its verdict, open the result page and reload it; the embeddable variant has no
 * header or footer, and a file that is not a PDF, a broken one and one over the limit are refused in the
 * page. One screenshot per step under test-results/e2e/<dialect>/verify-sign/.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('verification pages in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect, { shotsDir: 'verify-sign' });
  let page: Page;
  let dir: string;
  let signed: string;
  const shot = (name: string) => suite.shot(page, name);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openseal-e2e-verify-'));
    const { server } = suite;
    const pki = server.app.pki;
    const issue = (commonName: string, org: string, code: string) =>
      pki.issue(server.db, {
        profile: 'org-seal',
        subject: { commonName, organization: org, organizationIdentifier: '91330106MA27Y5XK0X' },
        owner: { type: 'organization', id: `org_${code}` },
        sealCode: code,
      });
    const first = await issue('甲方科技有限公司合同专用章', '甲方科技有限公司', 'E2E-VERIFY-A');
    const second = await issue('乙方商贸有限公司合同专用章', '乙方商贸有限公司', 'E2E-VERIFY-B');
    await writeFile(
      join(dir, 'contract.pdf'),
      plainPdf(['Purchase contract', 'Party A and Party B agree as follows.', '1. Goods: 100 units.']),
    );
    const signing = createPdfSigning({ pki, work: server.app.work });
    const png = ringPng();
    await signing.signFile(server.db, {
      inPath: join(dir, 'contract.pdf'),
      outPath: join(dir, 'once.pdf'),
      serial: first.serial,
      appearance: { png, page: 1, x: 60, y: 200, width: 40, height: 40 },
    });
    await signing.signFile(server.db, {
      inPath: join(dir, 'once.pdf'),
      outPath: join(dir, 'twice.pdf'),
      serial: second.serial,
      appearance: { png, page: 1, x: 150, y: 200, width: 40, height: 40 },
    });
    signed = join(dir, '采购合同-已签署.pdf');
    await writeFile(signed, await readFile(join(dir, 'twice.pdf')));
    await writeFile(join(dir, 'notes.txt'), 'not a pdf at all');
    await writeFile(join(dir, 'broken.pdf'), '%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
    await writeFile(join(dir, 'large.pdf'), plainPdf(['Large'], 3.2 * 1024 * 1024));
    page = await suite.desktop({ acceptDownloads: true });
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('verifies a signed PDF without login: boxes on the page, a card per signature, both ways linked', async () => {
    await page.goto(`${suite.base}/verifySign`);
    await expect.poll(() => page.getByTestId('verify-banner').isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await page.getByTestId('verify-top-bar').isVisible()).toBe(true);
    expect(await page.getByTestId('app-header').count()).toBe(0);
    expect(await page.getByTestId('verify-upload-hint').textContent()).toContain('3 MB');
    await shot('01-upload');

    await page.locator('[data-testid="verify-upload"] input[type=file]').setInputFiles(signed);
    await expect
      .poll(() => page.getByTestId('verify-verdict').getAttribute('data-verdict'), { timeout: 30_000 })
      .toBe('valid');
    await expect.poll(() => page.getByTestId('signature-card-2').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('signature-box-1').isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await page.getByTestId('signature-box-2').isVisible()).toBe(true);
    await expect
      .poll(() => page.locator('[data-testid="pdf-page"][data-drawn]').count(), { timeout: 20_000 })
      .toBe(1);
    expect(await page.getByTestId('signature-card-1').textContent()).toContain('甲方科技有限公司合同专用章');
    expect(await page.getByTestId('signature-card-2').textContent()).toContain('乙方商贸有限公司合同专用章');
    // The first signature is followed by the second: a later signature is no caveat.
    expect(await page.getByTestId('signature-card-1').getAttribute('data-tone')).toBe('valid');
    expect(await page.getByTestId('signature-card-1').textContent()).toContain('签署后仅追加了其他签名');
    // The first seal sits left of the second, as it was placed (40 mm and 150 mm from the left edge).
    const box1 = (await page.getByTestId('signature-box-1').boundingBox())!;
    const box2 = (await page.getByTestId('signature-box-2').boundingBox())!;
    const pageBox = (await page.locator('[data-testid="pdf-page"]').boundingBox())!;
    expect(box1.x).toBeLessThan(box2.x);
    expect(Math.abs(box1.y - box2.y)).toBeLessThan(2);
    // 40 mm of a 210 mm wide page, within a pixel or two.
    expect(Math.abs(box1.width / pageBox.width - 40 / 210)).toBeLessThan(0.01);
    expect(Math.abs((box1.x + box1.width / 2 - pageBox.x) / pageBox.width - 60 / 210)).toBeLessThan(0.01);
    await shot('02-verified');

    await page.getByTestId('signature-card-2').click();
    await expect.poll(() => page.getByTestId('signature-box-2').getAttribute('data-active')).toBe('true');
    await page.getByTestId('signature-box-1').click();
    await expect.poll(() => page.getByTestId('signature-card-1').getAttribute('data-active')).toBe('true');
    expect(await page.getByTestId('signature-box-2').getAttribute('data-active')).toBeNull();
    await shot('03-selected');
  });

  it('downloads the PDF report, whose text carries the verdict', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('verify-download').click(),
    ]);
    const file = join(dir, 'report.pdf');
    await download.saveAs(file);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const bytes = await readFile(file);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('有效 / Valid');
    expect(text).toContain('采购合同-已签署.pdf');
    expect(text).toContain('乙方商贸有限公司合同专用章');
  });

  it('shows the verdict on the result page, also after a reload', async () => {
    await page.getByTestId('verify-to-result').click();
    await expect.poll(() => page.url()).toContain('/verifyContractResult?reportId=vr_');
    await expect
      .poll(() => page.getByTestId('verify-verdict').getAttribute('data-verdict'), { timeout: 20_000 })
      .toBe('valid');
    await expect.poll(() => page.getByTestId('app-header').isVisible()).toBe(true);
    await page.reload();
    await expect
      .poll(() => page.getByTestId('verify-verdict').getAttribute('data-verdict'), { timeout: 20_000 })
      .toBe('valid');
    expect(await page.getByTestId('verify-file-facts').textContent()).toContain('采购合同-已签署.pdf');
    expect(await page.getByTestId('verify-result-tone-2').textContent()).toBe('有效');
    expect(Number(await page.getByTestId('verify-evidence-index').textContent())).toBeGreaterThanOrEqual(0);
    await shot('04-result');

    // The embeddable variant of the same result: no header, no footer.
    const url = new URL(page.url());
    await page.goto(`${suite.base}/verifyContractResult/independence${url.search}`);
    await expect
      .poll(() => page.getByTestId('verify-verdict').getAttribute('data-verdict'), { timeout: 20_000 })
      .toBe('valid');
    expect(await page.getByTestId('app-header').count()).toBe(0);
    expect(await page.getByTestId('app-footer').count()).toBe(0);

    await page.goto(`${suite.base}/verifyContractResult?reportId=vr_AAAAAAAAAAAAAAAAAAAAAA`);
    await expect
      .poll(() => page.getByTestId('verify-result-error').isVisible(), { timeout: 20_000 })
      .toBe(true);
    expect(await page.getByTestId('verify-result-error').textContent()).toContain('验签报告不存在');
    await shot('05-result-unknown');
  });

  it('the embeddable variant has no header or footer, and refuses what it cannot verify, in place', async () => {
    await page.goto(`${suite.base}/verifySign/independence`);
    await expect.poll(() => page.getByTestId('verify-upload').isVisible(), { timeout: 20_000 }).toBe(true);
    for (const id of ['app-header', 'app-footer', 'verify-top-bar', 'verify-banner', 'kf-button'])
      expect([id, await page.getByTestId(id).count()]).toEqual([id, 0]);
    await shot('06-independence');

    const input = page.locator('[data-testid="verify-upload"] input[type=file]');
    await input.setInputFiles(join(dir, 'notes.txt'));
    await expect.poll(() => page.getByTestId('verify-error').textContent()).toContain('只能验证 PDF 文件');
    await shot('07-not-pdf');

    await input.setInputFiles(join(dir, 'large.pdf'));
    await expect.poll(() => page.getByTestId('verify-error').textContent()).toContain('超过了 3 MB 的限制');
    await shot('08-too-large');

    // A file that looks like a PDF to the browser but not to the server: the server's catalogued message.
    await input.setInputFiles(join(dir, 'broken.pdf'));
    await expect
      .poll(() => page.getByTestId('verify-error').textContent(), { timeout: 20_000 })
      .toMatch(/文件已损坏|无法读取该 PDF/);

    // In English, the same refusal in English.
    await page.evaluate("localStorage.setItem('language', 'en')");
    await page.reload();
    await expect.poll(() => page.getByTestId('verify-upload').isVisible(), { timeout: 20_000 }).toBe(true);
    await page
      .locator('[data-testid="verify-upload"] input[type=file]')
      .setInputFiles(join(dir, 'large.pdf'));
    await expect
      .poll(() => page.getByTestId('verify-error').textContent())
      .toContain('more than the limit of 3 MB');
    await shot('09-too-large-en');
    await page.evaluate("localStorage.removeItem('language')");
  });
});
