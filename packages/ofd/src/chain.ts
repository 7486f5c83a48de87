import { parseCertificate, type OfdCertificateInfo, type ParsedCertificate } from './certificate';
import { checkSignature } from './signature-check';

/**
 * Certification path building for OFD signers, in the browser as on the server: from the signer's
 * certificate through the intermediates given to a trust anchor, checking the signature of every link and
 * that every issuer on the way (not the anchor, which the caller trusts as configured) is a CA that may
 * sign certificates. Bounded: at most MAX_DEPTH links and MAX_POOL certificates.
 */
export interface OfdTrust {
  /** Trust anchors (DER X.509): the platform root, TRUST_LIST, operator-added roots of other platforms. */
  trustAnchors?: readonly Uint8Array[];
  /** Certificates that may serve as intermediates on the way to an anchor (DER X.509). */
  intermediates?: readonly Uint8Array[];
}

export type ChainFinding = 'noTrustAnchors' | 'issuerUnknown' | 'chainInvalid' | 'chainAlgorithmUnsupported';

export interface ChainOutcome {
  status: 'trusted' | 'untrusted' | 'invalid';
  /** Why not trusted. */
  finding?: ChainFinding;
  /** The signer first; ends at the anchor when trusted, else as far as the path went. */
  path: ParsedCertificate[];
}

export interface CertificatePool {
  anchors: ParsedCertificate[];
  intermediates: ParsedCertificate[];
}

const MAX_DEPTH = 8;
const MAX_POOL = 1000;
/** Signature checks one path search may spend: many certificates under one name cannot make it explode. */
const MAX_CHECKS = 64;

/** Parses the trust once per verification; unreadable certificates are left out. */
export function makePool(trust: OfdTrust): CertificatePool {
  const parse = (list: readonly Uint8Array[] | undefined) =>
    (list ?? [])
      .slice(0, MAX_POOL)
      .map(parseCertificate)
      .filter((c): c is ParsedCertificate => c !== undefined);
  return { anchors: parse(trust.trustAnchors), intermediates: parse(trust.intermediates) };
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function isAnchor(cert: ParsedCertificate, anchors: readonly ParsedCertificate[]): boolean {
  return anchors.some(
    (a) => equal(a.der, cert.der) || (equal(a.subjectDer, cert.subjectDer) && equal(a.spki, cert.spki)),
  );
}

function issuerCandidates(cert: ParsedCertificate, pool: CertificatePool): ParsedCertificate[] {
  const out: ParsedCertificate[] = [];
  for (const c of [...pool.anchors, ...pool.intermediates]) {
    if (!equal(c.subjectDer, cert.issuerDer)) continue;
    if (cert.authorityKeyId && c.subjectKeyId && !equal(cert.authorityKeyId, c.subjectKeyId)) continue;
    if (!out.some((o) => equal(o.der, c.der))) out.push(c);
  }
  return out;
}

/** An issuer that is not an anchor must say it is a CA that signs certificates (RFC 5280 4.2.1.3, 4.2.1.9). */
function mayIssue(cert: ParsedCertificate): boolean {
  if (cert.version >= 3 && cert.isCa !== true) return false;
  return cert.mayCertSign !== false;
}

const RANK = { trusted: 3, invalid: 2, untrusted: 1 } as const;

async function extend(
  path: ParsedCertificate[],
  pool: CertificatePool,
  budget: { checks: number },
): Promise<ChainOutcome> {
  const current = path[path.length - 1]!;
  if (isAnchor(current, pool.anchors)) return { status: 'trusted', path };
  if (path.length > MAX_DEPTH) return { status: 'untrusted', finding: 'issuerUnknown', path };
  const candidates = issuerCandidates(current, pool).filter((c) => !path.some((p) => equal(p.der, c.der)));
  if (candidates.length === 0) return { status: 'untrusted', finding: 'issuerUnknown', path };
  let best: ChainOutcome | undefined;
  for (const candidate of candidates) {
    if (++budget.checks > MAX_CHECKS) break;
    let outcome: ChainOutcome;
    const ok = await checkSignature(current.signatureAlgorithm, current.tbs, current.signature, candidate);
    if (ok === 'unsupported') {
      outcome = { status: 'invalid', finding: 'chainAlgorithmUnsupported', path };
    } else if (!ok) {
      outcome = { status: 'invalid', finding: 'chainInvalid', path };
    } else if (!isAnchor(candidate, pool.anchors) && !mayIssue(candidate)) {
      outcome = { status: 'invalid', finding: 'chainInvalid', path: [...path, candidate] };
    } else {
      outcome = await extend([...path, candidate], pool, budget);
    }
    if (outcome.status === 'trusted') return outcome;
    // A broken link says more than a missing one.
    if (!best || RANK[outcome.status] > RANK[best.status]) best = outcome;
  }
  return best ?? { status: 'untrusted', finding: 'issuerUnknown', path };
}

/** The best path from `signer` to an anchor of the pool. */
export async function buildChain(signer: ParsedCertificate, pool: CertificatePool): Promise<ChainOutcome> {
  if (pool.anchors.length === 0) return { status: 'untrusted', finding: 'noTrustAnchors', path: [signer] };
  return extend([signer], pool, { checks: 0 });
}

/** Whether `at` lies inside a certificate's validity; undefined when either is unknown. */
export function validAt(cert: ParsedCertificate, at: Date | undefined): boolean | undefined {
  if (!at || !cert.notBefore || !cert.notAfter) return undefined;
  return at >= cert.notBefore && at <= cert.notAfter;
}

export type { OfdCertificateInfo };
