import { describe, expect, it } from 'vitest';
import {
  arrowStep,
  boxPx,
  centreFromPx,
  clampCentre,
  nudge,
  pxPerMm,
  ridingSeamCentre,
  ridingSeamStrip,
} from './placement-geometry';

const A4 = { widthMm: 210, heightMm: 297 };
const SEAL = { widthMm: 42, heightMm: 42 };

describe('placement geometry', () => {
  it('derives pixels per millimetre from the rendered width, and survives a zero', () => {
    expect(pxPerMm(840, 210)).toBe(4);
    expect(pxPerMm(0, 210)).toBe(1);
    expect(pxPerMm(100, 0)).toBe(1);
  });

  it('turns a pixel centre into millimetres and back into the same box', () => {
    const scale = 4;
    const centre = centreFromPx(400, 600, scale, A4, SEAL);
    expect(centre).toEqual({ x: 100, y: 150 });
    expect(boxPx(centre, SEAL, scale)).toEqual({ left: 316, top: 516, width: 168, height: 168 });
  });

  it('keeps the whole image on the page', () => {
    expect(clampCentre({ x: 0, y: 0 }, A4, SEAL)).toEqual({ x: 21, y: 21 });
    expect(clampCentre({ x: 500, y: 500 }, A4, SEAL)).toEqual({ x: 189, y: 276 });
    // An image larger than the page sits in its middle.
    expect(clampCentre({ x: 3, y: 3 }, { widthMm: 30, heightMm: 30 }, SEAL)).toEqual({ x: 15, y: 15 });
  });

  it('rounds to a tenth of a millimetre', () => {
    expect(centreFromPx(333, 333, 3, A4, SEAL)).toEqual({ x: 111, y: 111 });
    expect(centreFromPx(100, 100, 3, A4, SEAL)).toEqual({ x: 33.3, y: 33.3 });
  });

  it('splits a riding seam into strips on the right edge; only y moves', () => {
    const strip = ridingSeamStrip(SEAL, 3);
    expect(strip).toEqual({ widthMm: 14, heightMm: 42 });
    expect(ridingSeamCentre(100, A4, strip)).toEqual({ x: 203, y: 100 });
    expect(ridingSeamCentre(5, A4, strip).y).toBe(21);
    expect(ridingSeamStrip(SEAL, 0)).toEqual(SEAL);
  });

  it('nudges by millimetres with the arrow keys, and ignores other keys', () => {
    expect(arrowStep('ArrowLeft')).toEqual({ dx: -1, dy: 0 });
    expect(arrowStep('ArrowDown')).toEqual({ dx: 0, dy: 1 });
    expect(arrowStep('a')).toBeNull();
    expect(nudge({ x: 100, y: 100 }, 1, -1, A4, SEAL)).toEqual({ x: 101, y: 99 });
    expect(nudge({ x: 21, y: 21 }, -1, -1, A4, SEAL)).toEqual({ x: 21, y: 21 });
  });
});
