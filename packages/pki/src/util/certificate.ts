import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { copyBytes } from './bytes';
import { parseDer } from './der';
import { OID } from './oids';
import { digest } from './signature';

export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  const schema = parseDer(der, 'certificate');
  try {
    return new pkijs.Certificate({ schema });
  } catch (cause) {
    throw new TypeError('not an X.509 certificate', { cause });
  }
}

/** DER SubjectPublicKeyInfo of a parsed certificate. */
export function spkiOf(cert: pkijs.Certificate): Uint8Array {
  return new Uint8Array(cert.subjectPublicKeyInfo.toSchema().toBER());
}

/** The subjectPublicKey BIT STRING contents: what OCSP key hashes and key identifiers are taken over. */
export function publicKeyBitsOf(spki: pkijs.PublicKeyInfo): Uint8Array {
  return copyBytes(spki.subjectPublicKey.valueBlock.valueHexView);
}

export function parseSpki(spki: Uint8Array): pkijs.PublicKeyInfo {
  return new pkijs.PublicKeyInfo({ schema: parseDer(spki, 'SubjectPublicKeyInfo') });
}

/** RFC 5280 §4.2.1.2 method (1): SHA-1 of the public key bits. */
export function keyIdentifierOf(spki: pkijs.PublicKeyInfo): Uint8Array {
  return digest('sha1', publicKeyBitsOf(spki));
}

/** Exact DER of the subject Name, byte-for-byte as in the certificate (issuer names must match it). */
export function subjectNameDer(cert: pkijs.Certificate): Uint8Array {
  return new Uint8Array(cert.subject.toSchema().toBER());
}

export function issuerNameDer(cert: pkijs.Certificate): Uint8Array {
  return new Uint8Array(cert.issuer.toSchema().toBER());
}

export function findExtension(
  extensions: pkijs.Extension[] | undefined,
  oid: string,
): pkijs.Extension | undefined {
  return extensions?.find((e) => e.extnID === oid);
}

/** The subject key identifier the certificate declares, or the computed one when it has none. */
export function subjectKeyIdOf(cert: pkijs.Certificate): Uint8Array {
  const ext = findExtension(cert.extensions, OID.subjectKeyIdentifier);
  if (ext) {
    const inner = asn1js.fromBER(ext.extnValue.valueBlock.valueHexView);
    if (inner.offset !== -1 && inner.result instanceof asn1js.OctetString) {
      return copyBytes(inner.result.valueBlock.valueHexView);
    }
  }
  return keyIdentifierOf(cert.subjectPublicKeyInfo);
}

export function isCaCertificate(cert: pkijs.Certificate): boolean {
  const ext = findExtension(cert.extensions, OID.basicConstraints);
  if (!ext) return false;
  const bc = new pkijs.BasicConstraints({
    schema: asn1js.fromBER(ext.extnValue.valueBlock.valueHexView).result,
  });
  return bc.cA === true;
}

/** Builds an Extension from an already encoded value. */
export function makeExtension(extnID: string, critical: boolean, value: asn1js.AsnType): pkijs.Extension {
  return new pkijs.Extension({ extnID, critical, extnValue: value.toBER() });
}

/** X.509 Time: UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5). */
export function makeTime(date: Date): pkijs.Time {
  return new pkijs.Time({ type: date.getUTCFullYear() < 2050 ? 0 : 1, value: date });
}
