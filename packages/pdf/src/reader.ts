import { createDecryptor, type SecurityHandler } from './crypt';
import { PdfError } from './errors';
import { decodeFilters } from './filters';
import { indexOfBytes, Keyword, lastIndexOfBytes, latin1, Lexer, NeedMore } from './lexer';
import { PdfDict, PdfRef, PdfStream, PdfString, type PdfObject } from './objects';
import { toSource, type ByteSource } from './source';

export { PdfError } from './errors';
export type { PdfErrorCode } from './errors';

export interface XrefEntry {
  type: 'free' | 'offset' | 'compressed';
  offset?: number;
  gen: number;
  streamNum?: number;
  index?: number;
}

export interface Revision {
  index: number;
  /** Where this revision's cross-reference section starts (for repaired files: its trailer, or -1). */
  xrefOffset: number;
  kind: 'table' | 'stream' | 'hybrid' | 'repaired';
  trailer: PdfDict;
  entries: Map<number, XrefEntry>;
  /** Offset just after this revision's %%EOF (and its EOL), where the next revision starts. */
  end: number;
}

export interface PdfLimits {
  maxObjects?: number;
  /** Bound on any decoded stream, including object and cross-reference streams. */
  maxStreamBytes?: number;
  maxDepth?: number;
  maxXrefSections?: number;
  /** Budget for opening the file (cross-reference reading and repair). */
  deadlineMs?: number;
}

export interface OpenPdfOptions {
  limits?: PdfLimits;
  /** User password for encrypted files; the empty password is tried by default. */
  password?: string;
}

const DEFAULT_LIMITS: Required<PdfLimits> = {
  maxObjects: 5_000_000,
  maxStreamBytes: 256 * 1024 * 1024,
  maxDepth: 64,
  maxXrefSections: 10_000,
  deadlineMs: 60_000,
};

export type Box = [number, number, number, number];

export interface PdfPage {
  ref: PdfRef;
  dict: PdfDict;
  mediaBox: Box;
  cropBox?: Box;
  rotate: number;
}

interface Section {
  offset: number;
  kind: 'table' | 'stream' | 'hybrid';
  trailer: PdfDict;
  entries: Map<number, XrefEntry>;
  end: number;
}

interface ObjStm {
  data: Uint8Array;
  first: number;
  list: Array<[number, number]>;
}

class Broken extends Error {}

export function openPdf(source: ByteSource | Uint8Array, options: OpenPdfOptions = {}): PdfDocument {
  return new PdfDocument(toSource(source), options);
}

export class PdfDocument {
  readonly source: ByteSource;
  readonly size: number;
  readonly revisions: Revision[] = [];
  readonly headerVersion: string;
  readonly headerOffset: number;
  readonly encrypted: boolean;
  /** True when the file could be decrypted (empty or given user password); strings come back in clear. */
  readonly decrypted: boolean;
  readonly limits: Required<PdfLimits>;

  private isRepaired = false;
  private deadline = Infinity;
  private readonly cache = new Map<string, PdfObject>();
  private readonly objStms = new Map<number, ObjStm>();
  private scanned?: Map<number, XrefEntry>;
  private readonly resolving = new Set<string>();
  private decryptor: SecurityHandler | undefined;
  private readonly password: string;

  constructor(source: ByteSource, options: OpenPdfOptions = {}) {
    this.source = source;
    this.size = source.size;
    this.password = options.password ?? '';
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.deadline = Date.now() + this.limits.deadlineMs;

    const head = source.read(0, Math.min(this.size, 1024));
    const at = indexOfBytes(head, '%PDF-');
    if (at < 0) throw new PdfError('not-a-pdf', 'no %PDF- header in the first 1024 bytes');
    this.headerOffset = at;
    const m = /^%PDF-(\d+\.\d+)/.exec(latin1(head, at, Math.min(head.length, at + 16)));
    this.headerVersion = m?.[1] ?? '1.0';

    try {
      this.readChain();
    } catch (e) {
      if (!(e instanceof Broken)) throw e;
      this.repair();
    }
    this.deadline = Infinity;

    const trailer = this.trailer();
    this.encrypted = trailer.get('Encrypt') != null;
    this.decrypted = this.decryptor !== undefined;
    if (!trailer.get('Root')) throw new PdfError('damaged', 'the trailer has no /Root');
  }

  /**
   * Sets up decryption from the latest trailer's /Encrypt. Must run before any object that may be
   * encrypted (object streams included) is read; the Encrypt dictionary itself is never encrypted.
   */
  private setupEncryption(): void {
    this.decryptor = undefined;
    const trailer = this.trailer();
    const enc = trailer.get('Encrypt');
    if (enc == null) return;
    const encDict = this.resolve(enc);
    const ids = this.resolve(trailer.get('ID'));
    const id0 = Array.isArray(ids) && ids[0] instanceof PdfString ? ids[0].bytes : new Uint8Array(0);
    this.decryptor = encDict instanceof PdfDict ? createDecryptor(encDict, id0, this.password) : undefined;
    // Objects read while looking for the Encrypt dictionary were not decrypted: forget them.
    this.cache.clear();
    this.objStms.clear();
    if (encDict instanceof PdfDict && enc instanceof PdfRef) this.cache.set(this.cacheKeyFor(enc), encDict);
  }

  /**
   * The standard security handler the file was opened with (empty or given password), undefined when the
   * file is not encrypted or could not be decrypted. The incremental writer encrypts with it.
   */
  get security(): SecurityHandler | undefined {
    return this.decryptor;
  }

  /** True when the cross-reference data was rebuilt by scanning the file because it was broken. */
  get repaired(): boolean {
    return this.isRepaired;
  }

  trailer(revision?: number): PdfDict {
    return this.rev(revision).trailer;
  }

  entry(num: number, revision?: number): XrefEntry | undefined {
    const last = this.revIndex(revision);
    for (let r = last; r >= 0; r--) {
      const e = this.revisions[r]!.entries.get(num);
      if (e) return e;
    }
    return undefined;
  }

  objectNumbers(revision?: number): number[] {
    const last = this.revIndex(revision);
    const seen = new Set<number>();
    for (let r = 0; r <= last; r++) for (const n of this.revisions[r]!.entries.keys()) seen.add(n);
    return [...seen].filter((n) => n > 0 && this.entry(n, last)?.type !== 'free').sort((a, b) => a - b);
  }

  lookup(ref: PdfRef, revision?: number): PdfObject {
    const e = this.entry(ref.num, revision);
    if (!e || e.type === 'free') return null;
    if (e.type === 'offset' && e.gen !== ref.gen) return null;
    const key = this.cacheKey(e, ref);
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    if (this.resolving.has(key)) return null;
    this.resolving.add(key);
    try {
      const obj = e.type === 'offset' ? this.loadAt(e.offset!, ref) : this.loadCompressed(e, ref);
      this.cache.set(key, obj);
      return obj;
    } finally {
      this.resolving.delete(key);
    }
  }

  resolve(obj: PdfObject | undefined, revision?: number): PdfObject {
    let cur: PdfObject | undefined = obj;
    for (let hops = 0; cur instanceof PdfRef; hops++) {
      if (hops > 32) return null;
      cur = this.lookup(cur, revision);
    }
    return cur ?? null;
  }

  /** Resolves `dict[key]`, returning a dictionary (a stream's dictionary counts) or undefined. */
  resolveDict(obj: PdfObject | undefined, revision?: number): PdfDict | undefined {
    const v = this.resolve(obj, revision);
    return v instanceof PdfDict ? v : v instanceof PdfStream ? v.dict : undefined;
  }

  catalog(revision?: number): PdfDict {
    const root = this.resolve(this.trailer(revision).get('Root'), revision);
    if (!(root instanceof PdfDict)) throw new PdfError('damaged', 'the document catalog is missing');
    return root;
  }

  pages(revision?: number): PdfPage[] {
    const out: PdfPage[] = [];
    const catalog = this.catalog(revision);
    const rootRef = catalog.get('Pages');
    const seen = new Set<string>();
    const walk = (nodeRef: PdfObject | undefined, inherited: Inherited, depth: number): void => {
      if (depth > this.limits.maxDepth) throw new PdfError('too-complex', 'page tree too deep');
      if (nodeRef instanceof PdfRef) {
        if (seen.has(nodeRef.key())) return;
        seen.add(nodeRef.key());
      }
      const node = this.resolve(nodeRef, revision);
      if (!(node instanceof PdfDict)) return;
      const inh: Inherited = {
        mediaBox: this.box(node.get('MediaBox'), revision) ?? inherited.mediaBox,
        cropBox: this.box(node.get('CropBox'), revision) ?? inherited.cropBox,
        rotate: numberOr(this.resolve(node.get('Rotate'), revision), inherited.rotate),
      };
      const kids = this.resolve(node.get('Kids'), revision);
      const type = node.getName('Type');
      if (type === 'Pages' || (type !== 'Page' && Array.isArray(kids))) {
        if (Array.isArray(kids)) for (const kid of kids) walk(kid, inh, depth + 1);
        return;
      }
      if (!(nodeRef instanceof PdfRef)) return;
      if (out.length >= this.limits.maxObjects) throw new PdfError('too-complex', 'too many pages');
      const rotate = (((Math.round(inh.rotate / 90) * 90) % 360) + 360) % 360;
      const page: PdfPage = { ref: nodeRef, dict: node, mediaBox: inh.mediaBox ?? [0, 0, 612, 792], rotate };
      if (inh.cropBox) page.cropBox = inh.cropBox;
      out.push(page);
    };
    walk(rootRef, { rotate: 0 }, 0);
    return out;
  }

  /** Decoded stream data. Throws PdfError 'unsupported' for image codecs such as DCT or JBIG2. */
  streamData(stream: PdfStream): Uint8Array {
    const raw = this.rawStream(stream);
    const filter = this.resolve(stream.dict.get('Filter'));
    const parms = this.resolve(stream.dict.get('DecodeParms'));
    return decodeFilters(raw, filter, parms, this.limits.maxStreamBytes);
  }

  /** The stream's bytes as stored in the file, decrypted but not decoded. */
  rawStream(stream: PdfStream): Uint8Array {
    if (stream.length > this.limits.maxStreamBytes) {
      throw new PdfError('too-complex', `a stream is larger than ${this.limits.maxStreamBytes} bytes`);
    }
    const raw = this.source.read(stream.start, stream.length);
    if (this.decryptor && stream.ref && stream.dict.getName('Type') !== 'XRef') {
      return this.decryptor.decryptStream(raw, stream.ref.num, stream.ref.gen, stream.dict);
    }
    return raw;
  }

  rawBytes(offset: number, length: number): Uint8Array {
    return this.source.read(offset, length);
  }

  /** Where object `ref` starts in the file (offset entries only); the writer uses it for repaired files. */
  offsetOf(num: number, revision?: number): number | undefined {
    const e = this.entry(num, revision);
    return e?.type === 'offset' ? e.offset : undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // Cross-reference reading

  private rev(revision?: number): Revision {
    return this.revisions[this.revIndex(revision)]!;
  }

  private revIndex(revision?: number): number {
    const last = this.revisions.length - 1;
    if (revision === undefined) return last;
    if (!Number.isInteger(revision) || revision < 0 || revision > last) {
      throw new RangeError(`revision ${revision} out of range 0..${last}`);
    }
    return revision;
  }

  private checkDeadline(): void {
    if (Date.now() > this.deadline) throw new PdfError('timeout', 'reading the PDF structure took too long');
  }

  private readChain(): void {
    const tailLen = Math.min(this.size, 1024);
    const tail = this.source.read(this.size - tailLen, tailLen);
    const at = lastIndexOfBytes(tail, 'startxref');
    if (at < 0) throw new Broken('no startxref');
    const m = /^startxref\s+(\d+)/.exec(latin1(tail, at, Math.min(tail.length, at + 40)));
    if (!m) throw new Broken('startxref without an offset');
    let offset: number | undefined = Number(m[1]);

    const sections: Section[] = [];
    const visited = new Set<number>();
    while (offset !== undefined) {
      this.checkDeadline();
      if (visited.has(offset)) break;
      visited.add(offset);
      if (sections.length >= this.limits.maxXrefSections) {
        throw new PdfError(
          'too-complex',
          `more than ${this.limits.maxXrefSections} cross-reference sections`,
        );
      }
      const sec = this.readSection(offset);
      sections.push(sec);
      const prev = sec.trailer.get('Prev');
      offset = typeof prev === 'number' && Number.isInteger(prev) && prev >= 0 ? prev : undefined;
    }

    // Oldest first. A section whose /Prev points forward is a linearized file's first-page section:
    // it and the main section it points to form one revision.
    sections.reverse();
    const revs: Revision[] = [];
    for (let i = 0; i < sections.length; i++) {
      const sec = sections[i]!;
      const older = revs[revs.length - 1];
      const olderSec = sections[i - 1];
      if (older && olderSec && olderSec.offset > sec.offset) {
        const trailer = older.trailer.clone();
        for (const [k, v] of sec.trailer.map) trailer.set(k, v);
        for (const [n, e] of sec.entries) older.entries.set(n, e);
        older.trailer = trailer;
        older.xrefOffset = sec.offset;
        older.kind = sec.kind;
        older.end = Math.max(older.end, sec.end);
        continue;
      }
      revs.push({
        index: revs.length,
        xrefOffset: sec.offset,
        kind: sec.kind,
        trailer: sec.trailer,
        entries: sec.entries,
        end: sec.end,
      });
    }
    let count = 0;
    for (const r of revs) count += r.entries.size;
    if (count > this.limits.maxObjects)
      throw new PdfError('too-complex', `more than ${this.limits.maxObjects} objects`);
    this.revisions.push(...revs);
    this.setupEncryption();
    // A chain that does not lead to a catalog is as good as broken.
    const root = this.trailer().get('Root');
    if (!(root instanceof PdfRef)) throw new Broken('no /Root');
    const e = this.entry(root.num);
    if (!e || e.type === 'free') {
      this.revisions.length = 0;
      throw new Broken('/Root not in the cross-reference data');
    }
    try {
      if (!(this.resolve(root) instanceof PdfDict)) throw new Broken('bad /Root');
    } catch (err) {
      this.revisions.length = 0;
      this.cache.clear();
      throw err instanceof PdfError && err.code !== 'damaged' ? err : new Broken('bad /Root');
    }
  }

  private readSection(offset: number): Section {
    if (offset <= 0 || offset >= this.size) throw new Broken('cross-reference offset out of the file');
    const win = this.source.read(offset, 32);
    let p = 0;
    while (p < win.length && isWs(win[p]!)) p++;
    if (latin1(win, p, p + 4) === 'xref') return this.readTable(offset + p + 4, offset);
    if (/^\d+\s+\d+\s+obj/.test(latin1(win, p, win.length))) return this.readXrefStream(offset);
    throw new Broken(`no cross-reference section at ${offset}`);
  }

  /** Parses `[count]` entries from a classic table, then the trailer; `from` is just after 'xref'. */
  private readTable(from: number, offset: number): Section {
    let win = 64 * 1024;
    for (;;) {
      this.checkDeadline();
      const buf = this.source.read(from, win);
      const complete = from + buf.length >= this.size;
      try {
        const lx = new Lexer(buf, 0, from, complete, this.limits.maxDepth);
        const entries = new Map<number, XrefEntry>();
        for (;;) {
          const tok = lx.nextToken();
          if (tok.t === 'kw' && tok.v === 'trailer') break;
          if (tok.t !== 'num') throw new Broken('bad cross-reference table');
          const t2 = lx.nextToken();
          if (t2.t !== 'num') throw new Broken('bad cross-reference subsection header');
          let first = tok.v;
          const count = t2.v;
          if (count < 0 || first < 0 || count > this.limits.maxObjects) throw new Broken('bad subsection');
          for (let i = 0; i < count; i++) {
            const a = lx.nextToken();
            const b = lx.nextToken();
            const c = lx.nextToken();
            if (a.t !== 'num' || b.t !== 'num' || c.t !== 'kw' || (c.v !== 'n' && c.v !== 'f')) {
              throw new Broken('bad cross-reference entry');
            }
            // A common producer bug: the table starts at 1 but lists object 0's free entry first.
            if (i === 0 && first === 1 && c.v === 'f' && a.v === 0 && b.v === 65535) first = 0;
            const num = first + i;
            if (c.v === 'n' && a.v > 0) entries.set(num, { type: 'offset', offset: a.v, gen: b.v });
            else entries.set(num, { type: 'free', gen: b.v });
          }
        }
        const trailer = lx.parseObject();
        if (!(trailer instanceof PdfDict)) throw new Broken('bad trailer');
        const endPos = lx.offset;
        let kind: Section['kind'] = 'table';
        const xs = trailer.get('XRefStm');
        if (typeof xs === 'number') {
          const stm = this.readXrefStream(xs);
          // In a hybrid file the table wins, except where it calls an object free that the stream has.
          for (const [n, e] of stm.entries) {
            const t = entries.get(n);
            if (!t || (t.type === 'free' && e.type !== 'free')) entries.set(n, e);
          }
          kind = 'hybrid';
        }
        return { offset, kind, trailer, entries, end: this.findEof(endPos) };
      } catch (e) {
        if (e instanceof NeedMore && !complete) {
          win *= 4;
          continue;
        }
        if (e instanceof PdfError && e.code !== 'damaged') throw e;
        if (e instanceof Broken) throw e;
        throw new Broken('bad cross-reference table');
      }
    }
  }

  private readXrefStream(offset: number): Section {
    let parsed: { obj: PdfObject; end: number };
    try {
      parsed = this.parseIndirect(offset, undefined);
    } catch (e) {
      if (e instanceof PdfError && e.code !== 'damaged') throw e;
      throw new Broken('no cross-reference stream');
    }
    const stream = parsed.obj;
    if (!(stream instanceof PdfStream) || stream.dict.getName('Type') !== 'XRef') {
      throw new Broken(`no cross-reference stream at ${offset}`);
    }
    const dict = stream.dict;
    let data: Uint8Array;
    try {
      data = decodeFilters(
        this.source.read(stream.start, stream.length),
        dict.get('Filter'),
        dict.get('DecodeParms'),
        this.limits.maxStreamBytes,
      );
    } catch (e) {
      if (e instanceof PdfError && e.code !== 'damaged') throw e;
      throw new Broken('undecodable cross-reference stream');
    }
    const w = dict.getArray('W');
    if (!w || w.length < 3 || !w.every((x) => typeof x === 'number' && x >= 0 && x <= 8)) {
      throw new Broken('bad /W in cross-reference stream');
    }
    const [w0, w1, w2] = w as number[];
    const rowLen = w0! + w1! + w2!;
    const size = dict.getNumber('Size') ?? 0;
    const index = (dict.getArray('Index') ?? [0, size]).filter((x): x is number => typeof x === 'number');
    const entries = new Map<number, XrefEntry>();
    let pos = 0;
    const field = (width: number): number => {
      let v = 0;
      for (let k = 0; k < width; k++) v = v * 256 + data[pos++]!;
      return v;
    };
    for (let s = 0; s + 1 < index.length; s += 2) {
      const first = index[s]!;
      const count = index[s + 1]!;
      if (count > this.limits.maxObjects)
        throw new PdfError('too-complex', 'cross-reference stream too large');
      for (let i = 0; i < count && pos + rowLen <= data.length; i++) {
        const type = w0 === 0 ? 1 : field(w0!);
        const f2 = field(w1!);
        const f3 = field(w2!);
        const num = first + i;
        if (type === 0) entries.set(num, { type: 'free', gen: f3 });
        else if (type === 1) entries.set(num, { type: 'offset', offset: f2, gen: f3 });
        else if (type === 2) entries.set(num, { type: 'compressed', gen: 0, streamNum: f2, index: f3 });
      }
    }
    const trailer = new PdfDict(dict.map);
    trailer.delete('Length');
    trailer.delete('Filter');
    trailer.delete('DecodeParms');
    return { offset, kind: 'stream', trailer, entries, end: this.findEof(parsed.end) };
  }

  /** The offset just after the first %%EOF (and its EOL) at or after `from`. */
  private findEof(from: number): number {
    const buf = this.source.read(from, 4096);
    const at = indexOfBytes(buf, '%%EOF');
    if (at < 0) return Math.min(this.size, from);
    let end = at + 5;
    if (buf[end] === 0x0d) end++;
    if (buf[end] === 0x0a) end++;
    return from + end;
  }

  // ---------------------------------------------------------------------------------------------
  // Objects

  private cacheKey(e: XrefEntry, ref: PdfRef): string {
    return e.type === 'offset' ? `o${e.offset}` : `c${e.streamNum}:${e.index}:${ref.num}`;
  }

  private cacheKeyFor(ref: PdfRef): string {
    const e = this.entry(ref.num);
    return e ? this.cacheKey(e, ref) : '';
  }

  private loadAt(offset: number, ref: PdfRef): PdfObject {
    try {
      const { obj, num } = this.parseIndirect(offset, ref);
      if (num === ref.num) return obj;
    } catch (e) {
      if (e instanceof PdfError && e.code !== 'damaged') throw e;
    }
    // The table points to the wrong place: fall back to a scan of the whole file.
    const found = this.scanIndex().get(ref.num);
    if (found?.type === 'offset' && found.offset !== offset) {
      this.isRepaired = true;
      try {
        return this.parseIndirect(found.offset!, ref).obj;
      } catch (e) {
        if (e instanceof PdfError && e.code !== 'damaged') throw e;
      }
    }
    return null;
  }

  private loadCompressed(e: XrefEntry, ref: PdfRef): PdfObject {
    const stm = this.objStm(e.streamNum!);
    if (!stm) return null;
    let at = stm.list[e.index!];
    if (!at || at[0] !== ref.num) at = stm.list.find(([n]) => n === ref.num);
    if (!at) return null;
    const lx = new Lexer(stm.data, stm.first + at[1], 0, true, this.limits.maxDepth);
    const obj = lx.parseObject();
    return obj instanceof Keyword ? null : obj;
  }

  private objStm(num: number): ObjStm | undefined {
    const hit = this.objStms.get(num);
    if (hit) return hit;
    const e = this.entry(num);
    if (e?.type !== 'offset') return undefined;
    const s = this.lookup(new PdfRef(num, e.gen));
    if (!(s instanceof PdfStream)) return undefined;
    const data = this.streamData(s);
    const n = this.resolve(s.dict.get('N'));
    const first = this.resolve(s.dict.get('First'));
    if (typeof n !== 'number' || typeof first !== 'number' || first > data.length) return undefined;
    if (n > this.limits.maxObjects) throw new PdfError('too-complex', 'object stream too large');
    const lx = new Lexer(data.subarray(0, first), 0, 0, true, this.limits.maxDepth);
    const list: Array<[number, number]> = [];
    for (let i = 0; i < n; i++) {
      const a = lx.nextToken();
      const b = lx.nextToken();
      if (a.t !== 'num' || b.t !== 'num') break;
      list.push([a.v, b.v]);
    }
    const stm = { data, first, list };
    if (this.objStms.size > 64) this.objStms.delete(this.objStms.keys().next().value!);
    this.objStms.set(num, stm);
    return stm;
  }

  /**
   * Parses `N G obj ... endobj` at `offset`. Stream data is not read: the PdfStream records where it is.
   * Returns the object, its number and the offset just after it.
   */
  parseIndirect(
    offset: number,
    ref: PdfRef | undefined,
  ): { obj: PdfObject; num: number; gen: number; end: number } {
    let win = 4096;
    for (;;) {
      const buf = this.source.read(offset, win);
      const complete = offset + buf.length >= this.size;
      const lx = new Lexer(buf, 0, offset, complete, this.limits.maxDepth);
      try {
        const a = lx.nextToken();
        const b = lx.nextToken();
        const c = lx.nextToken();
        if (a.t !== 'num' || b.t !== 'num' || c.t !== 'kw' || c.v !== 'obj') {
          throw new PdfError('damaged', `no object at offset ${offset}`);
        }
        const num = a.v;
        const gen = b.v;
        const objRef = ref ?? new PdfRef(num, gen);
        let obj = lx.parseObject();
        if (obj instanceof Keyword) obj = null;
        const save = lx.pos;
        const next = lx.nextToken();
        if (obj instanceof PdfDict && next.t === 'kw' && next.v === 'stream') {
          let p = lx.pos;
          // 'stream' is followed by CRLF or LF; tolerate a lone CR and trailing spaces.
          while (buf[p] === 0x20) p++;
          if (buf[p] === 0x0d) p++;
          if (buf[p] === 0x0a) p++;
          if (p >= buf.length && !complete) throw new NeedMore();
          const start = offset + p;
          const length = this.streamLength(obj, start);
          const stream = new PdfStream(obj, start, length, objRef);
          // Cross-reference streams are never encrypted (ISO 32000-2 §7.6.1).
          if (obj.getName('Type') !== 'XRef') this.decryptStrings(obj, objRef);
          return { obj: stream, num, gen, end: start + length };
        }
        if (next.t === 'kw' && next.v === 'endobj') {
          if (obj !== null) this.decryptStrings(obj, objRef);
          return { obj, num, gen, end: lx.offset };
        }
        lx.pos = save;
        if (obj !== null) this.decryptStrings(obj, objRef);
        return { obj, num, gen, end: lx.offset };
      } catch (e) {
        if (e instanceof NeedMore && !complete && win < 64 * 1024 * 1024) {
          win *= 4;
          continue;
        }
        if (e instanceof NeedMore) throw new PdfError('damaged', `object at ${offset} does not end`);
        throw e;
      }
    }
  }

  private streamLength(dict: PdfDict, start: number): number {
    let len: PdfObject | undefined = dict.get('Length');
    if (len instanceof PdfRef) {
      try {
        len = this.revisions.length ? this.resolve(len) : undefined;
      } catch {
        len = undefined;
      }
    }
    if (typeof len === 'number' && Number.isInteger(len) && len >= 0 && start + len <= this.size) {
      const after = this.source.read(start + len, 32);
      let p = 0;
      while (p < after.length && isWs(after[p]!)) p++;
      if (latin1(after, p, p + 9) === 'endstream') return len;
    }
    return this.findEndstream(start);
  }

  /** Length of a stream whose /Length is missing or wrong: up to 'endstream', minus the EOL before it. */
  private findEndstream(start: number): number {
    const chunk = 1024 * 1024;
    for (let pos = start; pos < this.size; pos += chunk - 16) {
      const buf = this.source.read(pos, chunk);
      const at = indexOfBytes(buf, 'endstream');
      if (at >= 0) {
        let end = pos + at;
        const before = this.source.read(Math.max(start, end - 2), Math.min(2, end - start));
        if (before[before.length - 1] === 0x0a) end--;
        if (before.length === 2 && before[0] === 0x0d && before[1] === 0x0a) end--;
        else if (before[before.length - 1] === 0x0d) end--;
        return Math.max(0, end - start);
      }
      if (pos - start > this.limits.maxStreamBytes) break;
      if (buf.length < chunk) break;
    }
    throw new PdfError('damaged', `stream at ${start} has no endstream`);
  }

  private decryptStrings(obj: PdfObject, ref: PdfRef): void {
    const d = this.decryptor;
    if (!d) return;
    const walk = (o: PdfObject, parent?: PdfDict): PdfObject => {
      if (o instanceof PdfString) return new PdfString(d.decryptString(o.bytes, ref.num, ref.gen), o.hex);
      if (Array.isArray(o)) {
        for (let i = 0; i < o.length; i++) o[i] = walk(o[i]!);
        return o;
      }
      if (o instanceof PdfDict) {
        // A signature's /Contents is never encrypted (ISO 32000-2 §7.6.2).
        const isSig = o.has('ByteRange') && o.has('Contents');
        for (const [k, v] of o.map) {
          if (isSig && k === 'Contents') continue;
          o.map.set(k, walk(v, o));
        }
        return o;
      }
      void parent;
      return o;
    };
    walk(obj);
  }

  private box(obj: PdfObject | undefined, revision?: number): Box | undefined {
    const arr = this.resolve(obj, revision);
    if (!Array.isArray(arr) || arr.length < 4) return undefined;
    const n = arr.slice(0, 4).map((x) => this.resolve(x, revision));
    if (!n.every((x): x is number => typeof x === 'number')) return undefined;
    const [a, b, c, d] = n as number[];
    return [Math.min(a!, c!), Math.min(b!, d!), Math.max(a!, c!), Math.max(b!, d!)];
  }

  // ---------------------------------------------------------------------------------------------
  // Repair

  /** Every `N G obj` in the file (last definition wins) plus objects inside object streams. */
  private scanIndex(): Map<number, XrefEntry> {
    if (this.scanned) return this.scanned;
    const saved = this.deadline;
    if (this.deadline === Infinity) this.deadline = Date.now() + this.limits.deadlineMs;
    try {
      this.scanned = this.scanFile().entries;
    } finally {
      this.deadline = saved;
    }
    return this.scanned;
  }

  private scanFile(): {
    entries: Map<number, XrefEntry>;
    objects: Array<{ num: number; gen: number; offset: number }>;
    trailers: number[];
    eofs: number[];
  } {
    const objects: Array<{ num: number; gen: number; offset: number }> = [];
    const trailers: number[] = [];
    const eofs: number[] = [];
    const chunk = 1024 * 1024;
    const overlap = 64;
    const objRe = /(?<![0-9])(\d{1,10})[\0\t\n\f\r ]+(\d{1,5})[\0\t\n\f\r ]+obj(?![A-Za-z0-9])/g;
    const kwRe = /trailer|%%EOF/g;
    for (let pos = 0; pos < this.size; pos += chunk) {
      this.checkDeadline();
      // Read a little before and after the chunk so matches that straddle a boundary are seen whole.
      const from = Math.max(0, pos - overlap);
      const buf = this.source.read(from, pos - from + chunk + overlap);
      const s = latin1(buf, 0, buf.length);
      const lo = pos - from;
      const hi = lo + chunk;
      objRe.lastIndex = lo;
      for (let m = objRe.exec(s); m && m.index < hi; m = objRe.exec(s)) {
        objects.push({ num: Number(m[1]), gen: Number(m[2]), offset: from + m.index });
      }
      kwRe.lastIndex = lo;
      for (let m = kwRe.exec(s); m && m.index < hi; m = kwRe.exec(s)) {
        if (m[0] === 'trailer') trailers.push(from + m.index);
        else {
          let end = from + m.index + 5;
          const after = this.source.read(end, 2);
          if (after[0] === 0x0d) end++;
          if (after[after[0] === 0x0d ? 1 : 0] === 0x0a) end++;
          eofs.push(end);
        }
      }
      if (objects.length > this.limits.maxObjects) throw new PdfError('too-complex', 'too many objects');
    }
    const entries = new Map<number, XrefEntry>();
    for (const o of objects) entries.set(o.num, { type: 'offset', offset: o.offset, gen: o.gen });
    return { entries, objects, trailers, eofs };
  }

  private repair(): void {
    this.isRepaired = true;
    this.revisions.length = 0;
    this.cache.clear();
    this.objStms.clear();
    this.decryptor = undefined;
    const scan = this.scanFile();
    this.scanned = scan.entries;

    // Segments between %%EOF markers become revisions, so signed revisions stay visible.
    const bounds = [...new Set(scan.eofs)].sort((a, b) => a - b);
    if (bounds.length === 0 || bounds[bounds.length - 1]! < this.size) bounds.push(this.size);
    const segOf = (offset: number): number => {
      let lo = 0;
      let hi = bounds.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (offset < bounds[mid]!) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    };
    const segEntries = bounds.map(() => new Map<number, XrefEntry>());
    const segTrailers = bounds.map(() => [] as PdfDict[]);
    const segXref = bounds.map(() => -1);
    const objStms: Array<{ num: number; gen: number; offset: number; seg: number }> = [];

    for (const o of scan.objects) {
      const seg = segOf(o.offset);
      segEntries[seg]!.set(o.num, { type: 'offset', offset: o.offset, gen: o.gen });
      // Only objects that look like object streams or cross-reference streams are parsed here.
      const head = this.source.read(o.offset, 512);
      const text = latin1(head, 0, head.length);
      if (text.includes('/ObjStm')) objStms.push({ ...o, seg });
      if (text.includes('/XRef')) {
        try {
          const { obj } = this.parseIndirect(o.offset, undefined);
          if (obj instanceof PdfStream && obj.dict.getName('Type') === 'XRef') {
            const t = new PdfDict(obj.dict.map);
            for (const k of ['Length', 'Filter', 'DecodeParms', 'W', 'Index', 'Prev', 'XRefStm', 'Type'])
              t.delete(k);
            segTrailers[seg]!.push(t);
            segXref[seg] = o.offset;
          }
        } catch (e) {
          if (e instanceof PdfError && e.code === 'timeout') throw e;
        }
      }
    }
    for (const t of scan.trailers) {
      this.checkDeadline();
      try {
        const buf = this.source.read(t + 7, 64 * 1024);
        const lx = new Lexer(buf, 0, t + 7, true, this.limits.maxDepth);
        const d = lx.parseObject();
        if (d instanceof PdfDict) {
          const seg = segOf(t);
          const dict = d.clone();
          dict.delete('Prev');
          dict.delete('XRefStm');
          segTrailers[seg]!.push(dict);
          segXref[seg] = t;
        }
      } catch (e) {
        if (e instanceof PdfError && e.code === 'timeout') throw e;
      }
    }

    // Provisional single revision so lookups work while object streams and the catalog are sought.
    const all = new Map<number, XrefEntry>();
    const allTrailer = new PdfDict();
    segEntries.forEach((m, i) => {
      for (const [n, e] of m) all.set(n, e);
      for (const t of segTrailers[i]!) for (const [k, v] of t.map) allTrailer.set(k, v);
    });
    this.revisions.push({
      index: 0,
      xrefOffset: -1,
      kind: 'repaired',
      trailer: allTrailer,
      entries: all,
      end: this.size,
    });
    this.setupEncryption();

    for (const s of objStms) {
      this.checkDeadline();
      try {
        const stm = this.objStm(s.num);
        if (!stm) continue;
        stm.list.forEach(([num], index) => {
          const direct = all.get(num);
          // A direct definition later in the file wins over the object stream.
          if (direct?.type === 'offset' && direct.offset! > s.offset) return;
          const e: XrefEntry = { type: 'compressed', gen: 0, streamNum: s.num, index };
          all.set(num, e);
          segEntries[s.seg]!.set(num, e);
        });
      } catch (e) {
        if (e instanceof PdfError && e.code === 'timeout') throw e;
      }
    }
    this.cache.clear();

    if (!this.validRoot(allTrailer.get('Root'))) {
      allTrailer.delete('Root');
      for (const n of [...all.keys()].sort((a, b) => b - a)) {
        const ref = new PdfRef(n, all.get(n)!.gen);
        try {
          const o = this.lookup(ref);
          if (o instanceof PdfDict && o.getName('Type') === 'Catalog' && this.validRoot(ref)) {
            allTrailer.set('Root', ref);
            break;
          }
        } catch (e) {
          if (e instanceof PdfError && e.code === 'timeout') throw e;
        }
      }
      if (!allTrailer.get('Root')) throw new PdfError('damaged', 'no document catalog found');
    }
    let maxNum = 0;
    for (const n of all.keys()) maxNum = Math.max(maxNum, n);

    // Build the per-segment revisions; segments without objects or trailers merge into a neighbour.
    this.revisions.length = 0;
    let cumulative = new PdfDict();
    let pending = new Map<number, XrefEntry>();
    for (let i = 0; i < bounds.length; i++) {
      for (const [n, e] of segEntries[i]!) pending.set(n, e);
      for (const t of segTrailers[i]!) {
        cumulative = cumulative.clone();
        for (const [k, v] of t.map) cumulative.set(k, v);
      }
      const isLast = i === bounds.length - 1;
      if (pending.size === 0 && segTrailers[i]!.length === 0) {
        if (isLast && this.revisions.length === 0) {
          /* fall through: an empty file still needs one revision */
        } else continue;
      }
      if (isLast) {
        cumulative = cumulative.clone();
        cumulative.set('Root', allTrailer.get('Root')!);
        const size = cumulative.get('Size');
        cumulative.set('Size', Math.max(typeof size === 'number' ? size : 0, maxNum + 1));
      }
      this.revisions.push({
        index: this.revisions.length,
        xrefOffset: segXref[i]!,
        kind: 'repaired',
        trailer: cumulative,
        entries: pending,
        end: bounds[i]!,
      });
      pending = new Map();
    }
    const last = this.revisions[this.revisions.length - 1]!;
    for (const [n, e] of pending) last.entries.set(n, e);
    // Every revision needs a trailer that names a catalog for the verifier to walk.
    for (const r of this.revisions)
      if (!r.trailer.get('Root')) r.trailer.set('Root', allTrailer.get('Root')!);
  }

  private validRoot(root: PdfObject | undefined): boolean {
    if (!(root instanceof PdfRef)) return false;
    try {
      const d = this.lookup(root);
      return d instanceof PdfDict && (d.getName('Type') === 'Catalog' || d.has('Pages'));
    } catch (e) {
      if (e instanceof PdfError && e.code === 'timeout') throw e;
      return false;
    }
  }
}

interface Inherited {
  mediaBox?: Box;
  cropBox?: Box;
  rotate: number;
}

function numberOr(v: PdfObject, fallback: number): number {
  return typeof v === 'number' ? v : fallback;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
}
