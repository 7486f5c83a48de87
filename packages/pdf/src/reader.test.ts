import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { PdfError } from './errors';
import { PdfDict, PdfName, PdfRef, PdfStream, PdfString } from './objects';
import { openPdf } from './reader';
import { bufferSource, openFileSource } from './source';
import { corpusFiles, corpusManifest, has, hasCorpus, qpdfPages, run } from './test-env';
import { appendInfoUpdate, makePdf } from './test-pdf';

if (!hasCorpus) console.warn('third-party PDF corpus not found: corpus tests skipped');
const tmp = mkdtempSync(join(tmpdir(), 'openseal-pdf-reader-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const enc = new TextEncoder();
const bytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

function lastStartxref(pdf: Uint8Array): number {
  const text = Buffer.from(pdf).toString('latin1');
  return Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
}

function spawnQpdf(args: string[]): number {
  return run('qpdf', args).status;
}

describe('reader on generated files', () => {
  for (const xref of ['table', 'stream', 'hybrid'] as const) {
    it(`reads a ${xref} cross-reference layout with ${xref === 'table' ? 'no' : 'an'} object stream`, () => {
      const doc = openPdf(makePdf({ xref, pages: 3, acroForm: true }));
      expect(doc.revisions).toHaveLength(1);
      expect(doc.revisions[0]!.kind).toBe(xref);
      expect(doc.repaired).toBe(false);
      const pages = doc.pages();
      expect(pages.map((p) => p.ref.num)).toEqual([10, 12, 14]);
      expect(pages[0]!.mediaBox).toEqual([0, 0, 595, 842]);
      const field = doc.resolve(doc.catalog().getDict('AcroForm') ?? doc.catalog().get('AcroForm'));
      expect(field).toBeInstanceOf(PdfDict);
      const info = doc.resolve(doc.trailer().get('Info')) as PdfDict;
      expect(info.getString('Title')!.text()).toBe('Test document');
      const content = doc.lookup(new PdfRef(11, 0));
      expect(content).toBeInstanceOf(PdfStream);
      expect(Buffer.from(doc.streamData(content as PdfStream)).toString()).toContain('(Page 1) Tj');
      if (xref !== 'table') expect(doc.entry(3)!.type).toBe('compressed');
      expect(doc.revisions[0]!.end).toBe(doc.size);
    });
  }

  it('follows incremental updates and answers for each revision', () => {
    const base = makePdf({ pages: 2 });
    const updated = appendInfoUpdate(base, lastStartxref(base), 14, 'Second');
    const twice = appendInfoUpdate(updated, lastStartxref(updated), 14, 'Third');
    const doc = openPdf(twice);
    expect(doc.revisions.map((r) => r.end)).toEqual([base.length, updated.length, twice.length]);
    const title = (rev?: number): string =>
      (doc.resolve(doc.trailer(rev).get('Info'), rev) as PdfDict).getString('Title')!.text();
    expect([title(0), title(1), title(2), title()]).toEqual(['Test document', 'Second', 'Third', 'Third']);
    expect(doc.objectNumbers(0)).toEqual(doc.objectNumbers());
  });

  it('inherits MediaBox, CropBox and Rotate through the page tree', () => {
    const doc = openPdf(makePdf({ pages: 2, rotate: 90, cropBox: [10, 20, 500, 800] }));
    const [p] = doc.pages();
    expect(p!.rotate).toBe(90);
    expect(p!.cropBox).toEqual([10, 20, 500, 800]);
    expect(p!.mediaBox).toEqual([0, 0, 595, 842]);
  });

  it('repairs a file whose startxref points a few bytes off', () => {
    const pdf = Buffer.from(makePdf({ pages: 2 })).toString('latin1');
    const at = lastStartxref(bytes(pdf));
    const broken = bytes(pdf.replace(/startxref\s+\d+/, `startxref\n${at + 7}`));
    const doc = openPdf(broken);
    expect(doc.repaired).toBe(true);
    expect(doc.pages()).toHaveLength(2);
  });

  it('repairs a file without startxref and with wrong offsets in the table', () => {
    let pdf = Buffer.from(makePdf({ pages: 3 })).toString('latin1');
    pdf = pdf.replace(/startxref[\s\S]*$/, '');
    pdf = pdf.replace(
      /(\d{10}) 00000 n/g,
      (_m, o: string) => `${String(Number(o) + 3).padStart(10, '0')} 00000 n`,
    );
    const doc = openPdf(bytes(pdf));
    expect(doc.repaired).toBe(true);
    expect(doc.pages()).toHaveLength(3);
    expect((doc.resolve(doc.trailer().get('Info')) as PdfDict).getString('Title')!.text()).toBe(
      'Test document',
    );
  });

  it('repairs a stream file whose xref stream is gone, finding objects in object streams', () => {
    const pdf = Buffer.from(makePdf({ xref: 'stream', pages: 2 })).toString('latin1');
    const cut = pdf.lastIndexOf('startxref');
    const doc = openPdf(bytes(pdf.slice(0, cut) + 'startxref\n999999\n%%EOF\n'));
    expect(doc.repaired).toBe(true);
    expect(doc.pages()).toHaveLength(2);
    expect(doc.entry(3)!.type).toBe('compressed');
  });

  it('accepts a table whose first subsection is off by one', () => {
    const pdf = Buffer.from(makePdf({ pages: 1 }))
      .toString('latin1')
      .replace(/xref\n0 (\d+)/, 'xref\n1 $1');
    const doc = openPdf(bytes(pdf));
    expect(doc.repaired).toBe(false);
    expect(doc.pages()).toHaveLength(1);
  });

  it('finds a stream whose /Length is wrong by looking for endstream', () => {
    const pdf = Buffer.from(makePdf({ pages: 1 })).toString('latin1');
    const len = /11 0 obj\n<< \/Length (\d+) >>/.exec(pdf)![1]!;
    // Same number of characters so the table offsets stay right.
    const wrong = String(Number(len) - 10).padStart(len.length, '0');
    const doc = openPdf(bytes(pdf.replace(`<< /Length ${len} >>`, `<< /Length ${wrong} >>`)));
    const s = doc.lookup(new PdfRef(11, 0)) as PdfStream;
    expect(s.length).toBe(Number(len));
  });

  it('rejects non-PDF input and bounds nesting, output size and time', () => {
    expect(() => openPdf(enc.encode('hello world'))).toThrow(PdfError);
    try {
      openPdf(enc.encode('GIF89a'));
    } catch (e) {
      expect((e as PdfError).code).toBe('not-a-pdf');
    }
    // 10 000 nested arrays.
    const nested = Buffer.from(makePdf())
      .toString('latin1')
      .replace('/Title (Test document)', `/Title ${'['.repeat(10_000)}`);
    const doc = openPdf(bytes(nested), { limits: { maxDepth: 50 } });
    expect(() => doc.resolve(doc.trailer().get('Info'))).toThrow(/nested deeper/);

    // A zip bomb: 64 MiB of zeros squeezed into a few KB.
    const bomb = deflateSync(new Uint8Array(64 * 1024 * 1024));
    const pdf = makePdf();
    const stream = new PdfStream(
      new PdfDict([['Filter', new PdfName('FlateDecode')]]),
      pdf.length,
      bomb.length,
    );
    const small = openPdf(Buffer.concat([pdf, bomb]), { limits: { maxStreamBytes: 1024 * 1024 } });
    try {
      small.streamData(stream);
      expect.unreachable();
    } catch (e) {
      expect((e as PdfError).code).toBe('too-complex');
    }
  });

  it('gives up with a timeout instead of scanning forever', () => {
    const pdf = Buffer.from(makePdf())
      .toString('latin1')
      .replace(/startxref[\s\S]*$/, '');
    try {
      openPdf(bytes(pdf), { limits: { deadlineMs: -1 } });
      expect.unreachable();
    } catch (e) {
      expect((e as PdfError).code).toBe('timeout');
    }
  });

  it('never hangs or throws anything but PdfError on mangled input', () => {
    const base = makePdf({ xref: 'stream', pages: 2, acroForm: true });
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let i = 0; i < 300; i++) {
      const copy = Uint8Array.from(base);
      const hits = 1 + rand(20);
      for (let k = 0; k < hits; k++) copy[rand(copy.length)] = rand(256);
      const cut = rand(4) === 0 ? copy.subarray(0, rand(copy.length)) : copy;
      try {
        const doc = openPdf(cut, { limits: { deadlineMs: 2000 } });
        doc.pages();
        for (const n of doc.objectNumbers()) {
          const o = doc.lookup(new PdfRef(n, 0));
          if (o instanceof PdfStream) doc.streamData(o);
        }
      } catch (e) {
        if (!(e instanceof PdfError)) throw e;
      }
    }
  });
});

describe.skipIf(!has('qpdf'))('reader on files encrypted by qpdf', () => {
  const variants: Array<[string, string[]]> = [
    ['RC4 40-bit', ['40']],
    ['RC4 128-bit', ['128', '--use-aes=n']],
    ['AES-128', ['128', '--use-aes=y']],
    ['AES-256', ['256']],
  ];
  for (const [label, args] of variants) {
    it(`decrypts ${label} with the empty user password, objects inside object streams`, () => {
      const plain = join(tmp, `plain-${args.join('')}.pdf`);
      const locked = join(tmp, `locked-${args.join('')}.pdf`);
      writeFileSync(plain, makePdf({ pages: 2 }));
      const r = spawnQpdf([
        '--allow-weak-crypto',
        '--object-streams=generate',
        '--encrypt',
        '',
        'owner-pw',
        ...args,
        '--',
        plain,
        locked,
      ]);
      expect(r, 'qpdf --encrypt').toBeLessThan(2);
      const doc = openPdf(readFileSync(locked));
      expect(doc.encrypted).toBe(true);
      expect(doc.decrypted).toBe(true);
      expect(doc.repaired).toBe(false);
      expect(doc.objectNumbers().some((n) => doc.entry(n)!.type === 'compressed')).toBe(true);
      expect(doc.pages()).toHaveLength(2);
      expect((doc.resolve(doc.trailer().get('Info')) as PdfDict).getString('Title')!.text()).toBe(
        'Test document',
      );
      const content = doc.resolve(doc.pages()[1]!.dict.get('Contents')) as PdfStream;
      expect(Buffer.from(doc.streamData(content)).toString()).toContain('(Page 2) Tj');
      expect(openPdf(readFileSync(locked), { password: 'wrong' }).decrypted).toBe(false);
    });
  }
});

describe('objects', () => {
  it('decodes text strings in PDFDocEncoding, UTF-16BE and UTF-8', () => {
    expect(new PdfString(Uint8Array.of(0x41, 0x80, 0xa0), false).text()).toBe('A\u2022\u20ac');
    expect(PdfString.fromText('电子签章').text()).toBe('电子签章');
    expect(Array.from(PdfString.fromText('电').bytes)).toEqual([0xfe, 0xff, 0x75, 0x35]);
    expect(new PdfString(Uint8Array.of(0xef, 0xbb, 0xbf, 0xe7, 0x94, 0xb5), false).text()).toBe('电');
  });

  it('parses escapes, hex strings, names with #xx and references', () => {
    const pdf = Buffer.from(makePdf())
      .toString('latin1')
      .replace(
        '/Title (Test document)',
        '/Title (a\\(b\\)\\101\\\nc) /Hex <48 65 6C6C 6F7> /N#20ame /A#23b /Ref 3 0 R /Arr [1 -2.5 .5 true null]',
      );
    const doc = openPdf(bytes(pdf));
    const info = doc.resolve(doc.trailer().get('Info')) as PdfDict;
    expect(info.getString('Title')!.text()).toBe('a(b)Ac');
    expect(info.getString('Hex')!.text()).toBe('Hellop');
    expect(info.getString('Hex')!.hex).toBe(true);
    expect(info.get('N ame')).toEqual(new PdfName('A#b'));
    expect(info.get('Ref')).toEqual(new PdfRef(3, 0));
    expect(info.get('Arr')).toEqual([1, -2.5, 0.5, true, null]);
  });
});

describe('file source', () => {
  it('reads ranges across block boundaries and matches the bytes', () => {
    const data = new Uint8Array(300_000).map((_, i) => (i * 7) & 0xff);
    const path = join(tmp, 'blocks.bin');
    writeFileSync(path, data);
    const src = openFileSource(path);
    const mem = bufferSource(data);
    try {
      for (const [o, l] of [
        [0, 10],
        [65_530, 20],
        [131_000, 70_000],
        [10, 290_000],
        [299_990, 100],
      ] as const) {
        expect(Buffer.from(src.read(o, l)).equals(Buffer.from(mem.read(o, l)))).toBe(true);
      }
      expect(src.read(299_990, 100)).toHaveLength(10);
    } finally {
      src.close();
    }
  });
});

describe.skipIf(!hasCorpus)('reader on the third-party corpus', () => {
  const manifest = corpusManifest('unsigned');
  for (const path of corpusFiles('unsigned')) {
    const name = basename(path);
    it(`opens ${name} and counts its pages`, () => {
      const src = openFileSource(path);
      try {
        const doc = openPdf(src);
        const pages = doc.pages();
        const expected = manifest.get(name)?.pages;
        if (expected) expect(pages.length).toBe(Number(expected));
        if (has('qpdf')) expect(pages.length).toBe(qpdfPages(path));
        expect(doc.revisions.length).toBeGreaterThan(0);
        expect(doc.revisions[doc.revisions.length - 1]!.end).toBeLessThanOrEqual(doc.size);
        for (const p of pages) expect(p.mediaBox[2]).toBeGreaterThan(p.mediaBox[0]);
        const enc = manifest.get(name)?.encrypted ?? 'no';
        expect(doc.encrypted).toBe(enc.startsWith('yes'));
        if (doc.encrypted) expect(doc.decrypted).toBe(true);
      } finally {
        src.close();
      }
    });
  }

  it('finds the revisions of signed files at their %%EOF markers', () => {
    for (const path of corpusFiles('signed')) {
      const data = readFileSync(path);
      const doc = openPdf(data);
      expect(doc.pages().length).toBeGreaterThan(0);
      for (const r of doc.revisions) {
        const tail = data.subarray(Math.max(0, r.end - 8), r.end).toString('latin1');
        expect(tail, `${basename(path)} revision ${r.index}`).toMatch(/%%EOF\r?\n?$|%%EOF\r$/);
      }
    }
  });

  it('decrypts strings of AES and RC4 files opened with the empty password', () => {
    const doc = openPdf(readFileSync(`${corpusFiles('unsigned').find((p) => p.includes('bug900822'))}`));
    const info = doc.resolve(doc.trailer().get('Info')) as PdfDict;
    expect(info.getString('Producer')!.text()).toMatch(/ReportBuilder/);
    const aes = openPdf(readFileSync(`${corpusFiles('unsigned').find((p) => p.includes('secHandler'))}`));
    const producer = aes.resolve(aes.trailer().get('Info')) as PdfDict;
    expect(producer.getString('Producer')!.text()).toMatch(/Adobe/);
  });
});
