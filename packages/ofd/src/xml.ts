import { DOMParser, type Element } from '@xmldom/xmldom';
import { OfdError } from './errors';

export type XmlElement = Element;

/** Decodes a part as text in the encoding its XML declaration names (UTF-8 when none). */
export function decodeXml(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /encoding\s*=\s*["']([A-Za-z0-9_-]+)["']/.exec(head)?.[1]?.toLowerCase();
  let label = declared ?? 'utf-8';
  if (label === 'gb2312') label = 'gbk';
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** The root element of an XML part; a part that is not well-formed throws `OfdError('badXml')`. */
export function parseXml(bytes: Uint8Array, name: string): XmlElement {
  const text = decodeXml(bytes).replace(/^\uFEFF/, '');
  let failure: string | null = null;
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning' && failure === null) failure = message;
    },
  });
  let root: XmlElement | null = null;
  try {
    root = parser.parseFromString(text, 'text/xml').documentElement;
  } catch (err) {
    failure ??= err instanceof Error ? err.message : String(err);
  }
  if (failure !== null || !root) throw new OfdError('badXml', `${name}: ${failure ?? 'no root element'}`);
  return root;
}

/** Child elements by local name (OFD parts use the `ofd:` prefix, or none). */
export function children(el: XmlElement | null | undefined, localName?: string): XmlElement[] {
  const out: XmlElement[] = [];
  if (!el) return out;
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const e = n as XmlElement;
    if (localName === undefined || localNameOf(e) === localName) out.push(e);
  }
  return out;
}

export function child(el: XmlElement | null | undefined, localName: string): XmlElement | undefined {
  return children(el, localName)[0];
}

export function localNameOf(el: XmlElement): string {
  return el.localName ?? el.nodeName.replace(/^.*:/, '');
}

/** The trimmed text of a child element. */
export function childText(el: XmlElement | null | undefined, localName: string): string | undefined {
  const c = child(el, localName);
  const t = c?.textContent?.trim();
  return t ? t : undefined;
}

export function attr(el: XmlElement | null | undefined, name: string): string | undefined {
  if (!el || !el.hasAttribute(name)) return undefined;
  return el.getAttribute(name) ?? undefined;
}

export function numAttr(el: XmlElement | null | undefined, name: string): number | undefined {
  const v = attr(el, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

export function boolAttr(el: XmlElement | null | undefined, name: string, fallback: boolean): boolean {
  const v = attr(el, name)?.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return fallback;
}

/** Numbers separated by spaces (or commas), as OFD writes boxes, matrices and colours. */
export function numbers(text: string | undefined): number[] {
  if (!text) return [];
  return text
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isFinite(n));
}
