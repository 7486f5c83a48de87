import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { bytesEqual, copyBytes, fromHex, toHex } from '../util/bytes';
import { parseCertificate, publicKeyBitsOf, subjectNameDer } from '../util/certificate';
import { OID } from '../util/oids';
import { digest, hashNameForOid, type HashName } from '../util/signature';

/** Hash algorithms we compute CertIDs with; requests may name others (reported as their OID). */
export type OcspHashAlgorithm = 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512';

const BY_NAME: Record<OcspHashAlgorithm, { oid: string; hash: HashName }> = {
  'SHA-1': { oid: OID.sha1, hash: 'sha1' },
  'SHA-256': { oid: OID.sha256, hash: 'sha256' },
  'SHA-384': { oid: OID.sha384, hash: 'sha384' },
  'SHA-512': { oid: OID.sha512, hash: 'sha512' },
};

/** What identifies a certificate in OCSP (RFC 6960 §4.1.1 CertID). */
export interface OcspCertId {
  /** `SHA-1`, `SHA-256`, `SHA-384`, `SHA-512`, or the OID of anything else. */
  hashAlgorithm: string;
  issuerNameHash: Uint8Array;
  issuerKeyHash: Uint8Array;
  /** Lower-case hex of the DER INTEGER content bytes. */
  serialHex: string;
}

export function hashAlgorithmName(oid: string): string {
  const entry = Object.entries(BY_NAME).find(([, v]) => v.oid === oid);
  return entry ? entry[0] : oid;
}

function hashFor(name: string): HashName | undefined {
  return (BY_NAME as Record<string, { hash: HashName }>)[name]?.hash ?? hashNameForOid(name);
}

export function certIdFromPkijs(certId: pkijs.CertID): OcspCertId {
  return {
    hashAlgorithm: hashAlgorithmName(certId.hashAlgorithm.algorithmId),
    issuerNameHash: copyBytes(certId.issuerNameHash.valueBlock.valueHexView),
    issuerKeyHash: copyBytes(certId.issuerKeyHash.valueBlock.valueHexView),
    serialHex: toHex(certId.serialNumber.valueBlock.valueHexView),
  };
}

/** The CertID of `serialHex` under `issuerCertificate`, hashed with `hashAlgorithm`. */
export function makeCertId(
  issuerCertificate: Uint8Array,
  serialHex: string,
  hashAlgorithm: OcspHashAlgorithm,
): pkijs.CertID {
  const spec = BY_NAME[hashAlgorithm];
  if (!spec) throw new TypeError(`unsupported OCSP hash algorithm ${String(hashAlgorithm)}`);
  const issuer = parseCertificate(issuerCertificate);
  return new pkijs.CertID({
    // NULL parameters, as OpenSSL and most responders send for SHA-family CertIDs.
    hashAlgorithm: new pkijs.AlgorithmIdentifier({
      algorithmId: spec.oid,
      algorithmParams: new asn1js.Null(),
    }),
    issuerNameHash: new asn1js.OctetString({ valueHex: digest(spec.hash, subjectNameDer(issuer)) }),
    issuerKeyHash: new asn1js.OctetString({
      valueHex: digest(spec.hash, publicKeyBitsOf(issuer.subjectPublicKeyInfo)),
    }),
    serialNumber: new asn1js.Integer({ valueHex: fromHex(serialHex) }),
  });
}

/**
 * Whether a request (or single response) names `issuerCert` as the issuer: its name and key hashes
 * recomputed under the request's own hash algorithm. Unknown algorithms never match.
 */
export function matchesIssuer(
  request: Pick<OcspCertId, 'hashAlgorithm' | 'issuerNameHash' | 'issuerKeyHash'>,
  issuerCert: Uint8Array,
): boolean {
  const hash = hashFor(request.hashAlgorithm);
  if (!hash) return false;
  let issuer: pkijs.Certificate;
  try {
    issuer = parseCertificate(issuerCert);
  } catch {
    return false;
  }
  return (
    bytesEqual(digest(hash, subjectNameDer(issuer)), request.issuerNameHash) &&
    bytesEqual(digest(hash, publicKeyBitsOf(issuer.subjectPublicKeyInfo)), request.issuerKeyHash)
  );
}
