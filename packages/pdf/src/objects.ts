/** The PDF object model (ISO 32000-2 §7.3). Integers and reals are both `number`. */
export type PdfObject =
  null | boolean | number | PdfName | PdfString | PdfObject[] | PdfDict | PdfRef | PdfStream;

export class PdfName {
  /** `name` is stored without the leading '/' and with #xx escapes decoded. */
  constructor(readonly name: string) {}
  toString(): string {
    return '/' + this.name;
  }
}

// PDFDocEncoding differs from Latin-1 only in these code points (ISO 32000-2 Annex D.3).
const PDF_DOC_HIGH: Record<number, number> = {
  0x18: 0x02d8,
  0x19: 0x02c7,
  0x1a: 0x02c6,
  0x1b: 0x02d9,
  0x1c: 0x02dd,
  0x1d: 0x02db,
  0x1e: 0x02da,
  0x1f: 0x02dc,
  0x80: 0x2022,
  0x81: 0x2020,
  0x82: 0x2021,
  0x83: 0x2026,
  0x84: 0x2014,
  0x85: 0x2013,
  0x86: 0x0192,
  0x87: 0x2044,
  0x88: 0x2039,
  0x89: 0x203a,
  0x8a: 0x2212,
  0x8b: 0x2030,
  0x8c: 0x201e,
  0x8d: 0x201c,
  0x8e: 0x201d,
  0x8f: 0x2018,
  0x90: 0x2019,
  0x91: 0x201a,
  0x92: 0x2122,
  0x93: 0xfb01,
  0x94: 0xfb02,
  0x95: 0x0141,
  0x96: 0x0152,
  0x97: 0x0160,
  0x98: 0x0178,
  0x99: 0x017d,
  0x9a: 0x0131,
  0x9b: 0x0142,
  0x9c: 0x0153,
  0x9d: 0x0161,
  0x9e: 0x017e,
  0xa0: 0x20ac,
};

export class PdfString {
  constructor(
    readonly bytes: Uint8Array,
    readonly hex: boolean = false,
  ) {}

  /** Decodes a text string: UTF-16BE or UTF-8 when a byte-order mark says so, PDFDocEncoding otherwise. */
  text(): string {
    const b = this.bytes;
    if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) {
      let s = '';
      for (let i = 2; i + 1 < b.length; i += 2) s += String.fromCharCode((b[i]! << 8) | b[i + 1]!);
      return s;
    }
    if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) {
      return new TextDecoder('utf-8').decode(b.subarray(3));
    }
    let s = '';
    for (const c of b) s += String.fromCharCode(PDF_DOC_HIGH[c] ?? c);
    return s;
  }

  /** Latin-1 view of the raw bytes, for byte strings such as IDs and keys. */
  latin1(): string {
    let s = '';
    for (const c of this.bytes) s += String.fromCharCode(c);
    return s;
  }

  /** A text string: plain bytes when every character is printable ASCII, UTF-16BE with a BOM otherwise. */
  static fromText(text: string): PdfString {
    if (/^[\x20-\x7e\t\r\n]*$/.test(text)) {
      const out = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
      return new PdfString(out, false);
    }
    const out = new Uint8Array(2 + text.length * 2);
    out[0] = 0xfe;
    out[1] = 0xff;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      out[2 + i * 2] = c >> 8;
      out[3 + i * 2] = c & 0xff;
    }
    return new PdfString(out, true);
  }

  static fromLatin1(text: string, hex = false): PdfString {
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
    return new PdfString(out, hex);
  }
}

export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
  key(): string {
    return `${this.num} ${this.gen}`;
  }
  equals(other: PdfRef): boolean {
    return other.num === this.num && other.gen === this.gen;
  }
  toString(): string {
    return `${this.num} ${this.gen} R`;
  }
}

export class PdfDict {
  readonly map: Map<string, PdfObject>;

  constructor(entries?: Iterable<readonly [string, PdfObject]>) {
    this.map = new Map(entries ?? []);
  }

  get(key: string): PdfObject | undefined {
    return this.map.get(key);
  }
  has(key: string): boolean {
    return this.map.has(key);
  }
  set(key: string, value: PdfObject): this {
    this.map.set(key, value);
    return this;
  }
  delete(key: string): boolean {
    return this.map.delete(key);
  }
  keys(): string[] {
    return [...this.map.keys()];
  }
  get size(): number {
    return this.map.size;
  }
  getName(key: string): string | undefined {
    const v = this.map.get(key);
    return v instanceof PdfName ? v.name : undefined;
  }
  getNumber(key: string): number | undefined {
    const v = this.map.get(key);
    return typeof v === 'number' ? v : undefined;
  }
  getRef(key: string): PdfRef | undefined {
    const v = this.map.get(key);
    return v instanceof PdfRef ? v : undefined;
  }
  getString(key: string): PdfString | undefined {
    const v = this.map.get(key);
    return v instanceof PdfString ? v : undefined;
  }
  getArray(key: string): PdfObject[] | undefined {
    const v = this.map.get(key);
    return Array.isArray(v) ? v : undefined;
  }
  getDict(key: string): PdfDict | undefined {
    const v = this.map.get(key);
    return v instanceof PdfDict ? v : undefined;
  }
  /** A shallow copy: the writer edits copies, never the reader's cached objects. */
  clone(): PdfDict {
    return new PdfDict(this.map);
  }
}

export class PdfStream {
  constructor(
    readonly dict: PdfDict,
    /** Absolute offset of the first data byte in the source. */
    readonly start: number,
    readonly length: number,
    /** The indirect object holding the stream; needed to decrypt its data. */
    readonly ref?: PdfRef,
  ) {}
}

export function isName(obj: PdfObject | undefined, name?: string): obj is PdfName {
  return obj instanceof PdfName && (name === undefined || obj.name === name);
}
