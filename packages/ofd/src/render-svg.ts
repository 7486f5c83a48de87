import { fontFormat, sniffMime, toBase64 } from './bytes';
import { parseBox, type Box, type OfdPackageDocument, type Resource } from './document';
import { readOfdPackage } from './document';
import { attr, boolAttr, child, children, localNameOf, numAttr, numbers, type XmlElement } from './xml';
import { resolveLoc } from './zip-package';

export interface RenderOptions {
  /** Draw the seal pictures of signatures where they sit (default true). */
  stamps?: boolean;
  /** Draw annotations (default true). */
  annotations?: boolean;
}

/** Line and colour settings that a layer or a DrawParam passes down to its objects. */
interface DrawState {
  lineWidth?: number;
  join?: string;
  cap?: string;
  dashPattern?: string;
  dashOffset?: number;
  miterLimit?: number;
  fillColor?: XmlElement;
  strokeColor?: XmlElement;
}

const DEFAULT_LINE_WIDTH = 0.353;
const MAX_DEPTH = 24;

/** Numbers in SVG: enough digits for a hundredth of a micrometre, no exponent notation. */
function n(v: number): string {
  if (!Number.isFinite(v)) return '0';
  const r = Math.round(v * 10000) / 10000;
  return Object.is(r, -0) ? '0' : String(r);
}

/** Text and attribute values (always written in double quotes) made safe for XML. */
function esc(text: string): string {
  return text.replace(/[&<>"]/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;',
  );
}

/** Families to ask the browser for, the document's own name first, then common CJK equivalents. */
function fallbackFamilies(name: string): string[] {
  const s = name.toLowerCase();
  if (/kai|楷/.test(s)) return ['KaiTi', 'STKaiti', 'AR PL UKai CN', 'Noto Serif CJK SC', 'serif'];
  if (/hei|黑|sans|arial|helvetica|yahei|雅黑/.test(s))
    return ['SimHei', 'Microsoft YaHei', 'Noto Sans CJK SC', 'sans-serif'];
  if (/courier|mono|fixed/.test(s)) return ['Courier New', 'Noto Sans Mono CJK SC', 'monospace'];
  return ['SimSun', 'Songti SC', 'Noto Serif CJK SC', 'serif'];
}

/** `g 3 1.5 2` → `1.5 1.5 1.5 2`: the abbreviation of repeated deltas in DeltaX and DeltaY. */
export function expandDeltas(text: string | undefined): number[] {
  if (!text) return [];
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const out: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] === 'g') {
      const count = Number(tokens[i + 1]);
      const value = Number(tokens[i + 2]);
      if (Number.isInteger(count) && count > 0 && count < 100_000 && Number.isFinite(value))
        for (let k = 0; k < count; k++) out.push(value);
      i += 2;
    } else {
      const v = Number(tokens[i]);
      if (Number.isFinite(v)) out.push(v);
    }
  }
  return out;
}

/** OFD path data (S M L Q B A C, GB/T 33190 table 36) as SVG path data. */
export function pathData(text: string | undefined): string {
  if (!text) return '';
  const tokens = text
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  const arity: Record<string, [string, number]> = {
    S: ['M', 2],
    M: ['M', 2],
    L: ['L', 2],
    Q: ['Q', 4],
    B: ['C', 6],
    A: ['A', 7],
    C: ['Z', 0],
  };
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const spec = arity[tokens[i]!];
    if (!spec) {
      i += 1;
      continue;
    }
    const args = tokens.slice(i + 1, i + 1 + spec[1]).map(Number);
    if (args.length < spec[1] || args.some((v) => !Number.isFinite(v))) break;
    out.push(spec[1] === 0 ? 'Z' : `${spec[0]}${args.map(n).join(' ')}`);
    i += 1 + spec[1];
  }
  return out.join(' ');
}

/**
 * Draws pages of one document. Holds what a page's drawing shares (fonts and clips declared once in
 * `<defs>`, ids unique within the page).
 */
class PageRenderer {
  private readonly defs: string[] = [];
  private readonly fonts = new Set<string>();
  private nextId = 0;

  constructor(
    private readonly doc: OfdPackageDocument,
    private readonly resources: Map<string, Resource>,
    private readonly nesting: number,
  ) {}

  private id(prefix: string): string {
    this.nextId += 1;
    return `${prefix}${this.nextId}`;
  }

  // --- resources ---

  private resource(id: string | undefined, kind: string): Resource | undefined {
    if (!id) return undefined;
    const r = this.resources.get(id.trim());
    return r && localNameOf(r.el) === kind ? r : undefined;
  }

  private drawParam(id: string | undefined, depth = 0): DrawState {
    const r = this.resource(id, 'DrawParam');
    if (!r || depth > 8) return {};
    const parent = this.drawParam(attr(r.el, 'Relative'), depth + 1);
    return this.overlay(parent, r.el);
  }

  /** Settings written on an element (a DrawParam or a graphic unit) over those it inherits. */
  private overlay(base: DrawState, el: XmlElement): DrawState {
    return {
      lineWidth: numAttr(el, 'LineWidth') ?? base.lineWidth,
      join: attr(el, 'Join') ?? base.join,
      cap: attr(el, 'Cap') ?? base.cap,
      dashPattern: attr(el, 'DashPattern') ?? base.dashPattern,
      dashOffset: numAttr(el, 'DashOffset') ?? base.dashOffset,
      miterLimit: numAttr(el, 'MiterLimit') ?? base.miterLimit,
      fillColor: child(el, 'FillColor') ?? base.fillColor,
      strokeColor: child(el, 'StrokeColor') ?? base.strokeColor,
    };
  }

  /** A CT_Color as CSS colour and opacity; undefined when it names nothing drawable. */
  private colour(el: XmlElement | undefined): { css: string; opacity: number } | undefined {
    if (!el) return undefined;
    const space = this.resource(attr(el, 'ColorSpace'), 'ColorSpace');
    const type = (space ? attr(space.el, 'Type') : undefined)?.toUpperCase() ?? 'RGB';
    const bits = (space ? numAttr(space.el, 'BitsPerComponent') : undefined) ?? 8;
    const max = 2 ** Math.min(16, Math.max(1, bits)) - 1;
    const parse = (text: string | undefined) =>
      (text ?? '')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map((t) => (t.startsWith('#') ? parseInt(t.slice(1), 16) : Number(t)))
        .filter((v) => Number.isFinite(v));
    let values = parse(attr(el, 'Value'));
    const index = numAttr(el, 'Index');
    if (values.length === 0 && index !== undefined && space) {
      const cv = children(child(space.el, 'Palette'), 'CV')[index];
      values = parse(cv?.textContent ?? undefined);
    }
    if (values.length === 0) {
      // A shading: its first segment's colour stands for it.
      const shading = children(el).find((c) => /Shd$/.test(localNameOf(c)));
      const first = shading
        ? (children(shading, 'Segment')
            .map((s) => child(s, 'Color'))
            .find(Boolean) ?? children(shading, 'Point').map((p) => child(p, 'Color'))[0])
        : undefined;
      return first ? this.colour(first) : undefined;
    }
    const c = values.map((v) => Math.max(0, Math.min(1, v / max)));
    let rgb: number[];
    if (type === 'GRAY') rgb = [c[0]!, c[0]!, c[0]!];
    else if (type === 'CMYK') {
      const [cy = 0, m = 0, y = 0, k = 0] = c;
      rgb = [(1 - cy) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)];
    } else rgb = [c[0] ?? 0, c[1] ?? 0, c[2] ?? 0];
    const alpha = numAttr(el, 'Alpha');
    return {
      css: `rgb(${rgb.map((v) => Math.round(v * 255)).join(',')})`,
      opacity: alpha === undefined ? 1 : Math.max(0, Math.min(1, alpha / 255)),
    };
  }

  private fontFamily(fontId: string | undefined): { family: string; bold: boolean; italic: boolean } {
    const r = this.resource(fontId, 'Font');
    if (!r) return { family: fallbackFamilies('').map(quoteFamily).join(','), bold: false, italic: false };
    const name = attr(r.el, 'FontName') ?? '';
    const family = attr(r.el, 'FamilyName') ?? '';
    const families: string[] = [];
    const file = child(r.el, 'FontFile')?.textContent?.trim();
    if (file) {
      const embedded = `ofd-font-${fontId!.trim()}`;
      if (!this.fonts.has(embedded)) {
        this.fonts.add(embedded);
        const bytes = this.doc.pkg.tryGet(resolveLoc(r.base, file));
        const format = bytes ? fontFormat(bytes) : undefined;
        if (bytes && format)
          this.defs.push(
            `<style>@font-face{font-family:'${embedded}';src:url(data:font/${format === 'opentype' ? 'otf' : format === 'truetype' ? 'ttf' : format};base64,${toBase64(bytes)}) format('${format}');}</style>`,
          );
      }
      families.push(embedded);
    }
    for (const f of [name, family]) if (f && !families.includes(f)) families.push(f);
    families.push(...fallbackFamilies(`${name} ${family}`));
    return {
      family: families.map(quoteFamily).join(','),
      bold: boolAttr(r.el, 'Bold', false),
      italic: boolAttr(r.el, 'Italic', false),
    };
  }

  // --- graphic units ---

  /** The children of a container (a layer, page block, composite content or appearance) in order. */
  objects(container: XmlElement, state: DrawState, depth: number): string {
    if (depth > MAX_DEPTH) return '';
    return children(container)
      .map((el) => this.object(el, state, depth))
      .join('');
  }

  private object(el: XmlElement, inherited: DrawState, depth: number): string {
    const kind = localNameOf(el);
    if (!['TextObject', 'PathObject', 'ImageObject', 'CompositeObject', 'PageBlock'].includes(kind))
      return '';
    if (!boolAttr(el, 'Visible', true)) return '';
    if (kind === 'PageBlock') return this.objects(el, inherited, depth + 1);
    const state = this.overlay(
      attr(el, 'DrawParam') ? { ...inherited, ...defined(this.drawParam(attr(el, 'DrawParam'))) } : inherited,
      el,
    );
    const box = parseBox(attr(el, 'Boundary'));
    if (!box) return '';
    const inner =
      kind === 'TextObject'
        ? this.text(el, state)
        : kind === 'PathObject'
          ? this.path(el, state)
          : kind === 'ImageObject'
            ? this.image(el, box)
            : this.composite(el, state, depth);
    if (!inner) return '';
    const ctm = numbers(attr(el, 'CTM'));
    const alpha = numAttr(el, 'Alpha');
    const clips = this.clips(el);
    const opacity = alpha !== undefined && alpha < 255 ? ` opacity="${n(Math.max(0, alpha) / 255)}"` : '';
    const ctmGroup =
      ctm.length === 6
        ? `<g transform="matrix(${ctm.map(n).join(' ')})"${clips.transformed}>${inner}</g>`
        : clips.transformed
          ? `<g${clips.transformed}>${inner}</g>`
          : inner;
    return `<g transform="translate(${n(box.x)} ${n(box.y)})"${clips.plain}${opacity}>${ctmGroup}</g>`;
  }

  /** Clip areas (paths) of a graphic unit; `TransFlag` says whether the unit's CTM applies to them. */
  private clips(el: XmlElement): { plain: string; transformed: string } {
    const out = { plain: '', transformed: '' };
    const clipsEl = child(el, 'Clips');
    if (!clipsEl) return out;
    const transformed = boolAttr(clipsEl, 'TransFlag', false);
    // Several Clip elements intersect; only the first is applied here (the common case is one).
    const clip = child(clipsEl, 'Clip');
    const paths: string[] = [];
    for (const area of children(clip, 'Area')) {
      const areaCtm = numbers(attr(area, 'CTM'));
      const p = child(area, 'Path');
      if (!p) continue;
      const pb = parseBox(attr(p, 'Boundary')) ?? { x: 0, y: 0, w: 0, h: 0 };
      const d = pathData(child(p, 'AbbreviatedData')?.textContent ?? undefined);
      if (!d) continue;
      const t = `translate(${n(pb.x)} ${n(pb.y)})${areaCtm.length === 6 ? ` matrix(${areaCtm.map(n).join(' ')})` : ''}`;
      paths.push(`<path transform="${t}" d="${d}"/>`);
    }
    if (paths.length === 0) return out;
    const id = this.id('clip');
    this.defs.push(`<clipPath id="${id}">${paths.join('')}</clipPath>`);
    if (transformed) out.transformed = ` clip-path="url(#${id})"`;
    else out.plain = ` clip-path="url(#${id})"`;
    return out;
  }

  private strokeAttrs(state: DrawState, colour: { css: string; opacity: number } | undefined): string {
    const c = colour ?? { css: 'rgb(0,0,0)', opacity: 1 };
    const parts = [`stroke="${c.css}"`, `stroke-width="${n(state.lineWidth ?? DEFAULT_LINE_WIDTH)}"`];
    if (c.opacity < 1) parts.push(`stroke-opacity="${n(c.opacity)}"`);
    const join = state.join?.toLowerCase();
    if (join === 'round' || join === 'bevel') parts.push(`stroke-linejoin="${join}"`);
    const cap = state.cap?.toLowerCase();
    if (cap === 'round' || cap === 'square') parts.push(`stroke-linecap="${cap}"`);
    const dash = numbers(state.dashPattern).filter((v) => v >= 0);
    if (dash.length > 0 && dash.some((v) => v > 0)) {
      parts.push(`stroke-dasharray="${dash.map(n).join(' ')}"`);
      if (state.dashOffset) parts.push(`stroke-dashoffset="${n(state.dashOffset)}"`);
    }
    if (state.miterLimit) parts.push(`stroke-miterlimit="${n(Math.max(1, state.miterLimit))}"`);
    return parts.join(' ');
  }

  private path(el: XmlElement, state: DrawState): string {
    const d = pathData(child(el, 'AbbreviatedData')?.textContent ?? undefined);
    if (!d) return '';
    const stroke = boolAttr(el, 'Stroke', true);
    const fill = boolAttr(el, 'Fill', false);
    if (!stroke && !fill) return '';
    const parts = [`d="${d}"`];
    if (fill) {
      const c = this.colour(state.fillColor) ?? { css: 'rgb(0,0,0)', opacity: 1 };
      parts.push(`fill="${c.css}"`);
      if (c.opacity < 1) parts.push(`fill-opacity="${n(c.opacity)}"`);
      if (/even/i.test(attr(el, 'Rule') ?? '')) parts.push('fill-rule="evenodd"');
    } else parts.push('fill="none"');
    if (stroke) parts.push(this.strokeAttrs(state, this.colour(state.strokeColor)));
    return `<path ${parts.join(' ')}/>`;
  }

  private text(el: XmlElement, state: DrawState): string {
    const fill = boolAttr(el, 'Fill', true);
    const stroke = boolAttr(el, 'Stroke', false);
    if (!fill && !stroke) return '';
    const size = numAttr(el, 'Size') ?? 3.5;
    const font = this.fontFamily(attr(el, 'Font'));
    const weight = numAttr(el, 'Weight') ?? (font.bold ? 700 : 400);
    const italic = boolAttr(el, 'Italic', font.italic);
    const hScale = numAttr(el, 'HScale') ?? 1;
    const paint: string[] = [];
    if (fill) {
      const c = this.colour(state.fillColor) ?? { css: 'rgb(0,0,0)', opacity: 1 };
      paint.push(`fill="${c.css}"`);
      if (c.opacity < 1) paint.push(`fill-opacity="${n(c.opacity)}"`);
    } else paint.push('fill="none"');
    if (stroke) paint.push(this.strokeAttrs(state, this.colour(state.strokeColor)));
    const style =
      `font-family="${esc(font.family)}" font-size="${n(size)}"` +
      (weight !== 400 ? ` font-weight="${Math.round(weight)}"` : '') +
      (italic ? ' font-style="italic"' : '');
    const out: string[] = [];
    let x = 0;
    let y = 0;
    for (const code of children(el, 'TextCode')) {
      const chars = Array.from(code.textContent ?? '');
      x = numAttr(code, 'X') ?? x;
      y = numAttr(code, 'Y') ?? y;
      if (chars.length === 0) continue;
      const dx = expandDeltas(attr(code, 'DeltaX'));
      const dy = expandDeltas(attr(code, 'DeltaY'));
      const xs: number[] = [];
      const ys: number[] = [];
      let cx = x;
      let cy = y;
      // Positions are given for as many characters as there are deltas (plus the first); the rest
      // follow the font's own advance.
      const placed = Math.min(chars.length, Math.max(dx.length, dy.length) + 1);
      for (let i = 0; i < placed; i++) {
        xs.push(cx);
        ys.push(cy);
        cx += dx[i] ?? 0;
        cy += dy[i] ?? 0;
      }
      x = cx;
      y = cy;
      const scaled =
        hScale !== 1
          ? ` transform="translate(${n(xs[0]!)} 0) scale(${n(hScale)} 1) translate(${n(-xs[0]!)} 0)"`
          : '';
      out.push(
        `<text x="${xs.map(n).join(' ')}" y="${ys.map(n).join(' ')}"${scaled} xml:space="preserve">${esc(chars.join(''))}</text>`,
      );
    }
    if (out.length === 0) return '';
    return `<g ${style} ${paint.join(' ')}>${out.join('')}</g>`;
  }

  private image(el: XmlElement, box: Box): string {
    const r = this.resource(attr(el, 'ResourceID'), 'MultiMedia');
    const file = r ? child(r.el, 'MediaFile')?.textContent?.trim() : undefined;
    const bytes = r && file ? this.doc.pkg.tryGet(resolveLoc(r.base, file)) : undefined;
    if (!bytes) return '';
    const mime = sniffMime(bytes);
    if (!mime || mime === 'application/ofd') return '';
    // An image fills the unit square; its CTM (on the enclosing group) scales it to the page. Without
    // a CTM it fills its boundary.
    const hasCtm = numbers(attr(el, 'CTM')).length === 6;
    const w = hasCtm ? 1 : box.w;
    const h = hasCtm ? 1 : box.h;
    return `<image x="0" y="0" width="${n(w)}" height="${n(h)}" preserveAspectRatio="none" href="data:${mime};base64,${toBase64(bytes)}"/>`;
  }

  private composite(el: XmlElement, state: DrawState, depth: number): string {
    const r = this.resource(attr(el, 'ResourceID'), 'CompositeGraphicUnit');
    const content = r ? child(r.el, 'Content') : undefined;
    return content ? this.objects(content, state, depth + 1) : '';
  }

  // --- page ---

  /** The layers of a page or template, background first, foreground last. */
  layers(root: XmlElement): string {
    const order = (l: XmlElement) => {
      const t = (attr(l, 'Type') ?? 'Body').toLowerCase();
      return t === 'background' ? 0 : t === 'foreground' ? 2 : 1;
    };
    const layers = children(child(root, 'Content'), 'Layer');
    return layers
      .map((l, i) => ({ l, i }))
      .sort((a, b) => order(a.l) - order(b.l) || a.i - b.i)
      .map(({ l }) => this.objects(l, this.drawParam(attr(l, 'DrawParam')), 0))
      .join('');
  }

  annotations(pageId: string): string {
    const out: string[] = [];
    for (const part of this.doc.annotations.get(pageId) ?? [])
      for (const annot of children(part.root, 'Annot')) {
        if (!boolAttr(annot, 'Visible', true)) continue;
        for (const appearance of children(annot, 'Appearance')) {
          const box = parseBox(attr(appearance, 'Boundary'));
          const inner = this.objects(appearance, {}, 0);
          if (!inner) continue;
          out.push(box ? `<g transform="translate(${n(box.x)} ${n(box.y)})">${inner}</g>` : inner);
        }
      }
    return out.join('');
  }

  stamps(pageIndex: number): string {
    const out: string[] = [];
    for (const sig of this.doc.signatures) {
      const picture = sig.picture;
      if (!picture) continue;
      let href: string | undefined;
      const mime = sniffMime(picture.data);
      if (mime === 'application/ofd') {
        if (this.nesting > 0) continue;
        try {
          const inner = readOfdPackage(picture.data, { maxTotalBytes: 16 * 1024 * 1024 });
          const svg = renderPage(inner, 0, { stamps: false }, this.nesting + 1);
          href = `data:image/svg+xml;base64,${toBase64(new TextEncoder().encode(svg))}`;
        } catch {
          continue;
        }
      } else if (mime) href = `data:${mime};base64,${toBase64(picture.data)}`;
      if (!href) continue;
      for (const stamp of sig.stamps) {
        if (stamp.pageIndex !== pageIndex) continue;
        const b = stamp.boundary;
        let clip = '';
        if (stamp.clip) {
          const id = this.id('stamp');
          const c = stamp.clip;
          this.defs.push(
            `<clipPath id="${id}"><rect x="${n(c.x)}" y="${n(c.y)}" width="${n(c.w)}" height="${n(c.h)}"/></clipPath>`,
          );
          clip = ` clip-path="url(#${id})"`;
        }
        out.push(
          `<g transform="translate(${n(b.x)} ${n(b.y)})" data-signature="${esc(sig.id)}"><image x="0" y="0" width="${n(b.w)}" height="${n(b.h)}" preserveAspectRatio="xMidYMid meet"${clip} href="${href}"/></g>`,
        );
      }
    }
    return out.join('');
  }

  definitions(): string {
    return this.defs.length > 0 ? `<defs>${this.defs.join('')}</defs>` : '';
  }
}

function quoteFamily(f: string): string {
  return ['serif', 'sans-serif', 'monospace'].includes(f) ? f : `'${f.replace(/['\\]/g, '')}'`;
}

function defined(s: DrawState): DrawState {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as DrawState;
}

/** One page of a document as a standalone SVG document, in millimetres. */
export function renderPage(
  doc: OfdPackageDocument,
  index: number,
  options: RenderOptions = {},
  nesting = 0,
): string {
  const part = doc.parts[index];
  if (!part) throw new RangeError(`no page ${index} (the document has ${doc.parts.length})`);
  const r = new PageRenderer(doc, part.resources, nesting);
  const body: string[] = [];
  const template = child(part.root, 'Template');
  const tpl = template ? doc.templates.get(attr(template, 'TemplateID') ?? '') : undefined;
  const foreground = (attr(template, 'ZOrder') ?? 'Background').toLowerCase() === 'foreground';
  if (tpl && !foreground) body.push(r.layers(tpl.root));
  body.push(r.layers(part.root));
  if (tpl && foreground) body.push(r.layers(tpl.root));
  if (options.annotations !== false) body.push(r.annotations(part.info.id));
  if (options.stamps !== false) body.push(r.stamps(index));
  const b = part.info.box;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${n(b.w)}mm" height="${n(b.h)}mm" viewBox="${n(b.x)} ${n(b.y)} ${n(b.w)} ${n(b.h)}">` +
    r.definitions() +
    `<rect x="${n(b.x)}" y="${n(b.y)}" width="${n(b.w)}" height="${n(b.h)}" fill="#fff"/>` +
    body.join('') +
    '</svg>'
  );
}
