import { SealImageError } from './errors';
import { DEFAULT_SEAL_FONT, isSealFont } from './fonts';
import {
  arcLength,
  INNER_LINE_GAP_PER_BORDER,
  rad,
  RING_GAP_PER_EM,
  round2,
  spanForLength,
  starPath,
} from './geometry';
import { checkTextRules, shapeOf } from './rules';
import { MAX_SEAL_MM, MIN_SEAL_MM, parseTemplate } from './schema';
import { chars, estimatedAdvance } from './text';
import { imagePx, mmToPx } from './units';
import type { SealSpec, SealTemplate, SealType, TextInfo } from './types';

/*
 * Defaults, in mm at each type's default size (scaled with the seal when a caller asks for another
 * size). README "Defaults" gives the source of every figure; in short: sizes, borders and the star come
 * from the seal rules as widely reproduced (DESIGN.md, "Seal drawing conventions"), the oval's text
 * sizes from the invoice-seal rule text, the rest was drawn and looked at (the goldens).
 */

/** Text on an arc. Heights are em heights (Noto Serif SC's ink is about 0.93 em for CJK). */
interface ArcDesign {
  /** From the inner edge of whatever is outside (border, inner line, security line) to the glyphs. */
  gap: number;
  height: number;
  /** Long texts shrink down to this height before the glyphs get thinner than `minAspect`. */
  minHeight: number;
  /** Preferred em width over em height: seal faces are condensed. */
  aspect: number;
  minAspect: number;
  /** Share of the pitch a glyph's em takes; the rest is the space between characters. */
  fill: number;
  /** Degrees: short texts spread to this span (reached at 4 characters), long ones stop at maxSpan. */
  minSpan: number;
  maxSpan: number;
}

/** A horizontal line, its centre measured down from the seal's centre. */
interface LineDesign {
  height: number;
  centre: number;
  /** Preferred em width over em height; a line longer than maxWidth is condensed further. */
  aspect: number;
  /** Added between characters, in mm. */
  spacing: number;
  maxWidth: number;
}

/** Lengths are for a 42 mm seal and scale with the diameter, except the border (at `diameter`). */
interface RoundDesign {
  diameter: number;
  border: number;
  name: ArcDesign;
  star: { size: number; centre: number };
  title: LineDesign;
  title0: LineDesign | null;
  serial: ArcDesign;
}

const ROUND_NAME: ArcDesign = {
  gap: 0.9,
  height: 6.6,
  minHeight: 4.0,
  aspect: 0.8,
  minAspect: 0.4,
  fill: 0.92,
  minSpan: 150,
  maxSpan: 240,
};
const ROUND_SERIAL: ArcDesign = {
  gap: 0.5,
  height: 2.8,
  minHeight: 2.2,
  aspect: 0.85,
  minAspect: 0.5,
  fill: 0.95,
  minSpan: 0,
  maxSpan: 70,
};

const OFFICIAL: RoundDesign = {
  diameter: 42,
  border: 1.2,
  name: ROUND_NAME,
  star: { size: 14, centre: 0 },
  title: { height: 4.6, centre: 10.8, aspect: 0.75, spacing: 0.3, maxWidth: 19 },
  title0: null,
  serial: ROUND_SERIAL,
};

const ROUND_DESIGNS: Record<0 | 1 | 4, RoundDesign> = {
  0: OFFICIAL,
  // Special-purpose seals: Ø40 mm with a 1 mm border; the rest is the official seal's, scaled.
  1: { ...OFFICIAL, diameter: 40, border: 1.0 },
  // Two titles under a smaller, raised star.
  4: {
    ...OFFICIAL,
    name: { ...ROUND_NAME, maxSpan: 230 },
    star: { size: 11, centre: -1.8 },
    title0: { height: 4.0, centre: 7.0, aspect: 0.75, spacing: 0.3, maxWidth: 19 },
    title: { height: 4.0, centre: 11.6, aspect: 0.75, spacing: 0.3, maxWidth: 17 },
  },
};

/** The invoice seal: 40 × 30 mm, 1 mm border; text sizes after the invoice-seal rule text. */
const OVAL = {
  border: 1,
  // Name ink 4.2 mm high, width by the number of characters.
  name: {
    gap: 0.7,
    height: 4.5,
    minHeight: 3.4,
    aspect: 0.85,
    minAspect: 0.4,
    fill: 0.92,
    minSpan: 225,
    maxSpan: 240,
  },
  // Taxpayer number: digits 3.7 mm high (0.75 em), 1.3 mm wide; 18 digits take 25 mm.
  serial: { height: 4.9, centre: 0, widthPerChar: 25 / 18, maxWidth: 29 },
  // "发票专用章": 4.6 mm high, 3 mm wide.
  title: { height: 4.95, centre: 7.6, aspect: 0.65, spacing: 0.35, maxWidth: 24 },
} as const;

const PERSONAL = { border: 0.9, inset: 0.5 };
const FINANCE = { border: 1.0, inset: 0.5 };

/** Micro-text security line and the double border's inner line. */
const SECURITY = { fontSize: 0.7, startAngle: 180 };
const INNER_LINE_WIDTH = 0.3;

export const DEFAULT_SEAL_COLOR = '#e60012';
/** Default size in mm per seal type (width × height). */
export const DEFAULT_SIZE_MM: Record<SealType, { widthMm: number; heightMm: number }> = {
  0: { widthMm: 42, heightMm: 42 },
  1: { widthMm: 40, heightMm: 40 },
  2: { widthMm: 40, heightMm: 30 },
  3: { widthMm: 18, heightMm: 18 },
  4: { widthMm: 42, heightMm: 42 },
  5: { widthMm: 22, heightMm: 22 },
};
/** A finance seal's grid ends with this title unless the spec gives another. */
export const FINANCE_TITLE = '财务专用章';

const CONTROL = /\p{Cc}/u;

function cleanText(field: string, value: string | undefined, grid: boolean): string {
  if (value === undefined) return '';
  if (typeof value !== 'string') throw new SealImageError('bad-spec', `${field} must be text`, { field });
  if (CONTROL.test(value.replace(/[\t\n\r]/g, ' ')))
    throw new SealImageError('bad-spec', `${field} has control characters`, { field });
  const text = value.normalize('NFC').trim();
  // A grid has no room for blanks; on a line or an arc a run of blanks is one blank slot.
  return grid ? text.replace(/\s+/gu, '') : text.replace(/\s+/gu, ' ');
}

function sizeOf(spec: SealSpec): { widthMm: number; heightMm: number } {
  const def = DEFAULT_SIZE_MM[spec.sealType];
  const round = shapeOf(spec.sealType) === 'round';
  for (const [field, v] of [
    ['widthMm', spec.widthMm],
    ['heightMm', spec.heightMm],
  ] as const) {
    if (v !== undefined && !(typeof v === 'number' && v >= MIN_SEAL_MM && v <= MAX_SEAL_MM))
      throw new SealImageError('bad-spec', `${field} must be ${MIN_SEAL_MM} to ${MAX_SEAL_MM} mm`, { field });
  }
  if (round) {
    if (spec.widthMm !== undefined && spec.heightMm !== undefined && spec.widthMm !== spec.heightMm)
      throw new SealImageError('bad-spec', 'a round seal is as high as wide', { field: 'heightMm' });
    const d = spec.widthMm ?? spec.heightMm ?? def.widthMm;
    return { widthMm: d, heightMm: d };
  }
  return { widthMm: spec.widthMm ?? def.widthMm, heightMm: spec.heightMm ?? def.heightMm };
}

function maxAdvance(text: string): number {
  return Math.max(0.55, ...chars(text).map(estimatedAdvance));
}

function sumAdvance(text: string): number {
  return chars(text).reduce((s, ch) => s + estimatedAdvance(ch), 0);
}

/**
 * Sizes a text on an arc whose glyph tops lie on the ellipse (a0, b0): the em height, the em width and
 * the span in radians. Characters keep the preferred height and width and their natural spacing while
 * the span allows; past maxSpan they get thinner, and below minAspect they get lower too.
 */
function fitArc(
  text: string,
  a0: number,
  b0: number,
  tc: number,
  d: ArcDesign,
): { h: number; w: number; span: number } {
  const n = chars(text).length;
  const adv = maxAdvance(text);
  let h = d.height;
  for (let i = 0; i < 30; i++) {
    const a = a0 - h / 2;
    const b = b0 - h / 2;
    let w = d.aspect * h;
    if (n <= 1) return { h, w, span: 0 };
    const natural = spanForLength(a, b, tc, ((n - 1) * w * adv) / d.fill);
    const span = Math.min(rad(d.maxSpan), Math.max(natural, (rad(d.minSpan) * Math.min(n - 1, 3)) / 3));
    const pitch = arcLength(a, b, tc - span / 2, tc + span / 2) / (n - 1);
    w = Math.min(w, (pitch * d.fill) / adv);
    if (w >= d.minAspect * h * 0.999 || h <= d.minHeight) return { h, w, span };
    h = Math.max(d.minHeight, w / d.minAspect);
  }
  throw new Error('arc layout did not settle');
}

function emptyText(font: string): TextInfo {
  return { font, bolder: false, content: '', fontSize: 0, y: 0, arcWidth: 0, contentWidth: 0 };
}

/** A horizontal line; `fixedWidth` (mm) sets the width outright, as the taxpayer number's is. */
function lineText(
  font: string,
  content: string,
  centreY: number,
  d: LineDesign,
  s: number,
  fixedWidth?: number,
): TextInfo {
  if (content === '') return emptyText(font);
  const h = mmToPx(d.height * s);
  const n = chars(content).length;
  const width =
    fixedWidth !== undefined
      ? mmToPx(fixedWidth * s)
      : Math.min(
          mmToPx(d.maxWidth * s),
          sumAdvance(content) * h * d.aspect + mmToPx(d.spacing * s) * (n - 1),
        );
  return {
    font,
    bolder: false,
    content,
    fontSize: round2(h),
    y: round2(centreY + mmToPx(d.centre * s)),
    arcWidth: 0,
    contentWidth: round2(width),
  };
}

function arcText(
  font: string,
  content: string,
  inset: number,
  halfW: number,
  halfH: number,
  tc: number,
  d: ArcDesign,
  s: number,
): TextInfo {
  if (content === '') return emptyText(font);
  const px: ArcDesign = {
    ...d,
    gap: mmToPx(d.gap * s),
    height: mmToPx(d.height * s),
    minHeight: mmToPx(d.minHeight * s),
  };
  const y = inset + px.gap;
  const fit = fitArc(content, halfW - y, halfH - y, tc, px);
  return {
    font,
    bolder: false,
    content,
    fontSize: round2(fit.h),
    y: round2(y),
    arcWidth: round2((fit.span * 180) / Math.PI),
    contentWidth: round2(fit.w),
  };
}

/**
 * Makes the drawing template of a seal from what a caller knows (name, titles, serial, size, colour),
 * by the layout rules and defaults in the README. Throws SealImageError: `text-too-long` and
 * `text-too-short` for texts outside their seal type's rule (a personal seal over 15 characters, a
 * finance seal under 9 or over 48), `bad-spec` and `unknown-font` for the rest.
 */
export function createTemplate(spec: SealSpec): SealTemplate {
  if (typeof spec !== 'object' || spec === null)
    throw new SealImageError('bad-spec', 'a seal spec is an object');
  const sealType = spec.sealType;
  if (![0, 1, 2, 3, 4, 5].includes(sealType))
    throw new SealImageError('bad-spec', 'sealType is 0 to 5', { field: 'sealType' });
  const shape = shapeOf(sealType);
  const grid = shape === 'square';
  const font = spec.font ?? DEFAULT_SEAL_FONT;
  if (!isSealFont(font)) throw new SealImageError('unknown-font', `no shipped font named ${font}`, { font });
  const color = (spec.color ?? DEFAULT_SEAL_COLOR).toLowerCase();
  if (!/^#[0-9a-f]{6}$/.test(color))
    throw new SealImageError('bad-spec', 'color is #rrggbb', { field: 'color' });

  const name = cleanText('name', spec.name, grid);
  const title = cleanText('title', spec.title, grid);
  const title0 = cleanText('title0', spec.title0, grid);
  const serial = cleanText('serial', spec.serial, grid);
  const texts = grid
    ? {
        contentInfo: name + (sealType === 5 && spec.title === undefined ? FINANCE_TITLE : title),
        titleInfo: '',
        title0Info: title0,
        serialInfo: serial,
      }
    : { contentInfo: name, titleInfo: title, title0Info: title0, serialInfo: serial };
  if (chars(name).length === 0)
    throw new SealImageError('text-too-short', 'a seal needs a name', { field: 'name', min: 1, length: 0 });
  checkTextRules(sealType, texts, 'bad-spec');

  const { widthMm, heightMm } = sizeOf(spec);
  const W = imagePx(widthMm);
  const H = imagePx(heightMm);
  const def = DEFAULT_SIZE_MM[sealType];
  // Text, star and gaps scale with the seal; round designs are drawn for 42 mm.
  const s = shape === 'round' ? widthMm / 42 : Math.min(widthMm / def.widthMm, heightMm / def.heightMm);
  const borderAtDefault =
    shape === 'round'
      ? ROUND_DESIGNS[sealType as 0 | 1 | 4].border
      : shape === 'ellipse'
        ? OVAL.border
        : sealType === 3
          ? PERSONAL.border
          : FINANCE.border;
  const borderMm = borderAtDefault * Math.min(widthMm / def.widthMm, heightMm / def.heightMm);
  const border = mmToPx(borderMm);
  const doubleBorder = spec.doubleBorder === true;
  const lineWidth = mmToPx(INNER_LINE_WIDTH * s);
  // Everything inside starts at this inset from the picture's edge.
  let inset = border + (doubleBorder ? border * INNER_LINE_GAP_PER_BORDER + lineWidth : 0);
  const securityLines = spec.securityLines === true;
  const ringSize = mmToPx(SECURITY.fontSize * s);
  if (securityLines) inset += ringSize * (1 + 2 * RING_GAP_PER_EM);
  // The inside was designed for the space within a plain border: an inner line or a security line
  // shrinks everything inside (text, star, gaps) with that space, so nothing collides.
  const halfMin = Math.min(W, H) / 2;
  const k = (halfMin - inset) / (halfMin - border);
  const si = s * k;

  const base = {
    baseInfo: { sealType, width: W, height: H, realWidth: widthMm, realHeight: heightMm, fontColor: color },
    securityLineInfo: securityLines
      ? { content: `${name} `, fontSize: round2(ringSize), angel: SECURITY.startAngle }
      : { content: '', fontSize: 0, angel: 0 },
    borderInfo: {
      width: round2(border),
      useDKLine: doubleBorder,
      lineColor: color,
      lineWidth: round2(lineWidth),
    },
  };

  let t: SealTemplate;
  if (shape === 'round') {
    const d = ROUND_DESIGNS[sealType as 0 | 1 | 4];
    const r = W / 2;
    t = {
      ...base,
      contentInfo: arcText(font, name, inset, r, r, 0, d.name, si),
      titleInfo: lineText(font, title, r, d.title, si),
      title0Info: d.title0 ? lineText(font, title0, r, d.title0, si) : emptyText(font),
      serialInfo: arcText(font, serial, inset, r, r, Math.PI, d.serial, si),
      imageInfo: {
        path: starPath(),
        size: round2(mmToPx(d.star.size * si)),
        y: round2(r + mmToPx(d.star.centre * si)),
      },
    };
  } else if (shape === 'ellipse') {
    const serialWidth = Math.min(OVAL.serial.maxWidth, OVAL.serial.widthPerChar * chars(serial).length);
    const serialInfo = lineText(
      font,
      serial,
      H / 2,
      { ...OVAL.serial, aspect: 1, spacing: 0, maxWidth: serialWidth },
      si,
      serialWidth,
    );
    t = {
      ...base,
      contentInfo: arcText(font, name, inset, W / 2, H / 2, 0, OVAL.name, si),
      titleInfo: lineText(font, title, H / 2, OVAL.title, si),
      title0Info: emptyText(font),
      serialInfo,
      imageInfo: { path: '', size: 0, y: 0 },
    };
  } else {
    t = {
      ...base,
      contentInfo: {
        font,
        bolder: true,
        content: texts.contentInfo,
        fontSize: 0,
        y: round2(inset - border + mmToPx((sealType === 3 ? PERSONAL.inset : FINANCE.inset) * s)),
        arcWidth: 0,
        contentWidth: 0,
      },
      titleInfo: emptyText(font),
      title0Info: emptyText(font),
      serialInfo: emptyText(font),
      imageInfo: { path: '', size: 0, y: 0 },
    };
  }
  // What createTemplate makes must load back: the schema and the rules are the one definition.
  return parseTemplate(t);
}
