// Test-only: mutated PDFs for the robustness suite (in process) and the API sample (over HTTP). Not exported
// from the package. Every mutant is made from a seed, so a failing one can be rebuilt and written out.
import { createHash } from 'node:crypto';

/** A small deterministic generator (mulberry32), so that a failing mutant can be replayed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface MutationSource {
  name: string;
  bytes: Uint8Array;
}

export interface Mutant {
  source: string;
  operator: MutationOperator;
  seed: number;
  bytes: Uint8Array;
  /** What was done, in words, for the failure message. */
  note: string;
}

export const OPERATORS = [
  'flip',
  'flip-tail',
  'truncate',
  'insert',
  'delete',
  'xref-number',
  'byte-range-number',
  'length-number',
  'duplicate-object',
  'splice',
  'keyword',
] as const;
export type MutationOperator = (typeof OPERATORS)[number];

const latin1 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');
const bytesOf = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The matches of a pattern in a file, as [start, end) of the chosen group (0 = whole match). */
function spans(text: string, pattern: RegExp, group = 0): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const m of text.matchAll(pattern)) {
    const whole = m.index;
    const g = m[group];
    if (g === undefined) continue;
    const start = group === 0 ? whole : whole + m[0].indexOf(g);
    out.push([start, start + g.length]);
    if (out.length >= 5000) break;
  }
  return out;
}

/** Replaces a number by a neighbour, zero, a huge or negative value, or its double. */
function tweakNumber(value: string, rnd: () => number): string {
  const n = Number(value);
  const options = [n + 1, n - 1, 0, n * 2, -n - 1, 9_999_999_999, n + 4096, Math.floor(n / 2)];
  return String(options[Math.floor(rnd() * options.length)]);
}

const KEYWORDS = [
  'obj',
  'endobj',
  'stream',
  'endstream',
  'xref',
  'trailer',
  'startxref',
  'R',
  '>>',
  '<<',
  ']',
  '[',
];

/**
 * Mutant `seed` of `source`, with `other` for splices. The operator is chosen by the seed, so a plan of
 * consecutive seeds walks every operator in turn.
 */
export function mutate(source: MutationSource, other: MutationSource, seed: number): Mutant {
  return mutateWith(OPERATORS[seed % OPERATORS.length]!, source, other, seed);
}

function mutateWith(
  operator: MutationOperator,
  source: MutationSource,
  other: MutationSource,
  seed: number,
): Mutant {
  const rnd = prng(seed);
  const bytes = source.bytes;
  const len = bytes.length;
  const at = (from = 0, to = len) => from + Math.floor(rnd() * Math.max(1, to - from));
  const done = (out: Uint8Array, note: string): Mutant => ({
    source: source.name,
    operator,
    seed,
    bytes: out,
    note,
  });
  const replaceSpan = (span: [number, number], text: string, what: string) =>
    done(
      concat(bytes.subarray(0, span[0]), bytesOf(text), bytes.subarray(span[1])),
      `${what} at ${span[0]} -> ${text}`,
    );

  switch (operator) {
    case 'flip':
    case 'flip-tail': {
      const out = bytes.slice();
      const from = operator === 'flip-tail' ? Math.max(0, len - 2048) : 0;
      const count = 1 + Math.floor(rnd() * 8);
      const where: number[] = [];
      for (let i = 0; i < count; i++) {
        const p = at(from);
        out[p] = Math.floor(rnd() * 256);
        where.push(p);
      }
      return done(out, `bytes changed at ${where.join(',')}`);
    }
    case 'truncate': {
      // Half the cuts fall in the last 5 %, where the cross-reference data and the last revision sit.
      const p = rnd() < 0.5 ? at(Math.floor(len * 0.95)) : at();
      return done(bytes.slice(0, p), `cut at ${p}`);
    }
    case 'insert': {
      const p = at();
      const noise = new Uint8Array(1 + Math.floor(rnd() * 64)).map(() => Math.floor(rnd() * 256));
      return done(
        concat(bytes.subarray(0, p), noise, bytes.subarray(p)),
        `${noise.length} bytes inserted at ${p}`,
      );
    }
    case 'delete': {
      const p = at();
      const n = 1 + Math.floor(rnd() * 64);
      return done(
        concat(bytes.subarray(0, p), bytes.subarray(Math.min(len, p + n))),
        `${n} bytes deleted at ${p}`,
      );
    }
    case 'xref-number': {
      const text = latin1(bytes);
      const candidates = [
        ...spans(text, /(\d{10}) \d{5} [nf]/g, 1),
        ...spans(text, /startxref\s+(\d+)/g, 1),
        ...spans(text, /\/(?:Prev|Size|XRefStm)\s+(\d+)/g, 1),
        ...spans(text, /\/(?:W|Index)\s*\[([\d\s]+)\]/g, 1),
      ];
      if (candidates.length === 0) return mutateWith('flip', source, other, seed);
      const span = candidates[Math.floor(rnd() * candidates.length)]!;
      const old = text.slice(span[0], span[1]);
      const replacement = /\s/.test(old.trim())
        ? old.replace(/\d+/, (d) => tweakNumber(d, rnd))
        : tweakNumber(old, rnd).padStart(old.length === 10 ? 10 : 0, '0');
      return replaceSpan(span, replacement, 'cross-reference number');
    }
    case 'byte-range-number': {
      const text = latin1(bytes);
      const candidates = spans(text, /\/ByteRange\s*\[\s*([\d\s]+)\]/g, 1);
      if (candidates.length === 0) return mutateWith('flip', source, other, seed);
      const span = candidates[Math.floor(rnd() * candidates.length)]!;
      const numbers = text.slice(span[0], span[1]).trim().split(/\s+/);
      const i = Math.floor(rnd() * numbers.length);
      numbers[i] = tweakNumber(numbers[i]!, rnd);
      // Keep the length when the original padded it, so later offsets stay where they were.
      const original = text.slice(span[0], span[1]);
      const joined = numbers.join(' ');
      return replaceSpan(
        span,
        joined.length < original.length ? joined.padEnd(original.length, ' ') : joined,
        'ByteRange',
      );
    }
    case 'length-number': {
      const text = latin1(bytes);
      const candidates = spans(text, /\/(?:Length|Length1|Length2|Length3|N|First|Count)\s+(\d+)/g, 1);
      if (candidates.length === 0) return mutateWith('flip', source, other, seed);
      const span = candidates[Math.floor(rnd() * candidates.length)]!;
      return replaceSpan(span, tweakNumber(text.slice(span[0], span[1]), rnd), 'length');
    }
    case 'duplicate-object': {
      const text = latin1(bytes);
      const objects = spans(text, /\d+\s+\d+\s+obj\b[\s\S]{0,20000}?endobj/g);
      if (objects.length === 0) return mutateWith('flip', source, other, seed);
      const [s, e] = objects[Math.floor(rnd() * objects.length)]!;
      const copy = bytes.subarray(s, e);
      // Either next to the original (shifting what follows) or just before the end, as a rogue update would.
      const p = rnd() < 0.5 ? e : Math.max(0, text.lastIndexOf('%%EOF') - 1);
      return done(
        concat(bytes.subarray(0, p), bytesOf('\n'), copy, bytesOf('\n'), bytes.subarray(p)),
        `object at ${s} copied to ${p}`,
      );
    }
    case 'splice': {
      const p = at();
      const q = Math.floor(rnd() * other.bytes.length);
      return done(
        concat(bytes.subarray(0, p), other.bytes.subarray(q)),
        `first ${p} bytes, then ${other.name} from ${q}`,
      );
    }
    case 'keyword': {
      const text = latin1(bytes);
      const word = KEYWORDS[Math.floor(rnd() * KEYWORDS.length)]!;
      const found = spans(
        text,
        new RegExp(word.replace(/[[\]]/g, '\\$&') + (/\w$/.test(word) ? '\\b' : ''), 'g'),
      );
      if (found.length === 0) return mutateWith('flip', source, other, seed);
      const span = found[Math.floor(rnd() * found.length)]!;
      const replacement = KEYWORDS[Math.floor(rnd() * KEYWORDS.length)]!;
      return replaceSpan(span, replacement, `keyword ${word}`);
    }
  }
}

/** SHA-256 of the bytes a ByteRange covers, or null when it does not fit the file. */
export function coveredDigest(bytes: Uint8Array, byteRange: readonly number[]): string | null {
  if (byteRange.length === 0 || byteRange.length % 2 !== 0) return null;
  const hash = createHash('sha256');
  for (let i = 0; i < byteRange.length; i += 2) {
    const start = byteRange[i]!;
    const length = byteRange[i + 1]!;
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(length) || start < 0 || length < 0) return null;
    if (start + length > bytes.length) return null;
    hash.update(bytes.subarray(start, start + length));
  }
  return hash.digest('hex');
}

/** The CMS in a signature's /Contents: the hex string in the gap between the first two ranges. */
export function contentsOf(bytes: Uint8Array, byteRange: readonly number[]): Uint8Array | null {
  const [, end, start] = byteRange;
  if (end === undefined || start === undefined || start <= end || start > bytes.length) return null;
  const hex = latin1(bytes.subarray(end, start)).replace(/[<>\s]/g, '');
  if (!/^[0-9a-fA-F]*$/.test(hex)) return null;
  return new Uint8Array(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex'));
}
