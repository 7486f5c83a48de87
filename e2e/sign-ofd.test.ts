import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svgToPng } from '@openseal/seal-image/node';
import { toPem } from '@openseal/pki';
import { buildOfd, page as ofdPage, testCa, testSigner } from '../packages/ofd/src/test-ofd';
import { useE2eSuite } from './fixtures';
import { contractPdf, signOrgByApi, type SignOrg } from './sign-support';
import { HAS_CHROMIUM, PAGE_DIALECTS } from './support';

/** A round red seal picture: a ring and a star, as an electronic seal's image would be. */
async function sealPicture(): Promise<Uint8Array> {
  const star = Array.from({ length: 10 }, (_, i) => {
    const r = i % 2 === 0 ? 38 : 15;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    return `${200 + r * Math.cos(a)},${200 + r * Math.sin(a)}`;
  }).join(' ');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><circle cx="200" cy="200" r="180" fill="none" stroke="#e00000" stroke-width="16"/><polygon points="${star}" fill="#e00000"/></svg>`;
  return (await svgToPng(svg, ['#e00000'])).png;
}

/**
 * OFD files in the sign service, in the browser: quick sign takes an OFD beside a PDF contract; the OFD is
 * drawn page by page by the OFD viewer (text, rules, the electronic seal it carries where it sits) with the
 * note that it cannot be signed yet; its seal is intact but its signer not confirmed until an operator adds
 * the seal maker's CA as a trust anchor, then valid; the record offers it for download byte for byte.
 * Screenshots under test-results/e2e/<dialect>/sign-ofd-*.png.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('OFD files in the sign service (%s)', (dialect) => {
  const suite = useE2eSuite(dialect);
  let org: SignOrg;
  let page: Page;
  let work = '';
  let ofdBytes: Uint8Array;
  let flowId = '';
  // The seal maker's SM2 CA: another platform's, which this one does not trust until an operator adds it.
  const sealCa = testCa('测试电子认证服务机构');

  const shot = (name: string) => suite.shot(page, `sign-ofd-${name}`);

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'openseal-sign-ofd-'));
    org = await signOrgByApi(suite.server);
    ofdBytes = buildOfd({
      pages: [
        ofdPage(
          '<ofd:TextObject ID="4" Boundary="30 30 150 12" Font="3" Size="8"><ofd:TextCode X="0" Y="8" DeltaX="g 5 8">发票联明细</ofd:TextCode></ofd:TextObject>' +
            '<ofd:PathObject ID="5" Boundary="30 50 150 1" LineWidth="0.5"><ofd:StrokeColor Value="156 82 35"/><ofd:AbbreviatedData>M 0 0.5 L 150 0.5</ofd:AbbreviatedData></ofd:PathObject>',
        ),
        ofdPage(
          '<ofd:TextObject ID="6" Boundary="30 30 150 12" Font="3" Size="8"><ofd:TextCode X="0" Y="8" DeltaX="g 3 8">第二页</ofd:TextCode></ofd:TextObject>',
        ),
      ],
      seal: {
        picture: await sealPicture(),
        boundary: '130 60 40 40',
        provider: '测试签章系统',
        // A real SM2 signature over the package, which the viewer checks.
        signer: testSigner('杭州测试科技有限公司', { issuer: sealCa }),
        sealName: '杭州测试科技有限公司发票专用章',
      },
    });
    page = await suite.desktop({ acceptDownloads: true });
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('1. quick sign takes an OFD beside the PDF contract', async () => {
    await suite.openSignedIn(page, org.admin, '/signService/signQuickly');
    const input = page.locator('[data-testid="sign-upload"] input[type="file"]');
    await input.waitFor({ state: 'attached', timeout: 20_000 });
    const pdf = join(work, '合同.pdf');
    const ofd = join(work, '发票.ofd');
    await writeFile(pdf, contractPdf('Contract', 1));
    await writeFile(ofd, ofdBytes);
    await input.setInputFiles([pdf, ofd]);
    const rows = page.getByTestId('sign-file');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    for (const i of [0, 1])
      await expect.poll(() => rows.nth(i).getAttribute('data-stored'), { timeout: 15_000 }).toBe('true');
    await expect.poll(() => page.getByTestId('quick-next').isEnabled()).toBe(true);
    await shot('01-upload');
  });

  it('2. the OFD tab draws both pages and the seal the file carries, checks the seal, and says the file cannot be signed yet', async () => {
    await page.getByTestId('quick-next').click();
    await expect
      .poll(() => page.getByTestId('sign-quickly-page').getAttribute('data-step'), { timeout: 15_000 })
      .toBe('1');
    flowId = new URL(page.url()).searchParams.get('flowId') ?? '';
    await page.getByTestId('flow-file-tab').filter({ hasText: '发票.ofd' }).click();
    const viewer = page.locator('[data-testid="flow-file-viewer"][data-format="ofd"]');
    await expect.poll(() => viewer.getAttribute('data-pages'), { timeout: 30_000 }).toBe('2');
    await expect
      .poll(() => page.locator('[data-testid="ofd-page"][data-page="1"]').getAttribute('data-drawn'), {
        timeout: 30_000,
      })
      .toBe('true');
    expect(await page.getByTestId('ofd-pending').first().isVisible()).toBe(true);
    // The seal it carries is checked in the page: its parts, its signed value, its signer's key, and the
    // signer's certificate against this platform's anchors, which do not include the seal maker's CA.
    const seals = page.getByTestId('ofd-seals');
    await expect.poll(() => seals.getAttribute('data-verdict'), { timeout: 15_000 }).toBe('indeterminate');
    expect(await page.getByTestId('ofd-signature').getAttribute('data-reason')).toBe('issuerUnknown');
    const text = await seals.textContent();
    expect(text).toContain('签章者未确认');
    expect(text).toContain('签章者未经本平台确认（证书颁发者：测试电子认证服务机构）');
    expect(text).not.toContain('签章有效');
    expect(text).toContain('杭州测试科技有限公司发票专用章');
    expect(text).toContain('测试签章系统');
    expect(text).toContain('签章者：杭州测试科技有限公司');
    // The drawn page is the document: its size in proportion to the page's millimetres (A4).
    const img = page.locator('[data-testid="ofd-page"][data-page="1"] img');
    // (The page functions are written as text: the browser tests are compiled without the DOM types.)
    await img.waitFor();
    const sel = `document.querySelector('[data-testid="ofd-page"][data-page="1"] img')`;
    const size = (await page.evaluate(
      `(() => { const el = ${sel}; return { w: el.naturalWidth, h: el.naturalHeight, complete: el.complete }; })()`,
    )) as { w: number; h: number; complete: boolean };
    expect(size.complete).toBe(true);
    expect(size.h / size.w).toBeCloseTo(297 / 210, 2);
    // And its pixels: the seal's red where the stamp sits (130–170 mm across, 60–100 mm down).
    const red = (await page.evaluate(`(() => {
      const el = ${sel};
      const canvas = document.createElement('canvas');
      canvas.width = 210;
      canvas.height = 297;
      const g = canvas.getContext('2d');
      g.drawImage(el, 0, 0, 210, 297);
      let n = 0;
      const d = g.getImageData(130, 60, 40, 40).data;
      for (let i = 0; i < d.length; i += 4) if (d[i] > 180 && d[i + 1] < 80 && d[i + 2] < 80) n++;
      return n;
    })()`)) as number;
    expect(red).toBeGreaterThan(50);
    await page.getByTestId('ofd-pending').first().scrollIntoViewIfNeeded();
    await shot('02-ofd-view');
  });

  it('2b. once an operator adds the seal maker’s CA as a trust anchor, the same seal is valid', async () => {
    const headers = { 'content-type': 'application/json' };
    const added = (await (
      await fetch(`${suite.base}/manage/api/v1/trust-anchors`, {
        method: 'POST',
        headers: { ...headers, 'x-operator-token': await suite.operatorToken() },
        body: JSON.stringify({
          certificate: toPem(sealCa.certificate),
          label: '测试电子认证服务机构 SM2 根',
        }),
      })
    ).json()) as { code: number; message: string; data: { keyAlgorithm: string } };
    expect(added.code, added.message).toBe(0);
    expect(added.data.keyAlgorithm).toBe('SM2');
    // The viewer keeps the anchors it fetched for a minute, and the browser may keep the bundle for the
    // 5 s it allows: a new page fetches them again, and is opened again until that short cache has passed.
    const fresh = await page.context().newPage();
    const url = page.url();
    try {
      const seals = fresh.getByTestId('ofd-seals');
      const settled = async () => {
        await fresh.goto(url);
        await fresh.getByTestId('flow-file-tab').filter({ hasText: '发票.ofd' }).click();
        await expect.poll(() => seals.getAttribute('data-verdict')).not.toBe('checking');
        return seals.getAttribute('data-verdict');
      };
      await expect.poll(settled, { timeout: 60_000, interval: 2_000 }).toBe('valid');
      expect(await seals.textContent()).toContain('签章有效');
      expect(await fresh.getByTestId('ofd-signature').getAttribute('data-reason')).toBe('signerConfirmed');
      await suite.shot(fresh, 'sign-ofd-02b-ofd-trusted');
    } finally {
      await fresh.close();
    }
  });

  it('3. the record offers the OFD for download, byte for byte as it was uploaded', async () => {
    await page.goto(`${suite.base}/signService/signRecordDetail?flowId=${flowId}`);
    const button = page.locator('[data-testid="detail-file-download"][data-format="ofd"]');
    await button.waitFor({ timeout: 20_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe('发票.ofd');
    const got = await readFile((await download.path())!);
    const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    expect(sha(got)).toBe(sha(ofdBytes));
    await shot('03-detail');
  });
});
