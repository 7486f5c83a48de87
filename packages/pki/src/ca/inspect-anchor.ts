import { KEY_USAGE_CERT_SIGN, namesEqual, tryParseCertificate, verifyIssuedBy } from '../cms/cert';
import { describeCertificate, type CertificateSummary } from './describe';

/** What a verifier needs to know before it trusts a CA certificate someone hands it as a trust anchor. */
export interface AnchorInspection {
  summary: CertificateSummary;
  /** basicConstraints cA is true. */
  isCa: boolean;
  /** keyUsage is present and allows keyCertSign. */
  mayCertSign: boolean;
  /** The certificate names itself as its issuer (a root). */
  selfIssued: boolean;
  /**
   * A self-issued certificate's own signature: valid, invalid, or unsupported (an algorithm this
   * package does not check, SM2 among them); `notSelfIssued` for an intermediate CA.
   */
  selfSignature: 'valid' | 'invalid' | 'unsupported' | 'notSelfIssued';
  validAt(time: Date): boolean;
}

const SM2_CURVE = Uint8Array.of(0x06, 0x08, 0x2a, 0x81, 0x1c, 0xcf, 0x55, 0x01, 0x82, 0x2d);

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Reads a certificate offered as a trust anchor; undefined when the bytes are not an X.509 certificate.
 * Refusing is the caller's policy: this only reports.
 */
export function inspectAnchorCertificate(der: Uint8Array): AnchorInspection | undefined {
  const cert = tryParseCertificate(der);
  // One certificate and nothing after it: trailing bytes would ride along in what is stored and served.
  if (!cert || cert.der.length !== der.length) return undefined;
  let summary: CertificateSummary;
  try {
    summary = describeCertificate(der);
  } catch {
    return undefined;
  }
  // Node's key import does not name SM2 keys; the curve's OID in the key info does.
  if (summary.keyAlgorithm === 'unknown' && contains(cert.spki, SM2_CURVE)) summary.keyAlgorithm = 'SM2';
  const selfIssued = namesEqual(cert.subjectDer, cert.issuerDer);
  let selfSignature: AnchorInspection['selfSignature'] = 'notSelfIssued';
  if (selfIssued) {
    const check = verifyIssuedBy(cert, cert);
    selfSignature = check.ok
      ? 'valid'
      : /unsupported|unusable/i.test(check.reason ?? '')
        ? 'unsupported'
        : 'invalid';
  }
  return {
    summary,
    isCa: cert.isCa === true,
    mayCertSign: cert.keyUsage?.includes(KEY_USAGE_CERT_SIGN) === true,
    selfIssued,
    selfSignature,
    validAt: (time) => time >= cert.notBefore && time <= cert.notAfter,
  };
}
