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

/**
 * What the XML parts of one package may hold together. xmldom builds a node object for every element,
 * attribute and text run (about 5 µs and 600 bytes each, measured), and walks nesting recursively: a 7 KB
 * zip holding a million nested elements once took 12 s and 1.7 GB. So every part is measured first by a
 * linear scan that stops at the first limit, before xmldom sees it.
 */
export interface XmlLimits {
  /** Deepest element nesting of any part (default 256; OFD pages nest a few levels of blocks). */
  maxDepth?: number;
  /** Elements, attributes and text runs of all the parts of a package together (default 1,000,000). */
  maxNodes?: number;
}

export const XML_LIMITS: Required<XmlLimits> = { maxDepth: 256, maxNodes: 1_000_000 };

/** The nodes left to the parts of one package: each part parsed spends from it. */
export class XmlBudget {
  readonly maxDepth: number;
  private nodesLeft: number;

  constructor(limits: XmlLimits = {}) {
    this.maxDepth = limits.maxDepth ?? XML_LIMITS.maxDepth;
    this.nodesLeft = limits.maxNodes ?? XML_LIMITS.maxNodes;
  }

  /**
   * Measures a part and spends its nodes; throws `OfdError('tooComplex')` at the first limit passed, or
   * at a document type declaration: OFD (GB/T 33190) is defined by XML schemas and never needs a DTD,
   * and a DTD is where entity expansion ("billion laughs") lives. Cost is linear in the text and nothing
   * is allocated per node. Well-formedness is left to the parser: this only counts.
   */
  measure(text: string, name: string): void {
    const tooComplex = (what: string) => new OfdError('tooComplex', `${name}: ${what}`);
    const n = text.length;
    let nodes = 0;
    let depth = 0;
    let i = 0;
    while (i < n) {
      const lt = text.indexOf('<', i);
      if (lt < 0) break;
      if (lt > i) nodes++; // a text run
      const next = text.charCodeAt(lt + 1);
      let end: number;
      if (text.startsWith('<!--', lt)) {
        end = text.indexOf('-->', lt + 4);
        i = end < 0 ? n : end + 3;
        nodes++;
      } else if (text.startsWith('<![CDATA[', lt)) {
        end = text.indexOf(']]>', lt + 9);
        i = end < 0 ? n : end + 3;
        nodes++;
      } else if (next === 0x21 /* ! */) {
        throw tooComplex('a document type declaration (entities are not allowed)');
      } else if (next === 0x3f /* ? */) {
        end = text.indexOf('?>', lt + 2);
        i = end < 0 ? n : end + 2;
      } else if (next === 0x2f /* / */) {
        end = text.indexOf('>', lt + 2);
        i = end < 0 ? n : end + 1;
        depth--;
      } else {
        // A start tag: to its '>' outside quoted values, counting one node per attribute ('=').
        let quote = 0;
        let j = lt + 1;
        for (; j < n; j++) {
          const ch = text.charCodeAt(j);
          if (quote !== 0) {
            if (ch === quote) quote = 0;
          } else if (ch === 0x22 || ch === 0x27) quote = ch;
          else if (ch === 0x3d /* = */) nodes++;
          else if (ch === 0x3e /* > */) break;
        }
        nodes++;
        if (text.charCodeAt(j - 1) !== 0x2f /* / */ && ++depth > this.maxDepth)
          throw tooComplex(`elements nested deeper than ${this.maxDepth}`);
        i = j + 1;
      }
      if (nodes > this.nodesLeft) throw tooComplex('more XML nodes than a document may hold');
    }
    this.nodesLeft -= nodes;
  }
}

/**
 * The root element of an XML part. A part that is not well-formed throws `OfdError('badXml')`; one over
 * the budget's limits throws `OfdError('tooComplex')` before it is parsed.
 */
export function parseXml(bytes: Uint8Array, name: string, budget: XmlBudget = new XmlBudget()): XmlElement {
  const text = decodeXml(bytes).replace(/^\uFEFF/, '');
  budget.measure(text, name);
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
