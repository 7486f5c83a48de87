/**
 * Certification path building: from a leaf through any available certificates to a trust anchor, checking
 * the signature of every link. Validity periods are reported by the callers against the signing time, not
 * enforced here (a PDF signed in 2012 stays verifiable after its certificates expire).
 */
import type { TrustStore } from '../types';
import { bytesEqual } from './der';
import { KEY_USAGE_CERT_SIGN, namesEqual, sameCertificate, type CertInfo } from './cert';
import { tryParseCertificateCached, verifyIssuedByCached } from './cert-cache';

export type ChainStatus = 'trusted' | 'untrusted' | 'invalid';

/**
 * Why a path did not reach an anchor: a link whose signature does not verify ('signature'), an
 * algorithm that cannot be checked ('unsupported'), a certificate that may not issue ('constraints'),
 * a self-signed certificate that is no anchor ('self-signed'), an issuer not at hand ('no-issuer'),
 * or a path too long ('too-long').
 */
export type ChainFailure =
  'signature' | 'unsupported' | 'constraints' | 'self-signed' | 'no-issuer' | 'too-long';

export interface ChainResult {
  status: ChainStatus;
  reason?: string;
  failure?: ChainFailure;
  /** Leaf first; ends at the anchor when trusted, else as far as the path could be built. */
  path: CertInfo[];
}

export interface CertificatePool {
  anchors: CertInfo[];
  /** Every other certificate that may serve as an intermediate. */
  certificates: CertInfo[];
}

const MAX_DEPTH = 10;

function parseAll(ders: readonly Uint8Array[] | undefined): CertInfo[] {
  const out: CertInfo[] = [];
  for (const der of ders ?? []) {
    const cert = tryParseCertificateCached(der);
    if (cert && !out.some((c) => sameCertificate(c, cert))) out.push(cert);
  }
  return out;
}

/** Parses a trust store plus any certificates carried by the signature or the document. */
export function makeCertificatePool(
  trust: TrustStore,
  ...extra: ReadonlyArray<readonly Uint8Array[] | undefined>
): CertificatePool {
  const anchors = parseAll(trust.anchors);
  const certificates = parseAll([...(trust.intermediates ?? []), ...extra.flatMap((list) => list ?? [])]);
  return { anchors, certificates };
}

export function isAnchor(cert: CertInfo, anchors: readonly CertInfo[]): boolean {
  return anchors.some(
    (a) =>
      sameCertificate(a, cert) ||
      (namesEqual(a.subjectDer, cert.subjectDer) && bytesEqual(a.spki, cert.spki)),
  );
}

/** Certificates that may have issued `cert`: matching name, and matching key identifier when both carry one. */
export function issuerCandidates(cert: CertInfo, pool: CertificatePool): CertInfo[] {
  const seen: CertInfo[] = [];
  for (const c of [...pool.anchors, ...pool.certificates]) {
    if (!namesEqual(c.subjectDer, cert.issuerDer)) continue;
    if (cert.authorityKeyId && c.subjectKeyId && !bytesEqual(cert.authorityKeyId, c.subjectKeyId)) continue;
    if (!seen.some((s) => sameCertificate(s, c))) seen.push(c);
  }
  return seen;
}

function mayIssue(cert: CertInfo): string | undefined {
  if (cert.version >= 3 && cert.isCa !== true) return `${cert.subject} is not a CA certificate`;
  if (cert.keyUsage && !cert.keyUsage.includes(KEY_USAGE_CERT_SIGN))
    return `${cert.subject} may not sign certificates (keyUsage)`;
  return undefined;
}

function extend(path: CertInfo[], pool: CertificatePool): ChainResult {
  const current = path[path.length - 1] as CertInfo;
  if (isAnchor(current, pool.anchors)) return { status: 'trusted', path };
  if (path.length > MAX_DEPTH)
    return { status: 'untrusted', reason: 'certification path too long', failure: 'too-long', path };
  const candidates = issuerCandidates(current, pool).filter((c) => !path.some((p) => sameCertificate(p, c)));
  if (candidates.length === 0) {
    const selfIssued = namesEqual(current.subjectDer, current.issuerDer);
    const reason = selfIssued
      ? `self-signed certificate ${current.subject} is not a trust anchor`
      : `issuer not found: ${current.issuer}`;
    return { status: 'untrusted', reason, failure: selfIssued ? 'self-signed' : 'no-issuer', path };
  }
  let best: ChainResult | undefined;
  for (const candidate of candidates) {
    let outcome: ChainResult;
    const check = verifyIssuedByCached(current, candidate);
    const anchor = isAnchor(candidate, pool.anchors);
    const refusal = anchor ? undefined : mayIssue(candidate);
    if (!check.ok) {
      outcome = {
        status: 'invalid',
        reason: `signature of ${current.subject} does not verify with the key of ${candidate.subject}: ${check.reason}`,
        failure: check.unsupported ? 'unsupported' : 'signature',
        path,
      };
    } else if (refusal) {
      outcome = { status: 'invalid', reason: refusal, failure: 'constraints', path: [...path, candidate] };
    } else {
      outcome = extend([...path, candidate], pool);
    }
    if (outcome.status === 'trusted') return outcome;
    // A broken link says more than a missing one; otherwise keep the longest path for the report.
    if (
      !best ||
      (outcome.status === 'invalid' && best.status !== 'invalid') ||
      (outcome.status === best.status && outcome.path.length > best.path.length)
    )
      best = outcome;
  }
  return best as ChainResult;
}

/** Builds the best path from `leaf`: 'trusted' when an anchor is reached with every link's signature valid. */
export function buildChain(leaf: CertInfo, pool: CertificatePool): ChainResult {
  return extend([leaf], pool);
}
