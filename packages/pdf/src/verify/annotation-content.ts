/**
 * What an annotation shows a reader: its text (/Contents, /RC without markup, the strings its
 * appearance stream draws) and whether its appearance paints an image. Used to describe changes made
 * after a signature; every read is bounded, and a part that cannot be read is simply not described.
 */
import { PdfError } from '../errors';
import { Lexer } from '../lexer';
import { PdfDict, PdfName, PdfStream, PdfString, type PdfObject } from '../objects';
import type { PdfDocument } from '../reader';
import { asName, asText } from './values';

export interface AnnotationContent {
  /** The text shown, sources joined by " | ", at most MAX_TEXT characters. */
  text?: string;
  /** The appearance paints an image (an image XObject or an inline image). */
  image: boolean;
  /** The appearance stream draws anything at all. */
  paints: boolean;
}

const MAX_TEXT = 300;
const MAX_STREAM = 256 * 1024;
const MAX_TOKENS = 100_000;
const MAX_FORM_DEPTH = 3;
/** Form XObjects read for one annotation, nested ones included. */
const MAX_FORMS = 32;

/** Control characters become spaces, runs of space one space. */
function clean(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0) as number;
    out += c < 0x20 || c === 0x7f ? ' ' : ch;
  }
  const t = out.replace(/\s+/g, ' ').trim();
  return t ? t : undefined;
}

/** Rich text (XHTML) without its markup. */
function stripMarkup(xml: string): string {
  return xml
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Math.min(Number(n), 0x10ffff)))
    .replace(/&amp;/g, '&');
}

/** A text string, or the text of a stream (rich text may be either). */
function stringOf(doc: PdfDocument, obj: PdfObject): string | undefined {
  if (obj instanceof PdfString) return obj.text();
  if (obj instanceof PdfStream) {
    const data = doc.streamData(obj);
    return new TextDecoder('utf-8', { fatal: false }).decode(data.subarray(0, MAX_STREAM));
  }
  return undefined;
}

interface Drawn {
  texts: string[];
  image: boolean;
  paints: boolean;
  forms: number;
}

/** Strings shown by text operators (Tj, TJ, ', ") and inline images of one content stream. */
function scanContent(data: Uint8Array, into: Drawn): void {
  const lexer = new Lexer(data.subarray(0, MAX_STREAM), 0, 0, true);
  let operands: PdfString[] = [];
  let inArray = false;
  for (let n = 0; n < MAX_TOKENS; n++) {
    const token = lexer.nextToken();
    if (token.t === 'eof') return;
    into.paints = true;
    if (token.t === 'str') operands.push(token.v);
    else if (token.t === '[') inArray = true;
    else if (token.t === ']') inArray = false;
    else if (token.t === 'kw') {
      if (token.v === 'Tj' || token.v === 'TJ' || token.v === "'" || token.v === '"') {
        const shown = operands.map((s) => s.text()).join('');
        if (shown.trim()) into.texts.push(shown);
      } else if (token.v === 'ID') {
        into.image = true;
        // Inline image data is binary: skip to the EI that ends it.
        const rest = data.subarray(lexer.pos);
        const at = Buffer.from(rest.buffer, rest.byteOffset, rest.byteLength).indexOf('EI');
        if (at < 0) return;
        lexer.pos += at + 2;
      }
      if (!inArray) operands = [];
    }
  }
}

function scanForm(doc: PdfDocument, form: PdfStream, revision: number, into: Drawn, depth: number): void {
  if (++into.forms > MAX_FORMS) return;
  scanContent(doc.streamData(form), into);
  if (depth >= MAX_FORM_DEPTH) return;
  const resources = doc.resolve(form.dict.get('Resources'), revision);
  const xobjects = resources instanceof PdfDict ? doc.resolve(resources.get('XObject'), revision) : null;
  if (!(xobjects instanceof PdfDict)) return;
  for (const [, value] of xobjects.map) {
    const x = doc.resolve(value, revision);
    if (!(x instanceof PdfStream)) continue;
    const subtype = x.dict.getName('Subtype');
    if (subtype === 'Image') into.image = true;
    else if (subtype === 'Form' && x !== form) scanForm(doc, x, revision, into, depth + 1);
  }
}

/** The normal appearance a viewer draws: /AP /N, or its state named by /AS. */
function normalAppearance(doc: PdfDocument, annot: PdfDict, revision: number): PdfStream | undefined {
  const ap = doc.resolve(annot.get('AP'), revision);
  if (!(ap instanceof PdfDict)) return undefined;
  const n = doc.resolve(ap.get('N'), revision);
  if (n instanceof PdfStream) return n;
  if (!(n instanceof PdfDict)) return undefined;
  const state = asName(doc.resolve(annot.get('AS'), revision));
  const chosen = state ? doc.resolve(n.get(state), revision) : undefined;
  if (chosen instanceof PdfStream) return chosen;
  for (const [, v] of n.map) {
    const s = doc.resolve(v, revision);
    if (s instanceof PdfStream) return s;
  }
  return undefined;
}

/** Describes an annotation dictionary as it stands in `revision`; never throws but for a timeout. */
export function describeAnnotation(doc: PdfDocument, annot: PdfObject, revision: number): AnnotationContent {
  const out: AnnotationContent = { image: false, paints: false };
  try {
    const d = doc.resolve(annot, revision);
    if (!(d instanceof PdfDict)) return out;
    const sources: string[] = [];
    const contents = clean(asText(doc.resolve(d.get('Contents'), revision)));
    if (contents) sources.push(contents);
    const rc = doc.resolve(d.get('RC'), revision);
    const rich = clean(stripMarkup(stringOf(doc, rc) ?? ''));
    if (rich) sources.push(rich);
    if (d.get('Subtype') instanceof PdfName && d.getName('Subtype') === 'Widget') {
      const value = clean(asText(doc.resolve(d.get('V'), revision)));
      if (value) sources.push(value);
    }
    const appearance = normalAppearance(doc, d, revision);
    if (appearance) {
      const drawn: Drawn = { texts: [], image: false, paints: false, forms: 0 };
      scanForm(doc, appearance, revision, drawn, 0);
      out.image = drawn.image;
      out.paints = drawn.paints;
      const shown = clean(drawn.texts.join(' '));
      if (shown) sources.push(shown);
    }
    const unique = [...new Set(sources)];
    const text = unique.join(' | ');
    if (text) out.text = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
  } catch (e) {
    if (e instanceof PdfError && e.code === 'timeout') throw e;
    // An unreadable part says nothing more about what is shown.
  }
  return out;
}
