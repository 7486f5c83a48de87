/**
 * A read-only view of an X.509 certificate: raw slices (issuer, serial, TBS) for signing and matching,
 * decoded names and the few extensions path building needs.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import {
  DerError,
  assertMinimalInteger,
  bytesEqual,
  decodeInteger,
  decodeTime,
  expectTag,
  readChildren,
  readOid,
  readTlv,
  type Tlv,
} from './der';
import { OID } from './oids';
import { resolveSignatureScheme, verifyWithScheme, type SignatureCheck } from './algorithms';

export interface CertInfo {
  der: Uint8Array;
  tbs: Uint8Array;
  version: number;
  /** INTEGER contents octets of serialNumber, as encoded. */
  serial: Uint8Array;
  serialHex: string;
  issuerDer: Uint8Array;
  subjectDer: Uint8Array;
  issuer: string;
  subject: string;
  commonName?: string;
  notBefore: Date;
  notAfter: Date;
  spki: Uint8Array;
  /** subjectPublicKey BIT STRING contents without the unused-bits octet (what OCSP hashes). */
  publicKeyBits: Uint8Array;
  signatureAlgorithm: string;
  signatureParams?: Uint8Array;
  signature: Uint8Array;
  subjectKeyId?: Uint8Array;
  authorityKeyId?: Uint8Array;
  /** basicConstraints cA; undefined when the extension is absent. */
  isCa?: boolean;
  /** Bit numbers set in keyUsage; undefined when the extension is absent. */
  keyUsage?: number[];
  extendedKeyUsage?: string[];
  extendedKeyUsageCritical?: boolean;
  publicKey(): KeyObject;
  hash(algorithm: 'sha1' | 'sha256' | 'sha384' | 'sha512'): Uint8Array;
}

export const KEY_USAGE_CERT_SIGN = 5;
export const KEY_USAGE_CRL_SIGN = 6;

const ATTRIBUTE_NAMES: Record<string, string> = {
  '2.5.4.3': 'CN',
  '2.5.4.4': 'SN',
  '2.5.4.5': 'serialNumber',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.9': 'STREET',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
  '2.5.4.12': 'title',
  '2.5.4.17': 'postalCode',
  '2.5.4.42': 'GN',
  '2.5.4.43': 'initials',
  '2.5.4.46': 'dnQualifier',
  '2.5.4.65': 'pseudonym',
  '2.5.4.97': 'organizationIdentifier',
  '1.2.840.113549.1.9.1': 'E',
  '0.9.2342.19200300.100.1.1': 'UID',
  '0.9.2342.19200300.100.1.25': 'DC',
};

/** Directory string types to text; undefined for anything else. */
export function decodeDirectoryString(t: Tlv): string | undefined {
  switch (t.tag) {
    case 0x0c:
      return new TextDecoder().decode(t.value);
    case 0x12:
    case 0x13:
    case 0x16:
    case 0x1a:
    case 0x14:
      return Buffer.from(t.value).toString('latin1');
    case 0x1e:
      return Buffer.from(t.value).swap16().toString('utf16le');
    case 0x1c: {
      let out = '';
      for (let i = 0; i + 3 < t.value.length; i += 4)
        out += String.fromCodePoint(Buffer.from(t.value).readUInt32BE(i));
      return out;
    }
    default:
      return undefined;
  }
}

function escapeValue(value: string): string {
  return value
    .replace(/[\\,+"<>;]/g, (c) => '\\' + c)
    .replace(/^[ #]/, (c) => '\\' + c)
    .replace(/ $/, '\\ ');
}

interface NameAttribute {
  type: string;
  value: string;
}

function readName(name: Uint8Array): NameAttribute[][] {
  return readChildren(expectTag(readTlv(name), 0x30, 'Name')).map((rdn) =>
    readChildren(expectTag(rdn, 0x31, 'RDN')).map((atv) => {
      const [type, value] = readChildren(atv);
      const text = value && decodeDirectoryString(value);
      return {
        type: readOid(type),
        value: text ?? '#' + Buffer.from(value?.raw ?? []).toString('hex'),
      };
    }),
  );
}

/** Name as text, RDNs in encoded order (as openssl and pdfsig print them). */
export function formatName(name: Uint8Array): string {
  try {
    return readName(name)
      .map((rdn) => rdn.map((a) => `${ATTRIBUTE_NAMES[a.type] ?? a.type}=${escapeValue(a.value)}`).join('+'))
      .join(', ');
  } catch {
    return '#' + Buffer.from(name).toString('hex');
  }
}

function normalizeName(name: Uint8Array): string {
  try {
    return JSON.stringify(
      readName(name).map((rdn) =>
        rdn.map((a) => [a.type, a.value.trim().replace(/\s+/g, ' ').toLowerCase()]).sort(),
      ),
    );
  } catch {
    return Buffer.from(name).toString('hex');
  }
}

/** X.500 name equality: identical encodings, or equal after case folding and space folding (RFC 5280 7.1). */
export function namesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return bytesEqual(a, b) || normalizeName(a) === normalizeName(b);
}

export function serialToHex(serial: Uint8Array): string {
  const n = decodeInteger(serial);
  const hex = (n < 0n ? -n : n).toString(16);
  return (n < 0n ? '-' : '') + (hex.length % 2 ? '0' + hex : hex);
}

function readExtensions(info: CertInfo, extensions: Tlv): void {
  for (const ext of readChildren(expectTag(readTlv(extensions.value), 0x30, 'Extensions'))) {
    const fields = readChildren(ext);
    const id = readOid(fields[0]);
    const critical = fields[1]?.tag === 0x01 && fields[1].value[0] !== 0;
    const value = expectTag(fields[fields.length - 1], 0x04, 'extnValue').value;
    if (id === OID.extSubjectKeyIdentifier) info.subjectKeyId = expectTag(readTlv(value), 0x04, 'SKI').value;
    else if (id === OID.extAuthorityKeyIdentifier) {
      const keyId = readChildren(readTlv(value)).find((f) => f.tag === 0x80);
      if (keyId) info.authorityKeyId = keyId.value;
    } else if (id === OID.extBasicConstraints) {
      const ca = readChildren(readTlv(value))[0];
      info.isCa = ca?.tag === 0x01 && ca.value[0] !== 0;
    } else if (id === OID.extKeyUsage) {
      const bits = expectTag(readTlv(value), 0x03, 'keyUsage').value;
      info.keyUsage = [];
      for (let i = 0; i < (bits.length - 1) * 8; i++)
        if ((bits[1 + (i >> 3)] as number) & (0x80 >> (i & 7))) info.keyUsage.push(i);
    } else if (id === OID.extExtendedKeyUsage) {
      info.extendedKeyUsage = readChildren(readTlv(value)).map((t) => readOid(t));
      info.extendedKeyUsageCritical = critical;
    }
  }
}

/** Parses a DER certificate; throws DerError when it is not one. */
export function parseCertificate(der: Uint8Array): CertInfo {
  const cert = expectTag(readTlv(der), 0x30, 'Certificate');
  const [tbsTlv, sigAlg, sigBits] = readChildren(cert);
  const tbsFields = readChildren(expectTag(tbsTlv, 0x30, 'TBSCertificate'));
  let i = 0;
  let version = 1;
  if (tbsFields[0]?.tag === 0xa0) {
    version = Number(decodeInteger(readTlv((tbsFields[0] as Tlv).value).value)) + 1;
    i = 1;
  }
  const serial = assertMinimalInteger(expectTag(tbsFields[i], 0x02, 'serialNumber').value);
  const issuer = expectTag(tbsFields[i + 2], 0x30, 'issuer').raw;
  const [notBefore, notAfter] = readChildren(expectTag(tbsFields[i + 3], 0x30, 'validity'));
  const subject = expectTag(tbsFields[i + 4], 0x30, 'subject').raw;
  const spki = expectTag(tbsFields[i + 5], 0x30, 'subjectPublicKeyInfo').raw;
  const algFields = readChildren(expectTag(sigAlg, 0x30, 'signatureAlgorithm'));
  if (!notBefore || !notAfter) throw new DerError('validity: missing times');
  const subjectName = readName(subject);
  let key: KeyObject | undefined;
  const hashes = new Map<string, Uint8Array>();
  const info: CertInfo = {
    der: cert.raw,
    tbs: (tbsTlv as Tlv).raw,
    version,
    serial,
    serialHex: serialToHex(serial),
    issuerDer: issuer,
    subjectDer: subject,
    issuer: formatName(issuer),
    subject: formatName(subject),
    commonName: subjectName.flat().find((a) => a.type === '2.5.4.3')?.value,
    notBefore: decodeTime(notBefore),
    notAfter: decodeTime(notAfter),
    spki,
    publicKeyBits: expectTag(readChildren(readTlv(spki))[1], 0x03, 'subjectPublicKey').value.subarray(1),
    signatureAlgorithm: readOid(algFields[0]),
    signatureParams: algFields[1]?.raw,
    signature: expectTag(sigBits, 0x03, 'signatureValue').value.subarray(1),
    publicKey() {
      key ??= createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
      return key;
    },
    hash(algorithm) {
      let h = hashes.get(algorithm);
      if (!h) hashes.set(algorithm, (h = new Uint8Array(createHash(algorithm).update(cert.raw).digest())));
      return h;
    },
  };
  const extensions = tbsFields.slice(i + 6).find((f) => f.tag === 0xa3);
  if (extensions) readExtensions(info, extensions);
  return info;
}

export function tryParseCertificate(der: Uint8Array): CertInfo | undefined {
  try {
    return parseCertificate(der);
  } catch {
    return undefined;
  }
}

/** Checks that `issuer`'s key signed `child`. */
export function verifyIssuedBy(child: CertInfo, issuer: CertInfo): SignatureCheck {
  const resolved = resolveSignatureScheme(child.signatureAlgorithm, child.signatureParams, undefined);
  if ('unsupported' in resolved) return { ok: false, reason: resolved.unsupported, unsupported: true };
  try {
    return verifyWithScheme(resolved.scheme, issuer.publicKey(), child.tbs, child.signature);
  } catch (error) {
    return { ok: false, reason: `unusable issuer key: ${(error as Error).message}` };
  }
}

export function sameCertificate(a: CertInfo, b: CertInfo): boolean {
  return bytesEqual(a.der, b.der);
}
