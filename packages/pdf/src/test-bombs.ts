import { crc32, deflateSync } from 'node:zlib';

/**
 * Files built to exhaust a reader or a decoder, each small: shared by this package's tests and the
 * server's upload tests.
 */

function pngChunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * A well-formed PNG of `side` × `side` pixels, 1-bit grey with a transparent colour (tRNS), all zeros:
 * 16384 × 16384 is about 33 KB on disk and 1 GB once decoded to RGBA.
 */
export function pngBomb(side = 16384): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // grey
  const rows = Buffer.alloc(side * (1 + Math.ceil(side / 8)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('tRNS', Uint8Array.of(0, 0)),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/** A PDF of the given objects (bodies after `N 0 obj`), numbered from 1, with a classic xref table. */
function classicPdf(objects: (string | Buffer)[], trailerExtra = ''): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let at = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    const b = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    offsets.push(at);
    parts.push(b);
    at += b.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${trailerExtra} >>\nstartxref\n${at}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

/**
 * A PDF whose catalogue sits in an object stream that inflates to `inflatedMb` MB (twice deflated, so
 * a few kilobytes on disk): whoever reads the catalogue must decode it.
 */
export function inflateBombPdf(inflatedMb = 1024): Buffer {
  const zeros = Buffer.alloc(1024 * 1024);
  const once = deflateSync(Buffer.concat(Array.from({ length: inflatedMb }, () => zeros)), { level: 9 });
  const twice = deflateSync(once, { level: 9 });
  const objStm = Buffer.concat([
    Buffer.from(
      `<< /Type /ObjStm /N 1 /First 4 /Filter [/FlateDecode /FlateDecode] /Length ${twice.length} >>\nstream\n`,
      'latin1',
    ),
    twice,
    Buffer.from('\nendstream', 'latin1'),
  ]);
  // Object 1 (the catalogue) is compressed in stream 2: only a cross-reference stream can say so.
  const header = Buffer.from('%PDF-1.7\n', 'latin1');
  const obj2 = Buffer.concat([
    Buffer.from('2 0 obj\n', 'latin1'),
    objStm,
    Buffer.from('\nendobj\n', 'latin1'),
  ]);
  const xrefAt = header.length + obj2.length;
  const rows = Buffer.alloc(4 * 5);
  const row = (i: number, type: number, field2: number, field3: number) => {
    rows[i * 5] = type;
    rows.writeUInt16BE(field2, i * 5 + 1);
    rows.writeUInt16BE(field3, i * 5 + 3);
  };
  row(0, 0, 0, 0xffff);
  row(1, 2, 2, 0); // object 1: in object stream 2, index 0
  row(2, 1, header.length, 0); // object 2 at its offset
  row(3, 1, xrefAt, 0); // object 3: this cross-reference stream
  const xref = Buffer.concat([
    Buffer.from(
      `3 0 obj\n<< /Type /XRef /Size 4 /W [1 2 2] /Root 1 0 R /Length ${rows.length} >>\nstream\n`,
      'latin1',
    ),
    rows,
    Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'),
  ]);
  return Buffer.concat([header, obj2, xref]);
}

/** A PDF whose catalogue holds arrays nested `depth` deep (one byte each way). */
export function deepNestingPdf(depth = 1_000_000): Buffer {
  return classicPdf([
    `<< /Type /Catalog /Pages 2 0 R /Deep ${'['.repeat(depth)}${']'.repeat(depth)} >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ]);
}

/**
 * A PDF whose cross-reference stream declares `count` objects (five bytes each, deflated to a few KB):
 * the first three are the document's, the rest free.
 */
export function manyObjectsPdf(count = 2_000_000): Buffer {
  const header = Buffer.from('%PDF-1.7\n', 'latin1');
  const bodies = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
  ].map((b, i) => Buffer.from(`${i + 1} 0 obj\n${b}\nendobj\n`, 'latin1'));
  const rows = Buffer.alloc(count * 5);
  let at = header.length;
  bodies.forEach((b, i) => {
    rows[(i + 1) * 5] = 1;
    rows.writeUInt32BE(at, (i + 1) * 5 + 1);
    at += b.length;
  });
  const data = deflateSync(rows, { level: 9 });
  const xref = Buffer.concat([
    Buffer.from(
      `${count} 0 obj\n<< /Type /XRef /Size ${count} /W [1 4 0] /Root 1 0 R /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
      'latin1',
    ),
    data,
    Buffer.from(`\nendstream\nendobj\nstartxref\n${at}\n%%EOF\n`, 'latin1'),
  ]);
  return Buffer.concat([header, ...bodies, xref]);
}
