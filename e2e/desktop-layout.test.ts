import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import { signOrgByApi, type SignOrg } from './sign-support';
import { HAS_CHROMIUM, PAGE_DIALECTS } from './support';

/**
 * The main pages at 1280 px, in Chinese and in English, signed in to an organisation with a seal: nothing
 * wider than the window, no button or table action cut short, every table action inside its table's
 * visible box. A screenshot of each under test-results/e2e/<dialect>/layout/.
 */
const PAGES = [
  '/',
  '/sealService/mySealList',
  '/sealService/applySeal',
  '/sealService/applyRecordList',
  '/sealService/authorizeMng',
  '/sealService/ukeyManage',
  '/signService/signByMe',
  '/signService/signRecord',
  '/signService/signQuickly',
  '/userCenter/infoEnt',
  '/userCenter/infoMemberList',
  '/verifySign',
];

/** Runs in the page: what is too wide, and which buttons or actions are cut. */
const MEASURE = `(() => {
  const vw = document.documentElement.clientWidth;
  const name = (el) => (el.getAttribute('data-testid') || el.className || el.tagName) + ' "' + (el.textContent || '').trim().slice(0, 24) + '"';
  const wide = document.documentElement.scrollWidth > vw + 1;
  const clipped = [];
  for (const b of document.querySelectorAll('.ant-btn, .ant-menu-title-content, .ant-tabs-tab-btn')) {
    const r = b.getBoundingClientRect();
    if (r.width === 0) continue;
    if (b.scrollWidth > b.clientWidth + 1) clipped.push(name(b));
  }
  const hidden = [];
  for (const table of document.querySelectorAll('.ant-table-container')) {
    const box = table.getBoundingClientRect();
    for (const b of table.querySelectorAll('tbody .ant-btn')) {
      const r = b.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < box.left - 1 || r.right > box.right + 1) hidden.push(name(b));
    }
  }
  return { wide, clipped: clipped.slice(0, 8), hidden: hidden.slice(0, 8) };
})()`;

describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)(
  'the main pages at 1280 px in both languages (%s)',
  (dialect) => {
    const suite = useE2eSuite(dialect, { shotsDir: 'layout' });
    let org: SignOrg;
    beforeAll(async () => {
      org = await signOrgByApi(suite.server);
    });

    const settle = async (page: Page) => {
      await expect
        .poll(() => page.locator('.ant-spin-spinning, .ant-skeleton').count(), { timeout: 20_000 })
        .toBe(0);
      await page.waitForTimeout(300);
    };

    for (const language of ['zh-CN', 'en'])
      it(`${language}: fits 1280 px with every button and table action whole`, async () => {
        const page = await suite.desktop({ viewport: { width: 1280, height: 900 }, locale: language });
        await page.addInitScript(`localStorage.setItem('language', '${language}')`);
        for (const path of PAGES) {
          await suite.openSignedIn(page, org.admin, path);
          await settle(page);
          const m = (await page.evaluate(MEASURE)) as { wide: boolean; clipped: string[]; hidden: string[] };
          expect(m.wide, `${language} ${path} is wider than the window`).toBe(false);
          expect(m.clipped, `${language} ${path}: cut buttons`).toEqual([]);
          expect(m.hidden, `${language} ${path}: table actions out of view`).toEqual([]);
          await suite.shot(page, `${language}-${path.slice(1).replaceAll('/', '-') || 'home'}`, {
            fullPage: true,
            top: true,
          });
        }
        await suite.close(page);
      });
  },
);
