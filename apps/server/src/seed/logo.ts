import { crc32, deflateSync } from 'node:zlib';

/**
 * Draws the demo logo, a red seal ring with a five-pointed star, as a transparent PNG, so the demo needs
 * no binary asset. Anti-aliased by 4x4 supersampling.
 */
export function drawLogoPng(size = 96): Buffer {
  const c = size / 2;
  const star = Array.from({ length: 10 }, (_, i) => {
    const r = i % 2 === 0 ? size * 0.26 : size * 0.105;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    return [c + r * Math.cos(a), c + r * Math.sin(a)] as const;
  });
  const inStar = (x: number, y: number) => {
    let inside = false;
    for (let i = 0, j = star.length - 1; i < star.length; j = i++) {
      const [xi, yi] = star[i]!;
      const [xj, yj] = star[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  };
  const covered = (x: number, y: number) => {
    const d = Math.hypot(x - c, y - c);
    return (d <= size * 0.47 && d >= size * 0.4) || inStar(x, y);
  };
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      let hits = 0;
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++) if (covered(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)) hits++;
      const o = y * (size * 4 + 1) + 1 + x * 4;
      raw[o] = 0xd4;
      raw[o + 1] = 0x1f;
      raw[o + 2] = 0x26;
      raw[o + 3] = Math.round((hits / 16) * 255);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
