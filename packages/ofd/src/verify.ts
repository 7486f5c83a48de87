import * as asn1js from 'asn1js';
import smCrypto from 'sm-crypto';
import { bits, octets, textOf } from './asn1';
import { fromHex, toBase64 } from './bytes';
import { parseCertificate, type OfdCertificateInfo, type ParsedCertificate } from './certificate';
import { buildChain, makePool, validAt, type CertificatePool, type OfdTrust } from './chain';
import { checkSignature, hashOfAlgorithm, isSupportedAlgorithm } from './signature-check';
import type { OfdPackageDocument, OfdSignatureInfo } from './document';

/**
 * Checks of an OFD document's signatures (GB/T 33190 section 18, GB/T 38540 and GM/T 0031 signed values),
 * with verdicts as ETSI EN 319 102-1 gives them:
 *
 * 1. every part the signature lists in its References is hashed with its CheckMethod and compared;
 * 2. the signed value's data hash must be the hash of the signature's own Signature.xml (which holds
 *    the references), so the references cannot be swapped;
 * 3. the signed value's signature is checked with the signer's certificate it carries (SM2 with SM3, RSA
 *    or ECDSA with SHA-2);
 * 4. the signer's certificate must chain to a trust anchor the caller passes (every link's signature
 *    checked), the signing time must lie inside its validity, and no certificate of the chain may have
 *    expired by now (the signing time is the signer's claim, not a proof of when the seal was made).
 *
 * `valid` needs all four. `invalid` means broken: a part changed or missing, a signed value that does not
 * match, or one that cannot be read at all. Everything else is `indeterminate`: intact, but the signer
 * cannot be confirmed (no anchors given, unknown issuer, a broken or unsupported chain, expired, a bare
 * value without a certificate, an unknown algorithm). Names inside a certificate prove nothing until its
 * chain does. Each finding is a catalogued reason (packages/core `OFD_REASONS`, codes 1201–1219).
 */
export type OfdVerdict = 'valid' | 'invalid' | 'indeterminate';

/**
 * Every finding and the verdict it leads to, most decisive first: the verdict's `reason` is the first
 * finding of this order a signature has. packages/core's OFD_REASONS catalogues the same keys (a test
 * keeps the two in step).
 */
export const OFD_FINDINGS = {
  /** A listed part's digest differs from the one signed: the document was changed after signing. */
  referenceChanged: 'invalid',
  /** A listed part is no longer in the package. */
  referenceMissing: 'invalid',
  /** The signed value was made over another Signature.xml than the one in the package. */
  dataHashMismatch: 'invalid',
  /** The signature value does not match the signed data and the certificate's key. */
  signatureInvalid: 'invalid',
  /** The signature lists no parts at all, so it protects nothing. */
  noReferences: 'invalid',
  signedValueMissing: 'invalid',
  signedValueUnreadable: 'invalid',
  /** A bare signature value: without the signer's certificate it cannot be checked. */
  noCertificate: 'indeterminate',
  unsupportedAlgorithm: 'indeterminate',
  /** The digests use a method this checker does not know. */
  unknownCheckMethod: 'indeterminate',
  /** The digests use SHA-1, which no longer protects a document well enough. */
  weakDigest: 'indeterminate',
  /** The caller gave no trust anchors. */
  noTrustAnchors: 'indeterminate',
  /** No path from the signer's certificate to an anchor. */
  issuerUnknown: 'indeterminate',
  /** A link's signature fails, or an issuer on the way is not a CA. */
  chainInvalid: 'indeterminate',
  chainAlgorithmUnsupported: 'indeterminate',
  signingTimeOutsideValidity: 'indeterminate',
  /** A certificate of the chain has expired (or is not yet valid) now. */
  certificateExpired: 'indeterminate',
  noSigningTime: 'indeterminate',
  /** The one reason of `valid`. */
  signerConfirmed: 'valid',
} as const satisfies Record<string, OfdVerdict>;

export type OfdReason = keyof typeof OFD_FINDINGS;
export type OfdProblem = Exclude<OfdReason, 'signerConfirmed'>;

const ORDER = Object.keys(OFD_FINDINGS) as OfdReason[];

export interface OfdVerifyOptions extends OfdTrust {
  /** The time the chain is checked at (default: now). */
  now?: Date;
}

export type { OfdCertificateInfo };

export interface OfdSignatureCheck {
  id: string;
  type: string;
  /** How the signed value is built: an electronic seal signature (v4 or v1), a bare value, or unknown. */
  format: 'sesV4' | 'sesV1' | 'bare' | 'unknown';
  verdict: OfdVerdict;
  /** The catalogued reason of the verdict: the most decisive finding, or `signerConfirmed` when valid. */
  reason: OfdReason;
  /** Every finding, most decisive first; empty when valid. */
  problems: OfdProblem[];
  /**
   * Each covered part: unchanged, changed, missing, not checkable (unknown method), or the signature list
   * changed only as far as later signatures were added to it (allowed, as a PDF allows later signatures).
   */
  references: { file: string; status: 'ok' | 'changed' | 'laterSignatures' | 'missing' | 'unchecked' }[];
  /** The signature algorithm's OID. */
  algorithm?: string;
  signer?: OfdCertificateInfo;
  /**
   * The signer's certificate against the trust anchors: trusted (a path to an anchor, every link checked),
   * untrusted (no path), invalid (a broken or unsupported link), or not checked (the signature is broken,
   * or carries no certificate).
   */
  chain: 'trusted' | 'untrusted' | 'invalid' | 'notChecked';
  /** The signer first, up to the anchor when trusted. */
  chainPath: OfdCertificateInfo[];
  /** The seal's name, from the seal inside the signed value. */
  sealName?: string;
  /** When the signed value says it was made. */
  signedAt?: string;
  /** Whether `signedAt` falls inside the certificate's validity (undefined when either is unknown). */
  certificateValidAtSigning?: boolean;
}

const OID = {
  sm3: '1.2.156.10197.1.401',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
};

type DigestName = 'SM3' | 'SHA-256' | 'SHA-384' | 'SHA-512' | 'SHA-1';

function hashNameOf(method: string | undefined): DigestName | undefined {
  const m = (method ?? 'SM3').trim().toUpperCase().replace(/[-_]/g, '');
  if (m === 'SM3' || m === OID.sm3) return 'SM3';
  if (m === 'SHA256' || m === OID.sha256) return 'SHA-256';
  if (m === 'SHA1' || m === OID.sha1) return 'SHA-1';
  return undefined;
}

async function digest(name: DigestName, data: Uint8Array): Promise<Uint8Array> {
  if (name === 'SM3') return fromHex(smCrypto.sm3(data));
  return new Uint8Array(await globalThis.crypto.subtle.digest(name, data as Uint8Array<ArrayBuffer>));
}

export async function verifyOfdSignatures(
  doc: OfdPackageDocument,
  options: OfdVerifyOptions = {},
): Promise<OfdSignatureCheck[]> {
  const pool = makePool(options);
  const now = options.now ?? new Date();
  const out: OfdSignatureCheck[] = [];
  for (const [i, sig] of doc.signatures.entries())
    out.push(await checkOne(doc, sig, i < doc.signatures.length - 1, pool, now));
  return out;
}

async function checkOne(
  doc: OfdPackageDocument,
  sig: OfdSignatureInfo,
  hasLaterSignatures: boolean,
  pool: CertificatePool,
  now: Date,
): Promise<OfdSignatureCheck> {
  const problems = new Set<OfdProblem>();
  const check: OfdSignatureCheck = {
    id: sig.id,
    type: sig.type,
    format: 'unknown',
    verdict: 'indeterminate',
    reason: 'signedValueUnreadable',
    problems: [],
    references: [],
    chain: 'notChecked',
    chainPath: [],
  };

  // 1. The parts the signature covers.
  const hashName = hashNameOf(sig.references.checkMethod);
  if (sig.references.items.length === 0) problems.add('noReferences');
  if (!hashName && sig.references.items.length) problems.add('unknownCheckMethod');
  // SHA-1 digests are checked (a change still shows) but no longer protect a document well enough.
  if (hashName === 'SHA-1' && sig.references.items.length) problems.add('weakDigest');
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
  let signer: ParsedCertificate | undefined;
  if (!value || !signatureXml) problems.add('signedValueMissing');
  else signer = await checkSignedValue(value, signatureXml, check, problems);

  // 4. The signer, once nothing is broken.
  const broken = [...problems].some((p) => OFD_FINDINGS[p] === 'invalid');
  if (signer && !broken) await checkSigner(signer, check, problems, pool, now);

  check.problems = ORDER.filter((r): r is OfdProblem => problems.has(r as OfdProblem));
  check.reason = check.problems[0] ?? 'signerConfirmed';
  check.verdict = OFD_FINDINGS[check.reason];
  return check;
}

async function checkSigner(
  signer: ParsedCertificate,
  check: OfdSignatureCheck,
  problems: Set<OfdProblem>,
  pool: CertificatePool,
  now: Date,
): Promise<void> {
  const chain = await buildChain(signer, pool);
  check.chain = chain.status;
  check.chainPath = chain.path.map((c) => c.info);
  if (chain.finding) problems.add(chain.finding);
  const signedAt = check.signedAt ? new Date(check.signedAt) : undefined;
  if (!signedAt) problems.add('noSigningTime');
  else if (validAt(signer, signedAt) !== true) problems.add('signingTimeOutsideValidity');
  if (chain.path.some((c) => validAt(c, now) !== true)) problems.add('certificateExpired');
}

/** Checks the signed value; answers the signer's certificate when the value carries a readable one. */
async function checkSignedValue(
  value: Uint8Array,
  signatureXml: Uint8Array,
  check: OfdSignatureCheck,
  problems: Set<OfdProblem>,
): Promise<ParsedCertificate | undefined> {
  const parsed = asn1js.fromBER(value);
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Sequence)) {
    problems.add('signedValueUnreadable');
    return undefined;
  }
  const items = parsed.result.valueBlock.value;
  let toSign: asn1js.Sequence, certDer: Uint8Array, algorithm: string, signature: Uint8Array;
  if (items.length === 2 && items.every((i) => i instanceof asn1js.Integer)) {
    // r and s alone (some writers' "Sign" type): nothing says whose key made them.
    check.format = 'bare';
    problems.add('noCertificate');
    return undefined;
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
      return undefined;
    }
    check.format = 'sesV1';
    toSign = items[0];
    certDer = octets(cert);
    algorithm = alg.valueBlock.toString();
    signature = bits(items[1]);
  } else {
    problems.add('signedValueUnreadable');
    return undefined;
  }
  check.algorithm = algorithm;

  const tbs = toSign.valueBlock.value;
  const eseal = tbs[1];
  if (eseal instanceof asn1js.Sequence) check.sealName = sealNameOf(eseal);
  check.signedAt = timeOf(tbs[2]);
  const dataHash = tbs[3] instanceof asn1js.BitString ? bits(tbs[3]) : undefined;

  const cert = parseCertificate(certDer);
  if (!cert) {
    problems.add('signedValueUnreadable');
    return undefined;
  }
  check.signer = cert.info;
  check.certificateValidAtSigning = validAt(cert, check.signedAt ? new Date(check.signedAt) : undefined);

  const hash = hashOfAlgorithm(algorithm);
  if (!hash || !isSupportedAlgorithm(algorithm)) {
    problems.add('unsupportedAlgorithm');
    return cert;
  }
  if (!dataHash || !equal(dataHash, await digest(hash, signatureXml))) problems.add('dataHashMismatch');
  // The signature covers toSign as it was encoded, not as a re-encoding would write it.
  const signedBytes = new Uint8Array(
    (toSign as unknown as { valueBeforeDecodeView: Uint8Array }).valueBeforeDecodeView,
  );
  const ok = await checkSignature(algorithm, signedBytes, signature, cert);
  if (ok === 'unsupported') problems.add('unsupportedAlgorithm');
  else if (!ok) problems.add('signatureInvalid');
  return cert;
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
