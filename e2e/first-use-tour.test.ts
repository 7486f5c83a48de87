import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2eSuite } from './fixtures';
import { phoneLayout } from './phone-support';
import { HAS_CHROMIUM, MOTION, PAGE_DIALECTS, uniqueMobile } from './support';

/**
 * The first-use tour (OPERATION_GUIDE on, issue 15): a signed-in person who has not seen a page's guide
 * gets a short tour of its main controls, at 1280 px and on a 390 px phone by touch; closing or finishing
 * it is logged (GET /v1/guidanceLog/check, POST /v1/guidanceLog/save), so it does not come back on a
 * reload or on the other device. Screenshots under test-results/e2e/<dialect>/tour/.
 */
describe.skipIf(!HAS_CHROMIUM).each(PAGE_DIALECTS)('first-use tour (%s)', (dialect) => {
  const suite = useE2eSuite(dialect, { shotsDir: 'tour' });
  const tour = (page: Page) => page.locator('.os-tour .ant-tour-section');
  const stepOf = (page: Page) => page.getByTestId('first-use-tour-step');

  /** A person registered by SMS whose real name counts as verified (the pages then open without a detour). */
  async function person(): Promise<{ token: string; mobile: string }> {
    const mobile = uniqueMobile();
    const token = await suite.login(mobile);
    await suite.db.updateTable('persons').set({ real_name_status: 1 }).where('mobile', '=', mobile).execute();
    return { token, mobile };
  }

  async function logged(mobile: string) {
    return suite.db
      .selectFrom('guidance_logs as g')
      .innerJoin('persons as p', 'p.id', 'g.person_id')
      .select(['g.page', 'g.action'])
      .where('p.mobile', '=', mobile)
      .orderBy('g.page')
      .execute();
  }

  /** The tour is up on this page and has stopped moving. */
  async function tourShows(page: Page, guide: string, text: string) {
    await expect.poll(() => tour(page).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await stepOf(page).getAttribute('data-page')).toBe(guide);
    await expect.poll(() => page.locator(MOTION).count(), { timeout: 10_000 }).toBe(0);
    expect(await stepOf(page).textContent()).toBe(text);
    // The mask's window glides to the new target (a transition no motion class marks).
    await page.waitForTimeout(600);
  }

  /** After a reload the page is there and stays without a tour (it waits up to 4 s for its targets). */
  async function noTourAfterReload(page: Page, testId: string) {
    const checked = page.waitForResponse((r) => r.url().includes('/v1/guidanceLog/check'), {
      timeout: 20_000,
    });
    await page.reload();
    await expect.poll(() => page.getByTestId(testId).isVisible(), { timeout: 20_000 }).toBe(true);
    // The page asked whether its guide was seen, and was told so: give it a moment to (not) show it.
    await checked;
    await page.waitForTimeout(1_000);
    expect(await tour(page).count()).toBe(0);
  }

  beforeAll(async () => {
    await suite.db
      .updateTable('config_values')
      .set({ value: 'true' })
      .where('code', '=', 'OPERATION_GUIDE')
      .execute();
    // The server's configuration cache lasts 5 s.
    await new Promise((r) => setTimeout(r, 5_500));
  });

  let desktopUser: { token: string; mobile: string };

  it('shows the home tour once at 1280 px; closed, it stays away; the sign list has its own', async () => {
    desktopUser = await person();
    const page = await suite.signedIn(desktopUser.token, '/');
    // The announcement comes first; the tour waits for it to be closed.
    const ok = page.getByTestId('announcement-ok');
    await expect.poll(() => ok.isVisible(), { timeout: 15_000 }).toBe(true);
    await page.waitForTimeout(1_000);
    expect(await tour(page).count()).toBe(0);
    await ok.click();

    await tourShows(page, 'home', '1 / 4');
    expect(await tour(page).textContent()).toContain('顶部导航');
    await suite.shot(page, 'desktop-home-1');
    await page.locator('.os-tour .os-tour__next').click();
    await tourShows(page, 'home', '2 / 4');
    expect(await tour(page).textContent()).toContain('实名认证');
    await suite.shot(page, 'desktop-home-2');
    await page.locator('.os-tour .ant-tour-close').click();
    await expect.poll(() => tour(page).count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => logged(desktopUser.mobile)).toEqual([{ page: 'home', action: 'closed' }]);
    await noTourAfterReload(page, 'home-page');
    await suite.shot(page, 'desktop-home-after');

    // The sign list's tour, in English this time, gone through to the end.
    await page.evaluate("localStorage.setItem('language', 'en')");
    await page.goto(`${suite.base}/signService/signByMe`);
    await tourShows(page, 'signList', '1 / 3');
    expect(await tour(page).textContent()).toContain('By state');
    await suite.shot(page, 'desktop-sign-list-en-1');
    for (const n of [2, 3]) {
      await page.locator('.os-tour .os-tour__next').click();
      await tourShows(page, 'signList', `${n} / 3`);
    }
    expect(await page.locator('.os-tour .os-tour__next').textContent()).toBe('Got it');
    await suite.shot(page, 'desktop-sign-list-en-3');
    await page.locator('.os-tour .os-tour__next').click();
    await expect.poll(() => tour(page).count(), { timeout: 10_000 }).toBe(0);
    await expect
      .poll(() => logged(desktopUser.mobile))
      .toEqual([
        { page: 'home', action: 'closed' },
        { page: 'signList', action: 'finished' },
      ]);
    await noTourAfterReload(page, 'sign-by-me-page');
    await suite.close(page);
  });

  it('shows the tour on a 390 px phone by touch, fitting the screen, then not again', async () => {
    const user = await person();
    const phone = await suite.phone();
    await suite.openSignedIn(phone, user.token, '/h5/');
    await tourShows(phone, 'home', '1 / 4');
    const fits = async (name: string) => {
      const layout = await phoneLayout(phone);
      expect(layout.scrollWidth, `${name}: ${layout.overflowing.join(', ')}`).toBeLessThanOrEqual(
        layout.viewport,
      );
      expect(layout.overflowing, name).toEqual([]);
      // The tour's own controls are finger-sized.
      expect(
        layout.smallTargets.filter((s) => s.includes('ant-tour') || s.includes('os-tour')),
        name,
      ).toEqual([]);
      const panel = await phone.locator('.ant-tour.os-tour').boundingBox();
      expect(panel!.x).toBeGreaterThanOrEqual(0);
      expect(panel!.x + panel!.width).toBeLessThanOrEqual(390);
      await suite.shot(phone, name);
    };
    await fits('phone-home-1');
    for (const n of [2, 3, 4]) {
      await phone.locator('.os-tour .os-tour__next').tap();
      await tourShows(phone, 'home', `${n} / 4`);
      await fits(`phone-home-${n}`);
    }
    await phone.locator('.os-tour .os-tour__next').tap();
    await expect.poll(() => tour(phone).count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => logged(user.mobile)).toEqual([{ page: 'home', action: 'finished' }]);
    await noTourAfterReload(phone, 'mobile-home');
    await suite.shot(phone, 'phone-home-after');

    // The phone's seal list: its tour, closed with the close button.
    await phone.goto(`${suite.base}/h5/sealService/mySealList`);
    await tourShows(phone, 'sealList', '1 / 2');
    await fits('phone-seal-list-1');
    await phone.locator('.os-tour .ant-tour-close').tap();
    await expect.poll(() => tour(phone).count(), { timeout: 10_000 }).toBe(0);
    await expect
      .poll(() => logged(user.mobile))
      .toEqual([
        { page: 'home', action: 'finished' },
        { page: 'sealList', action: 'closed' },
      ]);
    await noTourAfterReload(phone, 'mobile-seal-list');
    await suite.close(phone);

    // Seen on the desktop is seen on the phone: the first person's home tour does not come back.
    const again = await suite.phone();
    const checked = again.waitForResponse((r) => r.url().includes('/v1/guidanceLog/check'), {
      timeout: 20_000,
    });
    await suite.openSignedIn(again, desktopUser.token, '/h5/');
    await expect.poll(() => again.getByTestId('mobile-home').isVisible(), { timeout: 20_000 }).toBe(true);
    await checked;
    await again.waitForTimeout(1_000);
    expect(await tour(again).count()).toBe(0);
    await suite.close(again);
  });
});
