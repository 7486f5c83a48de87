import { createHash } from 'node:crypto';
import { PNG } from 'pngjs';
import { LIMITS, pngSize } from '@openseal/core';
import { PdfError } from '../errors';
import { deflate } from '../filters';
import { PdfDict, PdfName, type PdfRef } from '../objects';
import { formatNumber, latin1Bytes, type IncrementalUpdate } from '../writer';
import { uprightMatrix } from './geometry';

export interface DecodedImage {
  width: number;
  height: number;
  rgb: Uint8Array;
  alpha?: Uint8Array;
}

/**
 * The seal image's pixels, refused unread (`too-complex`) when its header declares more than `maxPixels`:
 * the decoder would allocate what the header says.
 */
export function decodePng(png: Uint8Array, maxPixels: number = LIMITS.imageMaxPixels): DecodedImage {
  const size = pngSize(png);
  if (!size) throw new PdfError('unsupported', 'the seal image is not a readable PNG');
  if (size.width * size.height > maxPixels)
    throw new PdfError(
      'too-complex',
      `the seal image has ${size.width} × ${size.height} pixels, more than ${maxPixels}`,
    );
  let img: { width: number; height: number; data: Buffer };
  try {
    img = PNG.sync.read(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  } catch (e) {
    throw new PdfError('unsupported', 'the seal image is not a readable PNG', { cause: e });
  }
  const n = img.width * img.height;
  const rgb = new Uint8Array(n * 3);
  const alpha = new Uint8Array(n);
  let opaque = true;
  for (let i = 0; i < n; i++) {
    rgb[i * 3] = img.data[i * 4]!;
    rgb[i * 3 + 1] = img.data[i * 4 + 1]!;
    rgb[i * 3 + 2] = img.data[i * 4 + 2]!;
    const a = img.data[i * 4 + 3]!;
    alpha[i] = a;
    if (a !== 255) opaque = false;
  }
  return opaque
    ? { width: img.width, height: img.height, rgb }
    : { width: img.width, height: img.height, rgb, alpha };
}

/** A seal image ready to write: its RGB and alpha planes already deflated. */
interface PreparedImage {
  width: number;
  height: number;
  rgb: Uint8Array;
  alpha?: Uint8Array;
}

/**
 * Seal images are few and used over and over (every signature with a seal writes its image), and
 * decoding a 400-dpi PNG and deflating its planes is most of a signature's cost: keep the last few
 * prepared images, keyed by the PNG's digest.
 */
const PREPARED_MAX = 32;
const prepared = new Map<string, PreparedImage>();

function preparePng(png: Uint8Array): PreparedImage {
  const key = createHash('sha256').update(png).digest('hex');
  const hit = prepared.get(key);
  if (hit) {
    prepared.delete(key);
    prepared.set(key, hit);
    return hit;
  }
  const img = decodePng(png);
  const out: PreparedImage = {
    width: img.width,
    height: img.height,
    rgb: deflate(img.rgb),
    ...(img.alpha ? { alpha: deflate(img.alpha) } : {}),
  };
  prepared.set(key, out);
  if (prepared.size > PREPARED_MAX) prepared.delete(prepared.keys().next().value!);
  return out;
}

/**
 * An RGB image XObject of a PNG with its alpha channel as /SMask, so transparent parts of the seal stay
 * clear; through the cache of prepared images.
 */
export function addPngImage(update: IncrementalUpdate, png: Uint8Array): PdfRef {
  const img = preparePng(png);
  const base = (cs: string, length: number): PdfDict =>
    new PdfDict([
      ['Type', new PdfName('XObject')],
      ['Subtype', new PdfName('Image')],
      ['Width', img.width],
      ['Height', img.height],
      ['ColorSpace', new PdfName(cs)],
      ['BitsPerComponent', 8],
      ['Filter', new PdfName('FlateDecode')],
      ['Length', length],
    ]);
  const dict = base('DeviceRGB', img.rgb.length);
  if (img.alpha) dict.set('SMask', update.addStream(base('DeviceGray', img.alpha.length), img.alpha));
  return update.addStream(dict, img.rgb);
}

/**
 * A form XObject of w×h points (as displayed) that draws part of an image: the image is `fullWidth`
 * wide and shifted left by `offsetX`, so a strip of a larger seal can be shown. The /Matrix keeps it
 * upright on a rotated page.
 */
export function addImageForm(
  update: IncrementalUpdate,
  image: PdfRef,
  w: number,
  h: number,
  rotate: number,
  fullWidth = w,
  offsetX = 0,
): PdfRef {
  const f = formatNumber;
  const content = `q ${f(fullWidth)} 0 0 ${f(h)} ${f(-offsetX)} 0 cm /Seal Do Q\n`;
  const dict = new PdfDict([
    ['Type', new PdfName('XObject')],
    ['Subtype', new PdfName('Form')],
    ['BBox', [0, 0, round(w), round(h)]],
    ['Matrix', uprightMatrix(rotate)],
    ['Resources', new PdfDict([['XObject', new PdfDict([['Seal', image]])]])],
  ]);
  return update.addStream(dict, latin1Bytes(content), { compress: true });
}

/** An empty appearance, for invisible signatures (some validators want /AP even then). */
export function addEmptyForm(update: IncrementalUpdate): PdfRef {
  const dict = new PdfDict([
    ['Type', new PdfName('XObject')],
    ['Subtype', new PdfName('Form')],
    ['BBox', [0, 0, 0, 0]],
  ]);
  return update.addStream(dict, new Uint8Array(0));
}

export function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
