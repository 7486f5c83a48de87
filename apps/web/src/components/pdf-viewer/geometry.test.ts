import { describe, expect, it } from 'vitest';
import {
  boxToRect,
  displayedSizePt,
  fitWidthScale,
  hasArea,
  mmToPx,
  normaliseRotation,
  ptToMm,
  pxToMm,
  rectToBox,
  type PageView,
} from './geometry';

const A4: PageView = [0, 0, 595, 842];

describe('PDF geometry', () => {
  it('normalises /Rotate', () => {
    expect([0, 90, 180, 270, 360, -90, 450].map(normaliseRotation)).toEqual([0, 90, 180, 270, 0, 270, 90]);
  });

  it('swaps the displayed size on a quarter turn', () => {
    expect(displayedSizePt(A4, 0)).toEqual({ widthPt: 595, heightPt: 842 });
    expect(displayedSizePt(A4, 90)).toEqual({ widthPt: 842, heightPt: 595 });
    expect(displayedSizePt(A4, 270)).toEqual({ widthPt: 842, heightPt: 595 });
  });

  it('puts a rectangle where it sits on an unrotated page (y flips, the scale applies)', () => {
    // 100 × 50 pt, 72 pt from the left, 72 pt from the bottom.
    expect(rectToBox([72, 72, 172, 122], { view: A4, rotate: 0, scale: 2 })).toEqual({
      left: 144,
      top: (842 - 122) * 2,
      width: 200,
      height: 100,
    });
    // Corners in any order give the same box.
    expect(rectToBox([172, 122, 72, 72], { view: A4, rotate: 0, scale: 1 })).toEqual(
      rectToBox([72, 72, 172, 122], { view: A4, rotate: 0, scale: 1 }),
    );
  });

  it('follows /Rotate clockwise: the lower-left corner of the page goes top left, top right, bottom right, bottom left', () => {
    const corner = [0, 0, 10, 20] as const; // 10 wide, 20 high, in the lower-left corner
    expect(rectToBox(corner, { view: A4, rotate: 0, scale: 1 })).toEqual({
      left: 0,
      top: 822,
      width: 10,
      height: 20,
    });
    expect(rectToBox(corner, { view: A4, rotate: 90, scale: 1 })).toEqual({
      left: 0,
      top: 0,
      width: 20,
      height: 10,
    });
    expect(rectToBox(corner, { view: A4, rotate: 180, scale: 1 })).toEqual({
      left: 585,
      top: 0,
      width: 10,
      height: 20,
    });
    expect(rectToBox(corner, { view: A4, rotate: 270, scale: 1 })).toEqual({
      left: 822,
      top: 585,
      width: 20,
      height: 10,
    });
  });

  it('measures from the CropBox origin, not from zero', () => {
    const cropped: PageView = [50, 100, 550, 800];
    expect(rectToBox([50, 100, 150, 150], { view: cropped, rotate: 0, scale: 1 })).toEqual({
      left: 0,
      top: 650,
      width: 100,
      height: 50,
    });
  });

  it('turns a displayed box back into the same user-space rectangle at every rotation', () => {
    const view: PageView = [10, 20, 610, 820];
    for (const rotate of [0, 90, 180, 270])
      for (const scale of [0.5, 1.5]) {
        const rect = [100, 200, 260, 330] as const;
        const back = boxToRect(rectToBox(rect, { view, rotate, scale }), { view, rotate, scale });
        back.forEach((v, i) => expect(v).toBeCloseTo(rect[i]!, 6));
      }
  });

  it('converts millimetres and pixels at a scale, and fits a page to a width', () => {
    expect(mmToPx(25.4, 1)).toBeCloseTo(72);
    expect(mmToPx(42, 2)).toBeCloseTo((42 / 25.4) * 72 * 2);
    expect(pxToMm(mmToPx(40, 1.3), 1.3)).toBeCloseTo(40);
    // A4 is 595.28 × 841.89 pt.
    expect(ptToMm(595.28)).toBeCloseTo(210, 1);
    expect(ptToMm(841.89)).toBeCloseTo(297, 1);
    expect(fitWidthScale(1190, 595)).toBe(2);
    expect(fitWidthScale(100, 595)).toBe(0.25);
    expect(fitWidthScale(10000, 595, { max: 3 })).toBe(3);
    expect(fitWidthScale(0, 595)).toBe(1);
  });

  it('tells a visible widget from an invisible one', () => {
    expect(hasArea([0, 0, 0, 0])).toBe(false);
    expect(hasArea(undefined)).toBe(false);
    expect(hasArea([1, 1, 50, 40])).toBe(true);
  });
});
