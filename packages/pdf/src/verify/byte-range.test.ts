import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bufferSource } from '../source';
import { checkByteRange, revisionEndingAt } from './byte-range';
import { createRangeDigester, digestRanges } from './digest';

const enc = (s: string) => Uint8Array.from(Buffer.from(s, 'latin1'));

/** A fake signed file: header, a signature object whose /Contents is the gap, trailer, %%EOF. */
function fakeSigned(contentsHex = 'ABCD00', tail = '\ntrailer\n%%EOF\n') {
  const head = '%PDF-1.7\n5 0 obj\n<< /Type /Sig /ByteRange [0 0 0 0] /Contents ';
  const objectOffset = head.indexOf('5 0 obj');
  const gap = `<${contentsHex}>`;
  const text = head + gap + ' >>\nendobj' + tail;
  const gapStart = head.length;
  const gapEnd = gapStart + gap.length;
  const bytes = enc(text);
  return {
    bytes,
    objectOffset,
    range: [0, gapStart, gapEnd, bytes.length - gapEnd],
    contents: Uint8Array.from(Buffer.from(contentsHex, 'hex')),
    ends: [bytes.length],
  };
}

describe('checkByteRange', () => {
  it('accepts a ByteRange whose gap is exactly this signature’s /Contents and that ends at %%EOF', () => {
    const f = fakeSigned();
    const check = checkByteRange(bufferSource(f.bytes), {
      byteRange: f.range,
      contents: f.contents,
      objectOffset: f.objectOffset,
      revisionEnds: f.ends,
    });
    expect(check.problem).toBeUndefined();
    expect(check.ok).toBe(true);
    expect(check.signedRevision).toBe(0);
    expect(check.coversWholeDocument).toBe(true);
    expect(check.ranges).toEqual([
      [0, f.range[1]],
      [f.range[2], f.range[3]],
    ]);
  });

  it('accepts an odd number of hex digits (PDF pads the last one with 0)', () => {
    const f = fakeSigned('ABC');
    const check = checkByteRange(bufferSource(f.bytes), {
      byteRange: f.range,
      contents: Uint8Array.of(0xab, 0xc0),
      revisionEnds: f.ends,
    });
    expect(check.ok).toBe(true);
  });

  it('rejects a gap that holds another /Contents of the same length', () => {
    const f = fakeSigned();
    const check = checkByteRange(bufferSource(f.bytes), {
      byteRange: f.range,
      contents: Uint8Array.of(0xab, 0xcd, 0x01),
      revisionEnds: f.ends,
    });
    expect(check.ok).toBe(false);
    expect(check.problem).toMatch(/does not hold this signature's \/Contents/);
    expect(check.ranges).not.toBeNull(); // still hashable, so integrity can be reported too
  });

  it('rejects a gap shifted by one byte, a range not starting at 0, overlaps and wrong counts', () => {
    const f = fakeSigned();
    const src = bufferSource(f.bytes);
    const [a, b, c, d] = f.range as [number, number, number, number];
    const base = { contents: f.contents, revisionEnds: f.ends };
    expect(checkByteRange(src, { ...base, byteRange: [a, b + 1, c, d] }).problem).toMatch(/gap/);
    expect(checkByteRange(src, { ...base, byteRange: [1, b - 1, c, d] }).problem).toMatch(
      /does not start at 0/,
    );
    expect(checkByteRange(src, { ...base, byteRange: [0, c + 1, c, d] }).problem).toMatch(/overlap/);
    expect(checkByteRange(src, { ...base, byteRange: [0, b, c] }).problem).toMatch(/3 numbers/);
    expect(checkByteRange(src, { ...base, byteRange: [0, b, c, d, 0, 0] }).problem).toMatch(/6 numbers/);
    expect(checkByteRange(src, { ...base, byteRange: [0, -1, c, d] }).problem).toMatch(
      /non-negative integers/,
    );
    expect(checkByteRange(src, { ...base, byteRange: [0, 1.5, c, d] }).problem).toMatch(
      /non-negative integers/,
    );
    expect(checkByteRange(src, { ...base, byteRange: undefined }).problem).toMatch(/no \/ByteRange/);
  });

  it('rejects ranges reaching past the end of the file without trying to hash them', () => {
    const f = fakeSigned();
    const [a, b, c] = f.range as [number, number, number, number];
    const check = checkByteRange(bufferSource(f.bytes), {
      byteRange: [a, b, c, 10_000_000],
      contents: f.contents,
      revisionEnds: f.ends,
    });
    expect(check.ok).toBe(false);
    expect(check.ranges).toBeNull();
    expect(check.problem).toMatch(/past the end of the file/);
  });

  it('rejects ranges that do not end at a revision end', () => {
    const f = fakeSigned('ABCD00', '\ntrailer\n%%EOF\n% more bytes, no revision\n');
    const end = f.bytes.length - '% more bytes, no revision\n'.length - 3;
    const [a, b, c] = f.range as [number, number, number, number];
    const check = checkByteRange(bufferSource(f.bytes), {
      byteRange: [a, b, c, end - c],
      contents: f.contents,
      revisionEnds: [f.bytes.length],
    });
    expect(check.problem).toMatch(/does not end at the end of a revision/);
    expect(check.signedRevision).toBe(-1);
    expect(check.coversWholeDocument).toBe(false);
  });

  it('rejects a signature dictionary that lies outside the signed bytes (a dictionary pointing at another gap)', () => {
    const f = fakeSigned();
    const check = checkByteRange(bufferSource(f.bytes), {
      byteRange: f.range,
      contents: f.contents,
      objectOffset: f.bytes.length - 10,
      revisionEnds: f.ends,
    });
    expect(check.problem).toMatch(/not in the signed bytes before the gap/);
    const early = checkByteRange(bufferSource(f.bytes), {
      byteRange: f.range,
      contents: f.contents,
      objectOffset: 0, // the gap then belongs to some later object: 'endobj' lies in between
      revisionEnds: f.ends,
    });
    expect(early.ok).toBe(true);
    const compressed = checkByteRange(bufferSource(f.bytes), {
      byteRange: f.range,
      contents: f.contents,
      compressed: true,
      revisionEnds: f.ends,
    });
    expect(compressed.problem).toMatch(/object stream/);
  });

  it('finds the revision a range ends at, with or without the end-of-line after %%EOF', () => {
    const bytes = enc('%PDF-1.7\n1 0 obj null endobj\n%%EOF\r\n2 0 obj null endobj\n%%EOF');
    const first = Buffer.from(bytes).indexOf('%%EOF') + 5;
    const src = bufferSource(bytes);
    expect(revisionEndingAt(src, first, [first + 2, bytes.length])).toBe(0);
    expect(revisionEndingAt(src, first + 2, [first + 2, bytes.length])).toBe(0);
    expect(revisionEndingAt(src, bytes.length, [first + 2, bytes.length])).toBe(1);
    expect(revisionEndingAt(src, first - 1, [first + 2, bytes.length])).toBe(-1);
  });
});

describe('digestRanges', () => {
  it('hashes the ranges in order, in chunks, exactly as one pass over the concatenation would', async () => {
    const bytes = new Uint8Array(3 * 1024 * 1024 + 17).map((_, i) => (i * 31) & 0xff);
    const reads: number[] = [];
    const src = {
      size: bytes.length,
      read(offset: number, length: number) {
        reads.push(length);
        return bytes.subarray(offset, offset + length);
      },
    };
    const ranges: Array<[number, number]> = [
      [0, 1000],
      [2000, bytes.length - 2000],
    ];
    const expected = createHash('sha384')
      .update(bytes.subarray(0, 1000))
      .update(bytes.subarray(2000))
      .digest();
    expect(Buffer.from(digestRanges(src, ranges, 'SHA-384'))).toEqual(expected);
    expect(Math.max(...reads)).toBeLessThanOrEqual(1 << 20);

    reads.length = 0;
    const digestOf = createRangeDigester(src, ranges);
    const one = await digestOf('SHA-256');
    const again = await digestOf('SHA-256');
    expect(again).toBe(one);
    expect(reads.length).toBeGreaterThan(0);
    const afterFirst = reads.length;
    await digestOf('SHA-256');
    expect(reads.length).toBe(afterFirst); // cached: the file is not read twice
    await expect(digestOf('RIPEMD-160' as never)).rejects.toThrow(/unsupported/);
    // SHAKE256 with the 512-bit output an Ed448 signature digests with (RFC 8419).
    const joined = Buffer.concat(ranges.map(([o, l]) => Buffer.from(bytes.subarray(o, o + l))));
    expect(Buffer.from(await digestOf('SHAKE256'))).toEqual(
      createHash('shake256', { outputLength: 64 }).update(joined).digest(),
    );
  });

  it('refuses ranges outside the source', () => {
    const src = bufferSource(new Uint8Array(10));
    expect(() => digestRanges(src, [[5, 10]], 'SHA-256')).toThrow(RangeError);
  });
});
