/**
 * A minimal DER writer and reader. Signing hot paths assemble CMS from byte slices (no object model),
 * and the reader hands back raw slices so signed structures are never re-encoded.
 */

export class DerError extends Error {
  override name = 'DerError';
}

function encodeLength(length: number): Uint8Array {
  if (length < 0x80) return Uint8Array.of(length);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** One TLV with a single-byte tag. */
export function tlv(tag: number, ...content: Uint8Array[]): Uint8Array {
  const body = content.length === 1 ? (content[0] as Uint8Array) : concatBytes(content);
  const len = encodeLength(body.length);
  const out = new Uint8Array(1 + len.length + body.length);
  out[0] = tag;
  out.set(len, 1);
  out.set(body, 1 + len.length);
  return out;
}

export const seq = (...content: Uint8Array[]): Uint8Array => tlv(0x30, ...content);
export const octets = (value: Uint8Array): Uint8Array => tlv(0x04, value);
export const utf8 = (value: string): Uint8Array => tlv(0x0c, new TextEncoder().encode(value));
export const derNull = (): Uint8Array => Uint8Array.of(0x05, 0x00);
export const bool = (value: boolean): Uint8Array => Uint8Array.of(0x01, 0x01, value ? 0xff : 0x00);
/** Context-specific constructed tag [n] (EXPLICIT, or IMPLICIT over a constructed type). */
export const ctx = (n: number, ...content: Uint8Array[]): Uint8Array => tlv(0xa0 | n, ...content);

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** DER SET OF: elements sorted by their encodings (X.690 11.6). */
export function setOf(elements: readonly Uint8Array[], tag = 0x31): Uint8Array {
  return tlv(tag, ...[...elements].sort(compareBytes));
}

const oidCache = new Map<string, Uint8Array>();

export function oid(dotted: string): Uint8Array {
  const cached = oidCache.get(dotted);
  if (cached) return cached;
  const arcs = dotted.split('.').map((s) => BigInt(s));
  if (arcs.length < 2) throw new DerError(`bad OID ${dotted}`);
  const body: number[] = [];
  const pushArc = (arc: bigint): void => {
    const chunk: number[] = [Number(arc & 0x7fn)];
    for (let v = arc >> 7n; v > 0n; v >>= 7n) chunk.unshift(Number(v & 0x7fn) | 0x80);
    body.push(...chunk);
  };
  pushArc((arcs[0] as bigint) * 40n + (arcs[1] as bigint));
  for (const arc of arcs.slice(2)) pushArc(arc);
  const der = tlv(0x06, Uint8Array.from(body));
  oidCache.set(dotted, der);
  return der;
}

/** INTEGER from an unsigned big-endian magnitude. */
export function unsignedInteger(magnitude: Uint8Array): Uint8Array {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  if (trimmed.length === 0) return Uint8Array.of(0x02, 0x01, 0x00);
  return (trimmed[0] as number) & 0x80 ? tlv(0x02, Uint8Array.of(0), trimmed) : tlv(0x02, trimmed);
}

export function smallInteger(value: number): Uint8Array {
  const bytes: number[] = [];
  for (let n = value; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return unsignedInteger(Uint8Array.from(bytes));
}

/** GeneralizedTime, UTC, with milliseconds only when non-zero (RFC 3161 2.4.2: no trailing zeros). */
export function generalizedTime(date: Date): Uint8Array {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  let text =
    p(date.getUTCFullYear(), 4) +
    p(date.getUTCMonth() + 1) +
    p(date.getUTCDate()) +
    p(date.getUTCHours()) +
    p(date.getUTCMinutes()) +
    p(date.getUTCSeconds());
  const ms = date.getUTCMilliseconds();
  if (ms !== 0) text += '.' + p(ms, 3).replace(/0+$/, '');
  return tlv(0x18, new TextEncoder().encode(text + 'Z'));
}

/** UTCTime for 1950..2049, GeneralizedTime otherwise (RFC 5652 11.3). */
export function signingTimeValue(date: Date): Uint8Array {
  const year = date.getUTCFullYear();
  if (year < 1950 || year > 2049) return generalizedTime(new Date(Math.floor(date.getTime() / 1000) * 1000));
  const p = (n: number): string => String(n).padStart(2, '0');
  const text =
    p(year % 100) +
    p(date.getUTCMonth() + 1) +
    p(date.getUTCDate()) +
    p(date.getUTCHours()) +
    p(date.getUTCMinutes()) +
    p(date.getUTCSeconds());
  return tlv(0x17, new TextEncoder().encode(text + 'Z'));
}

/** A BIT STRING holding a named-bit list with the given bit numbers set (trailing zero bits dropped). */
export function namedBits(bits: readonly number[]): Uint8Array {
  if (bits.length === 0) return Uint8Array.of(0x03, 0x01, 0x00);
  const highest = Math.max(...bits);
  const bytes = new Uint8Array(Math.floor(highest / 8) + 1);
  for (const bit of bits) bytes[bit >> 3] = (bytes[bit >> 3] as number) | (0x80 >> (bit & 7));
  return tlv(0x03, Uint8Array.of(7 - (highest & 7)), bytes);
}

// ---------------------------------------------------------------- reader

export interface Tlv {
  tag: number;
  /** The whole element, header included. */
  raw: Uint8Array;
  /** The contents octets. */
  value: Uint8Array;
}

/**
 * Reads one element at `offset` of `buf`. DER by default; with `ber`, constructed values may use the
 * indefinite length form (some signers emit it for the outer CMS layers), in which case `value` excludes
 * the end-of-contents octets.
 */
export function readTlv(buf: Uint8Array, offset = 0, ber = false): Tlv {
  if (offset + 2 > buf.length) throw new DerError('truncated element');
  const tag = buf[offset] as number;
  if ((tag & 0x1f) === 0x1f) throw new DerError('multi-byte tags are not supported');
  let length = buf[offset + 1] as number;
  let header = 2;
  if (length === 0x80) {
    if (!ber || (tag & 0x20) === 0) throw new DerError('indefinite length');
    let cursor = offset + 2;
    for (;;) {
      if (cursor + 2 > buf.length) throw new DerError('truncated indefinite-length element');
      if (buf[cursor] === 0 && buf[cursor + 1] === 0) break;
      cursor += readTlv(buf, cursor, true).raw.length;
    }
    return { tag, raw: buf.subarray(offset, cursor + 2), value: buf.subarray(offset + 2, cursor) };
  }
  if (length & 0x80) {
    const n = length & 0x7f;
    if (n > 4) throw new DerError('oversized length');
    if (offset + 2 + n > buf.length) throw new DerError('truncated length');
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + (buf[offset + 2 + i] as number);
    header += n;
  }
  const end = offset + header + length;
  if (end > buf.length) throw new DerError('element runs past the end of the input');
  return { tag, raw: buf.subarray(offset, end), value: buf.subarray(offset + header, end) };
}

/** The elements inside a constructed value. */
export function readChildren(parent: Tlv | Uint8Array, ber = false): Tlv[] {
  const value = parent instanceof Uint8Array ? parent : parent.value;
  const out: Tlv[] = [];
  for (let offset = 0; offset < value.length;) {
    const t = readTlv(value, offset, ber);
    out.push(t);
    offset += t.raw.length;
  }
  return out;
}

/** OCTET STRING contents, joining the segments of a BER constructed encoding. */
export function octetStringValue(t: Tlv): Uint8Array {
  if (t.tag === 0x04) return t.value;
  if (t.tag === 0x24) return concatBytes(readChildren(t, true).map(octetStringValue));
  throw new DerError('expected an OCTET STRING');
}

export function expectTag(t: Tlv | undefined, tag: number, what: string): Tlv {
  if (!t || t.tag !== tag) throw new DerError(`${what}: expected tag 0x${tag.toString(16)}`);
  return t;
}

export function decodeOid(value: Uint8Array): string {
  const arcs: bigint[] = [];
  let acc = 0n;
  for (const byte of value) {
    acc = (acc << 7n) | BigInt(byte & 0x7f);
    if ((byte & 0x80) === 0) {
      arcs.push(acc);
      acc = 0n;
    }
  }
  if (arcs.length === 0) throw new DerError('empty OID');
  const first = arcs[0] as bigint;
  const head = first < 80n ? [first / 40n, first % 40n] : [2n, first - 80n];
  return [...head, ...arcs.slice(1)].join('.');
}

export function readOid(t: Tlv | undefined, what = 'OID'): string {
  return decodeOid(expectTag(t, 0x06, what).value);
}

/** X.690 8.3.2: the first nine bits of an INTEGER are never all zeros or all ones (BER too, not just DER). */
export function assertMinimalInteger(value: Uint8Array): Uint8Array {
  if (value.length === 0) throw new DerError('empty INTEGER');
  const [a, b] = value as unknown as [number, number | undefined];
  if (b !== undefined && ((a === 0 && b < 0x80) || (a === 0xff && b >= 0x80)))
    throw new DerError('INTEGER not minimally encoded');
  return value;
}

export function decodeInteger(value: Uint8Array): bigint {
  let n = 0n;
  for (const byte of value) n = (n << 8n) | BigInt(byte);
  if (value.length > 0 && (value[0] as number) & 0x80) n -= 1n << BigInt(value.length * 8);
  return n;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** UTCTime or GeneralizedTime (with optional fraction; 'Z' or a numeric offset). */
export function decodeTime(t: Tlv): Date {
  const text = new TextDecoder().decode(t.value);
  const m = /^(\d{2}|\d{4})(\d{2})(\d{2})(\d{2})(\d{2})?(\d{2})?(?:[.,](\d+))?(Z|[+-]\d{4})?$/.exec(text);
  if (!m || (t.tag !== 0x17 && t.tag !== 0x18)) throw new DerError(`bad time value ${JSON.stringify(text)}`);
  let year = Number(m[1]);
  if (t.tag === 0x17) year += year < 50 ? 2000 : 1900;
  const ms = m[7] ? Math.round(Number('0.' + m[7]) * 1000) : 0;
  const utc = Date.UTC(
    year,
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5] ?? 0),
    Number(m[6] ?? 0),
    ms,
  );
  const zone = m[8];
  if (!zone || zone === 'Z') return new Date(utc);
  const offset = (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5))) * (zone[0] === '+' ? 1 : -1);
  return new Date(utc - offset * 60_000);
}
