import { SealImageError } from './errors';
import {
  arcLength,
  ellipsePoint,
  fmt,
  INNER_LINE_GAP_PER_BORDER,
  outwardAngle,
  rad,
  RING_GAP_PER_EM,
  spreadOnArc,
  walk,
} from './geometry';
import { gridColumns, shapeOf, TEXT_RULES, type TextField } from './rules';
import { PATH_DATA, parseTemplate } from './schema';
import { chars, templateText } from './text';
import type { GlyphSet, SealTemplate, TextInfo } from './types';

/** A bolder glyph is outlined with its own colour, this share of the em wide. */
const BOLDER_STROKE_PER_EM = 0.03;
/** Micro-text characters follow each other at this share of the em. */
const RING_PITCH_PER_EM = 1.05;

interface Metrics {
  upm: number;
  mid: number;
  emHeight: number;
}

/** Collects the glyph outlines a picture uses (each defined once) and the placed copies of them. */
class Canvas {
  private readonly ids = new Map<string, string>();
  private readonly defs: string[] = [];
  readonly body: string[] = [];
  readonly m: Metrics;

  constructor(
    private readonly glyphs: GlyphSet,
    private readonly color: string,
  ) {
    this.m = {
      upm: glyphs.unitsPerEm,
      mid: (glyphs.ascender + glyphs.descender) / 2,
      emHeight: glyphs.ascender - glyphs.descender,
    };
  }

  advance(ch: string): number {
    const g = this.glyphs.glyphs[ch];
    if (g) return g.advance;
    // Blanks need no outline (the glyph source may leave them out): a quarter em, as most fonts.
    return this.m.upm / 4;
  }

  /**
   * Places a glyph with its em box centred on (x, y), turned clockwise by `angle` radians and scaled
   * so the em box is sx·upm wide and sy·emHeight high (font units are y up; the picture's y is down).
   */
  glyph(ch: string, x: number, y: number, angle: number, sx: number, sy: number): string {
    const g = this.glyphs.glyphs[ch];
    if (!g || g.d === '') return '';
    let id = this.ids.get(ch);
    if (!id) {
      id = `g${this.ids.size}`;
      this.ids.set(ch, id);
      this.defs.push(`<path id="${id}" d="${g.d}"/>`);
    }
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const half = g.advance / 2;
    const { mid } = this.m;
    const e = x - cos * sx * half - sin * sy * mid;
    const f = y - sin * sx * half + cos * sy * mid;
    const mat = [cos * sx, sin * sx, sin * sy, -cos * sy].map((v) => fmt(v, 6));
    return `<use href="#${id}" transform="matrix(${mat.join(' ')} ${fmt(e)} ${fmt(f)})"/>`;
  }

  group(uses: string[], bolder: boolean): void {
    const drawn = uses.filter((u) => u !== '');
    if (drawn.length === 0) return;
    const stroke = bolder
      ? ` stroke="${this.color}" stroke-width="${fmt(this.m.upm * BOLDER_STROKE_PER_EM)}" stroke-linejoin="round"`
      : '';
    this.body.push(`<g fill="${this.color}"${stroke}>${drawn.join('')}</g>`);
  }

  svg(width: number, height: number): string {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
      (this.defs.length > 0 ? `<defs>${this.defs.join('')}</defs>` : '') +
      this.body.join('') +
      '</svg>'
    );
  }
}

function checkGlyphs(glyphs: GlyphSet, needed: string): void {
  if (
    typeof glyphs !== 'object' ||
    glyphs === null ||
    !(glyphs.unitsPerEm > 0) ||
    !Number.isFinite(glyphs.ascender) ||
    !Number.isFinite(glyphs.descender) ||
    !(glyphs.ascender > glyphs.descender) ||
    typeof glyphs.glyphs !== 'object' ||
    glyphs.glyphs === null
  )
    throw new SealImageError('bad-glyphs', 'a glyph set has unitsPerEm, ascender > descender and glyphs');
  const missing = chars(needed).filter((ch) => !Object.hasOwn(glyphs.glyphs, ch));
  if (missing.length > 0)
    throw new SealImageError('missing-glyph', `no outline for ${missing.join('')}`, {
      characters: missing.join(''),
    });
  for (const ch of chars(needed)) {
    const g = glyphs.glyphs[ch]!;
    if (typeof g.d !== 'string' || !PATH_DATA.test(g.d) || !(Number.isFinite(g.advance) && g.advance >= 0))
      throw new SealImageError('bad-glyphs', `the outline of ${ch} is not plain SVG path data`, {
        character: ch,
      });
  }
}

/** Text on the outline of the ellipse (a, b) at inset `info.y`: the upper arc reads clockwise with
 * glyph tops out; the lower arc reads left to right along the bottom with glyph tops in. */
function arcText(
  c: Canvas,
  info: TextInfo,
  cx: number,
  cy: number,
  a0: number,
  b0: number,
  lower: boolean,
): void {
  const text = chars(info.content);
  const a = a0 - info.y - info.fontSize / 2;
  const b = b0 - info.y - info.fontSize / 2;
  if (!(a > 0 && b > 0)) return;
  const ts = spreadOnArc(a, b, lower ? Math.PI : 0, rad(info.arcWidth), text.length, lower);
  const sx = info.contentWidth / c.m.upm;
  const sy = info.fontSize / c.m.emHeight;
  const uses = text.map((ch, i) => {
    const t = ts[i]!;
    const p = ellipsePoint(a, b, t);
    const angle = outwardAngle(a, b, t) + (lower ? Math.PI : 0);
    return c.glyph(ch, cx + p.x, cy + p.y, angle, sx, sy);
  });
  c.group(uses, info.bolder);
}

/** A horizontal line centred on the picture: natural glyphs spaced out to `contentWidth`, or glyphs
 * condensed to it when they are wider (0 keeps the natural width). */
function lineText(c: Canvas, info: TextInfo, cx: number): void {
  const text = chars(info.content);
  const advances = text.map((ch) => c.advance(ch));
  const total = advances.reduce((s, v) => s + v, 0);
  const sy = info.fontSize / c.m.emHeight;
  const natural = total * sy;
  let sx = sy;
  let spacing = 0;
  if (info.contentWidth > 0 && info.contentWidth < natural) sx = info.contentWidth / total;
  else if (info.contentWidth > natural && text.length > 1)
    spacing = (info.contentWidth - natural) / (text.length - 1);
  let x = cx - (total * sx + spacing * (text.length - 1)) / 2;
  const uses = text.map((ch, i) => {
    const w = advances[i]! * sx;
    const use = c.glyph(ch, x + w / 2, info.y, 0, sx, sy);
    x += w + spacing;
    return use;
  });
  c.group(uses, info.bolder);
}

/** The square seals' grid: columns right to left, each read top to bottom, every cell filled. */
function gridText(c: Canvas, t: SealTemplate): void {
  const info = t.contentInfo;
  const text = chars(info.content);
  const sealType = t.baseInfo.sealType as 3 | 5;
  const inset = t.borderInfo.width + info.y;
  const w = t.baseInfo.width - 2 * inset;
  const h = t.baseInfo.height - 2 * inset;
  if (!(w > 0 && h > 0)) return;
  const columns = gridColumns(sealType, text.length);
  const colW = w / columns.length;
  const uses: string[] = [];
  let k = 0;
  columns.forEach((rows, col) => {
    const x = inset + w - (col + 0.5) * colW;
    const cellH = h / rows;
    for (let r = 0; r < rows; r++, k++)
      uses.push(c.glyph(text[k]!, x, inset + (r + 0.5) * cellH, 0, colW / c.m.upm, cellH / c.m.emHeight));
  });
  c.group(uses, info.bolder);
}

/** Where the security line's glyph tops lie, measured in from the picture's edge. */
function ringInset(t: SealTemplate): number {
  const { width, useDKLine, lineWidth } = t.borderInfo;
  return (
    width +
    (useDKLine ? width * INNER_LINE_GAP_PER_BORDER + lineWidth : 0) +
    t.securityLineInfo.fontSize * RING_GAP_PER_EM
  );
}

/** The micro-text security line: its content repeated around the seal just inside the border. */
function securityLine(c: Canvas, t: SealTemplate): void {
  const { content, fontSize, angel } = t.securityLineInfo;
  const text = chars(content);
  if (fontSize <= 0 || text.length === 0) return;
  const { width: W, height: H, sealType } = t.baseInfo;
  const top = ringInset(t);
  const pitch = fontSize * RING_PITCH_PER_EM;
  const s = fontSize / c.m.upm;
  const sy = fontSize / c.m.emHeight;
  const uses: string[] = [];
  if (shapeOf(sealType) === 'square') {
    // Along each side between the corners, clockwise from the top, glyph tops facing out.
    const centre = top + fontSize / 2;
    const sides = [
      {
        from: { x: top + fontSize, y: centre },
        dir: { x: 1, y: 0 },
        len: W - 2 * (top + fontSize),
        angle: 0,
      },
      {
        from: { x: W - centre, y: top + fontSize },
        dir: { x: 0, y: 1 },
        len: H - 2 * (top + fontSize),
        angle: Math.PI / 2,
      },
      {
        from: { x: W - top - fontSize, y: H - centre },
        dir: { x: -1, y: 0 },
        len: W - 2 * (top + fontSize),
        angle: Math.PI,
      },
      {
        from: { x: centre, y: H - top - fontSize },
        dir: { x: 0, y: -1 },
        len: H - 2 * (top + fontSize),
        angle: -Math.PI / 2,
      },
    ];
    let k = 0;
    for (const side of sides) {
      const n = Math.floor(side.len / pitch);
      const lead = (side.len - n * pitch) / 2 + pitch / 2;
      for (let i = 0; i < n; i++, k++) {
        const d = lead + i * pitch;
        const ch = text[k % text.length]!;
        uses.push(c.glyph(ch, side.from.x + side.dir.x * d, side.from.y + side.dir.y * d, side.angle, s, sy));
      }
    }
  } else {
    const a = W / 2 - top - fontSize / 2;
    const b = H / 2 - top - fontSize / 2;
    if (!(a > 0 && b > 0)) return;
    const t0 = rad(angel);
    const loop = arcLength(a, b, t0, t0 + 2 * Math.PI);
    const n = Math.floor(loop / pitch);
    for (let i = 0; i < n; i++) {
      const tt = walk(a, b, t0, (loop * i) / n);
      const p = ellipsePoint(a, b, tt);
      uses.push(c.glyph(text[i % text.length]!, W / 2 + p.x, H / 2 + p.y, outwardAngle(a, b, tt), s, sy));
    }
  }
  c.group(uses, false);
}

function border(c: Canvas, t: SealTemplate, color: string): void {
  const { width: W, height: H, sealType } = t.baseInfo;
  const { width: bw, useDKLine, lineColor, lineWidth } = t.borderInfo;
  const square = shapeOf(sealType) === 'square';
  const outline = (inset: number, stroke: number, col: string) =>
    square
      ? `<rect x="${fmt(inset)}" y="${fmt(inset)}" width="${fmt(W - 2 * inset)}" height="${fmt(H - 2 * inset)}" fill="none" stroke="${col}" stroke-width="${fmt(stroke)}"/>`
      : `<ellipse cx="${fmt(W / 2)}" cy="${fmt(H / 2)}" rx="${fmt(W / 2 - inset)}" ry="${fmt(H / 2 - inset)}" fill="none" stroke="${col}" stroke-width="${fmt(stroke)}"/>`;
  if (bw > 0) c.body.push(outline(bw / 2, bw, color));
  if (useDKLine && lineWidth > 0)
    c.body.push(outline(bw + bw * INNER_LINE_GAP_PER_BORDER + lineWidth / 2, lineWidth, lineColor));
}

/**
 * Draws a template as a path-only SVG: no <text>, no font, transparent background, viewBox in pixels
 * at 400 dpi. The same template and glyph set give the same SVG string in the browser and on the
 * server. Throws SealImageError: the template's own errors (it is validated first, so no object
 * reaches the SVG unchecked), `missing-glyph` for a character the glyph set lacks, `bad-glyphs`.
 */
export function renderSvg(template: SealTemplate, glyphs: GlyphSet): string {
  const t = parseTemplate(template);
  checkGlyphs(glyphs, templateText(t));
  const { width: W, height: H, sealType, fontColor } = t.baseInfo;
  const c = new Canvas(glyphs, fontColor);
  border(c, t, fontColor);
  securityLine(c, t);
  if (t.imageInfo.path !== '' && t.imageInfo.size > 0) {
    const s = fmt(t.imageInfo.size / 2, 6);
    c.body.push(
      `<path fill="${fontColor}" transform="matrix(${s} 0 0 ${s} ${fmt(W / 2)} ${fmt(t.imageInfo.y)})" d="${t.imageInfo.path}"/>`,
    );
  }
  for (const field of ['contentInfo', 'title0Info', 'titleInfo', 'serialInfo'] as TextField[]) {
    const info = t[field];
    const rule = TEXT_RULES[sealType][field];
    if (!rule || info.content === '') continue;
    switch (rule.role) {
      case 'upper-arc':
        arcText(c, info, W / 2, H / 2, W / 2, H / 2, false);
        break;
      case 'lower-arc':
        arcText(c, info, W / 2, H / 2, W / 2, H / 2, true);
        break;
      case 'line':
        if (info.fontSize > 0) lineText(c, info, W / 2);
        break;
      case 'grid':
        gridText(c, t);
        break;
      default: {
        const never: never = rule.role;
        throw new Error(`unknown role ${String(never)}`);
      }
    }
  }
  return c.svg(W, H);
}
