import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { PdfError } from '../errors';
import { pngBomb } from '../test-bombs';
import { makePdf } from '../test-pdf';
import { decodePng } from './appearance';
import { signPdf } from './sign-pdf';

function refusal(fn: () => unknown): PdfError {
  try {
    fn();
  } catch (err) {
    if (err instanceof PdfError) return err;
    throw err;
  }
  throw new Error('no error');
}

describe('seal images are decoded within a pixel budget', () => {
  it('refuses a 16384 × 16384 PNG (33 KB) from its header, without decoding it', () => {
    const bomb = pngBomb();
    const started = performance.now();
    const err = refusal(() => decodePng(bomb));
    expect(err.code).toBe('too-complex');
    expect(err.message).toContain('16384 × 16384');
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('decodes an image within the budget, and takes the budget as an argument', () => {
    const png = new PNG({ width: 30, height: 20 });
    png.data.fill(255);
    const bytes = PNG.sync.write(png);
    expect(decodePng(bytes)).toMatchObject({ width: 30, height: 20 });
    expect(refusal(() => decodePng(bytes, 599)).code).toBe('too-complex');
    expect(refusal(() => decodePng(Buffer.from('not a png at all, but long enough'))).code).toBe(
      'unsupported',
    );
  });

  it('a signature whose seal image is over the budget is refused before anything is signed', async () => {
    let asked = false;
    const err = await signPdf(makePdf(), {
      sign: async () => {
        asked = true;
        return new Uint8Array(0);
      },
      appearance: { png: pngBomb(), page: 1, x: 50, y: 50, width: 40, height: 40 },
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PdfError);
    expect((err as PdfError).code).toBe('too-complex');
    expect(asked).toBe(false);
  });
});
