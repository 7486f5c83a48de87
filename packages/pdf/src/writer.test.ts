import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PdfStream } from './objects';
import { PdfDict, PdfName, PdfRef, PdfString } from './objects';
import { openPdf } from './reader';
import { has, run } from './test-env';
import { makePdf } from './test-pdf';
import { IncrementalUpdate, serializeObject } from './writer';

const tmp = mkdtempSync(join(tmpdir(), 'openseal-pdf-writer-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const text = (b: Uint8Array): string => Buffer.from(b).toString('latin1');
const bytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

function qpdf(pdf: Uint8Array): { status: number; out: string } {
  const path = join(tmp, `q-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(path, pdf);
  const r = run('qpdf', ['--check', path]);
  return { status: r.status, out: r.stdout + r.stderr };
}

function retitle(pdf: Uint8Array, title: string): { out: Uint8Array; update: IncrementalUpdate } {
  const doc = openPdf(pdf);
  const update = new IncrementalUpdate(doc);
  const infoRef = doc.trailer().get('Info') as PdfRef;
  const info = (doc.resolve(infoRef) as PdfDict).clone().set('Title', PdfString.fromText(title));
  update.set(infoRef, info);
  update.addStream(new PdfDict([['Type', new PdfName('Metadata')]]), bytes('x'.repeat(1000)), {
    compress: true,
  });
  return { out: Buffer.concat([pdf, update.build()]), update };
}

describe('serializeObject', () => {
  it('writes PDF syntax that the reader reads back identically', () => {
    const dict = new PdfDict([
      ['Name', new PdfName('A B/C#')],
      ['Lit', PdfString.fromLatin1('a(b)c\\')],
      ['Bin', new PdfString(Uint8Array.of(0, 255, 10), false)],
      ['Nums', [1, -2.5, 0.1 + 0.2, 1e-9, -0, 1e21]],
      ['Ref', new PdfRef(12, 3)],
      ['Flags', [true, false, null]],
      ['Text', PdfString.fromText('签章')],
    ]);
    const s = text(serializeObject(dict));
    expect(s).toContain('/A#20B#2fC#23');
    expect(s).toContain('(a\\(b\\)c\\\\)');
    expect(s).toContain('<00ff0a>');
    expect(s).toContain('[1 -2.5 0.3 0 0 1000000000000000000000]');
    expect(s).toContain('/Ref 12 3 R');
    expect(s).toContain('<feff7b7e7ae0>');
    // Round trip through the reader.
    const pdf = text(makePdf()).replace('/Title (Test document)', `/Obj ${s}`);
    const doc = openPdf(bytes(pdf));
    const back = (doc.resolve(doc.trailer().get('Info')) as PdfDict).getDict('Obj')!;
    expect(back.get('Name')).toEqual(new PdfName('A B/C#'));
    expect(back.getString('Lit')!.latin1()).toBe('a(b)c\\');
    expect(back.getString('Text')!.text()).toBe('签章');
    expect(back.get('Ref')).toEqual(new PdfRef(12, 3));
  });
});

describe('IncrementalUpdate', () => {
  it('appends to a classic-table file with a table section whose /Prev is the old startxref', () => {
    const pdf = makePdf({ pages: 2 });
    const before = openPdf(pdf);
    const { out } = retitle(pdf, 'New title');
    const doc = openPdf(out);
    expect(doc.revisions.map((r) => r.kind)).toEqual(['table', 'table']);
    expect(doc.trailer().get('Prev')).toBe(before.revisions[0]!.xrefOffset);
    expect(doc.trailer().get('ID')).toEqual(before.trailer().get('ID'));
    const title = (rev?: number): string =>
      (doc.resolve(doc.trailer(rev).get('Info'), rev) as PdfDict).getString('Title')!.text();
    expect([title(0), title()]).toEqual(['Test document', 'New title']);
    const meta = doc.lookup(new PdfRef(doc.objectNumbers().at(-1)!, 0)) as PdfStream;
    expect(text(doc.streamData(meta))).toBe('x'.repeat(1000));
    if (has('qpdf')) expect(qpdf(out).status).toBe(0);
  });

  it('appends an xref stream to a stream file', () => {
    const { out } = retitle(makePdf({ xref: 'stream', pages: 2 }), 'Streamed');
    const doc = openPdf(out);
    expect(doc.revisions.map((r) => r.kind)).toEqual(['stream', 'stream']);
    expect(doc.pages()).toHaveLength(2);
    if (has('qpdf')) expect(qpdf(out).status).toBe(0);
  });

  it('starts the update on a new line when the file does not end with one', () => {
    const pdf = makePdf();
    const trimmed = pdf.subarray(0, pdf.length - 1);
    expect(text(trimmed).endsWith('%%EOF')).toBe(true);
    const { out } = retitle(trimmed, 'T');
    expect(text(out.subarray(trimmed.length, trimmed.length + 8))).toMatch(/^\n\d+ 0 obj/);
    expect(openPdf(out).revisions).toHaveLength(2);
  });

  it('writes a complete, standalone table for a repaired file, with object-stream objects in an XRefStm', () => {
    const pdf = text(makePdf({ xref: 'stream', pages: 2 }));
    const broken = bytes(pdf.slice(0, pdf.lastIndexOf('startxref')) + 'startxref\n17\n%%EOF\n');
    if (has('qpdf')) expect(qpdf(broken).out).toMatch(/reconstruct/);
    const { out } = retitle(broken, 'Mended');
    const doc = openPdf(out);
    expect(doc.repaired).toBe(false);
    expect(doc.revisions).toHaveLength(1);
    expect(doc.revisions[0]!.kind).toBe('hybrid');
    expect(doc.trailer().has('Prev')).toBe(false);
    expect(doc.pages()).toHaveLength(2);
    expect(doc.entry(3)!.type).toBe('compressed');
    expect((doc.resolve(doc.trailer().get('Info')) as PdfDict).getString('Title')!.text()).toBe('Mended');
    if (has('qpdf')) {
      const r = qpdf(out);
      expect(r.status, r.out).toBe(0);
    }
  });

  it('refuses encrypted documents it cannot open or cannot write', () => {
    const locked = (enc: string) =>
      openPdf(bytes(text(makePdf()).replace('/Root 1 0 R', `/Root 1 0 R /Encrypt ${enc}`)));
    // The standard handler, but the empty password is not the user password (no /U matches).
    expect(() => new IncrementalUpdate(locked('<< /Filter /Standard /V 1 /R 2 >>'))).toThrow(
      expect.objectContaining({ code: 'password-required' }),
    );
    expect(() => new IncrementalUpdate(locked('<< /Filter /Adobe.PubSec /V 4 /R 4 >>'))).toThrow(
      expect.objectContaining({ code: 'encrypted' }),
    );
  });
});
