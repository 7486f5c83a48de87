import { createHash } from 'node:crypto';
/**
 * Revocation evidence for a signer certificate. Evaluation only believes evidence signed by the
 * certificate's issuer (or, for OCSP, by a responder the issuer delegated to). It takes parsed evidence
 * through two small structural interfaces, which the OCSP and CRL parsers of this package satisfy.
 */
import { parseCrl } from '../crl/index';
import { matchesIssuer, parseOcspResponse } from '../ocsp/index';
import { expectTag, readChildren, readTlv, toHex } from './der';
import { KEY_USAGE_CRL_SIGN, type CertInfo } from './cert';

export interface RevocationEvidence {
  ocspResponses?: Uint8Array[];
  crls?: Uint8Array[];
}

/** Where the answer came from: the CMS itself, the caller's evidence (a PDF DSS), or an online lookup. */
export type RevocationSource = 'ocsp' | 'crl' | 'dss' | 'cms' | 'online' | 'none';

export interface RevocationStatus {
  status: 'good' | 'revoked' | 'unknown';
  revokedAt?: Date;
  reason?: string;
  source: RevocationSource;
  /** The mechanism that answered, when known. */
  method?: 'ocsp' | 'crl';
}

/** What the evaluation needs of a parsed OCSP response (ParsedOcspResponse from ../ocsp fits). */
export interface OcspEvidence {
  status: string;
  responses: ReadonlyArray<{
    hashAlgorithm: string;
    issuerNameHash: Uint8Array;
    issuerKeyHash: Uint8Array;
    /** Lower-case hex of the INTEGER contents octets. */
    serialHex: string;
    status: 'good' | 'revoked' | 'unknown';
    revokedAt?: Date;
    reason?: string;
  }>;
  /** The issuer itself or its delegated responder, when one of them signed the response. */
  findAuthorizedSigner(issuerCert: Uint8Array): Uint8Array | undefined;
}

/** What the evaluation needs of a parsed CRL (ParsedCrl from ../crl fits). */
export interface CrlEvidence {
  revoked: ReadonlyArray<{ serialHex: string; revokedAt: Date; reason?: string }>;
  /** Critical extensions the parser did not interpret: such a CRL must not be relied on. */
  unknownCriticalExtensions?: readonly string[];
  /** Set for a delta CRL, which proves revocation but not its absence. */
  deltaBase?: bigint;
  /** True when `issuerCert` is the CRL issuer and its key verifies the signature. */
  verify(issuerCert: Uint8Array): boolean;
}

export interface RevocationInputs {
  ocsp: OcspEvidence[];
  crls: CrlEvidence[];
}

type Answer = Omit<RevocationStatus, 'source'>;

/** RevocationInfoArchival (adbe-revocationInfoArchival): crl [0], ocsp [1], each a SEQUENCE OF. */
export function readRevocationArchival(value: Uint8Array): Required<RevocationEvidence> {
  const out = { crls: [] as Uint8Array[], ocspResponses: [] as Uint8Array[] };
  for (const field of readChildren(expectTag(readTlv(value), 0x30, 'RevocationInfoArchival'))) {
    const list = field.tag === 0xa0 ? out.crls : field.tag === 0xa1 ? out.ocspResponses : undefined;
    if (list) for (const item of readChildren(readTlv(field.value))) list.push(item.raw);
  }
  return out;
}

/**
 * What authentic evidence says about `cert`: revoked beats good (the caller weighs revokedAt against the
 * signing time); undefined when nothing authentic speaks about it.
 */
export function evaluateRevocation(
  cert: CertInfo,
  issuer: CertInfo,
  inputs: RevocationInputs,
): Answer | undefined {
  const serialHex = toHex(cert.serial);
  const answers: Answer[] = [];
  for (const response of inputs.ocsp) {
    if (response.status !== 'successful') continue;
    const singles = response.responses.filter(
      (s) => s.serialHex === serialHex && matchesIssuer(s, issuer.der),
    );
    if (singles.length === 0 || !response.findAuthorizedSigner(issuer.der)) continue;
    for (const s of singles)
      answers.push({ status: s.status, revokedAt: s.revokedAt, reason: s.reason, method: 'ocsp' });
  }
  const issuerMaySignCrl = !issuer.keyUsage || issuer.keyUsage.includes(KEY_USAGE_CRL_SIGN);
  for (const crl of inputs.crls) {
    if (!issuerMaySignCrl || (crl.unknownCriticalExtensions?.length ?? 0) > 0 || !crl.verify(issuer.der))
      continue;
    const entry = crl.revoked.find((r) => r.serialHex === serialHex);
    if (entry)
      answers.push({ status: 'revoked', revokedAt: entry.revokedAt, reason: entry.reason, method: 'crl' });
    else if (crl.deltaBase === undefined) answers.push({ status: 'good', method: 'crl' });
  }
  return (
    answers.find((a) => a.status === 'revoked') ?? answers.find((a) => a.status === 'good') ?? answers[0]
  );
}

/**
 * Parsed OCSP responses and CRLs, by content: a document's DSS serves every signature in it, and a CRL
 * can be large, so each is read once. Bounded; parsed values are never mutated.
 */
const parsedCache = new Map<string, OcspEvidence | CrlEvidence | null>();
const PARSED_CACHE_SIZE = 256;

function cachedParse<T extends OcspEvidence | CrlEvidence>(
  kind: string,
  der: Uint8Array,
  parse: (d: Uint8Array) => T,
): T | null {
  const key = `${kind}:${createHash('sha256').update(der).digest('hex')}`;
  if (parsedCache.has(key)) return parsedCache.get(key) as T | null;
  let value: T | null;
  try {
    value = parse(der);
  } catch {
    // unreadable evidence is no evidence
    value = null;
  }
  if (parsedCache.size >= PARSED_CACHE_SIZE) parsedCache.delete(parsedCache.keys().next().value!);
  parsedCache.set(key, value);
  return value;
}

/** Parses raw evidence with this package's OCSP and CRL readers, skipping items that do not parse. */
export function readRevocationInputs(evidence: RevocationEvidence | undefined): RevocationInputs {
  const ocsp = (evidence?.ocspResponses ?? [])
    .map((der): OcspEvidence | null => cachedParse('ocsp', der, parseOcspResponse))
    .filter((x): x is OcspEvidence => x !== null);
  const crls = (evidence?.crls ?? [])
    .map((der): CrlEvidence | null => cachedParse('crl', der, parseCrl))
    .filter((x): x is CrlEvidence => x !== null);
  return { ocsp, crls };
}
