import type { SecurityHandler } from './crypt';
import { checkUpdatable } from './encryption';
import { PdfError } from './errors';
import { deflate } from './filters';
import { PdfDict, PdfName, PdfRef, PdfStream, PdfString, type PdfObject } from './objects';
import type { PdfDocument } from './reader';

const enc = new TextEncoder();

export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) throw new PdfError('unsupported', `cannot write the number ${n}`);
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
  // PDF has no exponent notation: fixed point, trailing zeros dropped.
  const s = n.toFixed(6).replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
}

function nameBytes(name: string): string {
  let out = '/';
  for (const b of enc.encode(name)) {
    const c = String.fromCharCode(b);
    if (b < 0x21 || b > 0x7e || '()<>[]{}/%#'.includes(c)) out += '#' + b.toString(16).padStart(2, '0');
    else out += c;
  }
  return out;
}

function stringBytes(s: PdfString): string {
  const b = s.bytes;
  let printable = !s.hex;
  if (printable) for (const c of b) if (c < 0x20 || c > 0x7e) printable = false;
  if (!printable) {
    let hex = '<';
    for (const c of b) hex += c.toString(16).padStart(2, '0');
    return hex + '>';
  }
  let out = '(';
  for (const c of b) {
    if (c === 0x28 || c === 0x29 || c === 0x5c) out += '\\';
    out += String.fromCharCode(c);
  }
  return out + ')';
}

function serializeTo(obj: PdfObject, out: string[]): void {
  if (obj === null) out.push('null');
  else if (typeof obj === 'boolean') out.push(obj ? 'true' : 'false');
  else if (typeof obj === 'number') out.push(formatNumber(obj));
  else if (obj instanceof PdfName) out.push(nameBytes(obj.name));
  else if (obj instanceof PdfString) out.push(stringBytes(obj));
  else if (obj instanceof PdfRef) out.push(`${obj.num} ${obj.gen} R`);
  else if (Array.isArray(obj)) {
    out.push('[');
    obj.forEach((o, i) => {
      if (i > 0) out.push(' ');
      serializeTo(o, out);
    });
    out.push(']');
  } else if (obj instanceof PdfDict) {
    out.push('<<');
    for (const [k, v] of obj.map) {
      out.push(nameBytes(k), ' ');
      serializeTo(v, out);
    }
    out.push('>>');
  } else if (obj instanceof PdfStream) {
    throw new PdfError('unsupported', 'a stream cannot be written inside another object');
  }
}

/** The object as PDF syntax. Strings become literal strings when printable ASCII, hex strings otherwise. */
export function serializeObject(obj: PdfObject): Uint8Array {
  const out: string[] = [];
  serializeTo(obj, out);
  return latin1Bytes(out.join(''));
}

/** The string's code units as bytes (each below 256 in PDF syntax); native, not a loop per character. */
export function latin1Bytes(s: string): Uint8Array {
  return Buffer.from(s, 'latin1');
}

type Pending =
  | { kind: 'object'; obj: PdfObject }
  | { kind: 'stream'; dict: PdfDict; data: Uint8Array }
  | { kind: 'raw'; body: Uint8Array };

/**
 * A copy of `obj` whose strings are encrypted for object `ref` (ISO 32000-2 §7.6.2). A signature
 * dictionary's /Contents stays clear, as the standard requires and the reader expects.
 */
function encryptStrings(handler: SecurityHandler, obj: PdfObject, ref: PdfRef): PdfObject {
  if (obj instanceof PdfString)
    return new PdfString(handler.encryptString(obj.bytes, ref.num, ref.gen), true);
  if (Array.isArray(obj)) return obj.map((o) => encryptStrings(handler, o, ref));
  if (obj instanceof PdfDict) {
    const isSig = obj.has('ByteRange') && obj.has('Contents');
    const out = new PdfDict();
    for (const [k, v] of obj.map) out.set(k, isSig && k === 'Contents' ? v : encryptStrings(handler, v, ref));
    return out;
  }
  return obj;
}

/**
 * One incremental update (ISO 32000-2 §7.5.6) on top of a document: new and replaced objects, then a
 * cross-reference section of the same kind as the file's last one, so every reader that could read the
 * file reads the update. The original bytes are never touched.
 *
 * On an encrypted document (opened with its user or owner password) every string and stream of the
 * update is encrypted with the document's key and methods, and the new trailer keeps /Encrypt and /ID,
 * so the file stays encrypted as it was. Cross-reference streams are never encrypted.
 */
export class IncrementalUpdate {
  private readonly objects = new Map<number, { ref: PdfRef; value: Pending }>();
  private nextNum: number;
  private offsets = new Map<number, number>();
  private bodyOffsets = new Map<number, number>();
  private built?: Uint8Array;

  constructor(readonly doc: PdfDocument) {
    checkUpdatable(doc);
    const size = doc.trailer().get('Size');
    let max = typeof size === 'number' ? size : 1;
    for (const r of doc.revisions) for (const n of r.entries.keys()) max = Math.max(max, n + 1);
    this.nextNum = max;
  }

  allocate(): PdfRef {
    return new PdfRef(this.nextNum++, 0);
  }

  /** Adds or replaces an object. Replacing keeps the generation the object has in the file. */
  set(ref: PdfRef, obj: PdfObject): void {
    if (obj instanceof PdfStream) throw new PdfError('unsupported', 'use addStream or setStream for streams');
    this.put(ref, { kind: 'object', obj });
  }

  addStream(dict: PdfDict, data: Uint8Array, options: { compress?: boolean } = {}): PdfRef {
    const ref = this.allocate();
    this.setStream(ref, dict, data, options);
    return ref;
  }

  setStream(ref: PdfRef, dict: PdfDict, data: Uint8Array, options: { compress?: boolean } = {}): void {
    const d = dict.clone();
    let body = data;
    if (options.compress) {
      body = deflate(data);
      d.set('Filter', new PdfName('FlateDecode'));
      d.delete('DecodeParms');
    }
    d.set('Length', body.length);
    this.put(ref, { kind: 'stream', dict: d, data: body });
  }

  /** An object whose body bytes the caller wrote itself (the signer needs to know where each byte lands). */
  setRaw(ref: PdfRef, body: Uint8Array): void {
    this.put(ref, { kind: 'raw', body });
  }

  has(ref: PdfRef): boolean {
    return this.objects.has(ref.num);
  }

  /** The object as this update will write it (the current value if it was replaced), else undefined. */
  pending(ref: PdfRef): PdfObject | undefined {
    const p = this.objects.get(ref.num)?.value;
    return p?.kind === 'object' ? p.obj : undefined;
  }

  private put(ref: PdfRef, value: Pending): void {
    if (this.built) throw new Error('the update was already built');
    this.objects.set(ref.num, { ref, value });
    if (ref.num >= this.nextNum) this.nextNum = ref.num + 1;
  }

  /**
   * The object as this update writes it: its strings encrypted for `ref` when the document is encrypted.
   * For callers that write an object's body themselves (setRaw).
   */
  serialize(ref: PdfRef, obj: PdfObject): Uint8Array {
    const handler = this.doc.security;
    return serializeObject(handler ? encryptStrings(handler, obj, ref) : obj);
  }

  /** Offset of `N G obj` in the appended section, after build(). */
  objectOffset(ref: PdfRef): number | undefined {
    return this.offsets.get(ref.num);
  }

  /** Offset of the object's body (just after `N G obj\n`) in the appended section, after build(). */
  bodyOffset(ref: PdfRef): number | undefined {
    return this.bodyOffsets.get(ref.num);
  }

  /** Where the appended section starts in the new file. */
  get base(): number {
    return this.doc.size;
  }

  /** The bytes to append to the original file. */
  build(): Uint8Array {
    if (this.built) return this.built;
    const doc = this.doc;
    const parts: Uint8Array[] = [];
    let pos = 0;
    const push = (b: Uint8Array | string): void => {
      const bytes = typeof b === 'string' ? latin1Bytes(b) : b;
      parts.push(bytes);
      pos += bytes.length;
    };
    // The update must start on a line of its own, after the previous %%EOF.
    const lastByte = doc.size > 0 ? doc.rawBytes(doc.size - 1, 1)[0] : 0x0a;
    if (lastByte !== 0x0a && lastByte !== 0x0d) push('\n');

    const written = new Map<number, { offset: number; gen: number }>();
    for (const { ref, value } of this.objects.values()) {
      const at = pos;
      this.offsets.set(ref.num, at);
      written.set(ref.num, { offset: doc.size + at, gen: ref.gen });
      push(`${ref.num} ${ref.gen} obj\n`);
      this.bodyOffsets.set(ref.num, pos);
      if (value.kind === 'object') push(this.serialize(ref, value.obj));
      else if (value.kind === 'raw') push(value.body);
      else {
        const handler = doc.security;
        const data = handler ? handler.encryptStream(value.data, ref.num, ref.gen, value.dict) : value.data;
        push(this.serialize(ref, value.dict.clone().set('Length', data.length)));
        push('\nstream\n');
        push(data);
        push('\nendstream');
      }
      push('\nendobj\n');
    }

    const last = doc.revisions[doc.revisions.length - 1]!;
    const old = doc.trailer();
    const trailer = new PdfDict();
    const size = Math.max(this.nextNum, numberOr(old.get('Size'), 0));
    // /Encrypt and /ID stay: the key depends on /ID[0], so the update is read with the same key.
    for (const key of ['Root', 'Info', 'ID', 'Encrypt']) {
      const v = old.get(key);
      if (v !== undefined && v !== null) trailer.set(key, v);
    }

    if (doc.repaired) {
      // The old cross-reference data is broken: write a complete table that stands alone.
      const table = new Map<number, { offset: number; gen: number } | 'compressed'>();
      const compressed: Array<[number, number, number]> = [];
      for (const n of doc.objectNumbers()) {
        const e = doc.entry(n)!;
        if (e.type === 'offset') table.set(n, { offset: e.offset!, gen: e.gen });
        else if (e.type === 'compressed') {
          table.set(n, 'compressed');
          compressed.push([n, e.streamNum!, e.index!]);
        }
      }
      for (const [n, w] of written) table.set(n, w);
      let xrefStm: number | undefined;
      let tableSize = size;
      if (compressed.length) {
        // Objects inside object streams cannot be listed in a table: a hybrid section's stream holds them.
        const num = this.nextNum;
        tableSize = Math.max(size, num + 1);
        xrefStm = doc.size + pos;
        table.set(num, { offset: xrefStm, gen: 0 });
        const rows = compressed.filter(([n]) => table.get(n) === 'compressed');
        const { dict, data } = xrefStreamData(
          rows.map(([n, s, i]) => ({ num: n, type: 2, f2: s, f3: i })),
          tableSize,
        );
        push(`${num} 0 obj\n`);
        push(serializeObject(dict));
        push('\nstream\n');
        push(data);
        push('\nendstream\nendobj\n');
      }
      const xrefAt = pos;
      const lines: string[] = ['xref', `0 ${tableSize}`, '0000000000 65535 f\r'];
      for (let n = 1; n < tableSize; n++) {
        const t = table.get(n);
        if (t && t !== 'compressed') lines.push(`${pad10(t.offset)} ${pad5(t.gen)} n\r`);
        else lines.push(`0000000000 ${t === 'compressed' ? '65535' : '00000'} f\r`);
      }
      trailer.set('Size', tableSize);
      if (xrefStm !== undefined) trailer.set('XRefStm', xrefStm);
      push(lines.join('\n') + '\n');
      push('trailer\n');
      push(serializeObject(trailer));
      push(`\nstartxref\n${doc.size + xrefAt}\n%%EOF\n`);
    } else if (last.kind === 'stream') {
      const num = this.nextNum;
      const xrefAt = pos;
      written.set(num, { offset: doc.size + xrefAt, gen: 0 });
      const rows = [...written].map(([n, w]) => ({ num: n, type: 1, f2: w.offset, f3: w.gen }));
      const { dict, data } = xrefStreamData(rows, num + 1);
      for (const [k, v] of trailer.map) dict.set(k, v);
      dict.set('Prev', last.xrefOffset);
      push(`${num} 0 obj\n`);
      push(serializeObject(dict));
      push('\nstream\n');
      push(data);
      push('\nendstream\nendobj\n');
      push(`startxref\n${doc.size + xrefAt}\n%%EOF\n`);
    } else {
      const xrefAt = pos;
      const nums = [0, ...[...written.keys()].sort((a, b) => a - b)];
      const lines = ['xref'];
      for (let i = 0; i < nums.length;) {
        let j = i;
        while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
        lines.push(`${nums[i]} ${j - i + 1}`);
        for (let k = i; k <= j; k++) {
          const n = nums[k]!;
          if (n === 0) lines.push('0000000000 65535 f\r');
          else {
            const w = written.get(n)!;
            lines.push(`${pad10(w.offset)} ${pad5(w.gen)} n\r`);
          }
        }
        i = j + 1;
      }
      trailer.set('Size', size);
      trailer.set('Prev', last.xrefOffset);
      push(lines.join('\n') + '\n');
      push('trailer\n');
      push(serializeObject(trailer));
      push(`\nstartxref\n${doc.size + xrefAt}\n%%EOF\n`);
    }
    this.built = concat(parts, pos);
    return this.built;
  }
}

function xrefStreamData(
  rows: Array<{ num: number; type: number; f2: number; f3: number }>,
  size: number,
): { dict: PdfDict; data: Uint8Array } {
  rows.sort((a, b) => a.num - b.num);
  let maxF2 = 0;
  for (const r of rows) maxF2 = Math.max(maxF2, r.f2);
  const w2 = maxF2 < 2 ** 32 ? 4 : 6;
  const rowLen = 1 + w2 + 2;
  const data = new Uint8Array(rows.length * rowLen);
  const index: number[] = [];
  rows.forEach((r, i) => {
    const prev = rows[i - 1];
    if (prev && prev.num + 1 === r.num) index[index.length - 1]!++;
    else index.push(r.num, 1);
    let p = i * rowLen;
    data[p++] = r.type;
    for (let k = w2 - 1; k >= 0; k--) data[p++] = Math.floor(r.f2 / 2 ** (8 * k)) & 0xff;
    data[p++] = (r.f3 >> 8) & 0xff;
    data[p] = r.f3 & 0xff;
  });
  const body = deflate(data);
  const dict = new PdfDict([
    ['Type', new PdfName('XRef')],
    ['Size', size],
    ['Index', index],
    ['W', [1, w2, 2]],
    ['Filter', new PdfName('FlateDecode')],
    ['Length', body.length],
  ]);
  return { dict, data: body };
}

function pad10(n: number): string {
  return String(n).padStart(10, '0');
}
function pad5(n: number): string {
  return String(n).padStart(5, '0');
}
function numberOr(v: PdfObject | undefined, d: number): number {
  return typeof v === 'number' ? v : d;
}

export function concat(parts: Uint8Array[], total?: number): Uint8Array {
  const out = new Uint8Array(total ?? parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
