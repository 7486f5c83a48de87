import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import { madeSealByApi, sealOrgByApi, type SealOrg } from './seal-support';
import { HAS_CHROMIUM, openSelect, PAGE_DIALECTS } from './support';

/**
 * Seal changes of a custom kind in a real browser against the real server: the administrator of a
 * real-named organisation opens the change dialog of a department seal, which offers the drawing types of
 * the custom seal configuration (round Ø42 mm, round Ø40 mm, two-line title); submits a change to the
 * two-line style; the operator approves it; the change detail still shows the replaced impression, the
 * very file the seal had before, beside the new one. Screenshots under
 * test-results/e2e/<dialect>/seal-change-gaps-*.png.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)(
  'custom-kind seal changes in the browser (%s)',
  (dialect) => {
    const suite = useE2eSuite(dialect);
    let page: Page;
    let org: SealOrg;
    let sealCode = '';
    let originalSha = '';

    const shot = async (name: string) => {
      await expect.poll(() => page.locator('.ant-spin-spinning').count(), { timeout: 10_000 }).toBe(0);
      await suite.shot(page, `seal-change-gaps-${name}`);
    };
    /** The sha-256 of what an image address serves, fetched with the page's own session. */
    const shaOf = async (url: string) => {
      const res = await page.request.get(new URL(url, suite.base).toString());
      expect(res.status()).toBe(200);
      return createHash('sha256')
        .update(await res.body())
        .digest('hex');
    };
    const imageSrc = (testId: string) => page.getByTestId(testId).locator('img').getAttribute('src');

    beforeAll(async () => {
      org = await sealOrgByApi(suite.server);
      ({ sealCode } = await madeSealByApi(suite.server, org, {
        sealKind: 'department',
        sealType: 0,
        title: '人事部',
      }));

      page = await suite.desktop();
      await suite.openSignedIn(page, org.admin, `/sealService/mySealList?sealCode=${sealCode}`);
      const seal = await suite.mustApi<{ imageUrl: string }>('GET', `/v1/seals/${sealCode}`, org.admin);
      originalSha = await shaOf(seal.imageUrl);
    });

    it('the change dialog of a department seal offers the custom configuration’s styles', async () => {
      const detail = page.getByTestId('seal-detail');
      await expect.poll(() => detail.getAttribute('data-seal-code'), { timeout: 20_000 }).toBe(sealCode);
      await page.getByTestId('seal-detail-change').click();
      await expect.poll(() => page.getByTestId('change-apply-dialog').isVisible()).toBe(true);
      const select = page.getByTestId('change-apply-seal-type');
      expect(await select.getAttribute('data-source')).toBe('custom');
      await expect.poll(() => select.getAttribute('data-ready'), { timeout: 15_000 }).toBe('true');
      await expect.poll(() => page.getByTestId('change-apply-title').isVisible()).toBe(true);

      const dropdown = await openSelect(page, select);
      const options = dropdown.locator('[data-testid="change-apply-seal-type-option"]');
      await expect
        .poll(() => options.evaluateAll((els) => els.map((e) => e.getAttribute('data-value'))))
        .toEqual(['0', '1', '4']);
      await shot('01-custom-styles');
      await dropdown.locator('.ant-select-item-option', { hasText: '圆形双行标题章' }).click();
      await expect.poll(() => page.getByTestId('change-apply-title0').isVisible()).toBe(true);
      await page.getByTestId('change-apply-title0').fill('档案管理');
      await page.getByTestId('change-apply-reason').fill('启用双行标题样式');
      await page.getByTestId('change-apply-submit').click();
      await expect
        .poll(() => page.getByTestId('change-detail-page').getAttribute('data-status'), { timeout: 30_000 })
        .toBe('pendingReview');
      expect(await page.getByTestId('change-after-seal-type').getAttribute('data-value')).toBe('4');
      expect(await page.getByTestId('change-before-image').getAttribute('data-kept')).toBe('true');
    });

    it('an approved change still shows the replaced impression beside the new one', async () => {
      const changeNo = new URL(page.url()).searchParams.get('changeNo') ?? '';
      expect(changeNo).not.toBe('');
      await suite.approve('sealChange', changeNo);
      await page.reload();
      await expect
        .poll(() => page.getByTestId('change-detail-page').getAttribute('data-status'), { timeout: 15_000 })
        .toBe('changed');
      expect(await page.getByTestId('change-before-image').getAttribute('data-kept')).toBe('true');
      await expect.poll(() => imageSrc('change-before-image'), { timeout: 15_000 }).toBeTruthy();
      const beforeSha = await shaOf((await imageSrc('change-before-image'))!);
      const afterSha = await shaOf((await imageSrc('change-after-image'))!);
      expect(beforeSha).toBe(originalSha);
      expect(afterSha).not.toBe(originalSha);
      // Both impressions have loaded in the page.
      for (const id of ['change-before-image', 'change-after-image'])
        await expect
          .poll(() =>
            page
              .getByTestId(id)
              .locator('img')
              .evaluate((el) => {
                const img = el as unknown as { complete: boolean; naturalWidth: number };
                return img.complete && img.naturalWidth > 0;
              }),
          )
          .toBe(true);
      const seal = await suite.mustApi<{ imageUrl: string; sealType: number }>(
        'GET',
        `/v1/seals/${sealCode}`,
        org.admin,
      );
      expect(seal.sealType).toBe(4);
      expect(await shaOf(seal.imageUrl)).toBe(afterSha);
      await shot('02-approved-detail');
    });
  },
);
