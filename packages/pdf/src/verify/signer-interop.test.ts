/**
 * The verifier on files made by the product's own signer (sign/): what the signer writes must
 * verify, and what it appends later (more signatures, DSS) must be judged as allowed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PdfRef } from '../objects';
import { PdfDict, PdfName, PdfString } from '../objects';
import { openPdf } from '../reader';
import { appendDss, signPdf, type PdfSignOptions } from '../sign/index';
import { buildCms } from '../sign/test-cms';
import { IncrementalUpdate } from '../writer';
import { verifyPdf, type SignatureReport } from './index';
import { appendAnnotation, createTestCms, MALLORY, createTestPki, TestPdf, type TestPki } from './test-pdf';

let pki: TestPki;
let base: Uint8Array;

beforeAll(async () => {
  pki = await createTestPki('Signer Interop');
  const pdf = new TestPdf({ pages: 2 });
  pdf.addTextField(0, 'name');
  base = pdf.commit();
}, 60_000);

const signer = (time = new Date()) => ({
  sign: (digest: Uint8Array) => createTestCms(pki.signer, digest, time),
  signingTime: time,
});

async function signed(
  input: Uint8Array,
  extra: Omit<Partial<PdfSignOptions>, 'sign'> = {},
): Promise<Uint8Array> {
  const result = await signPdf(input, { ...signer(), ...extra });
  if (!result.bytes) throw new Error('the signer returned no bytes');
  return result.bytes;
}

const trust = () => ({ anchors: [pki.root.certificate] });
/** The product's verifier with the test root trusted and its CRL at hand. */
const check = (bytes: Uint8Array) => verifyPdf(bytes, { trust: trust(), revocation: { crls: [pki.crl] } });

describe('verifyPdf on files made by signPdf', () => {
  it('signed once, twice and three times: every signature valid, earlier ones see only signatures added', async () => {
    const once = await signed(base, { fieldName: 'One' });
    const r1 = await check(once);
    expect(r1.verdict).toBe('valid');
    expect(r1.signatures[0]).toMatchObject({
      field: 'One',
      integrity: 'valid',
      byteRangeOk: true,
      coversWholeDocument: true,
      chain: 'trusted',
      signer: 'Signer Interop',
    });

    const thrice = await signed(await signed(once, { fieldName: 'Two' }), { fieldName: 'Three' });
    const r3 = await check(thrice);
    expect(r3.verdict).toBe('valid');
    expect(r3.signatures.map((s) => s.field)).toEqual(['One', 'Two', 'Three']);
    const first = r3.signatures[0] as SignatureReport;
    expect(first.modifiedAfter).toBe('allowed');
    expect(first.changes.filter((c) => !c.allowed)).toEqual([]);
    expect(first.changes.some((c) => c.kind === 'signature')).toBe(true);
  });

  it('certified (P=2, P=3) then signed again: allowed; certified P=1 then DSS appended: allowed', async () => {
    for (const level of [2, 3] as const) {
      const bytes = await signed(await signed(base, { fieldName: 'Cert', certify: level }), {
        fieldName: 'Approval',
      });
      const report = await check(bytes);
      const cert = report.signatures[0] as SignatureReport;
      expect(cert).toMatchObject({
        kind: 'certification',
        docMdp: level,
        modifiedAfter: 'allowed',
        verdict: 'valid',
      });
    }
    const certified = await signed(base, { fieldName: 'Cert', certify: 1 });
    const withDss = await appendDss(certified, {
      certificates: [pki.root.certificate, pki.signer.certificate],
      vri: true,
    });
    const report = await check(withDss.bytes as Uint8Array);
    const cert = report.signatures[0] as SignatureReport;
    expect(cert.docMdp).toBe(1);
    expect(cert.modifiedAfter).toBe('allowed');
    expect(cert.changes.length).toBeGreaterThan(0);
    expect(cert.changes.every((c) => c.kind === 'dss' || (c.kind === 'other' && c.allowed))).toBe(true);
    expect(report.verdict).toBe('valid');
  });

  it('a page added after the signer signed is disallowed; a form value filled in is allowed under P=2', async () => {
    const bytes = await signed(base, { fieldName: 'Cert', certify: 2 });

    const doc = openPdf(bytes);
    const fill = new IncrementalUpdate(doc);
    const fieldRef = doc.resolveDict(doc.catalog().get('AcroForm'))?.getArray('Fields')?.[0];
    const field = doc.resolveDict(fieldRef);
    expect(field?.getName('FT')).toBe('Tx');
    fill.set(fieldRef as PdfRef, (field as PdfDict).clone().set('V', PdfString.fromText('Alice')));
    const filled = concatBytes(bytes, fill.build());
    const filledReport = await check(filled);
    expect(filledReport.signatures[0]?.modifiedAfter).toBe('allowed');
    expect(filledReport.signatures[0]?.changes.map((c) => c.kind)).toContain('form-fill');

    const doc2 = openPdf(bytes);
    const add = new IncrementalUpdate(doc2);
    const pagesRef = doc2.catalog().get('Pages') as PdfRef;
    const pages = doc2.resolveDict(pagesRef) as PdfDict;
    const page = add.allocate();
    add.set(
      page,
      new PdfDict([
        ['Type', new PdfName('Page')],
        ['Parent', pagesRef],
        ['MediaBox', [0, 0, 595, 842]],
      ]),
    );
    const kids = [...(pages.getArray('Kids') ?? []), page];
    add.set(pagesRef, pages.clone().set('Kids', kids).set('Count', kids.length));
    const added = concatBytes(bytes, add.build());
    const addedReport = await check(added);
    const sig = addedReport.signatures[0] as SignatureReport;
    expect(sig.integrity).toBe('valid');
    expect(sig.modifiedAfter).toBe('disallowed');
    expect(sig.changes.filter((c) => !c.allowed).map((c) => c.kind)).toContain('page-added');
    expect(addedReport.verdict).toBe('invalid');
  });
});

function seal(size: number): Uint8Array {
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      const inside = (x - size / 2) ** 2 + (y - size / 2) ** 2 < (size / 2 - 2) ** 2;
      png.data[i] = 220;
      png.data[i + 1] = 20;
      png.data[i + 2] = 20;
      png.data[i + 3] = inside ? 255 : 0;
    }
  return new Uint8Array(PNG.sync.write(png));
}

const tools = spawnSync('pdfsig', ['-v']).status === 0 && spawnSync('qpdf', ['--version']).status === 0;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'signer-interop-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!tools)('a forged seal', () => {
  it('a self-signed certificate named like a company seal, made with openssl, is indeterminate, never valid', async () => {
    const run = (args: string[]) => {
      const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    };
    run([
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'forged.key',
      '-out',
      'forged.pem',
      '-days',
      '365',
      '-utf8',
      '-subj',
      '/CN=杭州示例科技有限公司合同专用章/O=杭州示例科技有限公司',
    ]);
    run(['x509', '-in', 'forged.pem', '-outform', 'DER', '-out', 'forged.der']);
    const certDer = new Uint8Array(readFileSync(join(dir, 'forged.der')));
    const keyPem = readFileSync(join(dir, 'forged.key'), 'utf8');
    const forged = await signPdf(base, {
      sign: async (digest) => buildCms(digest, certDer, keyPem),
      fieldName: 'Seal',
      certifyIfFirst: 2,
    });
    const report = await check(forged.bytes as Uint8Array);
    const sig = report.signatures[0] as SignatureReport;
    expect(sig).toMatchObject({
      signer: '杭州示例科技有限公司合同专用章',
      integrity: 'valid',
      chain: 'untrusted',
      verdict: 'indeterminate',
      subIndication: 'NO_CERTIFICATE_CHAIN_FOUND',
    });
    expect(sig.findings[0]).toEqual({
      code: 'chain.selfSigned',
      severity: 'indeterminate',
      params: { subject: 'CN=杭州示例科技有限公司合同专用章, O=杭州示例科技有限公司' },
    });
    expect(report.verdict).toBe('indeterminate');
    // pdfsig, the referee, agrees: the signature is intact, its certificate not trusted.
    const file = join(dir, 'forged.pdf');
    writeFileSync(file, forged.bytes as Uint8Array);
    const out = spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout;
    expect(out).toMatch(/Signature Validation: Signature is Valid\./);
    expect(out).toMatch(/Certificate Validation: Certificate issuer (isn't Trusted|is unknown)/);
  });
});

describe('changes after signing are shown, not hidden', () => {
  it('text added on a certified (P=2) platform-signed file is invalid, listed with its text and page', async () => {
    const certified = await signed(base, { fieldName: 'Platform', certifyIfFirst: 2 });
    const clean = await check(certified);
    expect(clean.signatures[0]).toMatchObject({ kind: 'certification', docMdp: 2, verdict: 'valid' });
    for (const subtype of ['FreeText', 'Stamp'] as const) {
      const report = await check(appendAnnotation(certified, subtype));
      const sig = report.signatures[0] as SignatureReport;
      expect(report.verdict, subtype).toBe('invalid');
      expect(sig).toMatchObject({
        integrity: 'valid',
        modifiedAfter: 'disallowed',
        subIndication: 'DISALLOWED_MODIFICATION',
      });
      expect(sig.changes).toContainEqual(
        expect.objectContaining({
          kind: 'annotation',
          action: 'added',
          subtype,
          page: 1,
          text: MALLORY,
          allowed: false,
          visible: true,
        }),
      );
      expect(sig.reasons.join('\n')).toContain(MALLORY);
    }
  });

  it('text added on an approval-signed (uncertified) file is never plain valid: indeterminate, listed', async () => {
    const approved = await signed(base, { fieldName: 'Approval' });
    expect((await check(approved)).verdict).toBe('valid');
    for (const subtype of ['FreeText', 'Stamp'] as const) {
      const report = await check(appendAnnotation(approved, subtype));
      const sig = report.signatures[0] as SignatureReport;
      expect(report.verdict, subtype).toBe('indeterminate');
      expect(sig).toMatchObject({
        kind: 'signature',
        modifiedAfter: 'allowed',
        verdict: 'indeterminate',
        subIndication: 'UNCONFIRMED_MODIFICATION',
      });
      expect(sig.findings).toContainEqual({
        code: 'changes.visibleAnnotation',
        severity: 'indeterminate',
        params: { page: 1, subtype, text: MALLORY },
      });
      expect(sig.changes).toContainEqual(
        expect.objectContaining({ kind: 'annotation', subtype, page: 1, text: MALLORY, allowed: true }),
      );
      expect(report.findings).toContainEqual(
        expect.objectContaining({ code: 'document.signatureIndeterminate' }),
      );
    }
  });

  it('a plain later signature on a certified file stays valid: the first certifies, the next approves', async () => {
    const first = await signed(base, { fieldName: 'Platform', certifyIfFirst: 2 });
    const second = await signed(first, { fieldName: 'Counterparty', certifyIfFirst: 2 });
    const report = await check(second);
    expect(report.verdict).toBe('valid');
    expect(report.signatures.map((s) => [s.field, s.kind, s.verdict])).toEqual([
      ['Platform', 'certification', 'valid'],
      ['Counterparty', 'signature', 'valid'],
    ]);
    expect(report.signatures[0]?.changes.every((c) => c.allowed && c.kind === 'signature')).toBe(true);
  });

  it('riding seams of two signers after a certification: one field with a widget per page, all valid', async () => {
    const pdf = new TestPdf({ pages: 3 });
    const three = pdf.commit();
    const png = seal(120);
    const first = await signed(three, {
      fieldName: 'SealA',
      certifyIfFirst: 2,
      ridingSeam: { png, y: 100, width: 40, height: 40 },
    });
    const second = await signed(first, {
      fieldName: 'SealB',
      certifyIfFirst: 2,
      appearance: { png, page: 3, x: 60, y: 200, width: 40, height: 40 },
      ridingSeam: { png, y: 160, width: 40, height: 40 },
    });
    const text = Buffer.from(second).toString('latin1');
    expect(text).not.toMatch(/\/Subtype\s*\/Stamp/);
    const doc = openPdf(second);
    const fields = doc.resolve(doc.resolveDict(doc.catalog().get('AcroForm'))?.get('Fields')) as PdfRef[];
    const kids = fields.map(
      (f) => (doc.resolve(doc.resolveDict(f)?.get('Kids')) as unknown[] | null)?.length,
    );
    // SealA: one widget per page; SealB: its visible seal and one widget per page.
    expect(kids.slice(-2)).toEqual([3, 4]);
    const report = await check(second);
    expect(report.verdict).toBe('valid');
    const [a, b] = report.signatures as [SignatureReport, SignatureReport];
    expect(a).toMatchObject({ field: 'SealA', kind: 'certification', docMdp: 2, page: 1, verdict: 'valid' });
    expect(b).toMatchObject({ field: 'SealB', kind: 'signature', page: 3, verdict: 'valid' });
    expect(a.changes.length).toBeGreaterThan(0);
    expect(a.changes.filter((c) => c.kind !== 'signature')).toEqual([]);
    if (tools) {
      const file = join(dir, 'seams.pdf');
      writeFileSync(file, second);
      const qpdf = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
      expect(qpdf.status, qpdf.stdout + qpdf.stderr).toBe(0);
      const out = spawnSync('pdfsig', ['-nocert', file], { encoding: 'utf8' }).stdout;
      expect(out.match(/Signature is Valid\./g), out).toHaveLength(2);
    }
  });
});

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
