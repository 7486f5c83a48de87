import {
  concludeDocument,
  concludeFindings,
  makeFinding,
  verifyReasonText,
  type VerifyFinding,
} from '@openseal/core';
import {
  integrityFinding,
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
  /** What the CMS (or time-stamp token) check found: integrity, signer, chain, revocation, algorithms. */
  findings: VerifyFinding[];
}

/** How many findings of one kind of change a signature lists before the rest go without saying. */
const MAX_CHANGE_FINDINGS = 5;

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

/** Reasons that follow from the changes made after a signature. */
function changeFindings(report: SignatureReport): VerifyFinding[] {
  const out: VerifyFinding[] = [];
  const bad = report.changes.filter((c) => !c.allowed);
  if (bad.length > 0) {
    const first = bad[0] as SignatureChange;
    out.push(
      makeFinding('changes.disallowed', {
        count: bad.length,
        first: `${first.detail} (revision ${first.revision + 1})`,
      }),
    );
  }
  // Permitted or not, something a reader sees that came after the signature keeps it from a plain valid.
  const visible = report.changes.filter((c) => c.allowed && c.visible === true);
  const take = (pick: (c: SignatureChange) => VerifyFinding | undefined) => {
    const found: VerifyFinding[] = [];
    for (const c of visible) {
      const f = pick(c);
      if (f && found.length < MAX_CHANGE_FINDINGS) found.push(f);
    }
    out.push(...found);
  };
  const shown = (c: SignatureChange) => c.text ?? (c.image ? '[image]' : '[drawing]');
  take((c) =>
    (c.kind === 'annotation' && c.action === 'added') || c.kind === 'signature'
      ? makeFinding('changes.visibleAnnotation', {
          page: c.page ?? '?',
          subtype: c.subtype ?? 'Widget',
          text: shown(c),
        })
      : undefined,
  );
  take((c) =>
    c.kind === 'annotation' && c.action !== 'added'
      ? makeFinding('changes.annotationChanged', { page: c.page ?? '?', subtype: c.subtype ?? '?' })
      : undefined,
  );
  take((c) =>
    c.kind === 'form-fill' && c.action === 'added'
      ? makeFinding('changes.fieldAdded', { field: c.field ?? '?', page: c.page ?? '?' })
      : undefined,
  );
  const allowed = report.changes.filter((c) => c.allowed).length;
  if (bad.length === 0 && allowed > 0) out.push(makeFinding('changes.allowed', { count: allowed }));
  return out;
}

function concludeSignature(p: Pending): void {
  const report = p.report;
  const findings: VerifyFinding[] = [];
  if (!report.byteRangeOk)
    findings.push(makeFinding('format.byteRange', { problem: report.byteRangeProblem ?? 'invalid' }));
  findings.push(...p.findings, ...changeFindings(report));
  const { verdict, subIndication } = concludeFindings(findings);
  report.findings = findings;
  report.verdict = verdict;
  if (subIndication) report.subIndication = subIndication;
  report.reasons = findings
    .filter((f) => f.severity !== 'info')
    .map((f) => verifyReasonText(f.code, 'en', f.params));
}

/** The document's own reasons: which signatures fail or stay unconfirmed, and notes on its structure. */
function documentFindings(
  doc: PdfDocument,
  signatures: SignatureReport[],
  unsignedFields: string[],
): VerifyFinding[] {
  const out: VerifyFinding[] = [];
  if (signatures.length === 0) out.push(makeFinding('document.noSignatures'));
  for (const s of signatures) {
    const params = { field: s.field, signer: s.signer ?? '?' };
    if (s.verdict === 'invalid') out.push(makeFinding('document.signatureInvalid', params));
    else if (s.verdict === 'indeterminate') out.push(makeFinding('document.signatureIndeterminate', params));
  }
  if (doc.repaired) out.push(makeFinding('document.repaired'));
  for (const field of unsignedFields.slice(0, 20)) out.push(makeFinding('document.unsignedField', { field }));
  return out;
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
    findings: [],
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
  if (result.digestAlgorithm) report.digestAlgorithm = result.digestAlgorithm;
  if (result.signatureAlgorithm) report.signatureAlgorithm = result.signatureAlgorithm;
  const proven = iso(result.provenTime);
  if (proven) report.provenTime = proven;
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

/**
 * Checks a document time-stamp: its token over the byte ranges, and its TSA's path to an anchor.
 * Answers the findings; the TSA certificate's revocation is not looked up.
 */
async function checkDocumentTimestamp(
  report: SignatureReport,
  source: ByteSource,
  token: Uint8Array,
  ranges: Array<[number, number]>,
  trust: TrustStore,
  extraCertificates: Uint8Array[],
): Promise<VerifyFinding[]> {
  const algorithm = imprintAlgorithm(token);
  if (!algorithm || !isDigestAlgorithm(algorithm)) {
    report.integrityReason = algorithm
      ? `unsupported imprint algorithm ${algorithm}`
      : 'the timestamp token cannot be parsed';
    if (algorithm) {
      report.integrity = 'unknown';
      return [makeFinding('algorithm.unsupported', { algorithm })];
    }
    return [makeFinding('format.cmsUnreadable', { reason: report.integrityReason })];
  }
  const digest = digestRanges(source, ranges, algorithm);
  const result = await verifyTimeStampToken(token, { digest, algorithm }, trust, { extraCertificates });
  const time = iso(result.time) ?? '';
  report.signer = result.tsa ? commonNameOf(result.tsa) : null;
  if (result.tsa) report.signerSubject = result.tsa;
  report.signingTime = report.signingTime ?? (time || null);
  report.integrity = result.valid
    ? 'valid'
    : result.failure === 'unsupported' || result.failure === 'no-signer'
      ? 'unknown'
      : 'invalid';
  if (result.reason) report.integrityReason = result.reason;
  report.digestAlgorithm = algorithm;
  report.timestamp = { time, valid: result.valid };
  if (result.tsa) report.timestamp.tsa = result.tsa;
  report.chain = result.chain;
  report.chainSubjects = result.chainSubjects;
  if (result.valid && result.chain === 'trusted' && time) report.provenTime = time;
  const findings: VerifyFinding[] = [];
  if (!result.valid) {
    const reason = result.reason ?? 'the timestamp token does not verify';
    findings.push(
      result.failure === 'constraints'
        ? makeFinding('chain.constraints', { reason })
        : integrityFinding(result.failure, reason),
    );
  }
  findings.push(...result.chainFindings);
  return findings;
}

/** Certificates looked up together at most (the caller looks up any other one by one). */
const PREFETCH_MAX = 256;

/** The distinct certificates of the signatures' CMS and of the DSS, for a revocation prefetch. */
function carriedCertificates(
  doc: PdfDocument,
  signatures: readonly FoundSignature[],
  dssCerts: readonly Uint8Array[],
): Uint8Array[] {
  const seen = new Set<string>();
  const out: Uint8Array[] = [];
  const add = (der: Uint8Array) => {
    const key = Buffer.from(der.buffer, der.byteOffset, der.byteLength).toString('latin1');
    if (out.length < PREFETCH_MAX && !seen.has(key)) {
      seen.add(key);
      out.push(der);
    }
  };
  for (const found of signatures) {
    try {
      const contents = doc.resolve(found.dict.get('Contents'), found.definedIn);
      if (contents instanceof PdfString && contents.bytes.length > 0)
        parseCms(contents.bytes).certificates.forEach(add);
    } catch {
      // an unreadable CMS carries nothing to look up; its verification says why
    }
  }
  dssCerts.forEach(add);
  return out;
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
  if (options.checkRevocation && options.prefetchRevocation) {
    const certificates = carriedCertificates(doc, discovery.signatures, dss.certs);
    checkTime();
    if (certificates.length > 0) await options.prefetchRevocation(certificates).catch(() => undefined);
  }

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
    let findings: VerifyFinding[] = [];

    if (!(contents instanceof PdfString) || contents.bytes.length === 0) {
      report.integrityReason = 'the signature has no /Contents';
      findings = [makeFinding('format.noContents')];
    } else if (!check.ranges) {
      // The ByteRange finding says why.
      report.integrityReason = 'the signed ranges cannot be read: ' + (check.problem ?? 'bad /ByteRange');
    } else if (report.kind === 'document-timestamp') {
      try {
        findings = await checkDocumentTimestamp(
          report,
          source,
          contents.bytes,
          check.ranges,
          options.trust,
          dss.certs,
        );
      } catch (e) {
        if (e instanceof PdfError && e.code === 'timeout') throw e;
        report.integrity = 'invalid';
        report.integrityReason = `the timestamp token cannot be verified: ${errorText(e)}`;
        findings = [makeFinding('format.cmsUnreadable', { reason: report.integrityReason })];
      }
    } else {
      try {
        const result = await verifyCms({
          cms: contents.bytes,
          subFilter: report.subFilter,
          digestOf: createRangeDigester(source, check.ranges),
          trust: options.trust,
          extraCertificates: dss.certs,
          revocation: {
            ocspResponses: [...dss.ocsps, ...(options.revocation?.ocspResponses ?? [])],
            crls: [...dss.crls, ...(options.revocation?.crls ?? [])],
          },
          ...(options.checkRevocation ? { checkRevocation: options.checkRevocation } : {}),
          ...(options.now ? { now: options.now } : {}),
        });
        applyCms(report, result);
        findings = result.findings;
      } catch (e) {
        if (e instanceof PdfError && e.code === 'timeout') throw e;
        report.integrity = 'invalid';
        report.integrityReason = `the signature cannot be verified: ${errorText(e)}`;
        findings = [makeFinding('format.cmsUnreadable', { reason: report.integrityReason })];
      }
    }
    pending.push({ found, report, check, docMdp, findings });
  }

  judgeChanges(doc, pending, warnings, checkTime);
  for (const p of pending) concludeSignature(p);
  const signatures = pending.map((p) => p.report);
  return {
    verdict: concludeDocument(signatures.map((s) => s.verdict)),
    findings: documentFindings(doc, signatures, discovery.unsignedFields),
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
