/**
 * Generates bench inputs: a valid PDF of about `megabytes` MB with classic cross-references, one page per
 * ~2 MB, each page drawing a grey image of random (incompressible) bytes, so size is real content and no
 * tool can shortcut it by compression. Written once per size into the bench cache directory.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BENCH_CACHE = join(tmpdir(), 'openseal-bench');

export function benchPdf(megabytes: number): string {
  mkdirSync(BENCH_CACHE, { recursive: true });
  const path = join(BENCH_CACHE, `input-${megabytes}mb.pdf`);
  if (existsSync(path)) return path;
  const total = Math.round(megabytes * 1024 * 1024);
  const pages = Math.max(1, Math.round(megabytes / 2));
  const side = Math.max(16, Math.floor(Math.sqrt(total / pages)));
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  let offset = 0;
  const offsets: number[] = [];
  const write = (b: Buffer | string) => {
    const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    writeSync(fd, buf);
    offset += buf.length;
  };
  const obj = (num: number, body: string | Buffer[], ...rest: Buffer[]) => {
    offsets[num] = offset;
    write(`${num} 0 obj\n`);
    if (typeof body === 'string') write(body);
    else for (const b of body) write(b);
    for (const b of rest) write(b);
    write('\nendobj\n');
  };
  write('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  // 1 catalog, 2 pages, then per page: page, content, image.
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i * 3} 0 R`).join(' ');
  obj(1, '<< /Type /Catalog /Pages 2 0 R >>');
  obj(2, `<< /Type /Pages /Count ${pages} /Kids [${kids}] >>`);
  for (let i = 0; i < pages; i++) {
    const page = 3 + i * 3;
    const content = `q 400 0 0 400 97 300 cm /Im0 Do Q BT /F1 14 Tf 72 760 Td (OpenSeal bench page ${i + 1}) Tj ET`;
    obj(
      page,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${page + 1} 0 R ` +
        `/Resources << /XObject << /Im0 ${page + 2} 0 R >> /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>`,
    );
    obj(page + 1, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    const header = Buffer.from(
      `<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${side * side} >>\nstream\n`,
      'latin1',
    );
    const chunks: Buffer[] = [header];
    let left = side * side;
    while (left > 0) {
      const n = Math.min(left, 4 * 1024 * 1024);
      chunks.push(randomBytes(n));
      left -= n;
    }
    chunks.push(Buffer.from('\nendstream', 'latin1'));
    obj(page + 2, chunks);
  }
  const size = 3 + pages * 3;
  const xref = offset;
  write(`xref\n0 ${size}\n0000000000 65535 f \n`);
  for (let n = 1; n < size; n++) write(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  write(
    `trailer\n<< /Size ${size} /Root 1 0 R /ID [<${randomBytes(16).toString('hex')}> <${randomBytes(16).toString('hex')}>] >>\nstartxref\n${xref}\n%%EOF\n`,
  );
  closeSync(fd);
  renameSync(tmp, path);
  return path;
}
