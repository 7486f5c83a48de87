import { PdfError } from './errors';
import { PdfDict, PdfName, PdfRef, PdfString, type PdfObject } from './objects';

/** Thrown when a parse runs off the end of a window that is not the end of the data: read more, retry. */
export class NeedMore extends Error {
  constructor() {
    super('need more bytes');
  }
}

export function isWhite(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
}

export function isDelimiter(c: number): boolean {
  return (
    c === 0x28 ||
    c === 0x29 ||
    c === 0x3c ||
    c === 0x3e ||
    c === 0x5b ||
    c === 0x5d ||
    c === 0x7b ||
    c === 0x7d ||
    c === 0x2f ||
    c === 0x25
  );
}

export function isRegular(c: number): boolean {
  return !isWhite(c) && !isDelimiter(c);
}

export type Token =
  | { t: 'num'; v: number; int: boolean }
  | { t: 'name'; v: string }
  | { t: 'str'; v: PdfString }
  | { t: 'kw'; v: string }
  | { t: '[' | ']' | '<<' | '>>' | '{' | '}' | 'eof' };

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** A keyword met where an object was expected; the caller decides whether it ends a construct. */
export class Keyword {
  constructor(readonly word: string) {}
}

/**
 * A lexer and object parser over one window of bytes. `base` is the window's absolute offset, so
 * `base + pos` is a file offset. When `complete` is false, reaching the window's end throws NeedMore.
 */
export class Lexer {
  constructor(
    readonly buf: Uint8Array,
    public pos: number,
    readonly base: number,
    readonly complete: boolean,
    readonly maxDepth = 100,
  ) {}

  get offset(): number {
    return this.base + this.pos;
  }

  private more(): never | void {
    if (!this.complete) throw new NeedMore();
  }

  peek(): number {
    if (this.pos >= this.buf.length) {
      this.more();
      return -1;
    }
    return this.buf[this.pos]!;
  }

  skipWhite(): void {
    const buf = this.buf;
    for (;;) {
      if (this.pos >= buf.length) {
        this.more();
        return;
      }
      const c = buf[this.pos]!;
      if (isWhite(c)) this.pos++;
      else if (c === 0x25) {
        while (this.pos < buf.length && buf[this.pos] !== 0x0a && buf[this.pos] !== 0x0d) this.pos++;
        if (this.pos >= buf.length) this.more();
      } else return;
    }
  }

  nextToken(): Token {
    this.skipWhite();
    const buf = this.buf;
    if (this.pos >= buf.length) return { t: 'eof' };
    const c = buf[this.pos]!;
    switch (c) {
      case 0x5b:
        this.pos++;
        return { t: '[' };
      case 0x5d:
        this.pos++;
        return { t: ']' };
      case 0x7b:
        this.pos++;
        return { t: '{' };
      case 0x7d:
        this.pos++;
        return { t: '}' };
      case 0x28:
        return { t: 'str', v: this.readLiteral() };
      case 0x2f:
        return { t: 'name', v: this.readName() };
      case 0x3c:
        if (this.pos + 1 >= buf.length) this.more();
        if (buf[this.pos + 1] === 0x3c) {
          this.pos += 2;
          return { t: '<<' };
        }
        return { t: 'str', v: this.readHex() };
      case 0x3e:
        if (this.pos + 1 >= buf.length) this.more();
        this.pos += buf[this.pos + 1] === 0x3e ? 2 : 1;
        return { t: '>>' };
      case 0x29:
        // A stray ')' is garbage; skip it so the parser always advances.
        this.pos++;
        return { t: 'kw', v: ')' };
    }
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) return this.readNumber();
    const start = this.pos;
    while (this.pos < buf.length && isRegular(buf[this.pos]!)) this.pos++;
    if (this.pos >= buf.length) this.more();
    if (this.pos === start) this.pos++;
    return { t: 'kw', v: latin1(buf, start, this.pos) };
  }

  private readNumber(): Token {
    const buf = this.buf;
    const start = this.pos;
    let sign = 1;
    let seenDigit = false;
    let value = 0;
    let frac = 0;
    let scale = 1;
    let dot = false;
    // Sloppy producers write '--5' or '5-'; read leniently like other viewers do.
    while (this.pos < buf.length && (buf[this.pos] === 0x2b || buf[this.pos] === 0x2d)) {
      if (buf[this.pos] === 0x2d) sign = -sign;
      this.pos++;
    }
    for (; this.pos < buf.length; this.pos++) {
      const d = buf[this.pos]!;
      if (d >= 0x30 && d <= 0x39) {
        seenDigit = true;
        if (dot) {
          scale /= 10;
          frac += (d - 0x30) * scale;
        } else value = value * 10 + (d - 0x30);
      } else if (d === 0x2e && !dot) dot = true;
      else if (d === 0x2d || d === 0x2b) continue;
      else break;
    }
    if (this.pos >= buf.length) this.more();
    if (!seenDigit && this.pos === start) this.pos++;
    const v = sign * (value + frac);
    return { t: 'num', v: Object.is(v, -0) ? 0 : v, int: !dot };
  }

  private readName(): string {
    const buf = this.buf;
    this.pos++;
    const bytes: number[] = [];
    while (this.pos < buf.length) {
      const c = buf[this.pos]!;
      if (!isRegular(c)) break;
      if (c === 0x23 && this.pos + 2 < buf.length) {
        const h = hexVal(buf[this.pos + 1]!);
        const l = hexVal(buf[this.pos + 2]!);
        if (h >= 0 && l >= 0) {
          bytes.push(h * 16 + l);
          this.pos += 3;
          continue;
        }
      }
      bytes.push(c);
      this.pos++;
    }
    if (this.pos >= buf.length) this.more();
    const raw = Uint8Array.from(bytes);
    // Names are byte sequences; most are UTF-8 (PDF 2.0 recommends it), fall back to Latin-1.
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      return latin1(raw, 0, raw.length);
    }
  }

  private readLiteral(): PdfString {
    const buf = this.buf;
    this.pos++;
    const out: number[] = [];
    let depth = 1;
    while (this.pos < buf.length) {
      let c = buf[this.pos++]!;
      if (c === 0x28) depth++;
      else if (c === 0x29) {
        if (--depth === 0) return new PdfString(Uint8Array.from(out), false);
      } else if (c === 0x5c) {
        if (this.pos >= buf.length) break;
        c = buf[this.pos++]!;
        switch (c) {
          case 0x6e:
            out.push(0x0a);
            continue;
          case 0x72:
            out.push(0x0d);
            continue;
          case 0x74:
            out.push(0x09);
            continue;
          case 0x62:
            out.push(0x08);
            continue;
          case 0x66:
            out.push(0x0c);
            continue;
          case 0x0d:
            if (buf[this.pos] === 0x0a) this.pos++;
            continue;
          case 0x0a:
            continue;
        }
        if (c >= 0x30 && c <= 0x37) {
          let v = c - 0x30;
          for (let k = 0; k < 2 && this.pos < buf.length; k++) {
            const d = buf[this.pos]!;
            if (d < 0x30 || d > 0x37) break;
            v = v * 8 + (d - 0x30);
            this.pos++;
          }
          out.push(v & 0xff);
          continue;
        }
        out.push(c);
        continue;
      } else if (c === 0x0d) {
        // An unescaped end-of-line in a literal string means LF, whatever bytes were used.
        if (buf[this.pos] === 0x0a) this.pos++;
        c = 0x0a;
      }
      out.push(c);
    }
    this.more();
    return new PdfString(Uint8Array.from(out), false);
  }

  private readHex(): PdfString {
    const buf = this.buf;
    this.pos++;
    const out: number[] = [];
    let hi = -1;
    while (this.pos < buf.length) {
      const c = buf[this.pos++]!;
      if (c === 0x3e) {
        if (hi >= 0) out.push(hi << 4);
        return new PdfString(Uint8Array.from(out), true);
      }
      const v = hexVal(c);
      if (v < 0) continue;
      if (hi < 0) hi = v;
      else {
        out.push((hi << 4) | v);
        hi = -1;
      }
    }
    this.more();
    if (hi >= 0) out.push(hi << 4);
    return new PdfString(Uint8Array.from(out), true);
  }

  /**
   * Parses one object. Keywords come back as `Keyword` so callers can see `obj`, `endobj`, `stream`,
   * `trailer` and the like; inside arrays and dictionaries unknown keywords are dropped.
   */
  parseObject(depth = 0): PdfObject | Keyword {
    if (depth > this.maxDepth)
      throw new PdfError('too-complex', `objects nested deeper than ${this.maxDepth}`);
    const tok = this.nextToken();
    switch (tok.t) {
      case 'eof':
        return new Keyword('');
      case 'num': {
        if (tok.int && tok.v >= 0) {
          const save = this.pos;
          // Near the end of a window a reference may be cut in two; NeedMore then asks for more bytes.
          const t2 = this.nextToken();
          if (t2.t === 'num' && t2.int && t2.v >= 0) {
            const t3 = this.nextToken();
            if (t3.t === 'kw' && t3.v === 'R') return new PdfRef(tok.v, t2.v);
          }
          this.pos = save;
        }
        return tok.v;
      }
      case 'name':
        return new PdfName(tok.v);
      case 'str':
        return tok.v;
      case '[':
      case '{': {
        const arr: PdfObject[] = [];
        for (;;) {
          this.skipWhite();
          const c = this.peek();
          if (c === -1) return arr;
          if (c === 0x5d || c === 0x7d) {
            this.pos++;
            return arr;
          }
          if (c === 0x3e) {
            // '>>' inside an array: the array was not closed; leave the '>>' for the dictionary.
            return arr;
          }
          const item = this.parseObject(depth + 1);
          if (item instanceof Keyword) {
            if (
              item.word === 'endobj' ||
              item.word === 'stream' ||
              item.word === 'endstream' ||
              item.word === ''
            ) {
              this.pos -= item.word.length;
              return arr;
            }
            if (item.word === 'true') arr.push(true);
            else if (item.word === 'false') arr.push(false);
            else if (item.word === 'null') arr.push(null);
            continue;
          }
          arr.push(item);
        }
      }
      case '<<': {
        const dict = new PdfDict();
        for (;;) {
          this.skipWhite();
          const c = this.peek();
          if (c === -1) return dict;
          if (c === 0x3e) {
            this.nextToken();
            return dict;
          }
          const key = this.parseObject(depth + 1);
          if (key instanceof Keyword) {
            if (
              key.word === 'endobj' ||
              key.word === 'stream' ||
              key.word === 'endstream' ||
              key.word === ''
            ) {
              this.pos -= key.word.length;
              return dict;
            }
            continue;
          }
          if (!(key instanceof PdfName)) continue;
          this.skipWhite();
          if (this.peek() === 0x3e) continue; // '/Key >>': a key without a value
          const value = this.parseObject(depth + 1);
          if (value instanceof Keyword) {
            if (value.word === 'true') dict.set(key.name, true);
            else if (value.word === 'false') dict.set(key.name, false);
            else if (value.word === 'null') dict.set(key.name, null);
            else if (
              value.word === 'endobj' ||
              value.word === 'stream' ||
              value.word === 'endstream' ||
              value.word === ''
            ) {
              this.pos -= value.word.length;
              return dict;
            }
            continue;
          }
          // A null value is the same as an absent key.
          if (value !== null) dict.set(key.name, value);
        }
      }
      case ']':
      case '}':
      case '>>':
        return new Keyword(tok.t);
      case 'kw':
        if (tok.v === 'true') return true;
        if (tok.v === 'false') return false;
        if (tok.v === 'null') return null;
        return new Keyword(tok.v);
    }
  }
}

export function latin1(buf: Uint8Array, start: number, end: number): string {
  // Node's own decoder, over the same memory: no copy, no argument list of char codes.
  return Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString(
    'latin1',
    start,
    Math.max(start, end),
  );
}

/** Finds `needle` (ASCII) in `buf` from `from`; -1 when absent. */
export function indexOfBytes(buf: Uint8Array, needle: string, from = 0): number {
  const n0 = needle.charCodeAt(0);
  const len = needle.length;
  outer: for (let i = buf.indexOf(n0, from); i !== -1 && i + len <= buf.length; i = buf.indexOf(n0, i + 1)) {
    for (let k = 1; k < len; k++) if (buf[i + k] !== needle.charCodeAt(k)) continue outer;
    return i;
  }
  return -1;
}

export function lastIndexOfBytes(buf: Uint8Array, needle: string, from = buf.length - needle.length): number {
  const n0 = needle.charCodeAt(0);
  const len = needle.length;
  outer: for (let i = buf.lastIndexOf(n0, from); i !== -1; i = i > 0 ? buf.lastIndexOf(n0, i - 1) : -1) {
    if (i + len > buf.length) continue;
    for (let k = 1; k < len; k++) if (buf[i + k] !== needle.charCodeAt(k)) continue outer;
    return i;
  }
  return -1;
}
