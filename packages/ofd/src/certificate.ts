import * as asn1js from 'asn1js';
import { bits, octets, textOf } from './asn1';
import { toHex } from './bytes';

/**
 * A read-only view of an X.509 certificate, read with a schema-free walk of its DER so it runs in the
 * browser: its names (the raw bytes for matching, a display form), validity, key, the signature over its
 * TBS bytes as they were encoded, and the extensions path building needs.
 */
export interface OfdCertificateInfo {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore?: string;
  notAfter?: string;
}

export interface ParsedCertificate {
  der: Uint8Array;
  info: OfdCertificateInfo;
  version: number;
  /** The TBSCertificate exactly as encoded: what the issuer signed. */
  tbs: Uint8Array;
  signatureAlgorithm: string;
  signature: Uint8Array;
  issuerDer: Uint8Array;
  subjectDer: Uint8Array;
  notBefore?: Date;
  notAfter?: Date;
  spki: Uint8Array;
  /** The subjectPublicKey bits (an EC point, an RSA key's DER, …). */
  publicKey: Uint8Array;
  /** The key's algorithm OID, and its curve OID for EC keys. */
  keyAlgorithm: string;
  keyCurve?: string;
  /** basicConstraints cA; undefined when the extension is absent. */
  isCa?: boolean;
  /** Whether keyUsage allows keyCertSign; undefined when the extension is absent. */
  mayCertSign?: boolean;
  subjectKeyId?: Uint8Array;
  authorityKeyId?: Uint8Array;
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  subjectKeyId: '2.5.29.14',
  authorityKeyId: '2.5.29.35',
};

/** Raw bytes of a node as they were read (not re-encoded: signatures cover the original encoding). */
function rawOf(node: asn1js.AsnType): Uint8Array {
  return new Uint8Array((node as unknown as { valueBeforeDecodeView: Uint8Array }).valueBeforeDecodeView);
}

/** Parses a DER certificate; undefined when the bytes are not one. Never throws. */
export function parseCertificate(der: Uint8Array): ParsedCertificate | undefined {
  try {
    return parseOrThrow(der);
  } catch {
    return undefined;
  }
}

function parseOrThrow(der: Uint8Array): ParsedCertificate | undefined {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Sequence)) return undefined;
  const [tbs, sigAlg, sigBits] = parsed.result.valueBlock.value;
  if (!(tbs instanceof asn1js.Sequence) || !(sigAlg instanceof asn1js.Sequence)) return undefined;
  if (!(sigBits instanceof asn1js.BitString)) return undefined;
  const sigOid = sigAlg.valueBlock.value[0];
  if (!(sigOid instanceof asn1js.ObjectIdentifier)) return undefined;

  const children = tbs.valueBlock.value;
  const versionNode = children.find((f) => f.idBlock.tagClass === 3 && f.idBlock.tagNumber === 0);
  let version = 1;
  if (versionNode instanceof asn1js.Constructed) {
    const v = versionNode.valueBlock.value[0];
    if (v instanceof asn1js.Integer) version = v.valueBlock.valueDec + 1;
  }
  // serial, signature, issuer, validity, subject, subjectPublicKeyInfo
  const fields = children.filter((f) => f.idBlock.tagClass === 1);
  const [serial, , issuer, validity, subject, spki] = fields;
  if (!(serial instanceof asn1js.Integer) || !(spki instanceof asn1js.Sequence)) return undefined;
  if (!(issuer instanceof asn1js.Sequence) || !(subject instanceof asn1js.Sequence)) return undefined;
  const [keyAlg, key] = spki.valueBlock.value;
  if (!(key instanceof asn1js.BitString) || !(keyAlg instanceof asn1js.Sequence)) return undefined;
  const [keyOid, keyParams] = keyAlg.valueBlock.value;
  if (!(keyOid instanceof asn1js.ObjectIdentifier)) return undefined;
  const times = validity instanceof asn1js.Sequence ? validity.valueBlock.value : [];
  const notBefore = dateOf(times[0]);
  const notAfter = dateOf(times[1]);

  const cert: ParsedCertificate = {
    der,
    info: {
      subject: nameOf(subject),
      issuer: nameOf(issuer),
      serialNumber: toHex(new Uint8Array(serial.valueBlock.valueHexView)),
      notBefore: notBefore?.toISOString(),
      notAfter: notAfter?.toISOString(),
    },
    version,
    tbs: rawOf(tbs),
    signatureAlgorithm: sigOid.valueBlock.toString(),
    signature: bits(sigBits),
    issuerDer: rawOf(issuer),
    subjectDer: rawOf(subject),
    notBefore,
    notAfter,
    spki: rawOf(spki),
    publicKey: bits(key),
    keyAlgorithm: keyOid.valueBlock.toString(),
    keyCurve: keyParams instanceof asn1js.ObjectIdentifier ? keyParams.valueBlock.toString() : undefined,
  };
  const extensions = children.find((f) => f.idBlock.tagClass === 3 && f.idBlock.tagNumber === 3);
  if (extensions instanceof asn1js.Constructed) readExtensions(extensions, cert);
  return cert;
}

function readExtensions(node: asn1js.Constructed, cert: ParsedCertificate): void {
  const list = node.valueBlock.value[0];
  if (!(list instanceof asn1js.Sequence)) return;
  for (const ext of list.valueBlock.value) {
    if (!(ext instanceof asn1js.Sequence)) continue;
    const [id, ...rest] = ext.valueBlock.value;
    const value = rest[rest.length - 1];
    if (!(id instanceof asn1js.ObjectIdentifier) || !(value instanceof asn1js.OctetString)) continue;
    const inner = asn1js.fromBER(octets(value));
    if (inner.offset === -1) continue;
    const v = inner.result;
    switch (id.valueBlock.toString()) {
      case OID.basicConstraints: {
        const first = v instanceof asn1js.Sequence ? v.valueBlock.value[0] : undefined;
        cert.isCa = first instanceof asn1js.Boolean ? first.valueBlock.value : false;
        break;
      }
      case OID.keyUsage: {
        if (!(v instanceof asn1js.BitString)) break;
        // Bit 5 (keyCertSign), counted from the most significant bit of the first octet.
        const first = new Uint8Array(v.valueBlock.valueHexView)[0] ?? 0;
        cert.mayCertSign = (first & 0x04) !== 0;
        break;
      }
      case OID.subjectKeyId:
        if (v instanceof asn1js.OctetString) cert.subjectKeyId = octets(v);
        break;
      case OID.authorityKeyId: {
        const keyId = v instanceof asn1js.Sequence ? v.valueBlock.value[0] : undefined;
        if (keyId && keyId.idBlock.tagClass === 3 && keyId.idBlock.tagNumber === 0)
          cert.authorityKeyId = new Uint8Array(
            (keyId as asn1js.Primitive).valueBlock.valueHexView ?? new Uint8Array(0),
          );
        break;
      }
    }
  }
}

/** A distinguished name's common name, or its organisation, or all its values joined. */
export function nameOf(name: asn1js.AsnType | undefined): string {
  const pairs: [string, string][] = [];
  if (name instanceof asn1js.Sequence)
    for (const rdn of name.valueBlock.value)
      for (const atv of (rdn as asn1js.Set).valueBlock.value ?? []) {
        const [oid, v] = (atv as asn1js.Sequence).valueBlock.value ?? [];
        if (oid instanceof asn1js.ObjectIdentifier && v) pairs.push([oid.valueBlock.toString(), textOf(v)]);
      }
  const pick = (oid: string) => pairs.find(([o]) => o === oid)?.[1];
  return pick(OID.commonName) ?? pick(OID.organization) ?? pairs.map(([, v]) => v).join(', ');
}

function dateOf(node: asn1js.AsnType | undefined): Date | undefined {
  if (node instanceof asn1js.GeneralizedTime || node instanceof asn1js.UTCTime) {
    const d = node.toDate();
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  return undefined;
}
