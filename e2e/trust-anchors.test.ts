import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeForeignPlatform, type ForeignPlatform } from '../apps/server/test/foreign-platform';
import { multipart } from '../apps/server/test/upload-fixtures';
import { useE2eSuite } from './fixtures';
import { HAS_CHROMIUM, MOTION, PAGE_DIALECTS } from './support';

/**
 * Trust anchors in the operator console, in a real browser against the real server: another platform's
 * root is made in the test, and a PDF signed under it is 'untrusted' by the public verification service;
 * the operator uploads the root as a file, sees it listed (subject, fingerprint, validity, status), and the
 * same PDF verifies with its chain trusted; disabled (after a confirmation) it is untrusted again. On a
 * 390 px phone the page shows cards, a second anchor is added by pasting its PEM and removed after a
 * confirmation. Screenshots under test-results/e2e/<dialect>/trust-anchors-*.png.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('trust anchors in the console (%s)', (dialect) => {
  const suite = useE2eSuite(dialect);
  let page: Page;
  let foreign: ForeignPlatform;
  let signed: Buffer;
  let work = '';
  let operatorToken = '';

  const shot = (p: Page, name: string) => suite.shot(p, `trust-anchors-${name}`, { fullPage: true });

  /** The chain the public verification service reports for the foreign PDF. */
  async function chain(): Promise<string> {
    const { body, contentType } = multipart([{ name: 'c.pdf', bytes: signed, type: 'application/pdf' }]);
    const res = await fetch(`${suite.base}/v1/signFile/verify/pdf`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(body),
    });
    const json = (await res.json()) as { code: number; data: { signatures: Array<{ chain: string }> } };
    expect(json.code).toBe(0);
    return json.data.signatures[0]!.chain;
  }

  const fingerprintOf = async (der: Uint8Array) =>
    Buffer.from(await crypto.subtle.digest('SHA-256', new Uint8Array(der))).toString('hex');

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'openseal-trust-anchors-'));
    foreign = await makeForeignPlatform();
    signed = await foreign.signedPdf();
    page = await suite.desktop();
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('does not trust a PDF signed under the other platform’s root yet', async () => {
    expect(await chain()).toBe('untrusted');
  });

  it('logs the operator in and opens the trust anchors page with the platform root built in', async () => {
    await suite.loginOperator(page);
    await page.waitForURL((url) => url.pathname === '/manage');
    operatorToken = (await page.evaluate("localStorage.getItem('operatorToken')")) as string;
    expect(operatorToken).toMatch(/^opt_/);
    await page.getByTestId('manage-tab-trustAnchors').click();
    const builtIn = page.locator('[data-testid="trust-anchor-builtin"][data-source="platform"]');
    await expect.poll(() => builtIn.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await builtIn.textContent()).toContain('OpenSeal Root CA');
    await expect
      .poll(() => page.getByTestId('trust-anchor-table').textContent(), { timeout: 15_000 })
      .toContain('尚未添加');
  });

  it('adds the root by uploading its certificate file, and lists it', async () => {
    await page.getByTestId('trust-anchor-add').click();
    await expect.poll(() => page.getByTestId('trust-anchor-add-label').isVisible()).toBe(true);
    await page.getByTestId('trust-anchor-add-label').fill('异地电子认证服务平台');
    await page.getByTestId('trust-anchor-add-note').fill('互认协议 2026 第 1 号');
    const file = join(work, 'foreign-root.cer');
    await writeFile(file, foreign.root.der);
    await page.locator('.ant-modal input[type="file"]').setInputFiles(file);
    await expect
      .poll(() => page.getByTestId('trust-anchor-file-name').textContent())
      .toBe('foreign-root.cer');
    await shot(page, '01-add-dialog');
    await page.getByTestId('trust-anchor-add-submit').click();
    const fingerprint = await fingerprintOf(foreign.root.der);
    const row = page.locator(`[data-testid="trust-anchor-row"][data-fingerprint="${fingerprint}"]`);
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await row.getAttribute('data-status')).toBe('enabled');
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('异地电子认证服务平台');
    expect(text).toContain('异地电子认证服务平台 Root CA');
    expect(text).toContain(fingerprint.slice(0, 8).toUpperCase().match(/../g)!.join(':'));
    expect(text).toContain('已启用');
    await expect.poll(() => page.locator(MOTION).count(), { timeout: 10_000 }).toBe(0);
    await shot(page, '02-listed');
  });

  it('verifies the PDF signed under it with the chain trusted, and serves the root publicly', async () => {
    expect(await chain()).toBe('trusted');
    const bundle = await (await fetch(`${suite.base}/pki/trust-anchors`)).text();
    expect(bundle).toContain(foreign.root.pem.split('\n')[1]);
  });

  it('disables it after a confirmation; the PDF is untrusted again', async () => {
    const fingerprint = await fingerprintOf(foreign.root.der);
    const row = page.locator(`[data-testid="trust-anchor-row"][data-fingerprint="${fingerprint}"]`);
    await row.getByTestId('trust-anchor-disable').click();
    const confirm = page.locator('.ant-popover:visible [data-testid="trust-anchor-confirm"]');
    await expect.poll(() => confirm.isVisible()).toBe(true);
    await shot(page, '03-disable-confirm');
    await confirm.click();
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('disabled');
    expect(await chain()).toBe('untrusted');
    await expect.poll(() => page.locator(MOTION).count(), { timeout: 10_000 }).toBe(0);
    await shot(page, '04-disabled');
  });

  it('works on a 390 px phone: cards, a PEM pasted, a removal confirmed', async () => {
    const p = await suite.phone();
    try {
      await p.addInitScript(
        `localStorage.setItem('operatorToken', ${JSON.stringify(operatorToken)}); localStorage.setItem('operatorName', 'admin');`,
      );
      await p.goto(`${suite.base}/manage?tab=trustAnchors`);
      await expect
        .poll(() => p.getByTestId('trust-anchor-cards').isVisible(), { timeout: 20_000 })
        .toBe(true);
      // Nothing wider than the screen.
      const overflow = async () =>
        (await p.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        )) as number;
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shot(p, '05-phone');

      await p.getByTestId('trust-anchor-add').click();
      await expect.poll(() => p.getByTestId('trust-anchor-add-label').isVisible()).toBe(true);
      await p.getByTestId('trust-anchor-add-label').fill('异地平台二级 CA');
      await p.getByTestId('trust-anchor-mode-pem').click();
      // A leaf first: refused with the catalogued reason, the dialog stays open.
      await p.getByTestId('trust-anchor-add-pem').fill(foreign.seal.pem);
      await p.getByTestId('trust-anchor-add-submit').click();
      await expect
        .poll(() => p.getByTestId('trust-anchor-add-error').textContent(), { timeout: 15_000 })
        .toContain('不是 CA 证书');
      await shot(p, '06-phone-refused');
      await p.getByTestId('trust-anchor-add-pem').fill(foreign.issuing.pem);
      await p.getByTestId('trust-anchor-add-submit').click();
      const fingerprint = await fingerprintOf(foreign.issuing.der);
      const card = p.locator(`[data-testid="trust-anchor-row"][data-fingerprint="${fingerprint}"]`);
      await expect.poll(() => card.isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await overflow()).toBeLessThanOrEqual(0);
      // The issuing CA under the foreign root is an anchor of its own: the PDF is trusted through it.
      expect(await chain()).toBe('trusted');
      await expect.poll(() => p.locator(MOTION).count(), { timeout: 10_000 }).toBe(0);
      await shot(p, '07-phone-added');

      await card.getByTestId('trust-anchor-remove').click();
      const confirm = p.locator('.ant-popover:visible [data-testid="trust-anchor-confirm"]');
      await expect.poll(() => confirm.isVisible()).toBe(true);
      await shot(p, '08-phone-remove-confirm');
      await confirm.click();
      await expect.poll(() => card.count(), { timeout: 15_000 }).toBe(0);
      expect(await chain()).toBe('untrusted');
    } finally {
      await suite.close(p);
    }
  });

  it('shows every change in the audit log', async () => {
    await page.getByTestId('manage-tab-audit').click();
    await page.getByTestId('manage-audit-action').fill('operator.trustAnchor');
    await page.getByTestId('manage-audit-search').click();
    const rows = page.getByTestId('manage-audit-row');
    await expect
      .poll(
        async () => (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-action')))).sort(),
        {
          timeout: 15_000,
        },
      )
      .toEqual([
        'operator.trustAnchor.add',
        'operator.trustAnchor.add',
        'operator.trustAnchor.disable',
        'operator.trustAnchor.remove',
      ]);
  });
});
