/**
 * What a lookup needs of a certificate — its serial number, issuer and subject names, fingerprint —
 * read by walking the first few DER elements, without parsing the whole certificate (a full parse
 * costs a hundred times more, and a revocation lookup needs none of it). The walk reads at most eight
 * elements, each bounded by the input: it answers or throws DerError, whatever the bytes.
 */
import { createHash } from 'node:crypto';
import { DerError, expectTag, readTlv, toHex, type Tlv } from './cms/der';

export interface CertificateIdentity {
  /** Lower-case hex of the serialNumber INTEGER's contents, as `describeCertificate` gives it. */
  serialHex: string;
  /** DER of the issuer Name (a view into the input). */
  issuer: Uint8Array;
  /** DER of the subject Name (a view into the input). */
  subject: Uint8Array;
  /** The whole certificate element (a view into the input; bytes after it are not part of it). */
  der: Uint8Array;
}

/** The next element of a constructed value's contents, or a DerError naming what was expected. */
function next(parent: Tlv, offset: number, what: string): Tlv {
  if (offset >= parent.value.length) throw new DerError(`${what}: missing`);
  return readTlv(parent.value, offset);
}

/** Reads serial, issuer and subject of a DER X.509 certificate. Throws DerError when it is not one. */
export function readCertificateIdentity(der: Uint8Array): CertificateIdentity {
  const cert = expectTag(readTlv(der), 0x30, 'Certificate');
  const tbs = expectTag(next(cert, 0, 'TBSCertificate'), 0x30, 'TBSCertificate');
  let offset = 0;
  let field = next(tbs, offset, 'serialNumber');
  // [0] EXPLICIT version, absent for v1.
  if (field.tag === 0xa0) {
    offset += field.raw.length;
    field = next(tbs, offset, 'serialNumber');
  }
  const serial = expectTag(field, 0x02, 'serialNumber');
  if (serial.value.length === 0 || serial.value.length > 64) throw new DerError('serialNumber: bad length');
  offset += serial.raw.length;
  const signature = expectTag(next(tbs, offset, 'signature'), 0x30, 'signature');
  offset += signature.raw.length;
  const issuer = expectTag(next(tbs, offset, 'issuer'), 0x30, 'issuer');
  offset += issuer.raw.length;
  const validity = expectTag(next(tbs, offset, 'validity'), 0x30, 'validity');
  offset += validity.raw.length;
  const subject = expectTag(next(tbs, offset, 'subject'), 0x30, 'subject');
  return { serialHex: toHex(serial.value), issuer: issuer.raw, subject: subject.raw, der: cert.raw };
}

/** The serial number alone (lower-case hex of the INTEGER's contents). Throws DerError. */
export function readCertificateSerial(der: Uint8Array): string {
  return readCertificateIdentity(der).serialHex;
}

/** Lower-case hex SHA-256 of the certificate element (trailing bytes excluded). Throws DerError. */
export function certificateFingerprint(der: Uint8Array): string {
  return createHash('sha256')
    .update(expectTag(readTlv(der), 0x30, 'Certificate').raw)
    .digest('hex');
}

export { DerError };
