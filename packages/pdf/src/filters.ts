import { constants, deflateSync, inflateRawSync, inflateSync } from 'node:zlib';
import { PdfError } from './errors';
import { PdfDict, PdfName, type PdfObject } from './objects';

const ABBREVIATIONS: Record<string, string> = {
  Fl: 'FlateDecode',
  AHx: 'ASCIIHexDecode',
  A85: 'ASCII85Decode',
  LZW: 'LZWDecode',
  RL: 'RunLengthDecode',
};

/** Decodes stream data through its /Filter chain. `maxBytes` bounds every stage's output. */
export function decodeFilters(
  data: Uint8Array,
  filter: PdfObject | undefined,
  parms: PdfObject | undefined,
  maxBytes: number,
): Uint8Array {
  const filters = Array.isArray(filter) ? filter : filter == null ? [] : [filter];
  const params = Array.isArray(parms) ? parms : [parms ?? null];
  let out = data;
  filters.forEach((f, i) => {
    if (!(f instanceof PdfName)) throw new PdfError('damaged', 'stream /Filter is not a name');
    const name = ABBREVIATIONS[f.name] ?? f.name;
    const p = params[i];
    const dp = p instanceof PdfDict ? p : undefined;
    switch (name) {
      case 'FlateDecode':
        out = applyPredictor(inflate(out, maxBytes), dp, maxBytes);
        break;
      case 'LZWDecode':
        out = applyPredictor(lzwDecode(out, dp?.getNumber('EarlyChange') ?? 1, maxBytes), dp, maxBytes);
        break;
      case 'ASCIIHexDecode':
        out = asciiHexDecode(out);
        break;
      case 'ASCII85Decode':
        out = ascii85Decode(out);
        break;
      case 'RunLengthDecode':
        out = runLengthDecode(out, maxBytes);
        break;
      case 'Crypt':
        // Only the Identity crypt filter reaches here: the document's security handler decrypts before.
        break;
      default:
        throw new PdfError('unsupported', `stream filter ${name} is not supported`);
    }
    if (out.length > maxBytes) throw tooBig(maxBytes);
  });
  return out;
}

function tooBig(maxBytes: number): PdfError {
  return new PdfError('too-complex', `a stream decodes to more than ${maxBytes} bytes`);
}

function inflate(data: Uint8Array, maxBytes: number): Uint8Array {
  const opts = { maxOutputLength: Math.max(1, maxBytes), finishFlush: constants.Z_SYNC_FLUSH };
  try {
    return inflateSync(data, opts);
  } catch (e) {
    if (isTooLarge(e)) throw tooBig(maxBytes);
    // Some producers omit the zlib header or write a bad checksum; a raw inflate still reads them.
    try {
      return inflateRawSync(data.subarray(2), opts);
    } catch (e2) {
      if (isTooLarge(e2)) throw tooBig(maxBytes);
      throw new PdfError('damaged', 'FlateDecode data is corrupt', { cause: e });
    }
  }
}

function isTooLarge(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError;
}

export function deflate(data: Uint8Array): Uint8Array {
  return deflateSync(data);
}

function applyPredictor(data: Uint8Array, parms: PdfDict | undefined, maxBytes: number): Uint8Array {
  const predictor = parms?.getNumber('Predictor') ?? 1;
  if (predictor <= 1) return data;
  const colors = parms?.getNumber('Colors') ?? 1;
  const bpc = parms?.getNumber('BitsPerComponent') ?? 8;
  const columns = parms?.getNumber('Columns') ?? 1;
  const bpp = Math.max(1, Math.ceil((colors * bpc) / 8));
  const rowLen = Math.ceil((colors * bpc * columns) / 8);
  if (rowLen <= 0 || rowLen > maxBytes) throw new PdfError('damaged', 'bad predictor parameters');
  if (predictor === 2) {
    if (bpc !== 8) throw new PdfError('unsupported', `TIFF predictor with ${bpc} bits per component`);
    const out = Uint8Array.from(data);
    for (let row = 0; row + rowLen <= out.length; row += rowLen) {
      for (let i = bpp; i < rowLen; i++) out[row + i] = (out[row + i]! + out[row + i - bpp]!) & 0xff;
    }
    return out;
  }
  const rows = Math.floor(data.length / (rowLen + 1));
  const out = new Uint8Array(rows * rowLen);
  let prev = new Uint8Array(rowLen);
  for (let r = 0; r < rows; r++) {
    const src = r * (rowLen + 1);
    const type = data[src]!;
    const cur = out.subarray(r * rowLen, (r + 1) * rowLen);
    for (let i = 0; i < rowLen; i++) {
      const raw = data[src + 1 + i]!;
      const left = i >= bpp ? cur[i - bpp]! : 0;
      const up = prev[i]!;
      const upLeft = i >= bpp ? prev[i - bpp]! : 0;
      let v: number;
      switch (type) {
        case 0:
          v = raw;
          break;
        case 1:
          v = raw + left;
          break;
        case 2:
          v = raw + up;
          break;
        case 3:
          v = raw + ((left + up) >> 1);
          break;
        case 4: {
          const p = left + up - upLeft;
          const pa = Math.abs(p - left);
          const pb = Math.abs(p - up);
          const pc = Math.abs(p - upLeft);
          v = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
          break;
        }
        default:
          throw new PdfError('damaged', `unknown PNG predictor row type ${type}`);
      }
      cur[i] = v & 0xff;
    }
    prev = cur;
  }
  return out;
}

function asciiHexDecode(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  let hi = -1;
  for (const c of data) {
    if (c === 0x3e) break;
    const v =
      c >= 0x30 && c <= 0x39
        ? c - 0x30
        : c >= 0x41 && c <= 0x46
          ? c - 0x37
          : c >= 0x61 && c <= 0x66
            ? c - 0x57
            : -1;
    if (v < 0) continue;
    if (hi < 0) hi = v;
    else {
      out.push((hi << 4) | v);
      hi = -1;
    }
  }
  if (hi >= 0) out.push(hi << 4);
  return Uint8Array.from(out);
}

function ascii85Decode(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  const group: number[] = [];
  let i = 0;
  if (data[0] === 0x3c && data[1] === 0x7e) i = 2;
  for (; i < data.length; i++) {
    const c = data[i]!;
    if (c === 0x7e) break;
    if (c === 0x7a && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    if (c < 0x21 || c > 0x75) continue;
    group.push(c - 0x21);
    if (group.length === 5) {
      let v = 0;
      for (const g of group) v = v * 85 + g;
      out.push((v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
      group.length = 0;
    }
  }
  if (group.length > 1) {
    const n = group.length;
    while (group.length < 5) group.push(84);
    let v = 0;
    for (const g of group) v = v * 85 + g;
    const bytes = [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
    out.push(...bytes.slice(0, n - 1));
  }
  return Uint8Array.from(out);
}

function runLengthDecode(data: Uint8Array, maxBytes: number): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < data.length;) {
    const n = data[i++]!;
    if (n === 128) break;
    if (n < 128) {
      for (let k = 0; k <= n && i < data.length; k++) out.push(data[i++]!);
    } else {
      const b = data[i++] ?? 0;
      for (let k = 0; k < 257 - n; k++) out.push(b);
    }
    if (out.length > maxBytes) throw tooBig(maxBytes);
  }
  return Uint8Array.from(out);
}

function lzwDecode(data: Uint8Array, earlyChange: number, maxBytes: number): Uint8Array {
  const out: number[] = [];
  let dict: number[][] = [];
  const reset = (): void => {
    dict = [];
    for (let i = 0; i < 256; i++) dict.push([i]);
    dict.push([], []);
  };
  reset();
  let codeLen = 9;
  let bitBuf = 0;
  let bitCount = 0;
  let prev: number[] | null = null;
  for (let i = 0; i < data.length;) {
    while (bitCount < codeLen && i < data.length) {
      bitBuf = ((bitBuf << 8) | data[i++]!) >>> 0;
      bitCount += 8;
    }
    if (bitCount < codeLen) break;
    const code = (bitBuf >>> (bitCount - codeLen)) & ((1 << codeLen) - 1);
    bitCount -= codeLen;
    if (code === 256) {
      reset();
      codeLen = 9;
      prev = null;
      continue;
    }
    if (code === 257) break;
    let entry: number[];
    if (code < dict.length) entry = dict[code]!;
    else if (prev) entry = [...prev, prev[0]!];
    else throw new PdfError('damaged', 'LZWDecode data is corrupt');
    out.push(...entry);
    if (out.length > maxBytes) throw tooBig(maxBytes);
    if (prev) dict.push([...prev, entry[0]!]);
    prev = entry;
    const next = dict.length + earlyChange;
    if (next >= 4096) codeLen = 12;
    else if (next >= 2048) codeLen = 12;
    else if (next >= 1024) codeLen = 11;
    else if (next >= 512) codeLen = 10;
  }
  return Uint8Array.from(out);
}
