import { describe, expect, it } from 'vitest';
import { clampZoom, pinchZoom, ZOOM_MAX, ZOOM_MIN } from './pinch';

describe('pinch zoom', () => {
  it('follows the fingers: twice as far apart is twice the zoom', () => {
    expect(pinchZoom(1, 100, 200)).toBe(2);
    expect(pinchZoom(2, 200, 100)).toBe(1);
    expect(pinchZoom(1.5, 100, 150)).toBe(2.25);
  });

  it('stays between fit-to-width and four times, in steps of 0.05', () => {
    expect(pinchZoom(1, 100, 10)).toBe(ZOOM_MIN);
    expect(pinchZoom(3, 100, 1000)).toBe(ZOOM_MAX);
    expect(clampZoom(1.234)).toBe(1.25);
    expect(clampZoom(Number.NaN)).toBe(ZOOM_MIN);
  });

  it('ignores a pinch that starts with both fingers on one spot', () => {
    expect(pinchZoom(1.5, 0, 120)).toBe(1.5);
  });
});
