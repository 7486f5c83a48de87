import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDE_EN } from '../apps/web/src/features/help/content/guide-en';
import { GUIDE_ZH } from '../apps/web/src/features/help/content/guide-zh';
import { GUIDE_SHOTS, type GuideShot } from '../apps/web/src/features/help/model/guide';
import { useE2eSuite } from './fixtures';
import { confirmWill, contractPdf, dragOntoPage, signOrgByApi, type SignOrg } from './sign-support';
import { HAS_CHROMIUM, loginByApi, PAGE_DIALECTS, ROOT, uniqueMobile } from './support';

/**
 * The user guide's screenshots are the app's own: this suite walks the pages the guide shows, in Chinese
 * and in English, and takes each picture the guide names. With HELP_SHOTS=write (`npm run help:shots`)
 * they replace apps/web/public/help/<lang>/<name>.jpg; otherwise they go under test-results. Then the
 * guide itself is opened at 1280 and 390 px in both languages: every chapter, every picture loaded.
 */
const WRITE = process.env.HELP_SHOTS === 'write';
const LANGUAGES = ['zh-CN', 'en'] as const;
/** Writing, every language; otherwise one walk shows the pictures can still be taken (CI time). */
const SHOOT = WRITE ? LANGUAGES : (['zh-CN'] as const);

describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('the user guide and its screenshots (%s)', (dialect) => {
  const suite = useE2eSuite(dialect, { shotsDir: 'help' });
  let org: SignOrg;
  let newcomer = '';
  let work = '';
  let signed = '';

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'openseal-help-'));
    org = await signOrgByApi(suite.server);
    newcomer = await loginByApi(suite.base, uniqueMobile());
  });
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  const settle = async (page: Page) => {
    await expect
      .poll(() => page.locator('.ant-spin-spinning, .ant-skeleton').count(), { timeout: 20_000 })
      .toBe(0);
    await page.waitForTimeout(400);
  };

  /** One picture of the viewport (the guide shows what a person sees first), JPEG to keep them small. */
  async function take(page: Page, lang: string, name: GuideShot) {
    const dir = WRITE
      ? join(ROOT, 'apps/web/public/help', lang)
      : join(ROOT, 'test-results/e2e', dialect, 'help', lang);
    await mkdir(dir, { recursive: true });
    await page.evaluate(
      'document.activeElement && document.activeElement.blur && document.activeElement.blur()',
    );
    await writeFile(join(dir, `${name}.jpg`), await page.screenshot({ type: 'jpeg', quality: 72 }));
    taken.add(`${lang}/${name}`);
  }
  const taken = new Set<string>();

  for (const lang of SHOOT)
    it(`${lang}: takes every screenshot the guide shows`, async () => {
      const page = await suite.desktop({
        viewport: { width: 1280, height: 800 },
        locale: lang,
        acceptDownloads: true,
      });
      await page.addInitScript(`localStorage.setItem('language', '${lang}')`);

      await page.goto(`${suite.base}/login`);
      await expect.poll(() => page.getByTestId('login-page').isVisible(), { timeout: 20_000 }).toBe(true);
      await settle(page);
      await take(page, lang, 'login');

      await suite.openSignedIn(page, newcomer, '/userCenter/infoPersonal/realName');
      await settle(page);
      await take(page, lang, 'realname-person');

      for (const [path, name] of [
        ['/', 'home'],
        ['/sealService/mySealList', 'seal-list'],
        ['/sealService/applySeal', 'seal-apply'],
        ['/sealService/ukeyManage', 'ukey-manage'],
      ] as const) {
        await suite.openSignedIn(page, org.admin, path);
        await settle(page);
        await take(page, lang, name);
      }

      // Quick sign: the upload, the seal placed, the will-auth, then the records.
      await suite.openSignedIn(page, org.admin, '/signService/signQuickly');
      await expect.poll(() => page.getByTestId('sign-upload').isVisible(), { timeout: 20_000 }).toBe(true);
      const pdf = join(work, lang === 'en' ? 'Purchase contract.pdf' : '采购合同.pdf');
      await writeFile(pdf, contractPdf(`Purchase contract ${lang}`, 2));
      await page.locator('[data-testid="sign-upload"] input[type="file"]').setInputFiles(pdf);
      await expect
        .poll(() => page.getByTestId('sign-file').first().getAttribute('data-stored'), { timeout: 15_000 })
        .toBe('true');
      await settle(page);
      await take(page, lang, 'sign-upload');
      await page.getByTestId('quick-next').click();
      await expect
        .poll(() => page.locator('[data-testid="pdf-page"][data-page="1"]').getAttribute('data-drawn'), {
          timeout: 30_000,
        })
        .toBe('true');
      await expect
        .poll(() => page.getByTestId('palette-seal').getAttribute('data-enabled'), { timeout: 15_000 })
        .toBe('true');
      await dragOntoPage(page, 'palette-seal', { fx: 0.62, fy: 0.3 });
      await expect.poll(() => page.getByTestId('placed-item').count()).toBe(1);
      await page.waitForTimeout(300);
      await take(page, lang, 'sign-place');
      await page.getByTestId('sign-submit').click();
      await confirmWill(page, suite.base, org.adminMobile);
      await settle(page);
      await take(page, lang, 'sign-will');
      await page.getByTestId('will-verify').click();
      await expect.poll(() => page.getByTestId('quick-result').isVisible(), { timeout: 60_000 }).toBe(true);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('quick-download').first().click(),
      ]);
      signed = join(work, `signed-${lang}.pdf`);
      await download.saveAs(signed);

      await suite.openSignedIn(page, org.admin, '/signService/signRecord');
      await settle(page);
      await take(page, lang, 'sign-list');

      await page.goto(`${suite.base}/verifySign`);
      const input = page.locator('[data-testid="verify-upload"] input[type="file"]');
      await input.waitFor({ state: 'attached', timeout: 20_000 });
      await input.setInputFiles(signed);
      await expect
        .poll(() => page.getByTestId('verify-verdict').first().getAttribute('data-verdict'), {
          timeout: 30_000,
        })
        .toBe('valid');
      await settle(page);
      await take(page, lang, 'verify-result');

      const phone = await suite.phone({ locale: lang });
      await phone.addInitScript(`localStorage.setItem('language', '${lang}')`);
      await suite.openSignedIn(phone, org.admin, '/h5/');
      await settle(phone);
      await take(phone, lang, 'phone-home');
      await suite.close(phone);
      await suite.close(page);

      expect(GUIDE_SHOTS.filter((s) => !taken.has(`${lang}/${s}`))).toEqual([]);
    });

  for (const lang of LANGUAGES)
    for (const width of [1280, 390])
      it(`${lang} at ${width} px: every chapter opens, every picture loads, nothing is wider than the screen`, async () => {
        const page =
          width === 390
            ? await suite.phone({ locale: lang })
            : await suite.desktop({ viewport: { width, height: 900 }, locale: lang });
        await page.addInitScript(`localStorage.setItem('language', '${lang}')`);
        const guide = lang === 'en' ? GUIDE_EN : GUIDE_ZH;
        await page.goto(`${suite.base}${width === 390 ? '/h5' : ''}/help`);
        await expect.poll(() => page.getByTestId('help-page').isVisible(), { timeout: 20_000 }).toBe(true);
        for (const chapter of guide) {
          await page.goto(`${suite.base}${width === 390 ? '/h5' : ''}/help?chapter=${chapter.id}`);
          await expect
            .poll(() => page.getByTestId('help-page').getAttribute('data-chapter'), { timeout: 15_000 })
            .toBe(chapter.id);
          await expect(page.getByTestId('help-chapter').locator('h2').innerText()).resolves.toBe(
            chapter.title,
          );
          const pictures = page.getByTestId('help-shot').locator('img');
          const expected = chapter.blocks.filter((b) => 'shot' in b).length;
          await expect.poll(() => pictures.count(), { timeout: 10_000 }).toBe(expected);
          for (let i = 0; i < expected; i++) {
            await pictures.nth(i).scrollIntoViewIfNeeded();
            const loaded = `(() => { const img = document.querySelectorAll('[data-testid="help-shot"] img')[${i}]; return img && img.complete ? img.naturalWidth : 0; })()`;
            await expect.poll(() => page.evaluate<number>(loaded), { timeout: 10_000 }).toBeGreaterThan(0);
          }
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
        }
        await suite.shot(page, `guide-${lang}-${width}`, { fullPage: true, top: true });
      });
});
