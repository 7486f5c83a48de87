import { renderAsync } from '@resvg/resvg-js';
import { SealImageError } from '../errors';
import { renderSvg } from '../render-svg';
import { parseTemplate } from '../schema';
import { templateText } from '../text';
import { MAX_SEAL_PNG_BYTES, MM_PER_INCH, SEAL_DPI } from '../units';
import type { SealTemplate } from '../types';
import { glyphsFor, loadFont, type FontHandle } from './font';
import { encodeIndexedPng } from './png';

type Rgba = readonly [number, number, number, number];

function rgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/**
 * A seal is one or two inks over transparency, so a palette of each ink at a few alpha levels holds it:
 * one index per pixel instead of four bytes (README "PNG size"). Pixels are premultiplied (resvg);
 * where two inks meet, a pixel takes the nearer one.
 */
export function toIndexed(
  pixels: Uint8Array,
  inks: readonly string[],
  levels: number,
): { indices: Uint8Array; palette: Rgba[] } {
  const colors = inks.map(rgb);
  const palette: Rgba[] = [];
  for (const [r, g, b] of colors)
    for (let i = 0; i < levels; i++) palette.push([r, g, b, Math.round((i * 255) / (levels - 1))]);
  const n = pixels.length >> 2;
  const indices = new Uint8Array(n);
  const step = (levels - 1) / 255;
  if (colors.length === 1) {
    for (let q = 0; q < n; q++) indices[q] = Math.round((pixels[q * 4 + 3] ?? 0) * step);
    return { indices, palette };
  }
  for (let q = 0, p = 0; q < n; q++, p += 4) {
    const a = pixels[p + 3] ?? 0;
    if (a === 0) continue;
    let ink = 0;
    let best = Infinity;
    for (let k = 0; k < colors.length; k++) {
      const [r, g, b] = colors[k]!;
      const d =
        ((pixels[p] ?? 0) - (r * a) / 255) ** 2 +
        ((pixels[p + 1] ?? 0) - (g * a) / 255) ** 2 +
        ((pixels[p + 2] ?? 0) - (b * a) / 255) ** 2;
      if (d < best) {
        best = d;
        ink = k;
      }
    }
    indices[q] = ink * levels + Math.round(a * step);
  }
  return { indices, palette };
}

/**
 * Encodings tried in turn until one fits the limit: 16 palette entries (4 bits), which at 400 dpi
 * is as smooth as 256 to the eye and a fifth smaller, at zlib level 7; then level 9 (4 % smaller, ten
 * times slower); then 4 entries (2 bits), which only text of dense glyphs everywhere needs.
 */
const ENCODINGS = [
  { depth: 4, level: 7 },
  { depth: 4, level: 9 },
  { depth: 2, level: 9 },
] as const;

/**
 * Rasterises a path-only SVG at its own pixel size and encodes it as an indexed PNG of the given inks,
 * trying the encodings in turn until one fits the 50 KB limit. Throws `image-too-large` if none does.
 */
export async function svgToPng(
  svg: string,
  inks: readonly string[],
): Promise<{ png: Buffer; widthPx: number; heightPx: number }> {
  const image = await renderAsync(svg, {
    fitTo: { mode: 'original' },
    font: { loadSystemFonts: false },
    shapeRendering: 2,
    logLevel: 'off',
  });
  const pixels = image.pixels;
  let png: Buffer | undefined;
  let indexed: ReturnType<typeof toIndexed> | undefined;
  for (const { depth, level } of ENCODINGS) {
    if (indexed?.palette.length !== 2 ** depth) indexed = toIndexed(pixels, inks, 2 ** depth / inks.length);
    png = encodeIndexedPng({
      width: image.width,
      height: image.height,
      depth,
      level,
      indices: indexed.indices,
      palette: indexed.palette,
      pixelsPerMetre: Math.round((SEAL_DPI / MM_PER_INCH) * 1000),
    });
    if (png.length <= MAX_SEAL_PNG_BYTES) return { png, widthPx: image.width, heightPx: image.height };
  }
  throw new SealImageError(
    'image-too-large',
    `the seal image is ${png?.length} bytes, over ${MAX_SEAL_PNG_BYTES}`,
    {
      bytes: png?.length,
      max: MAX_SEAL_PNG_BYTES,
    },
  );
}

/**
 * Draws a template as a transparent PNG at 400 dpi from the shipped font (the template's font, read
 * once per process, unless one is given). Throws SealImageError: the template's errors, `missing-glyph`,
 * and `image-too-large` should a picture pass the 50 KB limit of spec section 5 even at 2 bits.
 */
export async function renderPng(
  template: SealTemplate,
  opts: { font?: FontHandle } = {},
): Promise<{ png: Buffer; widthPx: number; heightPx: number }> {
  const t = parseTemplate(template);
  const font = opts.font ?? (await loadFont(t.contentInfo.font));
  const svg = renderSvg(t, glyphsFor(templateText(t), font));
  const ink = t.baseInfo.fontColor.toLowerCase();
  const line = t.borderInfo.lineColor.toLowerCase();
  return svgToPng(svg, t.borderInfo.useDKLine && line !== ink ? [ink, line] : [ink]);
}
