/**
 * Verification of a CMS signature made by anyone (Adobe, DSS, iText, node-signpdf, our own signer):
 * parse, integrity, signing-certificate reference, signature time-stamp, certification path, revocation.
 * Every outcome is reported in the result; nothing throws.
 */
import {
  concludeFindings,
  makeFinding,
  type SignatureVerdict,
  type SubIndication,
  type VerifyFinding,
} from '@openseal/core';
import type { TrustStore } from '../types';
import { bytesEqual } from './der';
import {
  buildChain,
  isAnchor,
  issuerCandidates,
  makeCertificatePool,
  type CertificatePool,
  type ChainFailure,
  type ChainResult,
  type ChainStatus,
} from './chain';
import type { CertInfo } from './cert';
import { verifyIssuedByCached } from './cert-cache';
import { pathAlgorithmFindings } from './constraints';
import { chainFindings, integrityFinding } from './findings';
import { parseCms, type ParsedSignedData, type ParsedSignerInfo } from './cms-parse';
import type { SigningCertificateRef } from './ess';
import { OID, digest, hashByOid, type HashName } from './oids';
import {
  evaluateRevocation,
  readRevocationArchival,
  readRevocationInputs,
  type RevocationEvidence,
  type RevocationStatus,
} from './revocation';
import { checkSignerInfo, findAttribute, type ContentBinding, type IntegrityFailure } from './signer-info';
import { parseTstInfo, verifyTimeStampToken, type TimeStampVerification } from './timestamp-verify';

export interface CmsVerifyInput {
  /** DER; zero padding after the end is tolerated (PDF /Contents is zero-padded). */
  cms: Uint8Array;
  /** 'ETSI.CAdES.detached' | 'adbe.pkcs7.detached' | 'adbe.pkcs7.sha1' | 'ETSI.RFC3161' ... */
  subFilter?: string;
  /** Hash of the signed bytes (PDF byte ranges; for attached content, that content), computed by the caller. */
  digestOf: (algorithm: HashName) => Promise<Uint8Array>;
  trust: TrustStore;
  /** e.g. from a PDF DSS. */
  extraCertificates?: Uint8Array[];
  /** OCSP responses / CRLs found in the PDF DSS or elsewhere. */
  revocation?: RevocationEvidence;
  /** Online or platform lookup, consulted only when the evidence at hand is silent. */
  checkRevocation?: (cert: Uint8Array, issuer: Uint8Array) => Promise<RevocationStatus | undefined>;
  /** The validation time: expiry is judged against it when no trusted timestamp proves an earlier one. */
  now?: Date;
}

export interface CmsSignerSummary {
  commonName?: string;
  subject: string;
  issuer: string;
  serialHex: string;
  notBefore: Date;
  notAfter: Date;
  certificate: Uint8Array;
}

export interface CmsVerifyResult {
  parsed: boolean;
  parseError?: string;
  signer: null | CmsSignerSummary;
  digestAlgorithm?: string;
  signatureAlgorithm?: string;
  /**
   * messageDigest vs digestOf, and the signature over the signed attributes (or the content);
   * 'unknown' when it cannot be checked (an unsupported algorithm, no signer certificate).
   */
  integrity: 'valid' | 'invalid' | 'unknown';
  integrityReason?: string;
  integrityFailure?: IntegrityFailure;
  /** From the signing-time attribute, or the genTime of a document time-stamp. */
  signingTime?: Date;
  signingCertificateRef: SigningCertificateRef;
  /** The signature time-stamp (unsigned attribute), or the token itself for a document time-stamp. */
  timestamp: null | {
    time: Date;
    valid: boolean;
    tsa?: string;
    reason?: string;
    chain?: ChainStatus;
    chainFindings?: VerifyFinding[];
  };
  chain: ChainStatus;
  chainReason?: string;
  chainFailure?: ChainFailure;
  chainSubjects: string[];
  /** Signer certificate validity at the time-stamp time, else the signing time, else null. */
  validAtSigningTime: boolean | null;
  /** The signing time a valid time-stamp from a trusted TSA proves (proof of existence). */
  provenTime?: Date;
  revocation: RevocationStatus;
  /** Catalogued reasons, most decisive kinds first (ETSI EN 319 102-1 style). */
  findings: VerifyFinding[];
  /** What the findings give: valid, invalid or indeterminate, and the ETSI sub-indication. */
  verdict: SignatureVerdict;
  subIndication?: SubIndication;
}

function summarize(cert: CertInfo): CmsSignerSummary {
  const { commonName, subject, issuer, serialHex, notBefore, notAfter, der } = cert;
  return { commonName, subject, issuer, serialHex, notBefore, notAfter, certificate: der };
}

interface Binding {
  content: ContentBinding;
  /** Ties the signed content to the caller's bytes when the CMS carries the content itself. */
  bindsCallerBytes?: () => Promise<string | undefined>;
}

function contentBinding(
  cms: ParsedSignedData,
  si: ParsedSignerInfo,
  input: CmsVerifyInput,
): Binding | string {
  const eContent = cms.eContent;
  if (!eContent) {
    if (input.subFilter === 'adbe.pkcs7.sha1') return 'adbe.pkcs7.sha1 signature without an embedded digest';
    return { content: { digest: (alg) => input.digestOf(alg) } };
  }
  const content: ContentBinding = { digest: async (alg) => digest(alg, eContent), data: eContent };
  if (cms.eContentType === OID.tstInfo) {
    return {
      content,
      bindsCallerBytes: async () => {
        const tst = parseTstInfo(eContent);
        if (!tst.hashAlgorithm) return `unsupported time-stamp imprint hash ${tst.hashAlgorithmOid}`;
        const expected = await input.digestOf(tst.hashAlgorithm);
        return bytesEqual(expected, tst.hashedMessage)
          ? undefined
          : 'time-stamp imprint does not match the signed bytes';
      },
    };
  }
  if (input.subFilter === 'adbe.pkcs7.sha1') {
    return {
      content,
      bindsCallerBytes: async () =>
        bytesEqual(eContent, await input.digestOf('SHA-1'))
          ? undefined
          : 'embedded SHA-1 digest does not match the signed bytes',
    };
  }
  return {
    content,
    bindsCallerBytes: async () => {
      const alg = hashByOid(si.digestAlgorithm) ?? 'SHA-256';
      return bytesEqual(digest(alg, eContent), await input.digestOf(alg))
        ? undefined
        : 'the attached content is not the signed bytes';
    },
  };
}

function findIssuer(cert: CertInfo, path: CertInfo[], pool: CertificatePool): CertInfo | undefined {
  if (path.length > 1) return path[1];
  return issuerCandidates(cert, pool).find((c) => verifyIssuedByCached(cert, c).ok);
}

async function revocationOf(
  signer: CertInfo,
  issuer: CertInfo | undefined,
  cms: ParsedSignedData,
  si: ParsedSignerInfo,
  input: CmsVerifyInput,
  signingTime: Date | undefined,
): Promise<RevocationStatus> {
  if (!issuer) return { status: 'unknown', source: 'none', reason: 'issuer certificate not available' };
  const embedded = { crls: [...cms.crls], ocspResponses: [...cms.ocspResponses] };
  for (const attr of findAttribute(si.signedAttrs?.attributes, OID.adbeRevocationInfoArchival)) {
    for (const value of attr.values) {
      try {
        const archived = readRevocationArchival(value.raw);
        embedded.crls.push(...archived.crls);
        embedded.ocspResponses.push(...archived.ocspResponses);
      } catch {
        // a malformed archive is no evidence
      }
    }
  }
  const answers: RevocationStatus[] = [];
  const fromCms = evaluateRevocation(signer, issuer, readRevocationInputs(embedded));
  if (fromCms) answers.push({ ...fromCms, source: 'cms' });
  const fromDss = evaluateRevocation(signer, issuer, readRevocationInputs(input.revocation));
  if (fromDss) answers.push({ ...fromDss, source: 'dss' });
  let answer = answers.find((a) => a.status === 'revoked') ?? answers.find((a) => a.status === 'good');
  if (!answer && input.checkRevocation) {
    try {
      const online = await input.checkRevocation(signer.der, issuer.der);
      if (online) answer = { ...online, source: online.source ?? 'online' };
    } catch (error) {
      return {
        status: 'unknown',
        source: 'online',
        reason: `revocation lookup failed: ${(error as Error).message}`,
      };
    }
  }
  answer ??= answers[0] ?? { status: 'unknown', source: 'none', reason: 'no revocation information' };
  if (answer.status === 'revoked' && answer.revokedAt && signingTime) {
    const when =
      answer.revokedAt <= signingTime ? 'revoked before the signing time' : 'revoked after the signing time';
    answer = { ...answer, reason: answer.reason ? `${answer.reason}; ${when}` : when };
  }
  return answer;
}

async function verifyParsed(
  cms: ParsedSignedData,
  input: CmsVerifyInput,
  result: CmsVerifyResult,
): Promise<CmsVerifyResult> {
  const si = cms.signerInfos[0] as ParsedSignerInfo;
  const pool = makeCertificatePool(input.trust, cms.certificates, input.extraCertificates);
  const binding = contentBinding(cms, si, input);
  if (typeof binding === 'string')
    return conclude({ ...result, integrityReason: binding, integrityFailure: 'format' }, []);
  const candidates = [...pool.certificates, ...pool.anchors];
  const check = await checkSignerInfo(si, cms.eContentType, candidates, binding.content);
  Object.assign(result, {
    digestAlgorithm: check.digestAlgorithm,
    signatureAlgorithm: check.signatureAlgorithm,
    integrity: check.failure === 'unsupported' || check.failure === 'no-signer' ? 'unknown' : check.integrity,
    integrityReason: check.integrityReason,
    integrityFailure: check.failure,
    signingTime: check.signingTime,
    signingCertificateRef: check.signingCertificateRef,
  });
  if (check.integrity === 'valid' && binding.bindsCallerBytes) {
    const mismatch = await binding.bindsCallerBytes();
    if (mismatch)
      Object.assign(result, { integrity: 'invalid', integrityReason: mismatch, integrityFailure: 'hash' });
  }
  const findings: VerifyFinding[] = [...check.algorithmFindings];
  if (cms.signerInfos.length > 1)
    result.integrityReason ??= `only the first of ${cms.signerInfos.length} signers was checked`;

  const extra = [...cms.certificates, ...(input.extraCertificates ?? [])];
  if (cms.eContentType === OID.tstInfo && cms.eContent) {
    const token = await verifyTimeStampToken(input.cms, await tstDigest(cms.eContent, input), input.trust, {
      extraCertificates: extra,
    });
    result.signingTime = token.time;
    result.timestamp = timestampSummary(token);
  } else {
    const tokenValue = findAttribute(si.unsignedAttrs, OID.signatureTimeStampToken)[0]?.values[0];
    if (tokenValue) {
      const token = await verifyTimeStampToken(tokenValue.raw, si.signature, input.trust, {
        extraCertificates: extra,
      });
      result.timestamp = timestampSummary(token);
    }
  }

  const signer = check.signer;
  if (!signer) return conclude(result, findings);
  result.signer = summarize(signer);
  const chain = buildChain(signer, pool);
  Object.assign(result, {
    chain: chain.status,
    chainReason: chain.reason,
    chainFailure: chain.failure,
    chainSubjects: chain.path.map((c) => c.subject),
  });
  // Expiry does not change the path status (a signature outlives its certificates), but it is worth saying.
  const now = input.now ?? new Date();
  const lapsed = chain.path.find((c) => now < c.notBefore || now > c.notAfter);
  if (lapsed && !result.chainReason)
    result.chainReason = `${lapsed.subject} is not valid at ${now.toISOString()} (valid ${lapsed.notBefore.toISOString()} to ${lapsed.notAfter.toISOString()})`;
  if (result.timestamp?.valid && result.timestamp.chain === 'trusted')
    result.provenTime = result.timestamp.time;
  const at = result.timestamp?.valid ? result.timestamp.time : result.signingTime;
  result.validAtSigningTime = at ? at >= signer.notBefore && at <= signer.notAfter : null;
  result.revocation = await revocationOf(signer, findIssuer(signer, chain.path, pool), cms, si, input, at);
  findings.push(...pathAlgorithmFindings(chain.path, (c) => isAnchor(c, pool.anchors)));
  findings.push(...trustFindings(result, chain, now));
  return conclude(result, findings);
}

const isoDate = (d: Date): string => d.toISOString();

/**
 * Reasons about the signer's standing: its path to an anchor, the signing time a trusted time-stamp
 * proves, validity and revocation at that time (or now, without such proof). Revocation is judged only
 * on a trusted path: an unknown issuer's revocation answers prove nothing.
 */
function trustFindings(result: CmsVerifyResult, chain: ChainResult, now: Date): VerifyFinding[] {
  const out: VerifyFinding[] = [];
  if (result.signingCertificateRef === 'mismatch') out.push(makeFinding('signer.certificateRefMismatch'));
  out.push(...chainFindings(chain));
  const ts = result.timestamp;
  if (ts && !ts.valid) out.push(makeFinding('timestamp.invalid', { reason: ts.reason ?? 'invalid token' }));
  else if (ts && ts.chain !== 'trusted') out.push(makeFinding('timestamp.untrusted', { tsa: ts.tsa ?? '?' }));
  else if (!ts) out.push(makeFinding('timestamp.none'));

  const poe = result.provenTime;
  const leaf = chain.path[0];
  if (leaf && poe) {
    if (poe > leaf.notAfter)
      out.push(
        makeFinding('validity.expiredAtSigning', { notAfter: isoDate(leaf.notAfter), time: isoDate(poe) }),
      );
    else if (poe < leaf.notBefore)
      out.push(
        makeFinding('validity.notYetValid', { notBefore: isoDate(leaf.notBefore), time: isoDate(poe) }),
      );
  } else if (leaf && now < leaf.notBefore) {
    out.push(makeFinding('validity.notYetValid', { notBefore: isoDate(leaf.notBefore), time: isoDate(now) }));
  }
  // Without proof of existence, every certificate of the path must still be valid now.
  const reference = poe ?? now;
  for (const cert of chain.path) {
    if (reference > cert.notAfter && !(poe && cert === leaf))
      out.push(
        makeFinding('validity.expiredNoPoe', { subject: cert.subject, notAfter: isoDate(cert.notAfter) }),
      );
  }

  if (chain.status !== 'trusted') return out;
  const rev = result.revocation;
  if (rev.status === 'unknown') {
    out.push(makeFinding('revocation.unknown', { reason: rev.reason ?? 'no revocation information' }));
  } else if (rev.status === 'revoked') {
    const revokedAt = rev.revokedAt ? isoDate(rev.revokedAt) : '?';
    if (!poe) out.push(makeFinding('revocation.revokedNoPoe', { revokedAt }));
    else if (!rev.revokedAt || rev.revokedAt <= poe)
      out.push(makeFinding('revocation.revokedBeforeSigning', { revokedAt, time: isoDate(poe) }));
    else out.push(makeFinding('revocation.revokedAfterSigning', { revokedAt, time: isoDate(poe) }));
  }
  return out;
}

/** Puts the integrity reason first and derives the verdict from all the findings. */
function conclude(result: CmsVerifyResult, findings: VerifyFinding[]): CmsVerifyResult {
  const all =
    result.integrity === 'valid'
      ? findings
      : [
          integrityFinding(
            result.integrityFailure,
            result.parseError ?? result.integrityReason ?? 'integrity check failed',
          ),
          ...findings,
        ];
  const { verdict, subIndication } = concludeFindings(all);
  result.findings = all;
  result.verdict = verdict;
  if (subIndication) result.subIndication = subIndication;
  else delete result.subIndication;
  return result;
}

async function tstDigest(
  eContent: Uint8Array,
  input: CmsVerifyInput,
): Promise<{ digest: Uint8Array; algorithm: string }> {
  const tst = parseTstInfo(eContent);
  const algorithm = tst.hashAlgorithm ?? 'SHA-256';
  return { digest: await input.digestOf(algorithm), algorithm };
}

/** Verifies a CMS SignedData signature; see CmsVerifyResult for what is reported. Never throws. */
export async function verifyCms(input: CmsVerifyInput): Promise<CmsVerifyResult> {
  const result: CmsVerifyResult = {
    parsed: false,
    signer: null,
    integrity: 'invalid',
    signingCertificateRef: 'absent',
    timestamp: null,
    chain: 'untrusted',
    chainSubjects: [],
    validAtSigningTime: null,
    revocation: { status: 'unknown', source: 'none' },
    findings: [],
    verdict: 'invalid',
  };
  let cms: ParsedSignedData;
  try {
    cms = parseCms(input.cms);
  } catch (error) {
    const parseError = (error as Error).message;
    return conclude(
      { ...result, parseError, integrityReason: 'the CMS could not be parsed', integrityFailure: 'format' },
      [],
    );
  }
  result.parsed = true;
  try {
    return await verifyParsed(cms, input, result);
  } catch (error) {
    return conclude(
      {
        ...result,
        integrity: 'invalid',
        integrityReason: `verification failed: ${(error as Error).message}`,
        integrityFailure: 'format',
      },
      [],
    );
  }
}

function timestampSummary(token: TimeStampVerification): NonNullable<CmsVerifyResult['timestamp']> {
  return {
    time: token.time,
    valid: token.valid,
    tsa: token.tsa,
    reason: token.reason,
    chain: token.chain,
    chainFindings: token.chainFindings,
  };
}
