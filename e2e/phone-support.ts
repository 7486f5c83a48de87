import type { Locator, Page } from 'playwright-core';

/**
 * What the phone journeys check on every page, and the touch gestures they make (through the browser's
 * own touch input, so the page receives real touch and pointer events with pointerType "touch").
 */

/** The smallest touch target, in CSS pixels (both sides). */
export const MIN_TOUCH = 44;

export interface PhoneLayout {
  viewport: number;
  /** The document's width: more than the viewport means something scrolls sideways. */
  scrollWidth: number;
  /** Visible elements wider than the screen or reaching past its right edge. */
  overflowing: string[];
  /** Visible controls smaller than MIN_TOUCH on either side (text links inside prose excepted). */
  smallTargets: string[];
}

/**
 * The measurement, run in the page (plain JavaScript: this file is compiled without the DOM's types).
 * Inside a box that scrolls sideways on purpose (a zoomed document) width is allowed; a link inside
 * running text is part of the sentence; a control wrapping another counts once; a finger hits an
 * input's whole field and a tab's whole tab.
 */
const MEASURE = `(min) => {
  const vw = document.documentElement.clientWidth;
  const describe = (el) => {
    const id = el.getAttribute('data-testid');
    const cls = typeof el.className === 'string' ? el.className.split(' ').slice(0, 2).join('.') : '';
    const text = (el.textContent || '').trim().slice(0, 20);
    return el.tagName.toLowerCase() + (id ? '[' + id + ']' : '') + (cls ? '.' + cls : '') + ' "' + text + '"';
  };
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && style.display !== 'none';
  };
  const inScroller = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll') return true;
    }
    return false;
  };
  const overflowing = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!visible(el) || inScroller(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.right > vw + 1 || r.width > vw + 1) overflowing.push(describe(el));
  }
  const smallTargets = [];
  const controls = document.querySelectorAll(
    'button, a[href], input:not([type=hidden]):not([type=file]):not([type=checkbox]):not([type=radio]), ' +
      '[role="tab"], [role="button"], .ant-select-selector, .ant-segmented-item',
  );
  for (const el of controls) {
    if (!visible(el)) continue;
    if (el.tagName === 'A' && el.closest('p, li, .ant-alert-description, .os-m-card__meta')) continue;
    if (el.parentElement && el.parentElement.closest('button, a[href], [role="button"]')) continue;
    const hit =
      el.closest('.ant-input-affix-wrapper, .ant-input-number, .ant-picker, .ant-tabs-tab, .ant-segmented-item') || el;
    const r = hit.getBoundingClientRect();
    if (r.height < min - 0.5 || r.width < min - 0.5)
      smallTargets.push(describe(el) + ' ' + Math.round(r.width) + '×' + Math.round(r.height));
  }
  return {
    viewport: vw,
    scrollWidth: document.documentElement.scrollWidth,
    overflowing: overflowing.slice(0, 10),
    smallTargets: smallTargets.slice(0, 10),
  };
}`;

/** Measures the page as it is now. */
export function phoneLayout(page: Page): Promise<PhoneLayout> {
  return page.evaluate(`(${MEASURE})(${MIN_TOUCH})`) as Promise<PhoneLayout>;
}

async function cdp(page: Page) {
  return page.context().newCDPSession(page);
}

async function centre(target: Locator): Promise<{ x: number; y: number }> {
  const box = await target.boundingBox();
  if (!box) throw new Error('the element is not visible');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** One finger from an element's centre to a point, in steps. */
export async function touchDrag(page: Page, from: Locator, to: { x: number; y: number }, steps = 8) {
  const session = await cdp(page);
  const start = await centre(from);
  const point = (x: number, y: number) => [{ x, y, id: 1, radiusX: 4, radiusY: 4, force: 1 }];
  await session.send('Input.dispatchTouchEvent', {
    type: 'touchStart',
    touchPoints: point(start.x, start.y),
  });
  for (let i = 1; i <= steps; i++) {
    const x = start.x + ((to.x - start.x) * i) / steps;
    const y = start.y + ((to.y - start.y) * i) / steps;
    await session.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(x, y) });
  }
  await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await session.detach();
}

/** Two fingers around an element's centre, from `fromGap` to `toGap` pixels apart (wider zooms in). */
export async function pinch(page: Page, on: Locator, fromGap: number, toGap: number, steps = 8) {
  const session = await cdp(page);
  const c = await centre(on);
  const points = (gap: number) => [
    { x: c.x - gap / 2, y: c.y, id: 1, radiusX: 4, radiusY: 4, force: 1 },
    { x: c.x + gap / 2, y: c.y, id: 2, radiusX: 4, radiusY: 4, force: 1 },
  ];
  await session.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: points(fromGap) });
  for (let i = 1; i <= steps; i++)
    await session.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: points(fromGap + ((toGap - fromGap) * i) / steps),
    });
  await session.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await session.detach();
}

/**
 * Taps a control once it is in the middle of the screen, as a person brings a button into view before
 * pressing it. (Headless Chromium's emulated touch turns a tap on a button in the last few dozen pixels of
 * the viewport into no click at all, while the same tap mid-screen, or a mouse click there, works.)
 */
export async function tapCentred(target: Locator) {
  await target.evaluate('(el) => el.scrollIntoView({ block: "center" })');
  await target.tap();
}

/**
 * Taps a control until `answered` says the page reacted (at most three taps, three seconds apart): the
 * emulated touch of headless Chromium now and then turns a tap into no click at all (after a touch drag
 * always), which a person would simply tap again.
 */
export async function tapUntil(target: Locator, answered: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await tapCentred(target);
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline) {
      if (await answered()) return;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}
