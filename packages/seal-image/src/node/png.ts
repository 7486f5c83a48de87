import { crc32, deflateSync } from 'node:zlib';

/**
 * An indexed-colour PNG (PNG 11.2): palette with alpha (PLTE + tRNS), physical size, one IDAT.
 * Written here rather than with a PNG library because the ones on npm either cannot write palettes
 * (pngjs) or deflate with a pure-JS compressor whose output was 12 % larger than zlib's on our seal
 * images (fast-png with fflate), and the 50 KB limit is what this encoder is for.
 */
export interface IndexedImage {
  width: number;
  height: number;
  /** Bits per index: 1, 2, 4 or 8. */
  depth: 1 | 2 | 4 | 8;
  /** One palette index per pixel, row by row (unpacked; the encoder packs them to `depth` bits). */
  indices: Uint8Array;
  /** RGBA entries; at most 2^depth. */
  palette: readonly (readonly [number, number, number, number])[];
  /** Pixels per metre on both axes (pHYs); 400 dpi is 15748. */
  pixelsPerMetre?: number;
  /** zlib level. 7 is the default: on seal pictures 9 saves 4 % and takes ten times as long. */
  level?: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

export function encodeIndexedPng(img: IndexedImage): Buffer {
  const { width, height, depth, indices, palette } = img;
  if (palette.length === 0 || palette.length > 2 ** depth)
    throw new RangeError('palette does not fit the depth');
  if (indices.length !== width * height) throw new RangeError('one index per pixel');

  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(depth, 8);
  ihdr.writeUInt8(3, 9); // colour type 3: indexed
  // compression 0, filter method 0, no interlace: bytes 10–12 stay 0

  const plte = Buffer.alloc(palette.length * 3);
  const trns = Buffer.alloc(palette.length);
  palette.forEach(([r, g, b, a], i) => {
    plte.writeUInt8(r, i * 3);
    plte.writeUInt8(g, i * 3 + 1);
    plte.writeUInt8(b, i * 3 + 2);
    trns.writeUInt8(a, i);
  });

  // Filter type 0 on every row: the PNG specification's advice for indexed images, and smallest here.
  const perByte = 8 / depth;
  const rowBytes = Math.ceil(width / perByte);
  const raw = new Uint8Array((rowBytes + 1) * height);
  for (let y = 0; y < height; y++) {
    let out = y * (rowBytes + 1) + 1;
    let src = y * width;
    for (let x = 0; x < width; x += perByte, out++) {
      let byte = 0;
      for (let k = 0; k < perByte; k++) byte = (byte << depth) | (x + k < width ? (indices[src++] ?? 0) : 0);
      raw[out] = byte;
    }
  }
  const idat = deflateSync(raw, { level: img.level ?? 7, memLevel: 9 });

  const parts = [SIGNATURE, chunk('IHDR', ihdr), chunk('PLTE', plte), chunk('tRNS', trns)];
  if (img.pixelsPerMetre) {
    const phys = Buffer.alloc(9);
    phys.writeUInt32BE(img.pixelsPerMetre, 0);
    phys.writeUInt32BE(img.pixelsPerMetre, 4);
    phys.writeUInt8(1, 8); // unit: metre
    parts.push(chunk('pHYs', phys));
  }
  parts.push(chunk('IDAT', idat), chunk('IEND', new Uint8Array(0)));
  return Buffer.concat(parts);
}
