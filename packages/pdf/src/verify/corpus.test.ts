/**
 * Agreement with an independent verifier on signed PDFs made by others. The third-party corpus lives
 * next to the repository (../shared/corpus/signed); without it these tests skip with a notice.
 */
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCms } from '@openseal/pki';
import { openFileSource } from '../source';
import { verifyPdf, type PdfVerifyReport, type SignatureReport } from './index';
import { parseManifest, parsePdfsigReference, parsePdfsigRun, type PdfsigSignature } from './pdfsig-output';

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS = resolve(here, '../../../../../shared/corpus/signed');
const present = existsSync(join(CORPUS, 'pdfsig.txt'));
const pdfsigInstalled = spawnSync('pdfsig', ['-v']).status === 0;
if (!present) console.warn(`notice: corpus not found at ${CORPUS}; the agreement tests are skipped`);
if (present && !pdfsigInstalled)
  console.warn('notice: pdfsig is not installed; only the stored reference run is compared');

/**
 * One word per signature, comparable across verifiers, in ETSI terms. 'indeterminate': intact, but the
 * signer is not confirmed (for pdfsig: "Signature is Valid" with any certificate status other than
 * trusted; for us: the indeterminate verdict). 'modified' is ours only: intact bytes, but the document
 * was changed afterwards in a way the signature does not permit. 'absent' means the verifier does not
 * list that signature at all.
 */
type Outcome = 'valid' | 'indeterminate' | 'invalid' | 'modified' | 'unsigned' | 'absent';

interface Difference {
  /** Our 1-based signature number. */
  signature: number;
  field: string;
  ours: Outcome;
  pdfsig: Outcome;
  reason: string;
}

const DOC_TIMESTAMP =
  'document timestamp (ETSI.RFC3161): pdfsig cannot verify these; we verify the token and its imprint, and its TSA chains to no anchor here';

const DELIBERATE_DIFFERENCES: Record<string, Difference[]> = {
  'dss__BadEncodedCMS.pdf': [
    {
      signature: 1,
      field: 'Test Signature',
      ours: 'invalid',
      pdfsig: 'unsigned',
      reason:
        'the /Contents CMS cannot be parsed: we report an invalid signature, pdfsig an unsigned field, DSS "no signature found"; all three refuse it',
    },
  ],
  'dss__dss-2058_dss-2058-LTA-test.pdf': [
    { signature: 2, field: 'Signature2', ours: 'indeterminate', pdfsig: 'invalid', reason: DOC_TIMESTAMP },
  ],
  'dss__pades-5-signatures-and-1-document-timestamp.pdf': [
    { signature: 6, field: 'Signature6', ours: 'indeterminate', pdfsig: 'invalid', reason: DOC_TIMESTAMP },
  ],
  'dss__timestamped_and_signed.pdf': [
    { signature: 1, field: 'Signature1', ours: 'indeterminate', pdfsig: 'invalid', reason: DOC_TIMESTAMP },
  ],
  'dss__dss-PLAIN-ECDSA_TeleSec_PKS_eIDAS_QES_CA_1-baseline-b.pdf': [
    {
      signature: 1,
      field: 'Signature3',
      ours: 'indeterminate',
      pdfsig: 'invalid',
      reason:
        'plain-ECDSA (BSI TR-03111) signature: pdfsig/NSS gives "Unknown Validation Failure"; DSS (the source) says intact and valid; intact for us, its signer unconfirmed without an anchor',
    },
  ],
  'dss__pades-unsupported-signature-algorithm.pdf': [
    {
      signature: 1,
      field: 'Signature1',
      ours: 'indeterminate',
      pdfsig: 'invalid',
      reason:
        'the signatureAlgorithm is a curve identifier (1.2.840.10045.3.1.7), no signature algorithm: the signature cannot be checked, which ETSI EN 319 102-1 makes INDETERMINATE (CRYPTO_CONSTRAINTS_FAILURE); pdfsig says "Unknown Validation Failure" and DSS "not intact"',
    },
  ],
  'pdfjs__issue17069.pdf': [
    {
      signature: 1,
      field: 'SBKrAnB9R3g9',
      ours: 'indeterminate',
      pdfsig: 'invalid',
      reason:
        'encrypted document: pdfsig cannot parse the CMS ("Unknown Validation Failure"); a signature /Contents is never encrypted and the CMS verifies; the source states no expectation',
    },
  ],
  'dss__pdf-signed-added-page.pdf': [
    {
      signature: 1,
      field: 'Signature1',
      ours: 'modified',
      pdfsig: 'indeterminate',
      reason: 'a page was added after signing; pdfsig checks bytes only, DSS reports TOTAL_FAILED',
    },
  ],
  'dss__modified_after_signature.pdf': [
    {
      signature: 1,
      field: 'Signature1',
      ours: 'modified',
      pdfsig: 'indeterminate',
      reason:
        'page content changed in later revisions; pdfsig checks bytes only, DSS flags the visual difference',
    },
  ],
  'dss__pdf-spoofing-attack.pdf': [
    {
      signature: 1,
      field: 'Sig1',
      ours: 'modified',
      pdfsig: 'absent',
      reason:
        'the genuine signature whose field the attack removed: pdfsig no longer sees it, we report it and the removal',
    },
    {
      signature: 2,
      field: 'Sig2',
      ours: 'invalid',
      pdfsig: 'unsigned',
      reason:
        "the forged field re-uses Sig1's ByteRange outside its own dictionary: a bad ByteRange for us, unsigned for pdfsig",
    },
  ],
};

interface Expectation {
  verdict?: PdfVerifyReport['verdict'];
  signatures?: Record<
    string,
    Partial<
      Pick<
        SignatureReport,
        'integrity' | 'byteRangeOk' | 'modifiedAfter' | 'verdict' | 'kind' | 'docMdp' | 'subIndication'
      >
    >
  >;
  count?: number;
}

/**
 * What each source's own test asserts (MANIFEST.tsv), where it says something we can check. The
 * sources validate against their own trust material; here no certificate chains to an anchor, so a
 * signature a source calls valid is at best indeterminate (intact, signer not confirmed) for us.
 */
const SOURCE_EXPECTATIONS: Record<string, Expectation> = {
  'dss__pdf-signed-original.pdf': {
    verdict: 'indeterminate',
    signatures: { Signature1: { integrity: 'valid' } },
  },
  'dss__pdf-signed-corrupted.pdf': {
    verdict: 'invalid',
    signatures: { Signature1: { byteRangeOk: false, verdict: 'invalid' } },
  },
  'dss__pdf-signed-out-of-byteRange.pdf': {
    verdict: 'invalid',
    signatures: { Signature1: { byteRangeOk: false, verdict: 'invalid' } },
  },
  'dss__hello_signed_INCSAVE_signed.pdf': {
    verdict: 'indeterminate',
    count: 2,
    signatures: { Signature1: { integrity: 'valid' }, Signature2: { integrity: 'valid' } },
  },
  'dss__hello_signed_INCSAVE_signed_EDITED.pdf': {
    verdict: 'invalid',
    signatures: {
      Signature1: { integrity: 'valid', verdict: 'indeterminate' },
      Signature2: { byteRangeOk: false, verdict: 'invalid' },
    },
  },
  'dss__pdf-signed-added-page.pdf': {
    verdict: 'invalid',
    signatures: { Signature1: { integrity: 'valid', modifiedAfter: 'disallowed', verdict: 'invalid' } },
  },
  'dss__modified_after_signature.pdf': {
    verdict: 'invalid',
    signatures: { Signature1: { integrity: 'valid', modifiedAfter: 'disallowed', verdict: 'invalid' } },
  },
  'dss__pades-5-signatures-and-1-document-timestamp.pdf': {
    count: 6,
    signatures: {
      Signature1: { integrity: 'valid' },
      Signature5: { integrity: 'valid', modifiedAfter: 'allowed' },
      Signature6: { kind: 'document-timestamp', integrity: 'valid' },
    },
  },
  'dss__pkcs7_sha1.pdf': {
    verdict: 'indeterminate',
    signatures: { Signature1: { integrity: 'valid' }, Signature2: { integrity: 'valid' } },
  },
  'dss__pkcs7.pdf': { verdict: 'indeterminate', signatures: { SIGN1: { integrity: 'valid' } } },
  'dss__dss-PLAIN-ECDSA_TeleSec_PKS_eIDAS_QES_CA_1-baseline-b.pdf': {
    verdict: 'indeterminate',
    signatures: { Signature3: { integrity: 'valid' } },
  },
  'dss__dss-2554_certified-no-change-permitted.pdf': {
    verdict: 'indeterminate',
    signatures: { Sign993545267: { kind: 'certification', docMdp: 1, integrity: 'valid' } },
  },
  'dss__dss-2554_certified-changes-permitted.pdf': {
    verdict: 'indeterminate',
    count: 1,
    signatures: { 'signature-test': { kind: 'certification', docMdp: 3, integrity: 'valid' } },
  },
  'dss__doc-firmado-LT.pdf': {
    verdict: 'indeterminate',
    signatures: { Signature1: { integrity: 'valid', modifiedAfter: 'allowed' } },
  },
  'dss__timestamped_and_signed.pdf': {
    verdict: 'indeterminate',
    signatures: { Signature1: { kind: 'document-timestamp' }, Signature2: { integrity: 'valid' } },
  },
  'dss__pdf-spoofing-attack.pdf': { verdict: 'invalid' },
  // The source says INVALID; an algorithm that cannot be checked is INDETERMINATE by ETSI EN 319 102-1.
  'dss__pades-unsupported-signature-algorithm.pdf': {
    verdict: 'indeterminate',
    signatures: { Signature1: { integrity: 'unknown', subIndication: 'CRYPTO_CONSTRAINTS_FAILURE' } },
  },
  'dss__BadEncodedCMS.pdf': { verdict: 'invalid' },
};

function ourOutcome(sig: SignatureReport): Outcome {
  if (sig.verdict === 'valid') return 'valid';
  if (sig.verdict === 'indeterminate') return 'indeterminate';
  if (sig.integrity === 'valid' && sig.byteRangeOk && sig.modifiedAfter === 'disallowed') return 'modified';
  return 'invalid';
}

function pdfsigOutcome(sig: PdfsigSignature): Outcome {
  if (sig.validation === 'valid') return sig.certificate === 'trusted' ? 'valid' : 'indeterminate';
  if (sig.validation === 'unsigned') return 'unsigned';
  return 'invalid';
}

/** Every place where we and pdfsig say different things about a file's signatures. */
function compare(report: PdfVerifyReport, theirs: PdfsigSignature[]): Difference[] {
  const out: Difference[] = [];
  const matched = new Set<SignatureReport>();
  for (const t of theirs) {
    const ours = report.signatures.filter((s) => s.field === t.field);
    const them = pdfsigOutcome(t);
    if (ours.length === 0) {
      const agrees =
        them === 'unsigned' && report.warnings.includes(`signature field "${t.field}" is not signed`);
      if (!agrees) out.push({ signature: 0, field: t.field, ours: 'absent', pdfsig: them, reason: '' });
      continue;
    }
    for (const s of ours) {
      matched.add(s);
      const us = ourOutcome(s);
      if (us !== them) {
        out.push({
          signature: report.signatures.indexOf(s) + 1,
          field: t.field,
          ours: us,
          pdfsig: them,
          reason: '',
        });
      }
    }
  }
  report.signatures.forEach((s, i) => {
    if (!matched.has(s))
      out.push({ signature: i + 1, field: s.field, ours: ourOutcome(s), pdfsig: 'absent', reason: '' });
  });
  return out;
}

const strip = (d: Difference) => ({ signature: d.signature, field: d.field, ours: d.ours, pdfsig: d.pdfsig });
const byNumber = (a: Difference, b: Difference) =>
  a.signature - b.signature || a.field.localeCompare(b.field);

describe.skipIf(!present)('agreement with pdfsig and the sources on the third-party corpus', () => {
  const files = present
    ? readdirSync(CORPUS)
        .filter((f) => f.endsWith('.pdf'))
        .sort()
    : [];
  const reports = new Map<string, PdfVerifyReport>();
  const reference = present
    ? parsePdfsigReference(readFileSync(join(CORPUS, 'pdfsig.txt'), 'utf8'))
    : new Map();
  const manifest = present ? parseManifest(readFileSync(join(CORPUS, 'MANIFEST.tsv'), 'utf8')) : [];

  beforeAll(async () => {
    for (const file of files) {
      const source = openFileSource(join(CORPUS, file));
      const started = Date.now();
      try {
        reports.set(file, await verifyPdf(source, { trust: { anchors: [] } }));
      } finally {
        source.close();
      }
      expect(Date.now() - started, `${file} verified in time`).toBeLessThan(15_000);
    }
  }, 180_000);

  it('has a reference run and a manifest row for every file', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    for (const file of files) {
      expect(reference.has(file), `pdfsig.txt has ${file}`).toBe(true);
      expect(
        manifest.some((row) => row.filename === file),
        `MANIFEST.tsv has ${file}`,
      ).toBe(true);
    }
  });

  it('disagrees with the stored pdfsig run only where the table says so, and every entry still disagrees', () => {
    for (const file of files) {
      const report = reports.get(file) as PdfVerifyReport;
      const found = compare(report, reference.get(file).signatures).sort(byNumber).map(strip);
      const listed = (DELIBERATE_DIFFERENCES[file] ?? []).slice().sort(byNumber).map(strip);
      expect(found, file).toEqual(listed);
    }
    for (const file of Object.keys(DELIBERATE_DIFFERENCES))
      expect(files, 'table names a corpus file').toContain(file);
  });

  it.skipIf(!pdfsigInstalled)(
    'disagrees with a live pdfsig run only where the table says so',
    () => {
      for (const file of files) {
        const run = spawnSync('pdfsig', [join(CORPUS, file)], { encoding: 'utf8', timeout: 60_000 });
        const theirs = parsePdfsigRun(`${run.stdout}\n${run.stderr}`);
        const found = compare(reports.get(file) as PdfVerifyReport, theirs)
          .sort(byNumber)
          .map(strip);
        const listed = (DELIBERATE_DIFFERENCES[file] ?? []).slice().sort(byNumber).map(strip);
        expect(found, file).toEqual(listed);
      }
    },
    180_000,
  );

  it('follows the source where it states an expectation', () => {
    for (const [file, want] of Object.entries(SOURCE_EXPECTATIONS)) {
      const report = reports.get(file);
      expect(report, file).toBeDefined();
      if (!report) continue;
      if (want.verdict) expect(report.verdict, file).toBe(want.verdict);
      if (want.count !== undefined) expect(report.signatures, file).toHaveLength(want.count);
      for (const [field, fields] of Object.entries(want.signatures ?? {})) {
        const sig = report.signatures.find((s) => s.field === field);
        expect(sig, `${file} ${field}`).toBeDefined();
        expect(sig, `${file} ${field}`).toMatchObject(fields);
      }
    }
  });

  it('never shows a spoofed signature as valid and explains why', () => {
    const report = reports.get('dss__pdf-spoofing-attack.pdf') as PdfVerifyReport;
    expect(report.signatures.map((s) => s.field)).toEqual(['Sig1', 'Sig2']);
    for (const s of report.signatures) {
      expect(s.verdict).toBe('invalid');
      expect(s.reasons.length).toBeGreaterThan(0);
    }
    const [sig1] = report.signatures as [SignatureReport];
    expect(sig1.changes.filter((c) => !c.allowed).map((c) => c.detail)).toContain(
      'signature field "Sig1" removed (it was signed)',
    );
  });

  it('without trust anchors no corpus signature is valid, and every intact one names why it is not', () => {
    for (const [file, report] of reports) {
      for (const s of report.signatures) {
        expect(s.verdict, `${file} ${s.field}`).not.toBe('valid');
        if (s.verdict === 'indeterminate') {
          expect(s.integrity === 'valid' || s.integrity === 'unknown', `${file} ${s.field}`).toBe(true);
          expect(s.subIndication, `${file} ${s.field}`).toBeDefined();
          expect(s.findings.some((f) => f.severity === 'indeterminate')).toBe(true);
        }
      }
    }
    const sha1 = reports.get('dss__pkcs7_sha1.pdf') as PdfVerifyReport;
    expect(sha1.signatures[0]?.findings).toContainEqual({
      code: 'algorithm.weak',
      severity: 'indeterminate',
      params: { algorithm: 'SHA-1' },
    });
  });

  it('a PAdES B-LT signature anchored at its own root is valid: its timestamp proves the time, its DSS the status', async () => {
    const file = join(CORPUS, 'dss__doc-firmado-LT.pdf');
    const text = readFileSync(file).toString('latin1');
    const roots: Uint8Array[] = [];
    for (const m of text.matchAll(/\/Contents\s*<([0-9A-Fa-f]+)>/g)) {
      for (const der of parseCms(Buffer.from(m[1] as string, 'hex')).certificates) {
        const cert = new X509Certificate(der);
        if (cert.ca && cert.subject === cert.issuer) roots.push(der);
      }
    }
    expect(roots).toHaveLength(1);
    const source = openFileSource(file);
    try {
      const report = await verifyPdf(source, { trust: { anchors: roots } });
      const sig = report.signatures[0] as SignatureReport;
      expect(report.verdict).toBe('valid');
      expect(sig).toMatchObject({ chain: 'trusted', revocation: { status: 'good' }, verdict: 'valid' });
      // Its certificates have expired since; the timestamp proves the signature was made before.
      expect(sig.provenTime).toBe(sig.timestamp?.time);
      expect(Date.parse(sig.certNotAfter as string)).toBeLessThan(Date.now());
    } finally {
      source.close();
    }
  });

  it('reads signatures of encrypted documents and timestamps', () => {
    const qpdf = reports.get('qpdf__minimal-signed-restricted.pdf') as PdfVerifyReport;
    expect(qpdf.encrypted).toBe(true);
    expect(qpdf.signatures[0]).toMatchObject({
      kind: 'certification',
      docMdp: 1,
      integrity: 'valid',
      signer: 'Adobe Acrobat Sign',
    });
    const lt = reports.get('dss__doc-firmado-LT.pdf') as PdfVerifyReport;
    expect(lt.signatures[0]?.timestamp?.valid).toBe(true);
    expect(lt.signatures[0]?.changes.every((c) => c.kind === 'dss' && c.allowed)).toBe(true);
  });
});
