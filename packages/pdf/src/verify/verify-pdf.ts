import {
  parseCms,
  parseTstInfo,
  verifyCms,
  verifyTimeStampToken,
  type CmsVerifyResult,
  type TrustStore,
} from '@openseal/pki';
import { PdfError } from '../errors';
import { PdfRef, PdfStream, PdfString, type PdfObject } from '../objects';
import { openPdf, type PdfDocument } from '../reader';
import { toSource, type ByteSource } from '../source';
import { checkByteRange, type ByteRangeCheck } from './byte-range';
import { diffRevision, type DocMdp } from './changes';
import { createRangeDigester, digestRanges, isDigestAlgorithm } from './digest';
import { certificationRefs, discoverSignatures, docMdpOf, type FoundSignature } from './discover';
import { computeModel, type RevisionModel } from './model';
import type { PdfVerifyReport, SignatureChange, SignatureReport, VerifyPdfOptions } from './types';
import { arrayOf, asName, asNumber, asText, dictOf, pdfDateToIso } from './values';

function iso(value: Date | string | undefined | null): string | undefined {
  if (value === undefined || value === null) return undefined;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

interface Pending {
  found: FoundSignature;
  report: SignatureReport;
  check: ByteRangeCheck;
  docMdp: DocMdp;
}

/** Certificates and revocation data from the Document Security Store of the latest revision. */
function readDss(doc: PdfDocument): { certs: Uint8Array[]; ocsps: Uint8Array[]; crls: Uint8Array[] } {
  const out = { certs: [] as Uint8Array[], ocsps: [] as Uint8Array[], crls: [] as Uint8Array[] };
  try {
    const dss = dictOf(doc, doc.catalog().get('DSS'), doc.revisions.length - 1);
    if (!dss) return out;
    const take = (list: PdfObject | undefined, into: Uint8Array[]) => {
      for (const item of arrayOf(doc, list, doc.revisions.length - 1)) {
        const s = doc.resolve(item);
        if (s instanceof PdfStream && into.length < 1000) {
          try {
            into.push(doc.streamData(s));
          } catch {
            // An unreadable DSS entry only means less validation data.
          }
        }
      }
    };
    take(dss.get('Certs'), out.certs);
    take(dss.get('OCSPs'), out.ocsps);
    take(dss.get('CRLs'), out.crls);
  } catch (e) {
    if (e instanceof PdfError && e.code === 'timeout') throw e;
  }
  return out;
}

/** 1-based page and rectangle of the first widget of the signature's field. */
function placeOf(
  doc: PdfDocument,
  found: FoundSignature,
): { page?: number; rect?: [number, number, number, number] } {
  const field = found.field;
  const widget = field?.widgets[0];
  if (!field || !widget) return {};
  try {
    const r = field.revision;
    const w = dictOf(doc, widget, r);
    if (!w) return {};
    const out: { page?: number; rect?: [number, number, number, number] } = {};
    const rect = arrayOf(doc, w.get('Rect'), r).map((v) => asNumber(doc.resolve(v, r)));
    if (rect.length === 4 && rect.every((v) => v !== undefined))
      out.rect = rect as [number, number, number, number];
    const pages = doc.pages(r);
    const p = w.get('P');
    let index = p instanceof PdfRef ? pages.findIndex((pg) => pg.ref.equals(p)) : -1;
    if (index < 0) {
      index = pages.findIndex((pg) =>
        arrayOf(doc, pg.dict.get('Annots'), r).some((a) => a instanceof PdfRef && a.equals(widget)),
      );
    }
    if (index >= 0) out.page = index + 1;
    return out;
  } catch (e) {
    if (e instanceof PdfError && e.code === 'timeout') throw e;
    return {};
  }
}

function revokedBeforeSigning(report: SignatureReport): boolean {
  if (report.revocation.status !== 'revoked') return false;
  if (!report.revocation.revokedAt) return true;
  const at = report.timestamp?.valid ? report.timestamp.time : report.signingTime;
  if (!at) return true;
  return Date.parse(report.revocation.revokedAt) <= Date.parse(at);
}

function concludeSignature(report: SignatureReport): void {
  const reasons: string[] = [];
  if (!report.byteRangeOk) reasons.push(`ByteRange: ${report.byteRangeProblem ?? 'invalid'}`);
  if (report.integrity !== 'valid') {
    reasons.push(`the signature does not verify: ${report.integrityReason ?? 'integrity check failed'}`);
  }
  if (report.modifiedAfter === 'disallowed') {
    const bad = report.changes.filter((c) => !c.allowed);
    const shown = bad.slice(0, 3).map((c) => `${c.detail} (revision ${c.revision})`);
    reasons.push(`the document was changed after signing in ways not permitted: ${shown.join('; ')}`);
  }
  if (report.chain === 'invalid') reasons.push('the certificate chain is invalid');
  if (revokedBeforeSigning(report))
    reasons.push('the signing certificate was revoked before the signing time');
  if (report.timestamp && !report.timestamp.valid) reasons.push('the timestamp is invalid');
  report.reasons = reasons;
  report.verdict = reasons.length === 0 ? 'valid' : 'invalid';
}

function baseReport(
  doc: PdfDocument,
  found: FoundSignature,
  check: ByteRangeCheck,
  certified: Set<string>,
): SignatureReport {
  const dict = found.dict;
  const r = found.definedIn;
  const subFilter = asName(doc.resolve(dict.get('SubFilter'), r)) ?? '';
  const type = dict.getName('Type');
  const isDts = type === 'DocTimeStamp' || subFilter === 'ETSI.RFC3161';
  const isCertification =
    !isDts && (docMdpOf(doc, dict, r) !== undefined || (found.ref ? certified.has(found.ref.key()) : false));
  const report: SignatureReport = {
    field: found.field?.name ?? '(no field)',
    kind: isDts ? 'document-timestamp' : isCertification ? 'certification' : 'signature',
    subFilter,
    signer: null,
    signingTime: pdfDateToIso(asText(doc.resolve(dict.get('M'), r))),
    byteRange: check.values,
    byteRangeOk: check.ok,
    integrity: 'invalid',
    coversWholeDocument: check.coversWholeDocument,
    signedRevision: check.signedRevision,
    modifiedAfter: 'none',
    changes: [],
    chain: 'untrusted',
    chainSubjects: [],
    validAtSigningTime: null,
    timestamp: null,
    revocation: { status: 'unknown', source: 'not checked' },
    verdict: 'invalid',
    reasons: [],
  };
  if (check.problem) report.byteRangeProblem = check.problem;
  Object.assign(report, placeOf(doc, found));
  return report;
}

function applyCms(report: SignatureReport, result: CmsVerifyResult): void {
  if (result.signer) {
    report.signer = result.signer.commonName ?? result.signer.subject ?? null;
    report.signerSubject = result.signer.subject;
    report.signerIssuer = result.signer.issuer;
    report.serialHex = result.signer.serialHex;
    const notBefore = iso(result.signer.notBefore);
    const notAfter = iso(result.signer.notAfter);
    if (notBefore) report.certNotBefore = notBefore;
    if (notAfter) report.certNotAfter = notAfter;
  }
  report.integrity = result.integrity;
  const reason = result.integrityReason ?? result.parseError;
  if (reason) report.integrityReason = reason;
  if (!report.signingTime) report.signingTime = iso(result.signingTime) ?? null;
  report.chain = result.chain;
  report.chainSubjects = result.chainSubjects;
  report.validAtSigningTime = result.validAtSigningTime;
  if (result.timestamp) {
    report.timestamp = { time: iso(result.timestamp.time) ?? '', valid: result.timestamp.valid };
    if (result.timestamp.tsa) report.timestamp.tsa = result.timestamp.tsa;
  }
  const rev = result.revocation;
  report.revocation = { status: rev.status, source: rev.source };
  const revokedAt = iso(rev.revokedAt);
  if (revokedAt) report.revocation.revokedAt = revokedAt;
  if (rev.reason) report.revocation.reason = rev.reason;
}

/** The CN of a subject written as `CN=…, O=…`, else the whole subject. */
function commonNameOf(subject: string): string {
  const m = /(?:^|,\s*)CN=((?:\\,|[^,])+)/.exec(subject);
  return m ? (m[1] as string).replace(/\\,/g, ',').trim() : subject;
}

/** The hash algorithm a document timestamp's imprint uses, so the ByteRange is hashed once, with it. */
function imprintAlgorithm(token: Uint8Array): string | undefined {
  try {
    const cms = parseCms(token);
    if (!cms.eContent) return undefined;
    const tst = parseTstInfo(cms.eContent);
    return tst.hashAlgorithm ?? tst.hashAlgorithmOid;
  } catch {
    return undefined;
  }
}

async function checkDocumentTimestamp(
  report: SignatureReport,
  source: ByteSource,
  token: Uint8Array,
  ranges: Array<[number, number]>,
  trust: TrustStore,
  extraCertificates: Uint8Array[],
): Promise<void> {
  const algorithm = imprintAlgorithm(token);
  if (!algorithm || !isDigestAlgorithm(algorithm)) {
    report.integrityReason = algorithm
      ? `unsupported imprint algorithm ${algorithm}`
      : 'the timestamp token cannot be parsed';
    return;
  }
  const digest = digestRanges(source, ranges, algorithm);
  const result = await verifyTimeStampToken(token, { digest, algorithm }, trust, { extraCertificates });
  const time = iso(result.time) ?? '';
  report.signer = result.tsa ? commonNameOf(result.tsa) : null;
  if (result.tsa) report.signerSubject = result.tsa;
  report.signingTime = report.signingTime ?? (time || null);
  report.integrity = result.valid ? 'valid' : 'invalid';
  if (result.reason) report.integrityReason = result.reason;
  report.timestamp = { time, valid: result.valid };
  if (result.tsa) report.timestamp.tsa = result.tsa;
  report.chain = result.chain;
  report.chainSubjects = result.chainSubjects;
}

/**
 * Verifies every signature of a PDF, including those a later revision hid, and judges what changed
 * after each one. Throws PdfError when the file cannot be read at all.
 */
export async function verifyPdf(
  input: ByteSource | Uint8Array,
  options: VerifyPdfOptions,
): Promise<PdfVerifyReport> {
  const source = toSource(input);
  const doc = openPdf(source, {
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.password ? { password: options.password } : {}),
  });
  const deadline = Date.now() + (options.limits?.deadlineMs ?? 120_000);
  const checkTime = () => {
    if (Date.now() > deadline) throw new PdfError('timeout', 'verifying the PDF took too long');
  };
  const warnings: string[] = [];
  if (doc.repaired)
    warnings.push('the cross-reference data is damaged; revisions were recovered by scanning the file');
  if (doc.encrypted && !doc.decrypted)
    warnings.push('the document is encrypted with a password we do not have; names may be unreadable');

  const discovery = discoverSignatures(doc);
  checkTime();
  warnings.push(...discovery.warnings);
  for (const name of discovery.unsignedFields) warnings.push(`signature field "${name}" is not signed`);
  const certified = certificationRefs(doc);
  const revisionEnds = doc.revisions.map((r) => r.end);
  const dss = readDss(doc);

  const pending: Pending[] = [];
  for (const found of discovery.signatures) {
    checkTime();
    const br = doc.resolve(found.dict.get('ByteRange'), found.definedIn);
    const contents = doc.resolve(found.dict.get('Contents'), found.definedIn);
    const check = checkByteRange(source, {
      byteRange: Array.isArray(br)
        ? br.map((v) => (v instanceof PdfRef ? doc.resolve(v, found.definedIn) : v))
        : undefined,
      ...(contents instanceof PdfString ? { contents: contents.bytes } : {}),
      ...(found.offset !== undefined ? { objectOffset: found.offset } : {}),
      compressed: found.compressed,
      revisionEnds,
    });
    const report = baseReport(doc, found, check, certified);
    let docMdp: DocMdp = undefined;
    if (report.kind === 'certification') docMdp = docMdpOf(doc, found.dict, found.definedIn) ?? 2;

    if (!(contents instanceof PdfString) || contents.bytes.length === 0) {
      report.integrityReason = 'the signature has no /Contents';
    } else if (!check.ranges) {
      report.integrityReason = 'the signed ranges cannot be read: ' + (check.problem ?? 'bad /ByteRange');
    } else if (report.kind === 'document-timestamp') {
      try {
        await checkDocumentTimestamp(report, source, contents.bytes, check.ranges, options.trust, dss.certs);
      } catch (e) {
        if (e instanceof PdfError && e.code === 'timeout') throw e;
        report.integrity = 'invalid';
        report.integrityReason = `the timestamp token cannot be verified: ${errorText(e)}`;
      }
    } else {
      try {
        const result = await verifyCms({
          cms: contents.bytes,
          subFilter: report.subFilter,
          digestOf: createRangeDigester(source, check.ranges),
          trust: options.trust,
          extraCertificates: dss.certs,
          revocation: { ocspResponses: dss.ocsps, crls: dss.crls },
          ...(options.checkRevocation ? { checkRevocation: options.checkRevocation } : {}),
          ...(options.now ? { now: options.now } : {}),
        });
        applyCms(report, result);
      } catch (e) {
        if (e instanceof PdfError && e.code === 'timeout') throw e;
        report.integrity = 'invalid';
        report.integrityReason = `the signature cannot be verified: ${errorText(e)}`;
      }
    }
    pending.push({ found, report, check, docMdp });
  }

  judgeChanges(doc, pending, warnings, checkTime);
  const signatures = pending.map((p) => p.report);
  for (const s of signatures) concludeSignature(s);
  const verdict =
    signatures.length === 0
      ? 'no-signatures'
      : signatures.every((s) => s.verdict === 'valid')
        ? 'valid'
        : 'invalid';
  return {
    verdict,
    signatures,
    revisions: doc.revisions.length,
    repaired: doc.repaired,
    encrypted: doc.encrypted,
    warnings,
  };
}

/** Compares each signed revision with every later one and fills in changes, modifiedAfter and docMdp. */
function judgeChanges(doc: PdfDocument, pending: Pending[], warnings: string[], checkTime: () => void): void {
  const last = doc.revisions.length - 1;
  const certifications = pending
    .filter((p) => p.docMdp !== undefined && p.check.signedRevision >= 0)
    .map((p) => ({ revision: p.check.signedRevision, p: p.docMdp as 1 | 2 | 3 }));
  // The strictest certification made before a change governs it.
  const mdpAt = (revision: number): DocMdp => {
    const inForce = certifications.filter((c) => c.revision < revision).map((c) => c.p);
    return inForce.length ? (Math.min(...inForce) as 1 | 2 | 3) : undefined;
  };
  const models = new Map<number, RevisionModel>();
  const model = (r: number): RevisionModel => {
    let m = models.get(r);
    if (!m) {
      checkTime();
      m = computeModel(doc, r);
      models.set(r, m);
    }
    return m;
  };
  const steps = new Map<number, SignatureChange[]>();
  const step = (r: number): SignatureChange[] => {
    let s = steps.get(r);
    if (!s) {
      checkTime();
      s = diffRevision(doc, model(r - 1), model(r), mdpAt(r));
      steps.set(r, s);
    }
    return s;
  };
  for (const p of pending) {
    const k = p.check.signedRevision;
    const inForce = certifications.filter((c) => c.revision <= k).map((c) => c.p);
    const mdp = p.docMdp ?? (inForce.length ? (Math.min(...inForce) as 1 | 2 | 3) : undefined);
    if (mdp !== undefined) p.report.docMdp = mdp;
    if (k < 0) continue;
    const changes: SignatureChange[] = [];
    for (let r = k + 1; r <= last; r++) changes.push(...step(r));
    p.report.changes = changes;
    p.report.modifiedAfter =
      changes.length === 0 ? 'none' : changes.every((c) => c.allowed) ? 'allowed' : 'disallowed';
  }
  for (const m of models.values()) if (m.problem) warnings.push(m.problem);
}
