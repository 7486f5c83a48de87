import { describe, expect, it } from 'vitest';
import { pngSize } from './image';

const header = (width: number, height: number) => {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const v = new DataView(b.buffer);
  v.setUint32(16, width);
  v.setUint32(20, height);
  return b;
};

describe('pngSize', () => {
  it('reads the size a PNG header declares, up to 2^32 - 1 on each side', () => {
    expect(pngSize(header(16384, 16384))).toEqual({ width: 16384, height: 16384 });
    expect(pngSize(header(0xffffffff, 1))).toEqual({ width: 0xffffffff, height: 1 });
    // A view into a larger buffer reads from its own start.
    const big = new Uint8Array(40);
    big.set(header(3, 4), 7);
    expect(pngSize(big.subarray(7))).toEqual({ width: 3, height: 4 });
  });
  it('answers undefined for what does not start as a PNG with its IHDR', () => {
    expect(pngSize(new Uint8Array(10))).toBeUndefined();
    const noIhdr = header(1, 1);
    noIhdr[12] = 0x49 + 1;
    expect(pngSize(noIhdr)).toBeUndefined();
    expect(pngSize(new TextEncoder().encode('GIF89a and then some more bytes'))).toBeUndefined();
  });
});
