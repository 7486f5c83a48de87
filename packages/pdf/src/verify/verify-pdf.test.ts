import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PdfError } from '../errors';
import { summarizeForCli, verifyPdf, type PdfVerifyReport, type SignatureReport } from './index';
import { createTestPki, signTestPdf, TestPdf, timestampTestPdf, type TestPki } from './test-pdf';

function has(tool: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

let pki: TestPki;
let other: TestPki;
let dir: string;

beforeAll(async () => {
  pki = await createTestPki('Alice Signer');
  other = await createTestPki('Bob Signer');
  dir = mkdtempSync(join(tmpdir(), 'verify-pdf-'));
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const trust = () => ({ anchors: [pki.root.certificate, other.root.certificate] });
/** The roots' CRLs: revocation is known (good), as the platform knows it for its own certificates. */
const revocation = () => ({ crls: [pki.crl, other.crl] });

async function verify(bytes: Uint8Array): Promise<PdfVerifyReport> {
  return verifyPdf(bytes, { trust: trust(), revocation: revocation() });
}

function only(report: PdfVerifyReport, field: string): SignatureReport {
  const found = report.signatures.filter((s) => s.field === field);
  expect(found, `signatures named ${field}`).toHaveLength(1);
  return found[0] as SignatureReport;
}

function disallowed(sig: SignatureReport) {
  return sig.changes.filter((c) => !c.allowed);
}

describe('verifyPdf on hand-made documents', () => {
  it('a document signed once is valid, signed by the CA it chains to, and covers the whole file', async () => {
    const pdf = new TestPdf({ pages: 2 });
    pdf.commit();
    const time = new Date('2024-03-01T10:00:00Z');
    const { bytes } = await signTestPdf(pdf, {
      identity: pki.signer,
      fieldName: 'Approval',
      pageIndex: 1,
      rect: [100, 100, 300, 150],
      signingTime: time,
    });
    const report = await verify(bytes);
    expect(report.verdict).toBe('valid');
    expect(report.revisions).toBe(2);
    const sig = only(report, 'Approval');
    expect(sig).toMatchObject({
      kind: 'signature',
      subFilter: 'ETSI.CAdES.detached',
      signer: 'Alice Signer',
      signingTime: time.toISOString(),
      page: 2,
      rect: [100, 100, 300, 150],
      byteRangeOk: true,
      integrity: 'valid',
      coversWholeDocument: true,
      signedRevision: 1,
      modifiedAfter: 'none',
      chain: 'trusted',
      revocation: { status: 'good' },
      verdict: 'valid',
      reasons: [],
    });
    // No timestamp: noted, not decisive.
    expect(sig.findings).toEqual([{ code: 'timestamp.none', severity: 'info' }]);
    expect(sig.subIndication).toBeUndefined();
    expect(report.findings).toEqual([]);
    expect(sig.docMdp).toBeUndefined();
    expect(sig.chainSubjects.join('|')).toMatch(/OpenSeal Test Root/);

    // An unknown CA is not a broken signature, but its signer is not confirmed: indeterminate, never valid.
    const untrusted = await verifyPdf(bytes, { trust: { anchors: [] } });
    expect(untrusted.signatures[0]).toMatchObject({
      chain: 'untrusted',
      integrity: 'valid',
      verdict: 'indeterminate',
      subIndication: 'NO_CERTIFICATE_CHAIN_FOUND',
    });
    expect(untrusted.verdict).toBe('indeterminate');
    expect(untrusted.findings).toEqual([
      {
        code: 'document.signatureIndeterminate',
        severity: 'indeterminate',
        params: { field: 'Approval', signer: 'Alice Signer' },
      },
    ]);

    // Trusted, but nothing tells whether the certificate is revoked: indeterminate too.
    const unknown = await verifyPdf(bytes, { trust: trust() });
    expect(unknown.signatures[0]).toMatchObject({ verdict: 'indeterminate', subIndication: 'TRY_LATER' });

    const cli = summarizeForCli(report);
    expect(cli).toEqual({
      verdict: 'valid',
      findings: [],
      signatures: [
        {
          field: 'Approval',
          signer: 'Alice Signer',
          signerIssuer: 'CN=OpenSeal Test Root, O=OpenSeal Tests',
          verdict: 'valid',
          integrity: 'valid',
          coversWholeDocument: true,
          chain: 'trusted',
          timestamp: null,
          modifiedAfter: 'none',
          findings: [{ code: 'timestamp.none', severity: 'info' }],
          changes: [],
        },
      ],
    });
  });

  it.skipIf(!has('pdfsig'))('pdfsig agrees that the hand-made signature is valid', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    const { bytes } = await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig' });
    const file = join(dir, 'once.pdf');
    writeFileSync(file, bytes);
    const out = execFileSync('pdfsig', [file], { encoding: 'utf8' });
    expect(out).toMatch(/Signature is Valid/);
    expect((await verify(bytes)).verdict).toBe('valid');
  });

  it('signed three times: earlier signatures see only signature changes, all are valid', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'First' });
    await signTestPdf(pdf, { identity: other.signer, fieldName: 'Second', subFilter: 'adbe.pkcs7.detached' });
    const { bytes } = await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Third' });
    const report = await verify(bytes);
    expect(report.verdict).toBe('valid');
    expect(report.signatures.map((s) => [s.field, s.signedRevision, s.coversWholeDocument])).toEqual([
      ['First', 1, false],
      ['Second', 2, false],
      ['Third', 3, true],
    ]);
    const first = only(report, 'First');
    expect(first.modifiedAfter).toBe('allowed');
    expect(new Set(first.changes.map((c) => c.kind))).toEqual(new Set(['signature']));
    expect(first.changes.map((c) => c.revision)).toEqual(expect.arrayContaining([2, 3]));
    expect(only(report, 'Second').signer).toBe('Bob Signer');
    expect(only(report, 'Third').modifiedAfter).toBe('none');
  });

  it('offers every carried certificate to a revocation prefetch once, before the per-signature lookups', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'First' });
    const { bytes } = await signTestPdf(pdf, { identity: other.signer, fieldName: 'Second' });
    const calls: string[] = [];
    let offered: Uint8Array[] = [];
    const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
    const report = await verifyPdf(bytes, {
      trust: trust(),
      prefetchRevocation: async (certificates) => {
        calls.push('prefetch');
        offered = certificates;
      },
      checkRevocation: async (cert) => {
        calls.push(`check ${offered.some((c) => hex(c) === hex(cert)) ? 'offered' : 'not offered'}`);
        return { status: 'good', source: 'online' };
      },
    });
    expect(report.verdict).toBe('valid');
    expect(calls).toEqual(['prefetch', 'check offered', 'check offered']);
    expect(new Set(offered.map(hex)).size).toBe(offered.length);
    // A failing prefetch costs nothing but the batch: the lookups still answer.
    const again = await verifyPdf(bytes, {
      trust: trust(),
      prefetchRevocation: async () => {
        throw new Error('database down');
      },
      checkRevocation: async () => ({ status: 'good', source: 'online' }),
    });
    expect(again.signatures.map((s) => s.revocation?.status)).toEqual(['good', 'good']);
  });

  it('bytes changed inside the signed range break integrity', async () => {
    const pdf = new TestPdf({ pageText: 'Pay 100 EUR' });
    pdf.commit();
    const { bytes } = await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig' });
    const at = Buffer.from(bytes).indexOf('Pay 100');
    const tampered = bytes.slice();
    tampered[at + 4] = '9'.charCodeAt(0);
    const report = await verify(tampered);
    expect(report.verdict).toBe('invalid');
    const sig = only(report, 'Sig');
    expect(sig.byteRangeOk).toBe(true);
    expect(sig.integrity).toBe('invalid');
    expect(sig.verdict).toBe('invalid');
    expect(sig.subIndication).toBe('HASH_FAILURE');
    expect(sig.reasons.join('\n')).toMatch(/signed content was changed after signing/);
  });

  it('a CMS made for other bytes is reported invalid', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    const { bytes } = await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig', wrongDigest: true });
    const sig = only(await verify(bytes), 'Sig');
    expect(sig.integrity).toBe('invalid');
    expect(sig.byteRangeOk).toBe(true);
  });

  it('a page added after signing is a disallowed change', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig' });
    pdf.addPage('An extra page');
    const report = await verify(pdf.commit());
    const sig = only(report, 'Sig');
    expect(sig.integrity).toBe('valid');
    expect(sig.modifiedAfter).toBe('disallowed');
    expect(disallowed(sig).map((c) => c.kind)).toContain('page-added');
    expect(sig.verdict).toBe('invalid');
    expect(report.verdict).toBe('invalid');
  });

  it('a removed page and changed page content are disallowed', async () => {
    const pdf = new TestPdf({ pages: 2 });
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig' });
    pdf.setPageText(0, 'Something else');
    const changed = only(await verify(pdf.commit()), 'Sig');
    expect(disallowed(changed).map((c) => c.kind)).toEqual(['content']);
    pdf.removePage(1);
    const removed = only(await verify(pdf.commit()), 'Sig');
    expect(disallowed(removed).map((c) => c.kind)).toEqual(
      expect.arrayContaining(['content', 'page-removed']),
    );
  });

  it('a later revision that re-states identical objects is not a change', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig' });
    pdf.restate(pdf.catalog);
    pdf.restate(pdf.page(0).num);
    pdf.restate(pdf.page(0).contents);
    const report = await verify(pdf.commit());
    const sig = only(report, 'Sig');
    expect(report.revisions).toBe(3);
    expect(sig.changes).toEqual([]);
    expect(sig.modifiedAfter).toBe('none');
    expect(sig.coversWholeDocument).toBe(false);
    expect(sig.verdict).toBe('valid');
  });

  it('without certification: form filling keeps it valid; a note added later is allowed but not confirmed', async () => {
    const pdf = new TestPdf();
    const field = pdf.addTextField(0, 'name');
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig' });
    pdf.set(field, pdf.get(field).body.replace('/T (name)', '/T (name) /V (Alice)'));
    const filled = only(await verify(pdf.commit()), 'Sig');
    expect(filled.modifiedAfter).toBe('allowed');
    expect(filled.changes.find((c) => c.kind === 'form-fill')).toMatchObject({
      action: 'changed',
      field: 'name',
      value: 'Alice',
      page: 1,
      allowed: true,
    });
    expect(filled.changes.find((c) => c.kind === 'form-fill')?.detail).toMatch(/"name" filled in/);
    expect(filled.verdict).toBe('valid');

    pdf.addNote(0, 'looks good');
    const sig = only(await verify(pdf.commit()), 'Sig');
    expect(sig.modifiedAfter).toBe('allowed');
    const note = sig.changes.find((c) => c.kind === 'annotation');
    expect(note).toMatchObject({
      action: 'added',
      subtype: 'Text',
      page: 1,
      text: 'looks good',
      visible: true,
      allowed: true,
    });
    expect(note?.detail).toMatch(/no certification/);
    expect(sig.verdict).toBe('indeterminate');
    expect(sig.subIndication).toBe('UNCONFIRMED_MODIFICATION');
    expect(sig.findings).toContainEqual({
      code: 'changes.visibleAnnotation',
      severity: 'indeterminate',
      params: { page: 1, subtype: 'Text', text: 'looks good' },
    });
  });

  it('DocMDP P=1: a further signature is disallowed, validation data (DSS) is allowed', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Cert', docMdp: 1 });
    const cert = pdf.alloc();
    pdf.set(cert, { body: '<< >>', stream: pki.root.certificate });
    pdf.setCatalogEntry('DSS', `<< /Certs [${cert} 0 R] >>`);
    const withDss = await verify(pdf.commit());
    const c1 = only(withDss, 'Cert');
    expect(c1.kind).toBe('certification');
    expect(c1.docMdp).toBe(1);
    expect(c1.modifiedAfter).toBe('allowed');
    expect(c1.changes.map((c) => c.kind)).toEqual(expect.arrayContaining(['dss']));
    expect(c1.verdict).toBe('valid');

    const { bytes } = await signTestPdf(pdf, { identity: other.signer, fieldName: 'Later' });
    const report = await verify(bytes);
    const c2 = only(report, 'Cert');
    expect(c2.modifiedAfter).toBe('disallowed');
    expect(disallowed(c2).some((c) => c.kind === 'signature' && /"Later"/.test(c.detail))).toBe(true);
    expect(c2.verdict).toBe('invalid');
    const later = only(report, 'Later');
    expect(later.integrity).toBe('valid');
    expect(later.docMdp).toBe(1);
  });

  it('DocMDP P=2: form filling and a further signature are allowed, a new annotation is not', async () => {
    const pdf = new TestPdf();
    const field = pdf.addTextField(0, 'amount');
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Cert', docMdp: 2 });
    pdf.set(field, pdf.get(field).body.replace('/T (amount)', '/T (amount) /V (42)'));
    pdf.commit();
    await signTestPdf(pdf, { identity: other.signer, fieldName: 'Approval' });
    const filled = only(await verify(pdf.bytes), 'Cert');
    expect(filled.docMdp).toBe(2);
    expect(filled.modifiedAfter).toBe('allowed');
    expect(filled.changes.map((c) => c.kind)).toEqual(expect.arrayContaining(['form-fill', 'signature']));

    pdf.addNote(0, 'a remark');
    const report = await verify(pdf.commit());
    const annotated = only(report, 'Cert');
    expect(annotated.modifiedAfter).toBe('disallowed');
    expect(disallowed(annotated).map((c) => c.kind)).toEqual(['annotation']);
    // The approval signature made under P=2 is bound by the same rule.
    expect(only(report, 'Approval').modifiedAfter).toBe('disallowed');
  });

  it('DocMDP P=2: adding a new form field is disallowed', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Cert', docMdp: 2 });
    pdf.addTextField(0, 'sneaky', 'value');
    const sig = only(await verify(pdf.commit()), 'Cert');
    expect(disallowed(sig).map((c) => c.detail)).toEqual(['form field "sneaky" added']);
  });

  it('DocMDP P=3: annotations are allowed', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Cert', docMdp: 3 });
    pdf.addNote(0, 'ok to comment');
    const sig = only(await verify(pdf.commit()), 'Cert');
    expect(sig.docMdp).toBe(3);
    expect(sig.modifiedAfter).toBe('allowed');
    expect(sig.changes.map((c) => c.kind)).toContain('annotation');
  });

  it('a signature whose field a later revision removed is still found, and the removal is disallowed', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    const { field } = await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Hidden' });
    pdf.removeField(field);
    pdf.removeAnnot(0, field);
    const report = await verify(pdf.commit());
    expect(report.verdict).toBe('invalid');
    const sig = only(report, 'Hidden');
    expect(sig.integrity).toBe('valid');
    expect(disallowed(sig).map((c) => c.detail)).toEqual(
      expect.arrayContaining(['signature field "Hidden" removed (it was signed)']),
    );
  });

  it('a signature dictionary changed after signing: the original is flagged, the copy has a bad ByteRange', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    const { sig } = await signTestPdf(pdf, {
      identity: pki.signer,
      fieldName: 'Sig',
      signingTime: new Date('2024-01-01T00:00:00Z'),
    });
    pdf.set(sig, pdf.get(sig).body.replace('/M (D:20240101000000Z)', '/M (D:20200101000000Z)'));
    const report = await verify(pdf.commit());
    expect(report.signatures).toHaveLength(2);
    const [original, copy] = report.signatures as [SignatureReport, SignatureReport];
    expect(original.signingTime).toBe('2024-01-01T00:00:00.000Z');
    expect(original.modifiedAfter).toBe('disallowed');
    expect(disallowed(original)[0]?.detail).toMatch(/signature dictionary \d+ changed after signing/);
    expect(copy.signingTime).toBe('2020-01-01T00:00:00.000Z');
    expect(copy.byteRangeOk).toBe(false);
    expect(copy.byteRangeProblem).toMatch(/not in the signed bytes/);
    expect(report.verdict).toBe('invalid');
  });

  it('reports an orphan signature dictionary and warns about empty signature fields', async () => {
    const pdf = new TestPdf();
    const empty = pdf.alloc();
    pdf.set(
      empty,
      `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Empty) /Rect [0 0 0 0] /P ${pdf.page(0).num} 0 R >>`,
    );
    pdf.addAnnot(0, empty);
    pdf.addField(empty);
    const orphan = pdf.alloc();
    pdf.set(orphan, '<< /Type /Sig /Filter /Adobe.PPKLite /ByteRange [0 1 2 3] /Contents <00> >>');
    const bytes = pdf.commit();
    const report = await verify(bytes);
    expect(report.warnings).toContain('signature field "Empty" is not signed');
    expect(report.signatures).toHaveLength(1);
    const sig = report.signatures[0] as SignatureReport;
    expect(sig.field).toBe('(no field)');
    expect(sig.byteRangeOk).toBe(false);
    expect(sig.verdict).toBe('invalid');

    const unsignedOnly = new TestPdf();
    const f = unsignedOnly.alloc();
    unsignedOnly.set(f, `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Later) /Rect [0 0 0 0] >>`);
    unsignedOnly.addField(f);
    const none = await verify(unsignedOnly.commit());
    expect(none.verdict).toBe('no-signatures');
    expect(none.signatures).toEqual([]);
    expect(none.warnings).toContain('signature field "Later" is not signed');
  });

  it('signs an existing empty field in a later revision: allowed for the earlier signature', async () => {
    const pdf = new TestPdf();
    const empty = pdf.alloc();
    pdf.set(
      empty,
      `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Second) /Rect [0 0 0 0] /P ${pdf.page(0).num} 0 R >>`,
    );
    pdf.addAnnot(0, empty);
    pdf.addField(empty);
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'First', docMdp: 2 });
    const { bytes } = await signTestPdf(pdf, {
      identity: other.signer,
      fieldName: 'Second',
      existingField: empty,
    });
    const report = await verify(bytes);
    expect(report.verdict).toBe('valid');
    expect(only(report, 'First').changes.map((c) => c.detail)).toContain('signature field "Second" signed');
    expect(only(report, 'Second').signer).toBe('Bob Signer');
  });

  it('verifies a document timestamp (ETSI.RFC3161) over the signed revisions', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig' });
    const time = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000);
    const { bytes } = await timestampTestPdf(pdf, { tsa: pki.tsa, fieldName: 'Archive', time });
    const report = await verify(bytes);
    expect(report.verdict).toBe('valid');
    const dts = only(report, 'Archive');
    expect(dts).toMatchObject({
      kind: 'document-timestamp',
      subFilter: 'ETSI.RFC3161',
      signer: 'OpenSeal Test TSA',
      integrity: 'valid',
      chain: 'trusted',
      coversWholeDocument: true,
      timestamp: { time: time.toISOString(), valid: true },
      signingTime: time.toISOString(),
    });
    const sig = only(report, 'Sig');
    expect(sig.modifiedAfter).toBe('allowed');
    expect(sig.changes.map((c) => c.detail)).toContain('document timestamp "Archive" added');

    // A timestamp over other bytes: flip a byte the token covers.
    const tampered = bytes.slice();
    tampered[Buffer.from(bytes).indexOf('Page 1')] = 0x51;
    const bad = only(await verify(tampered), 'Archive');
    expect(bad.integrity).toBe('invalid');
    expect(bad.timestamp?.valid).toBe(false);
  });

  it('DocMDP P=1 still permits a document timestamp', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Cert', docMdp: 1 });
    const { bytes } = await timestampTestPdf(pdf, { tsa: pki.tsa, fieldName: 'LTA' });
    const report = await verify(bytes);
    const cert = only(report, 'Cert');
    expect(cert.modifiedAfter).toBe('allowed');
    expect(report.verdict).toBe('valid');
  });

  it('a form field sharing an object with page content: overwriting it is disallowed, filling alone is not', async () => {
    for (const docMdp of [undefined, 2] as const) {
      const pdf = new TestPdf();
      // One form XObject that the page content draws and that is also the field's appearance.
      const form = pdf.alloc();
      pdf.set(form, {
        body: `<< /Type /XObject /Subtype /Form /BBox [0 0 300 30] /Resources << /Font << /F1 ${pdf.font} 0 R >> >> >>`,
        stream: 'BT /F1 12 Tf 2 10 Td (Amount: 100 EUR) Tj ET',
      });
      pdf.setPageResources(0, `/XObject << /Fm1 ${form} 0 R >>`);
      pdf.setPageText(0, 'Contract', ' q 1 0 0 1 72 500 cm /Fm1 Do Q');
      const field = pdf.addTextField(0, 'amount', '100 EUR');
      pdf.set(field, pdf.get(field).body.replace(/>>\s*$/, ` /AP << /N ${form} 0 R >> >>`));
      pdf.commit();
      await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig', ...(docMdp ? { docMdp } : {}) });
      // "Filling" the field rewrites the shared appearance: the page now shows another amount.
      pdf.set(form, {
        body: `<< /Type /XObject /Subtype /Form /BBox [0 0 300 30] /Resources << /Font << /F1 ${pdf.font} 0 R >> >> >>`,
        stream: 'BT /F1 12 Tf 2 10 Td (Amount: 1,000,000 EUR) Tj ET',
      });
      pdf.set(field, pdf.get(field).body.replace('(100 EUR)', '(1,000,000 EUR)'));
      const report = await verify(pdf.commit());
      const sig = only(report, 'Sig');
      expect(sig.integrity).toBe('valid');
      expect(sig.verdict, `P=${docMdp}`).toBe('invalid');
      expect(sig.subIndication).toBe('DISALLOWED_MODIFICATION');
      expect(disallowed(sig)).toContainEqual(
        expect.objectContaining({
          kind: 'content',
          object: form,
          detail: `object ${form} used by page content changed`,
        }),
      );
      // The value itself is reported as a form fill, with the new value.
      expect(sig.changes).toContainEqual(
        expect.objectContaining({
          kind: 'form-fill',
          field: 'amount',
          value: '1,000,000 EUR',
          allowed: true,
        }),
      );
    }
  });

  it('an annotation that existed at signing: overwriting its appearance is disallowed unless P=3', async () => {
    for (const docMdp of [undefined, 2, 3] as const) {
      const pdf = new TestPdf();
      const ap = pdf.alloc();
      pdf.set(ap, {
        body: `<< /Type /XObject /Subtype /Form /BBox [0 0 200 40] /Resources << /Font << /F1 ${pdf.font} 0 R >> >> >>`,
        stream: 'BT /F1 18 Tf 4 12 Td (APPROVED) Tj ET',
      });
      pdf.addAnnotation(
        0,
        `<< /Type /Annot /Subtype /Stamp /Rect [300 600 500 640] /F 4 /AP << /N ${ap} 0 R >> >>`,
      );
      pdf.commit();
      await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig', ...(docMdp ? { docMdp } : {}) });
      pdf.set(ap, {
        body: `<< /Type /XObject /Subtype /Form /BBox [0 0 200 40] /Resources << /Font << /F1 ${pdf.font} 0 R >> >> >>`,
        stream: 'BT /F1 18 Tf 4 12 Td (REJECTED) Tj ET',
      });
      const sig = only(await verify(pdf.commit()), 'Sig');
      const change = sig.changes.find((c) => c.kind === 'annotation');
      expect(change, `P=${docMdp}`).toMatchObject({
        subtype: 'Stamp',
        page: 1,
        text: 'REJECTED',
        action: 'changed',
      });
      if (docMdp === 3) {
        expect(change?.allowed).toBe(true);
        expect(sig.verdict).toBe('indeterminate');
        expect(sig.findings.map((f) => f.code)).toContain('changes.annotationChanged');
      } else {
        expect(change?.allowed).toBe(false);
        expect(sig.verdict).toBe('invalid');
      }
    }
  });

  it('a page tree whose /Count no longer tells its pages is disallowed', async () => {
    const pdf = new TestPdf({ pages: 2 });
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig' });
    pdf.set(pdf.pagesNum, pdf.get(pdf.pagesNum).body.replace('/Count 2', '/Count 1'));
    const sig = only(await verify(pdf.commit()), 'Sig');
    expect(sig.verdict).toBe('invalid');
    expect(disallowed(sig).map((c) => c.detail)).toEqual([
      `page tree node ${pdf.pagesNum}: /Count changed to 1 (the tree holds 2 page(s))`,
    ]);
  });

  it('an empty signature field added later with a visible appearance is not a plain valid', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig' });
    const ap = pdf.alloc();
    pdf.set(ap, {
      body: `<< /Type /XObject /Subtype /Form /BBox [0 0 200 40] /Resources << /Font << /F1 ${pdf.font} 0 R >> >> >>`,
      stream: 'BT /F1 18 Tf 4 12 Td (PAID IN FULL) Tj ET',
    });
    const empty = pdf.addAnnotation(
      0,
      `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Later) /Rect [300 600 500 640] /F 4 /P ${pdf.page(0).num} 0 R /AP << /N ${ap} 0 R >> >>`,
    );
    pdf.addField(empty);
    const sig = only(await verify(pdf.commit()), 'Sig');
    expect(sig.modifiedAfter).toBe('allowed');
    expect(sig.verdict).toBe('indeterminate');
    expect(sig.findings).toContainEqual({
      code: 'changes.visibleAnnotation',
      severity: 'indeterminate',
      params: { page: 1, subtype: 'Widget', text: 'PAID IN FULL' },
    });
  });

  it('hundreds of notes added in one revision are summarised, and still keep the signature from valid', async () => {
    const pdf = new TestPdf();
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig' });
    for (let i = 0; i < 300; i++) pdf.addNote(0, `note ${i}`);
    const started = Date.now();
    const sig = only(await verify(pdf.commit()), 'Sig');
    expect(Date.now() - started).toBeLessThan(10_000);
    const notes = sig.changes.filter((c) => c.kind === 'annotation');
    // Twelve told one by one (the first ones with their text), the rest summed up in one entry.
    expect(notes).toHaveLength(13);
    expect(notes[0]).toMatchObject({ text: 'note 0', page: 1, visible: true });
    expect(notes.at(-1)?.detail).toMatch(/^and \d+ more change\(s\) of this kind$/);
    expect(notes.at(-1)?.visible).toBe(true);
    expect(sig.verdict).toBe('indeterminate');
    expect(sig.findings.filter((f) => f.code === 'changes.visibleAnnotation')).toHaveLength(5);
  });

  it('a file that is not a PDF is a PdfError, not a crash', async () => {
    await expect(verify(Uint8Array.from(Buffer.from('hello world')))).rejects.toBeInstanceOf(PdfError);
  });
});
