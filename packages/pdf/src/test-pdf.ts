// Test-only: builds small PDFs with a chosen cross-reference layout, written by hand so the reader and
// the signer are tested against structures no library normalised for us. Not exported from the package.
import { closeSync, openSync, writeSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

export interface MakePdfOptions {
  pages?: number;
  xref?: 'table' | 'stream' | 'hybrid';
  /** Put non-stream objects into an object stream (stream and hybrid layouts). */
  objectStreams?: boolean;
  rotate?: number;
  mediaBox?: [number, number, number, number];
  cropBox?: [number, number, number, number];
  /** Existing AcroForm with one text field on page 1. */
  acroForm?: boolean;
  /** Page 1's /Annots as an indirect array object instead of inline. */
  indirectAnnots?: boolean;
  /** Bytes of filler in page 1's content stream (uncompressed), for large-file tests. */
  filler?: number;
  version?: string;
  /** Extra text drawn on every page. */
  text?: string;
}

type Obj = { num: number; body: string; stream?: Uint8Array };

const enc = new TextEncoder();

function pageContent(i: number, text: string): string {
  // A light grey square in the middle and a label: enough for pdftoppm to render something.
  return `0.9 g 100 100 200 200 re f BT /F1 18 Tf 72 720 Td (${text} ${i + 1}) Tj ET`;
}

export function makePdfParts(opts: MakePdfOptions = {}): Array<Uint8Array | { filler: number }> {
  const pages = opts.pages ?? 1;
  const layout = opts.xref ?? 'table';
  const objs: Obj[] = [];
  const catalogExtra = opts.acroForm ? ' /AcroForm 5 0 R' : '';
  objs.push({ num: 1, body: `<< /Type /Catalog /Pages 2 0 R${catalogExtra} >>` });
  const firstPage = 10;
  const kids = Array.from({ length: pages }, (_, i) => `${firstPage + i * 2} 0 R`).join(' ');
  const mb = opts.mediaBox ?? [0, 0, 595, 842];
  objs.push({
    num: 2,
    body: `<< /Type /Pages /Kids [${kids}] /Count ${pages} /MediaBox [${mb.join(' ')}] >>`,
  });
  objs.push({ num: 3, body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>' });
  objs.push({ num: 4, body: '<< /Producer (OpenSeal test) /Title (Test document) >>' });
  if (opts.acroForm) {
    objs.push({ num: 5, body: '<< /Fields [6 0 R] /DA (/Helv 0 Tf 0 g) >>' });
    objs.push({
      num: 6,
      body: `<< /FT /Tx /T (name) /V (Alice) /Type /Annot /Subtype /Widget /Rect [72 600 272 630] /P ${firstPage} 0 R /F 4 >>`,
    });
  }
  if (opts.indirectAnnots) objs.push({ num: 7, body: opts.acroForm ? '[6 0 R]' : '[]' });
  for (let i = 0; i < pages; i++) {
    const num = firstPage + i * 2;
    let extra = '';
    if (opts.rotate) extra += ` /Rotate ${opts.rotate}`;
    if (opts.cropBox) extra += ` /CropBox [${opts.cropBox.join(' ')}]`;
    if (i === 0 && opts.indirectAnnots) extra += ' /Annots 7 0 R';
    else if (i === 0 && opts.acroForm) extra += ' /Annots [6 0 R]';
    objs.push({
      num,
      body: `<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents ${num + 1} 0 R${extra} >>`,
    });
    const content = enc.encode(pageContent(i, opts.text ?? 'Page'));
    objs.push({ num: num + 1, body: '', stream: content });
  }
  const size = Math.max(...objs.map((o) => o.num)) + 1;

  const parts: Array<Uint8Array | { filler: number }> = [];
  let pos = 0;
  const push = (s: string | Uint8Array): void => {
    const b = typeof s === 'string' ? enc.encode(s) : s;
    parts.push(b);
    pos += b.length;
  };
  push(`%PDF-${opts.version ?? (layout === 'table' ? '1.4' : '1.7')}\n%\xe2\xe3\xcf\xd3\n`);
  const offsets = new Map<number, number>();
  const compressed = new Map<number, [number, number]>();
  const useObjStm = layout !== 'table' && opts.objectStreams !== false;
  const objStmNum = size;
  let nextNum = size + (useObjStm ? 1 : 0);
  const inStm = useObjStm ? objs.filter((o) => !o.stream && o.num !== 1) : [];
  const direct = objs.filter((o) => !inStm.includes(o));

  for (const o of direct) {
    offsets.set(o.num, pos);
    if (o.stream) {
      const fill = o.num === firstPage + 1 && opts.filler ? opts.filler : 0;
      push(`${o.num} 0 obj\n<< /Length ${o.stream.length + fill} >>\nstream\n`);
      push(o.stream);
      if (fill) {
        parts.push({ filler: fill });
        pos += fill;
      }
      push('\nendstream\nendobj\n');
    } else push(`${o.num} 0 obj\n${o.body}\nendobj\n`);
  }
  if (useObjStm) {
    let header = '';
    let body = '';
    inStm.forEach((o, i) => {
      header += `${o.num} ${body.length} `;
      body += o.body + '\n';
      compressed.set(o.num, [objStmNum, i]);
    });
    const data = deflateSync(enc.encode(header + body));
    offsets.set(objStmNum, pos);
    push(
      `${objStmNum} 0 obj\n<< /Type /ObjStm /N ${inStm.length} /First ${header.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
    );
    push(data);
    push('\nendstream\nendobj\n');
  }
  const totalSize = nextNum + 1;
  const trailerKeys = `/Size ${totalSize} /Root 1 0 R /Info 4 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]`;

  const xrefStream = (only?: 'compressed'): { num: number; at: number } => {
    const num = nextNum++;
    const at = pos;
    offsets.set(num, at);
    const rows: number[] = [];
    for (let n = 0; n < totalSize; n++) {
      const c = compressed.get(n);
      const o = offsets.get(n);
      if (only === 'compressed' && !c) {
        rows.push(0, 0, 0, 0, 0, 0, 0);
        continue;
      }
      if (c) rows.push(2, 0, 0, c[0] >> 8, c[0] & 0xff, 0, c[1]);
      else if (o !== undefined)
        rows.push(1, (o >>> 24) & 0xff, (o >> 16) & 0xff, (o >> 8) & 0xff, o & 0xff, 0, 0);
      else rows.push(0, 0, 0, 0, 0, n === 0 ? 0xff : 0, n === 0 ? 0xff : 0);
    }
    // PNG "Up" predictor, as Acrobat writes it.
    const rowLen = 7;
    const pred: number[] = [];
    for (let r = 0; r < rows.length / rowLen; r++) {
      pred.push(2);
      for (let k = 0; k < rowLen; k++) {
        const cur = rows[r * rowLen + k]!;
        const up = r > 0 ? rows[(r - 1) * rowLen + k]! : 0;
        pred.push((cur - up) & 0xff);
      }
    }
    const data = deflateSync(Uint8Array.from(pred));
    const keys = only ? `/Size ${totalSize}` : trailerKeys;
    push(
      `${num} 0 obj\n<< /Type /XRef ${keys} /W [1 4 2] /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 7 >> /Length ${data.length} >>\nstream\n`,
    );
    push(data);
    push('\nendstream\nendobj\n');
    return { num, at };
  };

  if (layout === 'stream') {
    const { at } = xrefStream();
    push(`startxref\n${at}\n%%EOF\n`);
    return parts;
  }
  let xrefStmAt = -1;
  if (layout === 'hybrid' && useObjStm) xrefStmAt = xrefStream('compressed').at;
  const tableAt = pos;
  let table = `xref\n0 ${totalSize}\n0000000000 65535 f \n`;
  for (let n = 1; n < totalSize; n++) {
    const o = offsets.get(n);
    table +=
      o !== undefined && !compressed.has(n)
        ? `${String(o).padStart(10, '0')} 00000 n \n`
        : '0000000000 00000 f \n';
  }
  push(table);
  push(
    `trailer\n<< ${trailerKeys}${xrefStmAt >= 0 ? ` /XRefStm ${xrefStmAt}` : ''} >>\nstartxref\n${tableAt}\n%%EOF\n`,
  );
  return parts;
}

export function makePdf(opts: MakePdfOptions = {}): Uint8Array {
  const parts = makePdfParts(opts);
  const chunks = parts.map((p) => (p instanceof Uint8Array ? p : new Uint8Array(p.filler).fill(0x20)));
  return Buffer.concat(chunks);
}

/** Writes the PDF straight to disk so a test can make a large file without holding it in memory. */
export function writePdfFile(path: string, opts: MakePdfOptions = {}): void {
  const fd = openSync(path, 'w');
  try {
    const block = new Uint8Array(1024 * 1024).fill(0x20);
    for (const p of makePdfParts(opts)) {
      if (p instanceof Uint8Array) writeSync(fd, p);
      else {
        for (let left = p.filler; left > 0; left -= block.length)
          writeSync(fd, block, 0, Math.min(left, block.length));
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** Appends an incremental update by hand, as another product would, replacing the Info dictionary. */
export function appendInfoUpdate(pdf: Uint8Array, prevXref: number, size: number, title: string): Uint8Array {
  const at = pdf.length;
  const obj = `4 0 obj\n<< /Producer (OpenSeal test) /Title (${title}) >>\nendobj\n`;
  const xrefAt = at + obj.length;
  const tail =
    `xref\n0 1\n0000000000 65535 f \n4 1\n${String(at).padStart(10, '0')} 00000 n \n` +
    `trailer\n<< /Size ${size} /Root 1 0 R /Info 4 0 R /Prev ${prevXref} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([pdf, enc.encode(obj + tail)]);
}
