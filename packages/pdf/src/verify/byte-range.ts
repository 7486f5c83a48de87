import type { RangeSource } from './digest';

export interface ByteRangeInput {
  /** The /ByteRange array as found (anything that is not four integers is a problem, not a crash). */
  byteRange: readonly unknown[] | undefined;
  /** The decoded /Contents string of the same signature dictionary, when it has one. */
  contents?: Uint8Array;
  /** File offset of the signature dictionary's object when it is stored uncompressed. */
  objectOffset?: number;
  /** Whether the dictionary lives in an object stream (it then cannot hold the gap). */
  compressed?: boolean;
  /** Offsets just after each revision's %%EOF, oldest first. */
  revisionEnds: readonly number[];
}

export interface ByteRangeCheck {
  ok: boolean;
  problem?: string;
  /** The numbers as read, for the report; empty when they were not numbers. */
  values: number[];
  /** The two signed ranges as [offset, length], when both lie inside the file and may be hashed. */
  ranges: Array<[number, number]> | null;
  signedEnd: number;
  /** Index of the revision the ranges end at, -1 when they end at none. */
  signedRevision: number;
  coversWholeDocument: boolean;
}

const WS = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const LT = 0x3c;
const GT = 0x3e;
// Past this a signature dictionary's bytes before /Contents are no dictionary a signer writes.
const MAX_DICT_HEAD = 1 << 20;
const CHUNK = 1 << 16;

function isHexDigit(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

function hexValue(b: number): number {
  if (b <= 0x39) return b - 0x30;
  if (b <= 0x46) return b - 0x41 + 10;
  return b - 0x61 + 10;
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** The offset of the first non-whitespace byte at or before `end - 1`, scanning back at most `max` bytes. */
function trimBack(source: RangeSource, end: number, max: number): { at: number; tail: Uint8Array } {
  const from = Math.max(0, end - max);
  const tail = source.read(from, end - from);
  let i = tail.length;
  while (i > 0 && WS.has(tail[i - 1] as number)) i--;
  return { at: from + i, tail: tail.subarray(0, i) };
}

function onlyWhitespace(source: RangeSource, from: number, to: number): boolean {
  if (to - from > 256) return false;
  if (to <= from) return true;
  return source.read(from, to - from).every((b) => WS.has(b));
}

/** Finds the revision a signed range ends at: right after its %%EOF, give or take the end-of-line bytes. */
export function revisionEndingAt(
  source: RangeSource,
  signedEnd: number,
  revisionEnds: readonly number[],
): number {
  for (let i = 0; i < revisionEnds.length; i++) {
    const end = revisionEnds[i] as number;
    if (end <= signedEnd ? onlyWhitespace(source, end, signedEnd) : onlyWhitespace(source, signedEnd, end)) {
      const { tail } = trimBack(source, Math.min(end, source.size), 16);
      if (latin1(tail).endsWith('%%EOF')) return i;
    }
  }
  return -1;
}

/**
 * Checks a ByteRange against the raw file bytes: starts at 0, two ranges, the gap is exactly the
 * /Contents hex string of this signature dictionary (brackets included), the ranges lie inside the
 * file and end at a revision end. Hashing is still allowed when only the shape is wrong, so that a
 * report can say both "bad ByteRange" and whether the bytes match.
 */
export function checkByteRange(source: RangeSource, input: ByteRangeInput): ByteRangeCheck {
  const problems: string[] = [];
  const raw = input.byteRange;
  const result: ByteRangeCheck = {
    ok: false,
    values: [],
    ranges: null,
    signedEnd: 0,
    signedRevision: -1,
    coversWholeDocument: false,
  };
  if (!raw || raw.length === 0) {
    result.problem = 'the signature has no /ByteRange';
    return result;
  }
  if (!raw.every((v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0)) {
    result.problem = '/ByteRange holds something other than non-negative integers';
    result.values = raw.filter((v): v is number => typeof v === 'number');
    return result;
  }
  const values = raw as number[];
  result.values = [...values];
  if (values.length !== 4) {
    result.problem = `/ByteRange has ${values.length} numbers instead of 4`;
    return result;
  }
  const [a, b, c, d] = values as [number, number, number, number];
  const size = source.size;
  result.signedEnd = c + d;
  if (a !== 0) problems.push('/ByteRange does not start at 0');
  if (c < a + b) problems.push('/ByteRange ranges overlap or are out of order');
  if (a + b > size || c + d > size)
    problems.push(`/ByteRange reaches past the end of the file (${c + d} > ${size})`);
  else if (c >= a + b)
    result.ranges = [
      [a, b],
      [c, d],
    ];

  if (result.ranges) {
    const gapStart = a + b;
    const gapLength = c - gapStart;
    const gapProblem = checkGap(source, gapStart, gapLength, input.contents);
    if (gapProblem) problems.push(gapProblem);
    if (input.compressed) {
      problems.push('the signature dictionary is inside an object stream, so it cannot hold the gap');
    } else if (input.objectOffset !== undefined) {
      const where = checkDictionaryHoldsGap(source, input.objectOffset, gapStart);
      if (where) problems.push(where);
    }
    const revision = revisionEndingAt(source, c + d, input.revisionEnds);
    result.signedRevision = revision;
    if (revision < 0) problems.push('/ByteRange does not end at the end of a revision (%%EOF)');
    result.coversWholeDocument = c + d === size || onlyWhitespace(source, c + d, size);
  }
  result.ok = problems.length === 0;
  if (problems.length > 0) result.problem = problems.join('; ');
  return result;
}

function checkGap(
  source: RangeSource,
  start: number,
  length: number,
  contents: Uint8Array | undefined,
): string | undefined {
  if (length < 2) return 'the /ByteRange gap is too small to hold a /Contents string';
  const digits = length - 2;
  if (contents) {
    // A hex string with an odd digit count gets a trailing 0; either length is the same string.
    const expected = contents.length * 2;
    if (digits !== expected && digits !== expected - 1) {
      return `the /ByteRange gap (${length} bytes) is not this signature's /Contents (${expected + 2} bytes)`;
    }
  }
  const head = source.read(start, 1)[0];
  const tail = source.read(start + length - 1, 1)[0];
  if (head !== LT || tail !== GT) return 'the /ByteRange gap is not a <hex> string';
  let index = 0;
  let high = -1;
  for (let at = start + 1; at < start + 1 + digits; at += CHUNK) {
    const chunk = source.read(at, Math.min(CHUNK, start + 1 + digits - at));
    for (const byte of chunk) {
      if (!isHexDigit(byte)) return 'the /ByteRange gap holds bytes that are not hex digits';
      if (!contents) continue;
      if (high < 0) {
        high = hexValue(byte);
        continue;
      }
      if (contents[index] !== ((high << 4) | hexValue(byte))) {
        return "the /ByteRange gap does not hold this signature's /Contents";
      }
      index++;
      high = -1;
    }
  }
  if (contents && high >= 0 && contents[index] !== high << 4) {
    return "the /ByteRange gap does not hold this signature's /Contents";
  }
  return undefined;
}

/** The gap must sit inside the signature dictionary's own object, after its `obj` header. */
function checkDictionaryHoldsGap(
  source: RangeSource,
  objectOffset: number,
  gapStart: number,
): string | undefined {
  if (objectOffset >= gapStart) return 'the signature dictionary is not in the signed bytes before the gap';
  if (gapStart - objectOffset > MAX_DICT_HEAD)
    return 'the /ByteRange gap is not inside the signature dictionary';
  const text = latin1(source.read(objectOffset, gapStart - objectOffset));
  if (text.includes('endobj')) return 'the /ByteRange gap is not inside the signature dictionary';
  return undefined;
}
