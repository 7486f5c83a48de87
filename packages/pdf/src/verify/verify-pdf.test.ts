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

async function verify(bytes: Uint8Array): Promise<PdfVerifyReport> {
  return verifyPdf(bytes, { trust: trust() });
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
      verdict: 'valid',
      reasons: [],
    });
    expect(sig.docMdp).toBeUndefined();
    expect(sig.chainSubjects.join('|')).toMatch(/OpenSeal Test Root/);

    const untrusted = await verifyPdf(bytes, { trust: { anchors: [] } });
    expect(untrusted.signatures[0]?.chain).toBe('untrusted');
    expect(untrusted.verdict).toBe('valid'); // an unknown CA is not a broken signature

    const cli = summarizeForCli(report);
    expect(cli).toEqual({
      verdict: 'valid',
      signatures: [
        {
          field: 'Approval',
          signer: 'Alice Signer',
          integrity: 'valid',
          coversWholeDocument: true,
          chain: 'trusted',
          timestamp: null,
          modifiedAfter: 'none',
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
    expect(sig.reasons.join('\n')).toMatch(/signature does not verify/);
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

  it('without certification: form filling is allowed, a new note is allowed with a remark', async () => {
    const pdf = new TestPdf();
    const field = pdf.addTextField(0, 'name');
    pdf.commit();
    await signTestPdf(pdf, { identity: pki.signer, fieldName: 'Sig' });
    pdf.set(field, pdf.get(field).body.replace('/T (name)', '/T (name) /V (Alice)'));
    pdf.commit();
    pdf.addNote(0, 'looks good');
    const sig = only(await verify(pdf.commit()), 'Sig');
    expect(sig.modifiedAfter).toBe('allowed');
    expect(sig.changes.find((c) => c.kind === 'form-fill')?.detail).toMatch(/"name" filled in/);
    const note = sig.changes.find((c) => c.kind === 'annotation');
    expect(note?.allowed).toBe(true);
    expect(note?.detail).toMatch(/no certification/);
    expect(sig.verdict).toBe('valid');
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

  it('a file that is not a PDF is a PdfError, not a crash', async () => {
    await expect(verify(Uint8Array.from(Buffer.from('hello world')))).rejects.toBeInstanceOf(PdfError);
  });
});
