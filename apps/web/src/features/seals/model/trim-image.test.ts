import { describe, expect, it } from 'vitest';
import { alphaBounds, fitScale } from './trim-image';

function image(width: number, height: number, ink: [number, number][]) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (const [x, y] of ink) data[(y * width + x) * 4 + 3] = 255;
  return data;
}

describe('hand-drawn seal trimming', () => {
  it('answers the padded box around the strokes, kept inside the image', () => {
    expect(
      alphaBounds(
        image(100, 50, [
          [10, 20],
          [40, 30],
        ]),
        100,
        50,
      ),
    ).toEqual({
      x: 6,
      y: 16,
      width: 39,
      height: 19,
    });
    // Strokes at the very edge: the padding stops at the border.
    expect(
      alphaBounds(
        image(10, 10, [
          [0, 0],
          [9, 9],
        ]),
        10,
        10,
      ),
    ).toEqual({ x: 0, y: 0, width: 10, height: 10 });
  });

  it('ignores faint pixels under the threshold and answers null for an empty pad', () => {
    const faint = new Uint8ClampedArray(4 * 4 * 4);
    faint[3] = 5;
    expect(alphaBounds(faint, 4, 4)).toBeNull();
    expect(alphaBounds(new Uint8ClampedArray(16 * 4), 4, 4)).toBeNull();
  });

  it('scales large drawings down to the side limit and never enlarges', () => {
    expect(fitScale(1200, 300, 600)).toBe(0.5);
    expect(fitScale(200, 100, 600)).toBe(1);
  });
});
