import { PdfDict, PdfName, PdfRef, PdfStream, PdfString, type PdfObject } from '../objects';
import type { PdfDocument } from '../reader';

export function asNumber(obj: PdfObject | undefined): number | undefined {
  return typeof obj === 'number' && Number.isFinite(obj) ? obj : undefined;
}

export function asName(obj: PdfObject | undefined): string | undefined {
  return obj instanceof PdfName ? obj.name : undefined;
}

export function asText(obj: PdfObject | undefined): string | undefined {
  return obj instanceof PdfString ? obj.text() : undefined;
}

export function dictOf(doc: PdfDocument, obj: PdfObject | undefined, revision: number): PdfDict | undefined {
  const v = doc.resolve(obj, revision);
  return v instanceof PdfDict ? v : undefined;
}

export function arrayOf(doc: PdfDocument, obj: PdfObject | undefined, revision: number): PdfObject[] {
  const v = doc.resolve(obj, revision);
  return Array.isArray(v) ? v : [];
}

/** Turns a PDF date (D:YYYYMMDDHHmmSSOHH'mm') into ISO 8601, or null when it is not one. */
export function pdfDateToIso(text: string | undefined): string | null {
  if (!text) return null;
  const m =
    /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(?:([Zz+-])\s*(\d{2})?'?\s*(\d{2})?'?)?/.exec(
      text.trim(),
    );
  if (!m) return null;
  const [y, mo = '01', d = '01', h = '00', mi = '00', s = '00'] = m.slice(1, 7) as string[];
  let offsetMin = 0;
  if (m[7] === '+' || m[7] === '-') {
    offsetMin = (Number(m[8] ?? 0) * 60 + Number(m[9] ?? 0)) * (m[7] === '-' ? -1 : 1);
  }
  const ms =
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offsetMin * 60_000;
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/**
 * A canonical text of an object as written (references are not followed), so that two versions of
 * an object can be compared by content rather than by where they sit: key order, string notation and
 * number spelling do not matter.
 */
export function canonical(obj: PdfObject | undefined, depth = 0): string {
  if (depth > 64) return '…';
  if (obj === undefined || obj === null) return 'null';
  if (typeof obj === 'boolean' || typeof obj === 'number') return String(obj);
  if (obj instanceof PdfName) return '/' + obj.name;
  if (obj instanceof PdfString) return '<' + hex(obj.bytes) + '>';
  if (obj instanceof PdfRef) return obj.toString();
  if (Array.isArray(obj)) return '[' + obj.map((o) => canonical(o, depth + 1)).join(' ') + ']';
  if (obj instanceof PdfStream) return 'stream' + canonical(obj.dict, depth + 1);
  if (obj instanceof PdfDict) {
    const keys = obj.keys().sort();
    return '<<' + keys.map((k) => `/${k} ${canonical(obj.get(k), depth + 1)}`).join(' ') + '>>';
  }
  return '?';
}

const ENCODING_KEYS = new Set(['Length', 'Filter', 'DecodeParms', 'DL']);

function streamDictCanonical(dict: PdfDict): string {
  const copy = new PdfDict([...dict.map].filter(([k]) => !ENCODING_KEYS.has(k)));
  return canonical(copy);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/**
 * Whether two versions of an object say the same thing. Streams compare by dictionary (without its
 * encoding keys) and by data: raw bytes first, decoded bytes when the encoding differs.
 */
export function sameObject(doc: PdfDocument, a: PdfObject, b: PdfObject): boolean {
  if (a instanceof PdfStream || b instanceof PdfStream) {
    if (!(a instanceof PdfStream && b instanceof PdfStream)) return false;
    if (streamDictCanonical(a.dict) !== streamDictCanonical(b.dict)) return false;
    if (a.start === b.start && a.length === b.length) return true;
    try {
      if (a.length === b.length && equalBytes(doc.rawStream(a), doc.rawStream(b))) return true;
      return equalBytes(doc.streamData(a), doc.streamData(b));
    } catch {
      // Undecodable data that differs in its raw form is a difference.
      return false;
    }
  }
  return canonical(a) === canonical(b);
}
