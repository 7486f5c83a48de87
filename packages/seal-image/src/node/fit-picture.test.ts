import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { pngBomb } from '../../../pdf/src/test-bombs';
import { SealImageError } from '../errors';
import { fitPictureToSeal } from './fit-picture';

/** A transparent w × h PNG with a filled red rectangle from (x0, y0) to (x1, y1). */
function drawing(w: number, h: number, [x0, y0, x1, y1]: number[]): Buffer {
  const png = new PNG({ width: w, height: h });
  for (let y = y0!; y < y1!; y++)
    for (let x = x0!; x < x1!; x++) png.data.set([217, 0, 27, 255], (y * w + x) * 4);
  return PNG.sync.write(png);
}

/** The box of the visible pixels of a decoded PNG. */
function inkBox(png: Buffer) {
  const img = PNG.sync.read(png);
  let [x0, y0, x1, y1] = [img.width, img.height, -1, -1];
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      if (img.data[(y * img.width + x) * 4 + 3]! > 127) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
  return { width: img.width, height: img.height, x0, y0, x1, y1 };
}

async function refusal(p: Promise<unknown>): Promise<SealImageError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SealImageError);
  return err as SealImageError;
}

describe('fitPictureToSeal: a hand-drawn picture at the seal’s own size', () => {
  it('redraws a 600 × 300 drawing in the 18 mm box at 400 dpi: 283 px, scaled to fit, centred, not stretched', async () => {
    const out = await fitPictureToSeal(
      drawing(600, 300, [0, 0, 600, 300]),
      { widthMm: 18, heightMm: 18 },
      {
        maxPixels: 2048 * 2048,
      },
    );
    expect([out.widthPx, out.heightPx]).toEqual([283, 283]);
    const box = inkBox(out.png);
    expect([box.width, box.height]).toEqual([283, 283]);
    // Full width; half the height, with equal transparent bands above and below.
    expect(box.x0).toBe(0);
    expect(box.x1).toBe(282);
    expect(box.y1 - box.y0 + 1).toBeGreaterThanOrEqual(140);
    expect(box.y1 - box.y0 + 1).toBeLessThanOrEqual(143);
    expect(Math.abs(box.y0 - (282 - box.y1))).toBeLessThanOrEqual(1);
    expect(out.png.length).toBeLessThan(50_000);
  });

  it('scales a small drawing up to the box too: the seal always has its real size', async () => {
    const out = await fitPictureToSeal(
      drawing(40, 40, [10, 10, 30, 30]),
      { widthMm: 18, heightMm: 18 },
      {
        maxPixels: 2048 * 2048,
      },
    );
    const box = inkBox(out.png);
    expect(box.x1 - box.x0 + 1).toBeGreaterThan(130);
    expect(box.x1 - box.x0 + 1).toBeLessThan(155);
  });

  it('refuses a 16384 × 16384 picture (33 KB) from its header, without decoding it', async () => {
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(64 * 1024);
    const started = performance.now();
    const err = await refusal(
      fitPictureToSeal(bomb, { widthMm: 18, heightMm: 18 }, { maxPixels: 2048 * 2048 }),
    );
    expect(err.code).toBe('image-too-many-pixels');
    expect(err.details).toMatchObject({ width: 16384, height: 16384, maxPixels: 2048 * 2048 });
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('refuses what is not a PNG, and a PNG whose data does not decode', async () => {
    const size = { widthMm: 18, heightMm: 18 };
    const opts = { maxPixels: 2048 * 2048 };
    expect((await refusal(fitPictureToSeal(Buffer.from('GIF89a....'), size, opts))).code).toBe('bad-image');
    const broken = drawing(50, 50, [0, 0, 50, 50]);
    // Keep the header, spoil the image data.
    broken.fill(0x55, 41, broken.length - 12);
    expect((await refusal(fitPictureToSeal(broken, size, opts))).code).toBe('bad-image');
  });
});
