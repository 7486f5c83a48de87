import * as asn1js from 'asn1js';
import smCrypto from 'sm-crypto';
import { bits, octets, textOf } from './asn1';
import { fromHex, toBase64, toHex } from './bytes';
import type { OfdPackageDocument, OfdSignatureInfo } from './document';

/**
 * Checks of an OFD document's signatures (GB/T 33190 section 18, GB/T 38540 and GM/T 0031 signed values):
 *
 * 1. every part the signature lists in its References is hashed with its CheckMethod and compared;
 * 2. the signed value's data hash must be the hash of the signature's own Signature.xml (which holds
 *    the references), so the references cannot be swapped;
 * 3. the signed value's signature is checked with the signer's certificate it carries.
 *
 * SM2 with SM3 and RSA with SHA-256 signatures are checked. A bare signature without a certificate, a
 * CMS value or another algorithm is reported as unverifiable, with why. The signer's certificate is
 * described (subject, issuer, validity) but not checked against a trust list: which seal makers to trust
 * is the verifier's policy, not the file's.
 */
export type OfdVerdict = 'valid' | 'invalid' | 'unverifiable';

export type OfdProblem =
  /** A listed part's digest differs from the one signed: the document was changed after signing. */
  | 'referenceChanged'
  /** A listed part is no longer in the package. */
  | 'referenceMissing'
  /** The signature lists no parts at all, so it protects nothing. */
  | 'noReferences'
  /** The digests use a method this checker does not know. */
  | 'unknownCheckMethod'
  | 'signedValueMissing'
  | 'signedValueUnreadable'
  /** The signed value was made over another Signature.xml than the one in the package. */
  | 'dataHashMismatch'
  /** The signature value does not match the signed data and the certificate's key. */
  | 'signatureInvalid'
  /** A bare signature value: without the signer's certificate it cannot be checked. */
  | 'noCertificate'
  | 'unsupportedAlgorithm';

const BREAKING: ReadonlySet<OfdProblem> = new Set([
  'referenceChanged',
  'referenceMissing',
  'dataHashMismatch',
  'signatureInvalid',
]);

export interface OfdCertificateInfo {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore?: string;
  notAfter?: string;
}

export interface OfdSignatureCheck {
  id: string;
  type: string;
  /** How the signed value is built: an electronic seal signature (v4 or v1), a bare value, or unknown. */
  format: 'sesV4' | 'sesV1' | 'bare' | 'unknown';
  verdict: OfdVerdict;
  problems: OfdProblem[];
  /**
   * Each covered part: unchanged, changed, missing, not checkable (unknown method), or the signature list
   * changed only as far as later signatures were added to it (allowed, as a PDF allows later signatures).
   */
  references: { file: string; status: 'ok' | 'changed' | 'laterSignatures' | 'missing' | 'unchecked' }[];
  /** The signature algorithm's OID. */
  algorithm?: string;
  signer?: OfdCertificateInfo;
  /** The seal's name, from the seal inside the signed value. */
  sealName?: string;
  /** When the signed value says it was made. */
  signedAt?: string;
  /** Whether `signedAt` falls inside the certificate's validity (undefined when either is unknown). */
  certificateValidAtSigning?: boolean;
}

const OID = {
  sm3: '1.2.156.10197.1.401',
  sm2WithSm3: '1.2.156.10197.1.501',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaWithSha256: '1.2.840.113549.1.1.11',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
};

type HashName = 'SM3' | 'SHA-256' | 'SHA-1';

function hashNameOf(method: string | undefined): HashName | undefined {
  const m = (method ?? 'SM3').trim().toUpperCase().replace(/[-_]/g, '');
  if (m === 'SM3' || m === OID.sm3) return 'SM3';
  if (m === 'SHA256' || m === OID.sha256) return 'SHA-256';
  if (m === 'SHA1' || m === OID.sha1) return 'SHA-1';
  return undefined;
}

async function digest(name: HashName, data: Uint8Array): Promise<Uint8Array> {
  if (name === 'SM3') return fromHex(smCrypto.sm3(data));
  return new Uint8Array(await globalThis.crypto.subtle.digest(name, data as Uint8Array<ArrayBuffer>));
}

export async function verifyOfdSignatures(doc: OfdPackageDocument): Promise<OfdSignatureCheck[]> {
  const out: OfdSignatureCheck[] = [];
  for (const [i, sig] of doc.signatures.entries())
    out.push(await checkOne(doc, sig, i < doc.signatures.length - 1));
  return out;
}

async function checkOne(
  doc: OfdPackageDocument,
  sig: OfdSignatureInfo,
  hasLaterSignatures: boolean,
): Promise<OfdSignatureCheck> {
  const problems = new Set<OfdProblem>();
  const check: OfdSignatureCheck = {
    id: sig.id,
    type: sig.type,
    format: 'unknown',
    verdict: 'unverifiable',
    problems: [],
    references: [],
  };

  // 1. The parts the signature covers.
  const hashName = hashNameOf(sig.references.checkMethod);
  if (sig.references.items.length === 0) problems.add('noReferences');
  if (!hashName && sig.references.items.length) problems.add('unknownCheckMethod');
  for (const ref of sig.references.items) {
    const bytes = doc.pkg.tryGet(ref.file);
    if (!bytes) {
      problems.add('referenceMissing');
      check.references.push({ file: ref.file, status: 'missing' });
    } else if (!hashName) {
      check.references.push({ file: ref.file, status: 'unchecked' });
    } else {
      const same = toBase64(await digest(hashName, bytes)) === ref.checkValue;
      // A writer that covers the signature list changes it again with every later signature.
      const later = !same && hasLaterSignatures && ref.file.toLowerCase() === sig.files.list.toLowerCase();
      if (!same && !later) problems.add('referenceChanged');
      check.references.push({ file: ref.file, status: same ? 'ok' : later ? 'laterSignatures' : 'changed' });
    }
  }

  // 2 and 3. The signed value.
  const value = sig.files.signedValue ? doc.pkg.tryGet(sig.files.signedValue) : undefined;
  const signatureXml = doc.pkg.tryGet(sig.files.signature);
  if (!value || !signatureXml) problems.add('signedValueMissing');
  else await checkSignedValue(value, signatureXml, check, problems);

  check.problems = [...problems];
  check.verdict = check.problems.some((p) => BREAKING.has(p))
    ? 'invalid'
    : check.problems.length
      ? 'unverifiable'
      : 'valid';
  return check;
}

async function checkSignedValue(
  value: Uint8Array,
  signatureXml: Uint8Array,
  check: OfdSignatureCheck,
  problems: Set<OfdProblem>,
): Promise<void> {
  const parsed = asn1js.fromBER(value);
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Sequence)) {
    problems.add('signedValueUnreadable');
    return;
  }
  const items = parsed.result.valueBlock.value;
  let toSign: asn1js.Sequence, certDer: Uint8Array, algorithm: string, signature: Uint8Array;
  if (items.length === 2 && items.every((i) => i instanceof asn1js.Integer)) {
    // r and s alone (some writers' "Sign" type): nothing says whose key made them.
    check.format = 'bare';
    problems.add('noCertificate');
    return;
  }
  if (
    items.length >= 4 &&
    items[0] instanceof asn1js.Sequence &&
    items[1] instanceof asn1js.OctetString &&
    items[2] instanceof asn1js.ObjectIdentifier &&
    items[3] instanceof asn1js.BitString
  ) {
    // GB/T 38540: SES_Signature { toSign, cert, signatureAlgID, signature, timeStamp [0] OPTIONAL }.
    check.format = 'sesV4';
    toSign = items[0];
    certDer = octets(items[1]);
    algorithm = items[2].valueBlock.toString();
    signature = bits(items[3]);
  } else if (
    items.length === 2 &&
    items[0] instanceof asn1js.Sequence &&
    items[1] instanceof asn1js.BitString
  ) {
    // GM/T 0031-2014: SES_Signature { toSign { …, cert, signatureAlgorithm }, signature }.
    const tbs = items[0].valueBlock.value;
    const cert = tbs[5];
    const alg = tbs[6];
    if (!(cert instanceof asn1js.OctetString) || !(alg instanceof asn1js.ObjectIdentifier)) {
      problems.add('signedValueUnreadable');
      return;
    }
    check.format = 'sesV1';
    toSign = items[0];
    certDer = octets(cert);
    algorithm = alg.valueBlock.toString();
    signature = bits(items[1]);
  } else {
    problems.add('signedValueUnreadable');
    return;
  }
  check.algorithm = algorithm;

  const tbs = toSign.valueBlock.value;
  const eseal = tbs[1];
  if (eseal instanceof asn1js.Sequence) check.sealName = sealNameOf(eseal);
  check.signedAt = timeOf(tbs[2]);
  const dataHash = tbs[3] instanceof asn1js.BitString ? bits(tbs[3]) : undefined;

  const cert = readCertificate(certDer);
  if (!cert) {
    problems.add('signedValueUnreadable');
    return;
  }
  check.signer = cert.info;
  if (check.signedAt && cert.info.notBefore && cert.info.notAfter)
    check.certificateValidAtSigning =
      check.signedAt >= cert.info.notBefore && check.signedAt <= cert.info.notAfter;

  const signedBytes = new Uint8Array(toSign.toBER());
  if (algorithm === OID.sm2WithSm3) {
    if (!dataHash || !equal(dataHash, await digest('SM3', signatureXml))) problems.add('dataHashMismatch');
    if (!sm2Verify(signedBytes, signature, cert.publicKey)) problems.add('signatureInvalid');
  } else if (algorithm === OID.rsaWithSha256) {
    if (!dataHash || !equal(dataHash, await digest('SHA-256', signatureXml)))
      problems.add('dataHashMismatch');
    if (!(await rsaVerify(signedBytes, signature, cert.spki))) problems.add('signatureInvalid');
  } else {
    problems.add('unsupportedAlgorithm');
  }
}

function sm2Verify(data: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (publicKey.length !== 65 || publicKey[0] !== 4) return false;
  try {
    // A DER SEQUENCE { r, s }, or r‖s as 64 bytes, as some writers store it.
    const der = !(signature.length === 64 && signature[0] !== 0x30);
    return smCrypto.sm2.doVerifySignature(Array.from(data), toHex(signature), toHex(publicKey), {
      der,
      hash: true,
    });
  } catch {
    return false;
  }
}

async function rsaVerify(data: Uint8Array, signature: Uint8Array, spki: Uint8Array): Promise<boolean> {
  try {
    const key = await globalThis.crypto.subtle.importKey(
      'spki',
      spki as Uint8Array<ArrayBuffer>,
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    return await globalThis.crypto.subtle.verify(
      'RSASSA-PKCS1-v1_5',
      key,
      signature as Uint8Array<ArrayBuffer>,
      data as Uint8Array<ArrayBuffer>,
    );
  } catch {
    return false;
  }
}

/** An X.509 certificate's names, validity and key, read with a schema-free walk of its DER. */
function readCertificate(
  der: Uint8Array,
): { info: OfdCertificateInfo; publicKey: Uint8Array; spki: Uint8Array } | undefined {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Sequence)) return undefined;
  const tbs = parsed.result.valueBlock.value[0];
  if (!(tbs instanceof asn1js.Sequence)) return undefined;
  const fields = tbs.valueBlock.value.filter((f) => f.idBlock.tagClass === 1);
  // serial, signature, issuer, validity, subject, subjectPublicKeyInfo
  const [serial, , issuer, validity, subject, spki] = fields;
  if (!(serial instanceof asn1js.Integer) || !(spki instanceof asn1js.Sequence)) return undefined;
  const key = spki.valueBlock.value[1];
  if (!(key instanceof asn1js.BitString)) return undefined;
  const times = validity instanceof asn1js.Sequence ? validity.valueBlock.value : [];
  return {
    info: {
      subject: nameOf(subject),
      issuer: nameOf(issuer),
      serialNumber: toHex(new Uint8Array(serial.valueBlock.valueHexView)),
      notBefore: timeOf(times[0]),
      notAfter: timeOf(times[1]),
    },
    publicKey: bits(key),
    spki: new Uint8Array(spki.toBER()),
  };
}

/** A distinguished name's common name, or its organisation, or all its values joined. */
function nameOf(name: asn1js.AsnType | undefined): string {
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

/**
 * The seal's name in either version's SESeal: `esealInfo { header, esID, property { type, name, … }, … }`.
 */
function sealNameOf(eseal: asn1js.Sequence): string | undefined {
  const info = eseal.valueBlock.value[0];
  if (!(info instanceof asn1js.Sequence)) return undefined;
  const property = info.valueBlock.value[2];
  if (!(property instanceof asn1js.Sequence)) return undefined;
  const name = property.valueBlock.value[1];
  return name ? textOf(name) || undefined : undefined;
}

function timeOf(node: asn1js.AsnType | undefined): string | undefined {
  if (node instanceof asn1js.GeneralizedTime || node instanceof asn1js.UTCTime) {
    const d = node.toDate();
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  }
  // GM/T 0031 v1 writes the time as a BIT STRING of text (e.g. 20200422101010Z).
  if (node instanceof asn1js.BitString) {
    const text = new TextDecoder().decode(bits(node)).trim();
    const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})/.exec(text);
    if (m) return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)).toISOString();
  }
  return undefined;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
