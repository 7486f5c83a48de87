/**
 * The verifier on files made by the product's own signer (sign/): what the signer writes must
 * verify, and what it appends later (more signatures, DSS) must be judged as allowed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PdfDict, PdfName, PdfString, type PdfRef } from '../objects';
import { openPdf } from '../reader';
import { appendDss, signPdf } from '../sign/index';
import { IncrementalUpdate } from '../writer';
import { verifyPdf, type SignatureReport } from './index';
import { createTestCms, createTestPki, TestPdf, type TestPki } from './test-pdf';

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
  extra: { fieldName?: string; certify?: 1 | 2 | 3 } = {},
): Promise<Uint8Array> {
  const result = await signPdf(input, { ...signer(), ...extra });
  if (!result.bytes) throw new Error('the signer returned no bytes');
  return result.bytes;
}

const trust = () => ({ anchors: [pki.root.certificate] });

describe('verifyPdf on files made by signPdf', () => {
  it('signed once, twice and three times: every signature valid, earlier ones see only signatures added', async () => {
    const once = await signed(base, { fieldName: 'One' });
    const r1 = await verifyPdf(once, { trust: trust() });
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
    const r3 = await verifyPdf(thrice, { trust: trust() });
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
      const report = await verifyPdf(bytes, { trust: trust() });
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
    const report = await verifyPdf(withDss.bytes as Uint8Array, { trust: trust() });
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
    const filledReport = await verifyPdf(filled, { trust: trust() });
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
    const addedReport = await verifyPdf(added, { trust: trust() });
    const sig = addedReport.signatures[0] as SignatureReport;
    expect(sig.integrity).toBe('valid');
    expect(sig.modifiedAfter).toBe('disallowed');
    expect(sig.changes.filter((c) => !c.allowed).map((c) => c.kind)).toContain('page-added');
    expect(addedReport.verdict).toBe('invalid');
  });
});

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
