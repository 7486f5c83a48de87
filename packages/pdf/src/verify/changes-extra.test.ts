/**
 * Change analysis on two attacks the text-only cases do not reach: a Stamp annotation whose appearance
 * paints only an image (no text to quote), appended after the signature; and an incremental update that
 * overwrites a font object the signed page content uses, also when a form field shares that font.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PdfDict, PdfName, PdfRef } from '../objects';
import { openPdf } from '../reader';
import { signPdf } from '../sign/index';
import { IncrementalUpdate } from '../writer';
import { verifyPdf, type SignatureReport } from './index';
import { createTestCms, createTestPki, signTestPdf, TestPdf, type TestPki } from './test-pdf';

let pki: TestPki;

beforeAll(async () => {
  pki = await createTestPki('Change Analysis');
}, 60_000);

/** The test root trusted and its CRL at hand: the only thing left to judge is what changed. */
const check = (bytes: Uint8Array) =>
  verifyPdf(bytes, { trust: { anchors: [pki.root.certificate] }, revocation: { crls: [pki.crl] } });

async function signed(input: Uint8Array, certify?: 1 | 2 | 3): Promise<Uint8Array> {
  const time = new Date();
  const result = await signPdf(input, {
    sign: (digest) => createTestCms(pki.signer, digest, time),
    signingTime: time,
    fieldName: 'Seal',
    ...(certify ? { certify } : {}),
  });
  return result.bytes as Uint8Array;
}

const RED_PIXELS = Uint8Array.from([0xcc, 0x10, 0x10, 0xcc, 0x10, 0x10, 0xcc, 0x10, 0x10, 0xcc, 0x10, 0x10]);

/**
 * Appends a /Stamp annotation on page 1 whose appearance draws an image and nothing else: through an
 * image XObject, or as an inline image (BI … ID … EI). Returns the file and the annotation's object number.
 */
function appendImageStamp(
  bytes: Uint8Array,
  how: 'xobject' | 'inline',
): { bytes: Uint8Array; annot: number } {
  const doc = openPdf(bytes);
  const up = new IncrementalUpdate(doc);
  const page = doc.pages()[0]!;
  let content: Uint8Array;
  const resources = new PdfDict();
  if (how === 'xobject') {
    const image = up.addStream(
      new PdfDict([
        ['Type', new PdfName('XObject')],
        ['Subtype', new PdfName('Image')],
        ['Width', 2],
        ['Height', 2],
        ['ColorSpace', new PdfName('DeviceRGB')],
        ['BitsPerComponent', 8],
      ]),
      RED_PIXELS,
    );
    resources.set('XObject', new PdfDict([['Im1', image]]));
    content = Buffer.from('q 200 0 0 200 0 0 cm /Im1 Do Q', 'latin1');
  } else {
    content = Buffer.concat([
      Buffer.from('q 200 0 0 200 0 0 cm BI /W 2 /H 2 /CS /RGB /BPC 8 ID ', 'latin1'),
      Buffer.from(RED_PIXELS),
      Buffer.from(' EI Q', 'latin1'),
    ]);
  }
  const ap = up.addStream(
    new PdfDict([
      ['Type', new PdfName('XObject')],
      ['Subtype', new PdfName('Form')],
      ['BBox', [0, 0, 200, 200]],
      ['Resources', resources],
    ]),
    Uint8Array.from(content),
  );
  const annot = up.allocate();
  up.set(
    annot,
    new PdfDict([
      ['Type', new PdfName('Annot')],
      ['Subtype', new PdfName('Stamp')],
      ['Rect', [300, 300, 500, 500]],
      ['F', 4],
      ['P', page.ref],
      ['AP', new PdfDict([['N', ap]])],
    ]),
  );
  const annots = page.dict.get('Annots');
  const list = doc.resolve(annots);
  const next = [...(Array.isArray(list) ? list : []), annot];
  if (annots instanceof PdfRef) up.set(annots, next);
  else up.set(page.ref, page.dict.clone().set('Annots', next));
  const added = up.build();
  const out = new Uint8Array(bytes.length + added.length);
  out.set(bytes);
  out.set(added, bytes.length);
  return { bytes: out, annot: annot.num };
}

describe('an image-only Stamp annotation added after signing', () => {
  for (const how of ['xobject', 'inline'] as const) {
    it(`approval signature, image drawn as ${how}: indeterminate, the stamp listed as an image`, async () => {
      const base = new TestPdf({ pages: 2 }).commit();
      const approved = await signed(base);
      const clean = await check(approved);
      expect(clean.verdict).toBe('valid');
      expect(clean.signatures[0]).toMatchObject({ kind: 'signature', verdict: 'valid' });

      const { bytes } = appendImageStamp(approved, how);
      const report = await check(bytes);
      const sig = report.signatures[0] as SignatureReport;
      expect(sig).toMatchObject({
        integrity: 'valid',
        chain: 'trusted',
        modifiedAfter: 'allowed',
        verdict: 'indeterminate',
        subIndication: 'UNCONFIRMED_MODIFICATION',
      });
      expect(report.verdict).toBe('indeterminate');
      const stamp = sig.changes.find((c) => c.kind === 'annotation' && c.subtype === 'Stamp');
      expect(stamp).toMatchObject({
        action: 'added',
        page: 1,
        image: true,
        visible: true,
        allowed: true,
      });
      // Nothing to quote: no text, and the reason says an image was added instead.
      expect(stamp?.text).toBeUndefined();
      expect(stamp?.detail).toMatch(/Stamp/);
      expect(sig.findings).toContainEqual({
        code: 'changes.visibleAnnotation',
        severity: 'indeterminate',
        params: { page: 1, subtype: 'Stamp', text: '[image]' },
      });
      expect(sig.reasons.join('\n')).toMatch(
        /Stamp annotation showing content was added on page 1: \[image\]/,
      );
      expect(report.findings).toContainEqual(
        expect.objectContaining({ code: 'document.signatureIndeterminate' }),
      );
    });
  }

  it('certification P=2: the image stamp is a disallowed change, invalid; P=3 allows it but not as valid', async () => {
    const base = new TestPdf().commit();
    const p2 = await signed(base, 2);
    expect((await check(p2)).signatures[0]).toMatchObject({
      kind: 'certification',
      docMdp: 2,
      verdict: 'valid',
    });
    const { bytes: stamped2 } = appendImageStamp(p2, 'xobject');
    const r2 = await check(stamped2);
    const sig2 = r2.signatures[0] as SignatureReport;
    expect(sig2).toMatchObject({
      integrity: 'valid',
      modifiedAfter: 'disallowed',
      verdict: 'invalid',
      subIndication: 'DISALLOWED_MODIFICATION',
    });
    expect(sig2.changes).toContainEqual(
      expect.objectContaining({
        kind: 'annotation',
        action: 'added',
        subtype: 'Stamp',
        image: true,
        allowed: false,
      }),
    );
    expect(sig2.findings).toContainEqual(
      expect.objectContaining({ code: 'changes.disallowed', severity: 'invalid' }),
    );
    expect(r2.verdict).toBe('invalid');

    const p3 = await signed(base, 3);
    const { bytes: stamped3 } = appendImageStamp(p3, 'xobject');
    const r3 = await check(stamped3);
    const sig3 = r3.signatures[0] as SignatureReport;
    expect(sig3).toMatchObject({ docMdp: 3, modifiedAfter: 'allowed', verdict: 'indeterminate' });
    expect(sig3.changes).toContainEqual(
      expect.objectContaining({ kind: 'annotation', subtype: 'Stamp', image: true, allowed: true }),
    );
    expect(r3.verdict).not.toBe('valid');
  });
});

describe('an incremental update that overwrites a font the signed page uses', () => {
  const COURIER = '<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>';

  it('without certification: the font object rewritten is a disallowed content change, invalid', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig' });
    expect((await check(pdf.bytes)).verdict).toBe('valid');
    // Same object number, another font: the signed text now renders differently.
    pdf.set(pdf.font, COURIER);
    const report = await check(pdf.commit());
    const sig = report.signatures[0] as SignatureReport;
    expect(sig).toMatchObject({
      integrity: 'valid',
      modifiedAfter: 'disallowed',
      verdict: 'invalid',
      subIndication: 'DISALLOWED_MODIFICATION',
    });
    expect(sig.changes.filter((c) => !c.allowed)).toEqual([
      expect.objectContaining({
        kind: 'content',
        object: pdf.font,
        detail: `object ${pdf.font} used by page content changed`,
      }),
    ]);
    expect(sig.findings).toContainEqual({
      code: 'changes.disallowed',
      severity: 'invalid',
      params: { count: 1, first: `object ${pdf.font} used by page content changed (revision 3)` },
    });
    expect(report.verdict).toBe('invalid');
  });

  it('certified P=2 with a form field sharing the font: filling the field does not excuse the overwrite', async () => {
    const pdf = new TestPdf();
    // The form's default resources and the field's own appearance use the page's font object.
    pdf.setAcroFormEntry('DR', `<< /Font << /F1 ${pdf.font} 0 R >> >>`);
    const ap = pdf.alloc();
    pdf.set(ap, {
      body: `<< /Type /XObject /Subtype /Form /BBox [0 0 228 30] /Resources << /Font << /F1 ${pdf.font} 0 R >> >> >>`,
      stream: '/Tx BMC BT /F1 12 Tf 2 10 Td (100 EUR) Tj ET EMC',
    });
    const field = pdf.addTextField(0, 'amount', '100 EUR');
    pdf.set(field, pdf.get(field).body.replace(/>>\s*$/, ` /DA (/F1 12 Tf 0 g) /AP << /N ${ap} 0 R >> >>`));
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Cert', docMdp: 2 });
    expect((await check(pdf.bytes)).signatures[0]).toMatchObject({ docMdp: 2, verdict: 'valid' });

    // A fill alone is allowed under P=2.
    pdf.set(field, pdf.get(field).body.replace('(100 EUR)', '(250 EUR)'));
    pdf.set(ap, {
      body: `<< /Type /XObject /Subtype /Form /BBox [0 0 228 30] /Resources << /Font << /F1 ${pdf.font} 0 R >> >> >>`,
      stream: '/Tx BMC BT /F1 12 Tf 2 10 Td (250 EUR) Tj ET EMC',
    });
    const filled = await check(pdf.commit());
    expect(filled.signatures[0]).toMatchObject({ modifiedAfter: 'allowed', verdict: 'valid' });
    expect(filled.signatures[0]?.changes).toContainEqual(
      expect.objectContaining({ kind: 'form-fill', field: 'amount', value: '250 EUR', allowed: true }),
    );

    // The next "fill" also rewrites the shared font: disallowed, whatever the field says.
    pdf.set(field, pdf.get(field).body.replace('(250 EUR)', '(300 EUR)'));
    pdf.set(pdf.font, COURIER);
    const report = await check(pdf.commit());
    const sig = report.signatures[0] as SignatureReport;
    expect(sig).toMatchObject({
      kind: 'certification',
      integrity: 'valid',
      modifiedAfter: 'disallowed',
      verdict: 'invalid',
      subIndication: 'DISALLOWED_MODIFICATION',
    });
    expect(sig.changes.filter((c) => !c.allowed)).toContainEqual(
      expect.objectContaining({ kind: 'content', object: pdf.font }),
    );
    expect(sig.changes).toContainEqual(
      expect.objectContaining({ kind: 'form-fill', field: 'amount', value: '300 EUR', allowed: true }),
    );
    expect(report.verdict).toBe('invalid');
  });
});
