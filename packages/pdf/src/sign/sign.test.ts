import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowsFormFilling } from '../crypt';
import { PdfError } from '../errors';
import type { PdfStream } from '../objects';
import { PdfRef } from '../objects';
import { openPdf, type PdfDocument } from '../reader';
import { corpusFiles, has, hasCorpus, run } from '../test-env';
import { makePdf, writePdfFile, type MakePdfOptions } from '../test-pdf';
import { appendDss } from './dss';
import { listFields, signedFields } from './form';
import { PT_PER_MM } from './geometry';
import { signPdf, signPdfFile, type PdfSignOptions } from './sign-pdf';
import { makeTestSigner, type TestSigner } from './test-cms';

const tools = has('openssl') && has('pdfsig') && has('qpdf');
if (!tools) console.warn('signer referee tests skipped: openssl, pdfsig or qpdf is not installed');
const canRender = tools && has('pdftoppm');

if (!hasCorpus) console.warn('third-party PDF corpus not found: corpus tests skipped');
const tmp = mkdtempSync(join(tmpdir(), 'openseal-pdf-sign-'));
let signer: TestSigner;
beforeAll(() => {
  if (tools) signer = makeTestSigner(tmp);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let fileNo = 0;
function save(bytes: Uint8Array, name = 'out'): string {
  const path = join(tmp, `${name}-${++fileNo}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

interface SigReport {
  field: string;
  valid: boolean;
  total: boolean;
}

/** pdfsig's view of every signature in the file (certificate trust is not checked: -nocert). */
function pdfsig(path: string): SigReport[] {
  const out = run('pdfsig', ['-nocert', path]).stdout;
  return out
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map((block) => ({
      field: /Signature Field Name: (.*)$/m.exec(block)?.[1] ?? '',
      valid: block.includes('Signature is Valid.'),
      total: block.includes('- Total document signed'),
    }));
}

function qpdfCheck(path: string): { status: number; text: string } {
  const r = run('qpdf', ['--check', path]);
  return { status: r.status, text: r.stdout + r.stderr };
}

async function sign(bytes: Uint8Array, extra: Partial<PdfSignOptions> = {}): Promise<Uint8Array> {
  const r = await signPdf(bytes, { sign: signer.sign, signingTime: new Date(), ...extra });
  expect(r.size).toBe(r.bytes!.length);
  const [a, b, c, d] = r.byteRange;
  expect(a).toBe(0);
  expect(c + d).toBe(r.size);
  expect(String.fromCharCode(r.bytes![b]!, r.bytes![c - 1]!)).toBe('<>');
  // The file hashes come from the signer's one pass: they are the hashes of the bytes in and out.
  expect(r.sha256Before).toBe(createHash('sha256').update(bytes).digest('hex'));
  expect(r.sha256After).toBe(createHash('sha256').update(r.bytes!).digest('hex'));
  return r.bytes!;
}

function expectAllValid(path: string, count: number): void {
  const sigs = pdfsig(path);
  expect(sigs).toHaveLength(count);
  for (const s of sigs) expect(s.valid, `${basename(path)} ${s.field}`).toBe(true);
  expect(sigs[sigs.length - 1]!.total).toBe(true);
}

function lastKind(bytes: Uint8Array): string {
  const doc = openPdf(bytes);
  return doc.revisions[doc.revisions.length - 1]!.kind;
}

/** A disc whose quadrants differ (top-left red, top-right blue, bottom-left green, bottom-right red). */
function quadrantDisc(size: number): Uint8Array {
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const left = x < size / 2;
      const top = y < size / 2;
      const [r, g, b] = top ? (left ? [230, 0, 0] : [0, 0, 230]) : left ? [0, 160, 0] : [230, 0, 0];
      png.data[i] = r;
      png.data[i + 1] = g;
      png.data[i + 2] = b;
      png.data[i + 3] = Math.hypot(x - size / 2 + 0.5, y - size / 2 + 0.5) < size / 2 ? 255 : 0;
    }
  }
  return new Uint8Array(PNG.sync.write(png));
}

type Rgb = [number, number, number];
/** Renders one page at 72 dpi (1 px per point) and returns a pixel reader in millimetres. */
function render(path: string, page: number): { at: (xMm: number, yMm: number) => Rgb; width: number } {
  const prefix = join(tmp, `render-${++fileNo}`);
  const r = run('pdftoppm', [
    '-r',
    '72',
    '-cropbox',
    '-f',
    String(page),
    '-l',
    String(page),
    '-singlefile',
    '-png',
    path,
    prefix,
  ]);
  expect(r.status).toBe(0);
  const img = PNG.sync.read(readFileSync(`${prefix}.png`));
  return {
    width: img.width,
    at: (xMm, yMm) => {
      const x = Math.round(xMm * PT_PER_MM);
      const y = Math.round(yMm * PT_PER_MM);
      const i = (y * img.width + x) * 4;
      return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!];
    },
  };
}
const isRed = (c: Rgb): boolean => c[0] > 180 && c[1] < 80 && c[2] < 80;
const isBlue = (c: Rgb): boolean => c[2] > 180 && c[0] < 80 && c[1] < 80;
const isGreen = (c: Rgb): boolean => c[1] > 120 && c[0] < 80 && c[2] < 80;
const isWhite = (c: Rgb): boolean => c[0] > 240 && c[1] > 240 && c[2] > 240;

describe.skipIf(!tools)('signPdf on generated files', () => {
  const cases: Array<[string, MakePdfOptions, string]> = [
    ['classic table', { pages: 2 }, 'table'],
    ['xref stream + object stream', { pages: 2, xref: 'stream' }, 'stream'],
    ['hybrid', { pages: 2, xref: 'hybrid' }, 'table'],
    ['existing AcroForm, indirect /Annots', { pages: 2, acroForm: true, indirectAnnots: true }, 'table'],
    ['existing AcroForm in a stream file', { pages: 1, acroForm: true, xref: 'stream' }, 'stream'],
    ['rotated page with a CropBox', { pages: 1, rotate: 90, cropBox: [20, 20, 500, 800] }, 'table'],
    ['many pages', { pages: 120 }, 'table'],
  ];
  for (const [label, opts, kind] of cases) {
    it(`signs a ${label} file three times; pdfsig and qpdf accept every step`, async () => {
      let pdf = makePdf(opts);
      for (let i = 1; i <= 3; i++) {
        pdf = await sign(pdf, { reason: `step ${i}` });
        expect(lastKind(pdf)).toBe(kind);
      }
      const path = save(pdf);
      expectAllValid(path, 3);
      expect(qpdfCheck(path).status).toBe(0);
      const doc = openPdf(pdf);
      expect(doc.pages()).toHaveLength(opts.pages ?? 1);
      const names = listFields(doc).map((f) => f.fullName);
      expect(names).toEqual([...(opts.acroForm ? ['name'] : []), 'Signature1', 'Signature2', 'Signature3']);
      expect(doc.resolveDict(doc.catalog().get('AcroForm'))!.get('SigFlags')).toBe(3);
      const annots = doc.resolve(doc.pages()[0]!.dict.get('Annots')) as PdfRef[];
      expect(annots).toHaveLength(3 + (opts.acroForm ? 1 : 0));
      if (opts.indirectAnnots) {
        // The indirect /Annots array was updated in place: the page object itself never changed.
        expect(doc.pages()[0]!.dict.get('Annots')).toEqual(new PdfRef(7, 0));
        expect(doc.entry(10)).toEqual(doc.entry(10, 0));
      }
    });
  }

  it('writes text strings as UTF-16BE when they are not ASCII, and the signature fields the spec asks for', async () => {
    const pdf = await sign(makePdf(), {
      reason: '电子签章测试',
      location: '北京',
      name: 'Zoë',
      contactInfo: 'ops@example.org',
      fieldName: '合同签章',
      signingTime: new Date(Date.UTC(2024, 1, 29, 8, 30, 5)),
    });
    const doc = openPdf(pdf);
    const [f] = signedFields(doc);
    expect(f!.fullName).toBe('合同签章');
    const v = f!.value;
    expect(v.getString('Reason')!.text()).toBe('电子签章测试');
    expect(v.getString('Reason')!.bytes.subarray(0, 2)).toEqual(Uint8Array.of(0xfe, 0xff));
    expect(v.getString('Location')!.text()).toBe('北京');
    expect(v.getString('Name')!.text()).toBe('Zoë');
    expect(v.getString('M')!.text()).toBe('D:20240229083005Z');
    expect(v.getName('Filter')).toBe('Adobe.PPKLite');
    expect(v.getName('SubFilter')).toBe('ETSI.CAdES.detached');
    expect(f!.dict.get('F')).toBe(132);
    expect(f!.dict.get('Rect')).toEqual([0, 0, 0, 0]);
    expect(f!.dict.get('P')).toEqual(doc.pages()[0]!.ref);
    expect(v.getString('Contents')!.bytes).toHaveLength(24 * 1024);
    expectAllValid(save(pdf), 1);
  });

  it('signs with the adbe.pkcs7.detached sub-filter too', async () => {
    const pdf = await sign(makePdf(), { subFilter: 'adbe.pkcs7.detached' });
    expect(signedFields(openPdf(pdf))[0]!.value.getName('SubFilter')).toBe('adbe.pkcs7.detached');
    expectAllValid(save(pdf), 1);
  });

  it('refuses a CMS larger than the space reserved for it', async () => {
    await expect(sign(makePdf(), { contentsBytes: 1024 })).rejects.toMatchObject({
      code: 'too-complex',
      message: expect.stringMatching(/raise contentsBytes/),
    });
  });

  it('refuses a field name that already exists', async () => {
    const once = await sign(makePdf());
    await expect(sign(once, { fieldName: 'Signature1' })).rejects.toBeInstanceOf(PdfError);
  });
});

describe.skipIf(!tools)('DocMDP certification', () => {
  const perms = (doc: PdfDocument): number | undefined => {
    const sig = doc.resolveDict(doc.resolveDict(doc.catalog().get('Perms'))?.get('DocMDP'));
    const ref = doc.resolveDict((sig?.getArray('Reference') ?? [])[0]);
    return doc.resolveDict(ref?.get('TransformParams'))?.getNumber('P');
  };

  it('records P=2 in the signature and the catalog /Perms, and allows a later signature', async () => {
    const certified = await sign(makePdf(), { certify: 2 });
    const doc = openPdf(certified);
    expect(perms(doc)).toBe(2);
    const permsSig = doc.resolveDict(doc.catalog().get('Perms'))!.get('DocMDP');
    expect(permsSig).toEqual(signedFields(doc)[0]!.dict.get('V'));
    const twice = await sign(certified);
    expectAllValid(save(twice), 2);
    await expect(sign(certified, { certify: 3 })).rejects.toMatchObject({ code: 'unsupported' });
  });

  it('refuses to sign after a P=1 certification', async () => {
    const locked = await sign(makePdf(), { certify: 1 });
    expect(perms(openPdf(locked))).toBe(1);
    await expect(sign(locked)).rejects.toMatchObject({
      code: 'certified',
      message: /certifier forbade changes/,
    });
  });

  it.skipIf(!hasCorpus)('refuses the corpus file certified with no changes permitted', async () => {
    const path = corpusFiles('signed').find((p) => p.includes('certified-no-change-permitted'))!;
    await expect(sign(readFileSync(path))).rejects.toMatchObject({ code: 'certified' });
    const ok = corpusFiles('signed').find((p) => p.includes('certified-changes-permitted'))!;
    const signed = await sign(readFileSync(ok));
    const sigs = pdfsig(save(signed));
    expect(sigs[sigs.length - 1]).toMatchObject({ valid: true, total: true });
  });
});

describe.skipIf(!canRender)('visible seal and riding seam, checked by rendering', () => {
  for (const rotate of [0, 90, 180, 270]) {
    it(`puts the seal where the user placed it, upright, on a page rotated ${rotate}°`, async () => {
      const original = makePdf({ rotate, cropBox: [30, 40, 560, 800] });
      const pdf = await sign(original, {
        appearance: { png: quadrantDisc(200), page: 1, x: 50, y: 70, width: 40, height: 40 },
      });
      const path = save(pdf);
      const before = render(save(original), 1);
      expectAllValid(path, 1);
      const page = render(path, 1);
      const displayedW = (rotate % 180 === 0 ? 530 : 760) / PT_PER_MM;
      expect(Math.abs(page.width / PT_PER_MM - displayedW)).toBeLessThan(1);
      expect(isRed(page.at(50 - 8, 70 - 8))).toBe(true); // top-left quadrant
      expect(isBlue(page.at(50 + 8, 70 - 8))).toBe(true); // top-right
      expect(isGreen(page.at(50 - 8, 70 + 8))).toBe(true); // bottom-left
      // The corner of the image square is outside the disc: through the alpha mask the page shows as before.
      expect(page.at(50 - 19, 70 - 19)).toEqual(before.at(50 - 19, 70 - 19));
      expect(page.at(50 + 19, 70 + 19)).toEqual(before.at(50 + 19, 70 + 19));
      expect(page.at(50 + 25, 70)).toEqual(before.at(50 + 25, 70));
    });
  }

  it('cuts the riding seam into one strip per page along the right edge, under one signature', async () => {
    const pdf = await sign(makePdf({ pages: 3 }), {
      ridingSeam: { png: quadrantDisc(300), y: 100, width: 45, height: 45 },
    });
    const path = save(pdf);
    expectAllValid(path, 1);
    expect(qpdfCheck(path).status).toBe(0);
    const pages = [1, 2, 3].map((n) => render(path, n));
    const w = pages[0]!.width / PT_PER_MM;
    // Page 1 shows the seal's left third (red on top, green below), page 3 its right third (blue, red).
    expect(isRed(pages[0]!.at(w - 3, 100 - 10))).toBe(true);
    expect(isGreen(pages[0]!.at(w - 3, 100 + 10))).toBe(true);
    expect(isBlue(pages[2]!.at(w - 12, 100 - 10))).toBe(true);
    expect(isRed(pages[2]!.at(w - 12, 100 + 10))).toBe(true);
    // The middle third straddles the disc's centre line.
    expect(isRed(pages[1]!.at(w - 9, 100 - 10))).toBe(true);
    expect(isBlue(pages[1]!.at(w - 5, 100 - 10))).toBe(true);
    for (const p of pages) expect(isWhite(p.at(w - 17, 100))).toBe(true);
  });

  it('puts the strips on the left edge in reverse order when asked', async () => {
    const pdf = await sign(makePdf({ pages: 2, rotate: 90 }), {
      ridingSeam: { png: quadrantDisc(300), y: 60, width: 30, height: 30, edge: 'left' },
    });
    const path = save(pdf);
    expectAllValid(path, 1);
    const [p1, p2] = [render(path, 1), render(path, 2)];
    // Fanned to the left, page 2 peeks out left of page 1: page 2 holds the left half.
    expect(isRed(p2.at(7, 60 - 7))).toBe(true);
    expect(isBlue(p1.at(7, 60 - 7))).toBe(true);
    expect(isWhite(p1.at(20, 60))).toBe(true);
  });
});

describe.skipIf(!tools)('appendDss', () => {
  it('adds certificates, OCSP responses and CRLs with VRI, merges on a second call, keeps the signature valid', async () => {
    const signed = await sign(makePdf({ xref: 'stream' }));
    const ocsp = new Uint8Array(64).fill(7);
    const first = await appendDss(signed, {
      certificates: [signer.certDer, signer.caDer],
      ocspResponses: [ocsp],
      vri: true,
    });
    const doc = openPdf(first.bytes!);
    expect(doc.revisions.at(-1)!.kind).toBe('stream');
    const dss = doc.resolveDict(doc.catalog().get('DSS'))!;
    const certs = (dss.getArray('Certs') ?? []).map((r) => doc.streamData(doc.resolve(r) as PdfStream));
    expect(certs.map((c) => Buffer.from(c).toString('hex'))).toEqual(
      [signer.certDer, signer.caDer].map((c) => Buffer.from(c).toString('hex')),
    );
    const contents = signedFields(doc)[0]!.value.getString('Contents')!;
    const key = createHash('sha1').update(contents.bytes).digest('hex').toUpperCase();
    expect(first.vriKeys).toEqual([key]);
    const vri = doc.resolveDict(dss.get('VRI'))!.getDict(key)!;
    expect(vri.getArray('Cert')).toHaveLength(2);
    expect(vri.getArray('OCSP')).toHaveLength(1);

    const crl = new Uint8Array(32).fill(9);
    const second = await appendDss(first.bytes!, { certificates: [signer.caDer], crls: [crl] });
    const doc2 = openPdf(second.bytes!);
    const dss2 = doc2.resolveDict(doc2.catalog().get('DSS'))!;
    expect(dss2.getArray('Certs')).toHaveLength(2);
    expect(dss2.getArray('OCSPs')).toHaveLength(1);
    expect(dss2.getArray('CRLs')).toHaveLength(1);
    expect(doc2.resolveDict(dss2.get('VRI'))!.has(key)).toBe(true);

    const path = save(second.bytes!);
    const sigs = pdfsig(path);
    expect(sigs).toHaveLength(1);
    expect(sigs[0]!.valid).toBe(true);
    expect(qpdfCheck(path).status).toBe(0);
  });
});

describe.skipIf(!tools || !hasCorpus)('appendDss on a corpus file that already has a DSS', () => {
  it('keeps the existing entries and adds ours', async () => {
    const path = corpusFiles('signed').find((p) => p.includes('doc-firmado-LT'))!;
    const original = readFileSync(path);
    const before = openPdf(original);
    const oldDss = before.resolveDict(before.catalog().get('DSS'))!;
    const oldCerts = oldDss.getArray('Certs') ?? [];
    expect(oldCerts.length).toBeGreaterThan(0);
    const r = await appendDss(original, { certificates: [signer.certDer], vri: true });
    const doc = openPdf(r.bytes!);
    const dss = doc.resolveDict(doc.catalog().get('DSS'))!;
    expect(dss.getArray('Certs')).toEqual([...oldCerts, expect.any(PdfRef)]);
    expect(dss.getArray('OCSPs') ?? []).toEqual(oldDss.getArray('OCSPs') ?? []);
    const out = save(r.bytes!);
    const sigs = pdfsig(out);
    expect(sigs.map((s) => s.valid)).toEqual(pdfsig(path).map((s) => s.valid));
  });
});

describe.skipIf(!tools || !hasCorpus)('signPdf on the third-party corpus', () => {
  for (const path of corpusFiles('unsigned')) {
    const name = basename(path);
    it(`signs ${name} three times, or refuses it when its permissions forbid forms`, async () => {
      const original = readFileSync(path);
      const before = openPdf(original);
      // Encrypted files are signed when their permissions allow it (encrypted-sign.test.ts goes further).
      if (before.encrypted && !allowsFormFilling(before.security!)) {
        await expect(sign(original)).rejects.toMatchObject({ code: 'not-permitted' });
        return;
      }
      const inputKind = before.revisions.at(-1)!.kind;
      const expectedKind =
        inputKind === 'stream' ? 'stream' : inputKind === 'repaired' ? /table|hybrid/ : 'table';
      let pdf: Uint8Array = original;
      for (let i = 0; i < 3; i++) {
        pdf = await sign(pdf, { reason: '签署' });
        if (typeof expectedKind === 'string') expect(lastKind(pdf)).toBe(expectedKind);
        else expect(lastKind(pdf)).toMatch(expectedKind);
      }
      const out = save(pdf, name.replace(/\.pdf$/, ''));
      expectAllValid(out, 3);
      const check = qpdfCheck(out);
      const orig = qpdfCheck(path);
      if (orig.status === 0) expect(check.status, check.text).toBe(0);
      else expect([0, 3]).toContain(check.status);
      // Whatever the original's damage, the signed file's cross-reference data is sound.
      expect(check.text).not.toMatch(/xref not found|reconstruct|can't find startxref/);
      expect(openPdf(pdf).pages()).toHaveLength(before.pages().length);
      expect(Number(run('qpdf', ['--show-npages', out]).stdout.trim())).toBe(before.pages().length);
    });
  }
});

describe.skipIf(!tools)('signPdfFile on a small file', () => {
  it('signs it in memory into another file, and refuses to write over its input', async () => {
    const input = join(tmp, 'small.pdf');
    const output = join(tmp, 'small-signed.pdf');
    const original = makePdf({ pages: 2 });
    writeFileSync(input, original);
    const r = await signPdfFile(input, output, { sign: signer.sign });
    const out = readFileSync(output);
    expect(r.size).toBe(out.length);
    expect(r.sha256Before).toBe(createHash('sha256').update(original).digest('hex'));
    expect(r.sha256After).toBe(createHash('sha256').update(out).digest('hex'));
    expect(Buffer.compare(readFileSync(input), Buffer.from(original))).toBe(0);
    expectAllValid(output, 1);
    await expect(signPdfFile(input, input, { sign: signer.sign })).rejects.toThrow(/another file/);
  });
});

describe.skipIf(!tools)('signPdfFile on a large file', () => {
  it('streams a 50 MB file: memory growth stays far below the file size', async () => {
    const input = join(tmp, 'big.pdf');
    const output = join(tmp, 'big-signed.pdf');
    writePdfFile(input, { pages: 3, filler: 50 * 1024 * 1024 });
    const size = statSync(input).size;
    globalThis.gc?.();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const t0 = performance.now();
    const r = await signPdfFile(input, output, {
      sign: async (digest) => {
        peak = Math.max(peak, process.memoryUsage().rss);
        return signer.sign(digest);
      },
    });
    const ms = performance.now() - t0;
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().rss);
    const growth = (peak - rss0) / 1024 / 1024;
    console.info(
      `signPdfFile: ${(size / 1024 / 1024).toFixed(0)} MB in ${ms.toFixed(0)} ms, rss growth ${growth.toFixed(1)} MB`,
    );
    expect(r.size).toBe(statSync(output).size);
    expect(r.sha256Before).toBe(createHash('sha256').update(readFileSync(input)).digest('hex'));
    expect(r.sha256After).toBe(createHash('sha256').update(readFileSync(output)).digest('hex'));
    expect(growth).toBeLessThan(16);
    expectAllValid(output, 1);
    // The evidence hashes come from the signing pass: those of the two files as they are on disk.
    expect(r.sha256Before).toBe(sha256Hex(readFileSync(input)));
    expect(r.sha256After).toBe(sha256Hex(readFileSync(output)));
  });

  it('answers the hashes of the input and of the signed bytes when signing in memory', async () => {
    const input = makePdf({ pages: 1 });
    const r = await signPdf(input, { sign: (digest) => signer.sign(digest) });
    expect(r.sha256Before).toBe(sha256Hex(input));
    expect(r.sha256After).toBe(sha256Hex(r.bytes!));
    expect(r.sha256After).not.toBe(r.sha256Before);
  });
});

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
