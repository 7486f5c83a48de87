/**
 * ESS signing-certificate attributes (RFC 2634 / RFC 5035): bind the signer's certificate into the signed
 * attributes so it cannot be substituted by another certificate with the same key.
 */
import {
  bytesEqual,
  ctx,
  decodeInteger,
  expectTag,
  octets,
  readChildren,
  readOid,
  readTlv,
  seq,
  tlv,
} from './der';
import { namesEqual, type CertInfo } from './cert';
import { digest, hashByOid, type HashName } from './oids';

/** SigningCertificateV2 with one ESSCertIDv2: SHA-256 (the default, hence no AlgorithmIdentifier) + issuerSerial. */
export function signingCertificateV2(cert: CertInfo): Uint8Array {
  const issuerSerial = seq(seq(ctx(4, cert.issuerDer)), tlv(0x02, cert.serial));
  return seq(seq(seq(octets(cert.hash('sha256')), issuerSerial)));
}

export type SigningCertificateRef = 'match' | 'mismatch' | 'absent';

/**
 * Compares the first ESSCertID(v2) of a signing-certificate(-v2) attribute value with the signer's
 * certificate: hash, and issuer and serial when present.
 */
export function matchSigningCertificate(
  value: Uint8Array,
  v2: boolean,
  cert: CertInfo,
): SigningCertificateRef {
  try {
    const [certs] = readChildren(readTlv(value));
    const first = readChildren(expectTag(certs, 0x30, 'certs'))[0];
    const fields = readChildren(expectTag(first, 0x30, 'ESSCertID'));
    let hash: HashName | undefined = v2 ? 'SHA-256' : 'SHA-1';
    let i = 0;
    if (v2 && fields[0]?.tag === 0x30) {
      hash = hashByOid(readOid(readChildren(fields[0])[0]));
      i = 1;
    }
    const certHash = expectTag(fields[i], 0x04, 'certHash').value;
    if (!hash || !bytesEqual(certHash, digest(hash, cert.der))) return 'mismatch';
    const issuerSerial = fields[i + 1];
    if (issuerSerial) {
      const [names, serial] = readChildren(expectTag(issuerSerial, 0x30, 'IssuerSerial'));
      if (decodeInteger(expectTag(serial, 0x02, 'serial').value) !== decodeInteger(cert.serial))
        return 'mismatch';
      const directory = readChildren(expectTag(names, 0x30, 'GeneralNames')).find((n) => n.tag === 0xa4);
      if (directory && !namesEqual(readTlv(directory.value).raw, cert.issuerDer)) return 'mismatch';
    }
    return 'match';
  } catch {
    return 'mismatch';
  }
}
