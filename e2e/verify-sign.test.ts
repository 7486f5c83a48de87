import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyReasonText, type contracts, type Language } from '@openseal/core';
import { checkProofBundle } from '@openseal/evidence';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPdfSigning } from '../apps/server/src/modules/signing/pdf-signing';
import { multipart } from '../apps/server/test/upload-fixtures';
import { useE2eSuite } from './fixtures';
import { appendFreeText, forgedSealPdf, MALLORY } from './sign-support';
import { HAS_CHROMIUM, MOTION, PAGE_DIALECTS, type E2eServer } from './support';

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
 * page. Then three verdicts at 1280 px and at 390 px with touch, in Chinese and English: the platform's
 * file is valid with its evidence record checked in the browser and its proof bundle downloaded; a seal
 * forged with a self-signed openssl certificate is indeterminate with its issuer; text appended after
 * sealing is listed (type, page, text) and never green. One screenshot per step under
 * test-results/e2e/<dialect>/verify-sign/.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('verification pages in the browser (%s)', (dialect) => {
  const suite = useE2eSuite(dialect, { shotsDir: 'verify-sign' });
  let server: E2eServer;
  let shots: string;
  let page: Page;
  let dir: string;
  let signed: string;
  let forged: string;
  let mallory: string;
  let malloryApproved: string;
  const shot = (name: string) => suite.shot(page, name);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openseal-e2e-verify-'));
    server = suite.server;
    shots = suite.shots;
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
    // Signed as the platform signs: each act goes into the evidence log, with the file it produced.
    const signing = createPdfSigning({ pki, evidence: server.app.evidence, work: server.app.work });
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
    forged = join(dir, 'forged-seal.pdf');
    await writeFile(forged, await forgedSealPdf(plainPdf(['Purchase contract', 'Signed by a forged seal.'])));
    mallory = join(dir, 'after-sealing.pdf');
    await writeFile(mallory, appendFreeText(await readFile(join(dir, 'twice.pdf'))));
    // The same text after a platform signature that only approves (PDF_CERTIFY_LEVEL=0): permitted by
    // the signature, and still never a plain valid.
    await createPdfSigning({ pki, work: server.app.work, certifyLevel: 0 }).signFile(server.db, {
      inPath: join(dir, 'contract.pdf'),
      outPath: join(dir, 'approved.pdf'),
      serial: first.serial,
      appearance: { png, page: 1, x: 60, y: 200, width: 40, height: 40 },
    });
    malloryApproved = join(dir, 'after-approval.pdf');
    await writeFile(malloryApproved, appendFreeText(await readFile(join(dir, 'approved.pdf'))));
    await writeFile(join(dir, 'notes.txt'), 'not a pdf at all');
    await writeFile(join(dir, 'broken.pdf'), '%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
    await writeFile(join(dir, 'large.pdf'), plainPdf(['Large'], 3.2 * 1024 * 1024));
    page = await suite.desktop({ acceptDownloads: true });
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('verifies a signed PDF without login: boxes on the page, a card per signature, both ways linked', async () => {
    await page.goto(`${server.base}/verifySign`);
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
    expect(await page.getByTestId('signature-status-2').textContent()).toBe('有效');
    expect(Number(await page.getByTestId('verify-evidence-index').textContent())).toBeGreaterThanOrEqual(0);
    // The evidence record, checked in the browser against the latest signed tree head.
    await expect
      .poll(() => page.getByTestId('verify-evidence').getAttribute('data-check'), { timeout: 20_000 })
      .toBe('ok');
    expect(await page.getByTestId('verify-evidence').getAttribute('data-signed-here')).toBe('true');
    await shot('04-result');

    // The embeddable variant of the same result: no header, no footer.
    const url = new URL(page.url());
    await page.goto(`${server.base}/verifyContractResult/independence${url.search}`);
    await expect
      .poll(() => page.getByTestId('verify-verdict').getAttribute('data-verdict'), { timeout: 20_000 })
      .toBe('valid');
    expect(await page.getByTestId('app-header').count()).toBe(0);
    expect(await page.getByTestId('app-footer').count()).toBe(0);

    await page.goto(`${server.base}/verifyContractResult?reportId=vr_AAAAAAAAAAAAAAAAAAAAAA`);
    await expect
      .poll(() => page.getByTestId('verify-result-error').isVisible(), { timeout: 20_000 })
      .toBe(true);
    expect(await page.getByTestId('verify-result-error').textContent()).toContain('验签报告不存在');
    await shot('05-result-unknown');
  });

  it('the embeddable variant has no header or footer, and refuses what it cannot verify, in place', async () => {
    await page.goto(`${server.base}/verifySign/independence`);
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

  /** A desktop and a phone (touch), in Chinese and English. */
  const VIEWS = [
    { name: 'desktop', width: 1280, height: 900, touch: false },
    { name: 'phone', width: 390, height: 844, touch: true },
  ] as const;
  const LANGUAGES: Language[] = ['zh-CN', 'en'];
  /**
   * Each case on a desktop and on a phone, each in one of the two languages, and the next case with the
   * languages swapped: over the cases every view meets every language, at half the page loads.
   */
  const matrix = (turn: number) =>
    VIEWS.map((view, i) => ({ view, language: LANGUAGES[(i + turn) % LANGUAGES.length]! }));

  /** The server's own report of a file, to read each finding in the page's language from the catalogue. */
  async function serverReport(file: string): Promise<contracts.PdfVerifyResponse> {
    const { body, contentType } = multipart([
      { name: 'f.pdf', bytes: await readFile(file), type: 'application/pdf' },
    ]);
    const res = await fetch(`${server.base}/v1/signFile/verify/pdf`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(body),
    });
    const json = (await res.json()) as { code: number; data: contracts.PdfVerifyResponse };
    expect(json.code).toBe(0);
    return json.data;
  }

  /** Opens /verifySign in a fresh context of the view and language, uploads the file and waits for a verdict. */
  async function verifyIn(view: (typeof VIEWS)[number], language: Language, file: string) {
    const size = { viewport: { width: view.width, height: view.height }, acceptDownloads: true };
    const p = view.touch ? await suite.phone(size) : await suite.desktop(size);
    const context = p.context();
    await context.addInitScript(`localStorage.setItem('language', ${JSON.stringify(language)})`);
    await p.goto(`${server.base}/verifySign`);
    if (view.touch)
      // A phone gets the page in the mobile frame (spec section 2: /verifySign has an H5 page).
      await p.waitForURL((u) => u.pathname === '/h5/verifySign', { timeout: 20_000 });
    await expect.poll(() => p.getByTestId('verify-upload').isVisible(), { timeout: 20_000 }).toBe(true);
    await p.locator('[data-testid="verify-upload"] input[type=file]').setInputFiles(file);
    await expect
      .poll(() => p.getByTestId('verify-verdict').getAttribute('data-verdict'), { timeout: 30_000 })
      .not.toBeNull();
    // The evidence panel has answered (its checks run in the browser).
    await expect
      .poll(() => p.getByTestId('verify-evidence').getAttribute('data-check'), { timeout: 30_000 })
      .not.toBe('pending');
    await expect.poll(() => p.locator(MOTION).count()).toBe(0);
    return { context, page: p };
  }

  /**
   * No page-wide horizontal scroll: what does not fit wraps or scrolls inside its own box. (A phone widens
   * its layout viewport to content wider than the screen, so the width is the view's, not innerWidth.)
   */
  const fitsWidth = async (p: Page, width: number) =>
    ((await p.evaluate(
      'Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)',
    )) as number) <= width;

  /** Every finding of every signature reads in the page's language, as the shared catalogue words it. */
  async function expectFindings(p: Page, report: contracts.PdfVerifyResponse, language: Language) {
    for (let i = 0; i < report.signatures.length; i++) {
      const sig = report.signatures[i]!;
      const card = p.locator(`[data-field=${JSON.stringify(sig.field)}]`);
      const text = (await card.textContent()) ?? '';
      for (const f of sig.findings) expect(text).toContain(verifyReasonText(f.code, language, f.params));
    }
  }

  it('a platform-signed PDF is valid, and its evidence record holds in the browser, with its proof bundle', async () => {
    const signedSha = createHash('sha256')
      .update(await readFile(signed))
      .digest('hex');
    for (const { view, language } of matrix(0)) {
      const { context, page: p } = await verifyIn(view, language, signed);
      const where = `${view.name} ${language}`;
      expect(await p.getByTestId('verify-verdict').getAttribute('data-verdict'), where).toBe('valid');
      for (const no of [1, 2])
        expect(await p.getByTestId(`signature-card-${no}`).getAttribute('data-status'), where).toBe('valid');
      const evidence = p.getByTestId('verify-evidence');
      expect(await evidence.getAttribute('data-check'), where).toBe('ok');
      expect(await evidence.getAttribute('data-signed-here'), where).toBe('true');
      expect(await p.getByTestId('evidence-tree-head-signature').getAttribute('data-outcome')).toBe('ok');
      expect(await p.getByTestId('evidence-local-hash').getAttribute('data-outcome')).toBe('ok');
      const act = p.locator('[data-role="signing"]');
      expect(await act.count(), where).toBe(1);
      expect(await act.getAttribute('data-inclusion')).toBe('ok');
      expect(await act.textContent()).toContain(signedSha);
      expect(await p.locator('[data-role="verification"]').getAttribute('data-inclusion')).toBe('ok');
      expect(await evidence.textContent()).toContain(language === 'en' ? 'Inclusion holds' : '包含证明成立');
      expect(await fitsWidth(p, view.width), where).toBe(true);

      if (view.touch) {
        // Touch: a tap on a card marks its seal on the page.
        await p.getByTestId('signature-card-2').tap();
        await expect.poll(() => p.getByTestId('signature-box-2').getAttribute('data-active')).toBe('true');
      }
      if (view.name === 'desktop' && language === 'zh-CN') {
        const leafIndex = Number((await act.getAttribute('data-testid'))!.replace('evidence-record-', ''));
        const [download] = await Promise.all([
          p.waitForEvent('download'),
          p.getByTestId(`evidence-bundle-${leafIndex}`).click(),
        ]);
        const file = join(dir, 'proof.json');
        await download.saveAs(file);
        expect(download.suggestedFilename()).toBe(`evidence-${leafIndex}.json`);
        const bundle = JSON.parse(await readFile(file, 'utf8')) as { leafIndex: number };
        expect(bundle.leafIndex).toBe(leafIndex);
        // The evidence package, as openseal evidence verify runs it, agrees with the page.
        const check = checkProofBundle(bundle);
        expect(check.ok, JSON.stringify(check.checks)).toBe(true);
        expect(check.opened?.['hashes.fileAfter']).toBe(signedSha);
      }
      await evidence.scrollIntoViewIfNeeded();
      await p.screenshot({ path: join(shots, `10-valid-${view.name}-${language}.png`), fullPage: true });
      await context.close();
    }
  });

  it('a seal forged with a self-signed certificate is indeterminate, amber, with its issuer, never valid', async () => {
    const report = await serverReport(forged);
    expect(report.verdict).toBe('indeterminate');
    for (const { view, language } of matrix(1)) {
      const { context, page: p } = await verifyIn(view, language, forged);
      const where = `${view.name} ${language}`;
      expect(await p.getByTestId('verify-verdict').getAttribute('data-verdict'), where).toBe('indeterminate');
      expect(await p.getByTestId('verify-verdict-title').textContent()).toBe(
        language === 'en'
          ? 'Indeterminate: signer not confirmed by this platform'
          : '待定：签名人未经本平台确认',
      );
      const card = p.getByTestId('signature-card-1');
      expect(await card.getAttribute('data-status')).toBe('indeterminate');
      expect(await card.getAttribute('data-tone')).toBe('warning');
      // Signed without a seal image: no box on the page, only its card.
      expect(await p.getByTestId('signature-box-1').count()).toBe(0);
      expect(await p.getByTestId('signature-status-1').textContent()).toBe(
        language === 'en' ? 'Indeterminate' : '待定',
      );
      expect(await p.getByTestId('signature-unconfirmed-1').textContent()).toContain(
        language === 'en' ? 'Signer not confirmed by this platform' : '签名人未经本平台确认',
      );
      expect(await p.getByTestId('signature-issuer-1').textContent()).toContain(
        '杭州示例科技有限公司合同专用章',
      );
      await expectFindings(p, report, language);
      expect(await p.locator('[data-fact="fact.chain.untrusted"]').count()).toBe(1);
      // Not a file the platform signed: no signing act; this verification is recorded and holds.
      expect(await p.getByTestId('verify-evidence').getAttribute('data-signed-here')).toBe('false');
      expect(await p.getByTestId('verify-evidence').getAttribute('data-check')).toBe('ok');
      expect(await fitsWidth(p, view.width), where).toBe(true);
      await p.screenshot({ path: join(shots, `11-forged-${view.name}-${language}.png`), fullPage: true });

      if (view.name === 'desktop' && language === 'zh-CN') {
        // The PDF report says the same.
        const href = (await p.getByTestId('verify-download').getAttribute('href'))!;
        const pdf = join(dir, 'forged-report.pdf');
        await writeFile(pdf, Buffer.from(await (await fetch(`${server.base}${href}`)).arrayBuffer()));
        const text = execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' });
        expect(text).toContain('待定：签名人未经本平台确认');
        expect(text).toContain('杭州示例科技有限公司合同专用章');
      }
      await context.close();
    }
  });

  it('text appended after sealing is listed with its type, page and text, and is never green', async () => {
    const report = await serverReport(mallory);
    expect(report.verdict).not.toBe('valid');
    for (const { view, language } of matrix(2)) {
      const { context, page: p } = await verifyIn(view, language, mallory);
      const where = `${view.name} ${language}`;
      expect(await p.getByTestId('verify-verdict').getAttribute('data-verdict'), where).toBe(report.verdict);
      for (const no of [1, 2]) {
        const card = p.getByTestId(`signature-card-${no}`);
        expect(await card.getAttribute('data-tone'), `${where} ${no}`).not.toBe('valid');
        // Every signature lists the annotation added after it: its type, page and the text it shows.
        const change = p.locator(`[data-testid="signature-changes-${no}"] li[data-kind="annotation"]`);
        expect(await change.count(), `${where} ${no}`).toBe(1);
        expect(await change.getAttribute('data-page')).toBe('1');
        const line = (await change.textContent()) ?? '';
        expect(line).toContain('FreeText');
        expect(line).toContain(MALLORY);
        expect(line).toContain(language === 'en' ? 'page 1' : '第 1 页');
      }
      // The platform's first signature certifies the file (DocMDP P=2): an annotation after it is not permitted.
      expect(await p.getByTestId('signature-card-1').getAttribute('data-status')).toBe('invalid');
      expect(
        await p
          .locator('[data-testid="signature-changes-1"] li[data-kind="annotation"]')
          .getAttribute('data-allowed'),
      ).toBe('false');
      // Each card says what the server concluded of it, in its own words.
      for (const [i, sig] of report.signatures.entries())
        expect(
          await p.locator(`[data-field=${JSON.stringify(sig.field)}]`).getAttribute('data-status'),
          `${where} ${i}`,
        ).toBe(sig.verdict);
      await expectFindings(p, report, language);
      expect(await p.getByTestId('verify-verdict-why').textContent()).toContain(MALLORY);
      // The file is no longer the one the platform produced.
      expect(await p.getByTestId('verify-evidence').getAttribute('data-signed-here')).toBe('false');
      expect(await fitsWidth(p, view.width), where).toBe(true);
      await p.screenshot({
        path: join(shots, `12-after-sealing-${view.name}-${language}.png`),
        fullPage: true,
      });

      if (view.name === 'desktop' && language === 'en') {
        const href = (await p.getByTestId('verify-download').getAttribute('href'))!;
        const pdf = join(dir, 'mallory-report.pdf');
        await writeFile(pdf, Buffer.from(await (await fetch(`${server.base}${href}`)).arrayBuffer()));
        const text = execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' });
        expect(text).toContain(MALLORY);
        expect(text).not.toContain('有效 / Valid');
      }
      await context.close();
    }
  });

  it('text appended after an approval signature is permitted by it, yet indeterminate and amber, never valid', async () => {
    const report = await serverReport(malloryApproved);
    expect(report.verdict).toBe('indeterminate');
    for (const { view, language } of matrix(3)) {
      const { context, page: p } = await verifyIn(view, language, malloryApproved);
      const where = `${view.name} ${language}`;
      expect(await p.getByTestId('verify-verdict').getAttribute('data-verdict'), where).toBe('indeterminate');
      expect(await p.getByTestId('verify-verdict-title').textContent()).toBe(
        language === 'en'
          ? 'Indeterminate: content was added after signing'
          : '待定：签署后文件新增了可见内容',
      );
      const card = p.getByTestId('signature-card-1');
      expect([await card.getAttribute('data-status'), await card.getAttribute('data-tone')]).toEqual([
        'indeterminate',
        'warning',
      ]);
      expect(await p.getByTestId('signature-box-1').getAttribute('data-tone')).toBe('warning');
      expect(await p.getByTestId('signature-added-1').isVisible()).toBe(true);
      expect(await p.getByTestId('signature-unconfirmed-1').count()).toBe(0);
      const change = p.locator('[data-testid="signature-changes-1"] li[data-kind="annotation"]');
      expect(await change.getAttribute('data-allowed')).toBe('true');
      const line = (await change.textContent()) ?? '';
      expect(line).toContain('FreeText');
      expect(line).toContain(MALLORY);
      expect(line).toContain(language === 'en' ? 'page 1' : '第 1 页');
      await expectFindings(p, report, language);
      expect(await fitsWidth(p, view.width), where).toBe(true);
      await p.screenshot({
        path: join(shots, `13-after-approval-${view.name}-${language}.png`),
        fullPage: true,
      });
      await context.close();
    }
  });
});
