import { PNG } from 'pngjs';
import { PdfError } from '../errors';
import { PdfDict, PdfName, type PdfRef } from '../objects';
import { formatNumber, latin1Bytes, type IncrementalUpdate } from '../writer';
import { uprightMatrix } from './geometry';

export interface DecodedImage {
  width: number;
  height: number;
  rgb: Uint8Array;
  alpha?: Uint8Array;
}

export function decodePng(png: Uint8Array): DecodedImage {
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

/** An RGB image XObject with its alpha channel as /SMask, so transparent parts of the seal stay clear. */
export function addImage(update: IncrementalUpdate, img: DecodedImage): PdfRef {
  const base = (cs: string): PdfDict =>
    new PdfDict([
      ['Type', new PdfName('XObject')],
      ['Subtype', new PdfName('Image')],
      ['Width', img.width],
      ['Height', img.height],
      ['ColorSpace', new PdfName(cs)],
      ['BitsPerComponent', 8],
    ]);
  const dict = base('DeviceRGB');
  if (img.alpha) dict.set('SMask', update.addStream(base('DeviceGray'), img.alpha, { compress: true }));
  return update.addStream(dict, img.rgb, { compress: true });
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
