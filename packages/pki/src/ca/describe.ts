import { createHash, createPublicKey } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { toHex } from '../util/bytes';
import { LruCache } from '../util/lru';
import { findExtension, isCaCertificate, parseCertificate, spkiOf } from '../util/certificate';
import { formatName, nameAttribute } from '../util/name';
import { OID } from '../util/oids';

export interface CertificateSummary {
  /** RFC 4514 form, most specific first (`CN=…,O=…,C=CN`). */
  subject: string;
  issuer: string;
  commonName?: string;
  organization?: string;
  organizationIdentifier?: string;
  serialHex: string;
  notBefore: Date;
  notAfter: Date;
  /** `EC-P256`, `EC-P384`, `RSA-2048`, `Ed25519`, … */
  keyAlgorithm: string;
  isCa: boolean;
  /** Lower-case hex SHA-256 of the DER. */
  fingerprintSha256: string;
  crlUrls: string[];
  ocspUrls: string[];
  caIssuersUrls: string[];
}

const CURVES: Record<string, string> = { prime256v1: 'P256', secp384r1: 'P384', secp521r1: 'P521' };

function describeKey(spki: Uint8Array): string {
  try {
    const key = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
    const details = key.asymmetricKeyDetails ?? {};
    if (key.asymmetricKeyType === 'ec') return `EC-${CURVES[details.namedCurve ?? ''] ?? details.namedCurve}`;
    if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss')
      return `RSA-${details.modulusLength}`;
    if (key.asymmetricKeyType === 'ed25519') return 'Ed25519';
    return key.asymmetricKeyType ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function uriOf(name: pkijs.GeneralName): string | undefined {
  return name.type === 6 && typeof name.value === 'string' ? name.value : undefined;
}

function parseExtensionValue(ext: pkijs.Extension): asn1js.AsnType {
  return asn1js.fromBER(ext.extnValue.valueBlock.valueHexView).result;
}

function crlUrlsOf(cert: pkijs.Certificate): string[] {
  const ext = findExtension(cert.extensions, OID.crlDistributionPoints);
  if (!ext) return [];
  const cdp = new pkijs.CRLDistributionPoints({ schema: parseExtensionValue(ext) });
  return cdp.distributionPoints.flatMap((dp) =>
    Array.isArray(dp.distributionPoint)
      ? dp.distributionPoint.map(uriOf).filter((u): u is string => !!u)
      : [],
  );
}

function aiaUrlsOf(cert: pkijs.Certificate, method: string): string[] {
  const ext = findExtension(cert.extensions, OID.authorityInfoAccess);
  if (!ext) return [];
  const aia = new pkijs.InfoAccess({ schema: parseExtensionValue(ext) });
  return aia.accessDescriptions
    .filter((d) => d.accessMethod === method)
    .map((d) => uriOf(d.accessLocation))
    .filter((u): u is string => !!u);
}

/** A flat summary of any X.509 certificate (ours or a third party's) for display and storage. */
export function describeCertificate(der: Uint8Array): CertificateSummary {
  const cert = parseCertificate(der);
  const summary: CertificateSummary = {
    subject: formatName(cert.subject),
    issuer: formatName(cert.issuer),
    serialHex: toHex(cert.serialNumber.valueBlock.valueHexView),
    notBefore: cert.notBefore.value,
    notAfter: cert.notAfter.value,
    keyAlgorithm: describeKey(spkiOf(cert)),
    isCa: isCaCertificate(cert),
    fingerprintSha256: createHash('sha256').update(der).digest('hex'),
    crlUrls: crlUrlsOf(cert),
    ocspUrls: aiaUrlsOf(cert, OID.adOcsp),
    caIssuersUrls: aiaUrlsOf(cert, OID.adCaIssuers),
  };
  const commonName = nameAttribute(cert.subject, OID.commonName);
  const organization = nameAttribute(cert.subject, OID.organization);
  const organizationIdentifier = nameAttribute(cert.subject, OID.organizationIdentifier);
  if (commonName !== undefined) summary.commonName = commonName;
  if (organization !== undefined) summary.organization = organization;
  if (organizationIdentifier !== undefined) summary.organizationIdentifier = organizationIdentifier;
  return summary;
}

/** Summaries of the certificates seen lately, by the SHA-256 of their DER. */
const SUMMARIES = new LruCache<string, CertificateSummary>(4096);

/** A copy a caller may change without changing the cached summary. */
const copyOf = (s: CertificateSummary): CertificateSummary => ({
  ...s,
  notBefore: new Date(s.notBefore),
  notAfter: new Date(s.notAfter),
  crlUrls: [...s.crlUrls],
  ocspUrls: [...s.ocspUrls],
  caIssuersUrls: [...s.caIssuersUrls],
});

/**
 * `describeCertificate`, parsed once per certificate: a signer's or a verifier's hot path sees the same
 * few certificates over and over, and parsing one costs about as much as a signature. Remembered by the
 * DER's SHA-256 (which the summary's fingerprint is anyway) in a bounded LRU of a few thousand entries.
 */
export function describeCertificateCached(der: Uint8Array): CertificateSummary {
  const fingerprint = createHash('sha256').update(der).digest('hex');
  let summary = SUMMARIES.get(fingerprint);
  if (!summary) {
    summary = describeCertificate(der);
    SUMMARIES.set(fingerprint, summary);
  }
  return copyOf(summary);
}
