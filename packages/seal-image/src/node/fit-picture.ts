import { renderAsync } from '@resvg/resvg-js';
import { pngSize } from '@openseal/core';
import { SealImageError } from '../errors';
import { imagePx, MAX_SEAL_PNG_BYTES } from '../units';

/**
 * An uploaded seal picture (a hand-drawn seal) redrawn at the seal's own size: the box of `widthMm` ×
 * `heightMm` at 400 dpi, as every generated seal image is, with the picture scaled to fit and centred
 * on a transparent ground (never stretched). Signing then places a picture of the seal's size and never
 * decodes what was uploaded.
 *
 * The header is read first, and a picture declaring more than `maxPixels` is refused undecoded
 * (`image-too-many-pixels`): a 31 KB PNG may declare 16384 × 16384, a gigabyte once decoded. resvg (the
 * engine that draws the seals) decodes and resamples it. Throws `bad-image` for what does not decode, and
 * `image-too-large` when the result passes the 50 KB of spec section 5.
 */
export async function fitPictureToSeal(
  png: Uint8Array,
  size: { widthMm: number; heightMm: number },
  opts: { maxPixels: number },
): Promise<{ png: Buffer; widthPx: number; heightPx: number }> {
  const declared = pngSize(png);
  if (!declared || declared.width === 0 || declared.height === 0)
    throw new SealImageError('bad-image', 'the picture is not a PNG');
  if (declared.width * declared.height > opts.maxPixels)
    throw new SealImageError(
      'image-too-many-pixels',
      `the picture is ${declared.width} × ${declared.height} pixels, more than ${opts.maxPixels}`,
      { ...declared, maxPixels: opts.maxPixels },
    );
  const w = imagePx(size.widthMm);
  const h = imagePx(size.heightMm);
  const href = `data:image/png;base64,${Buffer.from(png.buffer, png.byteOffset, png.byteLength).toString('base64')}`;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<image width="${w}" height="${h}" preserveAspectRatio="xMidYMid meet" href="${href}"/></svg>`;
  let out: Buffer;
  let pixels: Buffer;
  try {
    const image = await renderAsync(svg, { fitTo: { mode: 'original' }, logLevel: 'off' });
    pixels = image.pixels;
    out = image.asPng();
  } catch (err) {
    throw new SealImageError('bad-image', `the picture does not decode: ${(err as Error).message}`);
  }
  // resvg draws an image it cannot decode as nothing: a picture with no visible pixel is refused.
  let visible = false;
  for (let i = 3; i < pixels.length && !visible; i += 4) visible = pixels[i] !== 0;
  if (!visible) throw new SealImageError('bad-image', 'the picture is empty or does not decode');
  if (out.length > MAX_SEAL_PNG_BYTES)
    throw new SealImageError('image-too-large', `the fitted picture is ${out.length} bytes`, {
      bytes: out.length,
      max: MAX_SEAL_PNG_BYTES,
    });
  return { png: out, widthPx: w, heightPx: h };
}
