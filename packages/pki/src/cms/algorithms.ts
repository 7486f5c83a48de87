/**
 * Signature algorithm identifiers found in CMS and certificates from any producer, mapped to node:crypto.
 */
import { constants, verify, type KeyObject } from 'node:crypto';
import { decodeInteger, expectTag, readChildren, readOid, readTlv } from './der';
import { OID, hashByOid, nodeHashName, type HashName } from './oids';
import { verifyEcdsaPrehashed, verifyRsaPkcs1Prehashed, verifyRsaPssPrehashed } from './prehashed';

export type SignatureKind = 'rsa-pkcs1' | 'rsa-pss' | 'ecdsa' | 'ecdsa-plain' | 'eddsa';

export interface SignatureScheme {
  kind: SignatureKind;
  /** Hash the signature is computed with (absent for EdDSA, which is pure here). */
  hash?: HashName;
  saltLength?: number;
  /** For EdDSA: the curve, which fixes the digest a CMS may use with it (RFC 8419). */
  curve?: 'Ed25519' | 'Ed448';
  /** Human-readable, e.g. 'ECDSA with SHA-256'. */
  label: string;
}

const RSA_WITH: Record<string, HashName> = {
  [OID.md5WithRsa]: 'MD5',
  [OID.sha1WithRsa]: 'SHA-1',
  '1.3.14.3.2.29': 'SHA-1',
  [OID.sha256WithRsa]: 'SHA-256',
  [OID.sha384WithRsa]: 'SHA-384',
  [OID.sha512WithRsa]: 'SHA-512',
  [OID.rsaWithSha3_256]: 'SHA3-256',
  [OID.rsaWithSha3_384]: 'SHA3-384',
  [OID.rsaWithSha3_512]: 'SHA3-512',
};
const ECDSA_WITH: Record<string, HashName> = {
  [OID.ecdsaWithSha1]: 'SHA-1',
  [OID.ecdsaWithSha256]: 'SHA-256',
  [OID.ecdsaWithSha384]: 'SHA-384',
  [OID.ecdsaWithSha512]: 'SHA-512',
  [OID.ecdsaWithSha3_256]: 'SHA3-256',
  [OID.ecdsaWithSha3_384]: 'SHA3-384',
  [OID.ecdsaWithSha3_512]: 'SHA3-512',
};

/** The digest RFC 8419 (and ISO 32002 for PDF) binds to each EdDSA curve. */
export const EDDSA_DIGEST: Record<'Ed25519' | 'Ed448', HashName> = { Ed25519: 'SHA-512', Ed448: 'SHAKE256' };
/** BSI TR-03111 ecdsa-plain-SHA*: the signature is r||s, not a DER SEQUENCE. */
const PLAIN_ECDSA_WITH: Record<string, HashName> = {
  '0.4.0.127.0.7.1.1.4.1.1': 'SHA-1',
  '0.4.0.127.0.7.1.1.4.1.3': 'SHA-256',
  '0.4.0.127.0.7.1.1.4.1.4': 'SHA-384',
  '0.4.0.127.0.7.1.1.4.1.5': 'SHA-512',
};

export type SchemeResolution = { scheme: SignatureScheme } | { unsupported: string };

/** Hashes RSASSA-PSS may name in its parameters: MGF1 is defined over fixed-length hashes only. */
const PSS_HASHES: ReadonlySet<HashName> = new Set<HashName>([
  'SHA-1',
  'SHA-256',
  'SHA-384',
  'SHA-512',
  'SHA3-256',
  'SHA3-384',
  'SHA3-512',
]);

/**
 * RSASSA-PSS-params (RFC 4055): hash [0], mgf [1], saltLength [2], trailerField [3], each with the RFC
 * defaults (SHA-1, MGF1 with SHA-1, 20, 1).
 */
function resolvePss(params: Uint8Array | undefined): SchemeResolution {
  let hash: HashName | undefined = 'SHA-1';
  let mgfHash: HashName | undefined = 'SHA-1';
  let saltLength = 20;
  if (params && params.length > 2) {
    for (const field of readChildren(expectTag(readTlv(params), 0x30, 'RSASSA-PSS-params'))) {
      const inner = readTlv(field.value);
      if (field.tag === 0xa0) hash = hashByOid(readOid(readChildren(inner)[0]));
      else if (field.tag === 0xa1) {
        const [mgfOid, mgfParams] = readChildren(inner);
        if (readOid(mgfOid) !== OID.mgf1)
          return { unsupported: 'RSA-PSS with a mask generation function other than MGF1' };
        mgfHash = hashByOid(readOid(readChildren(expectTag(mgfParams, 0x30, 'MGF1 params'))[0]));
      } else if (field.tag === 0xa2) {
        saltLength = Number(decodeInteger(expectTag(inner, 0x02, 'saltLength').value));
        if (!Number.isSafeInteger(saltLength) || saltLength < 0 || saltLength > 1024)
          return { unsupported: `RSA-PSS with a salt length of ${saltLength}` };
      } else if (field.tag === 0xa3) {
        if (decodeInteger(expectTag(inner, 0x02, 'trailerField').value) !== 1n)
          return { unsupported: 'RSA-PSS with a trailer field other than 0xBC' };
      }
    }
  }
  if (!hash || !PSS_HASHES.has(hash)) return { unsupported: 'RSA-PSS with an unsupported hash' };
  if (mgfHash !== hash) return { unsupported: 'RSA-PSS with an MGF1 hash different from the message hash' };
  return { scheme: { kind: 'rsa-pss', hash, saltLength, label: `RSA-PSS with ${hash}` } };
}

/**
 * Resolves a signatureAlgorithm (with its DER parameters) into a scheme. `digestAlgorithm` supplies the
 * hash when the identifier names only the key type (rsaEncryption, id-ecPublicKey), as CMS allows.
 */
export function resolveSignatureScheme(
  algorithm: string,
  params: Uint8Array | undefined,
  digestAlgorithm: HashName | undefined,
): SchemeResolution {
  try {
    if (RSA_WITH[algorithm]) {
      const hash = RSA_WITH[algorithm];
      return { scheme: { kind: 'rsa-pkcs1', hash, label: `RSA PKCS#1 v1.5 with ${hash}` } };
    }
    if (ECDSA_WITH[algorithm]) {
      const hash = ECDSA_WITH[algorithm];
      return { scheme: { kind: 'ecdsa', hash, label: `ECDSA with ${hash}` } };
    }
    if (PLAIN_ECDSA_WITH[algorithm]) {
      const hash = PLAIN_ECDSA_WITH[algorithm];
      return { scheme: { kind: 'ecdsa-plain', hash, label: `plain ECDSA with ${hash}` } };
    }
    if (algorithm === OID.rsaPss) return resolvePss(params);
    if (algorithm === OID.ed25519) return { scheme: { kind: 'eddsa', curve: 'Ed25519', label: 'Ed25519' } };
    if (algorithm === OID.ed448) return { scheme: { kind: 'eddsa', curve: 'Ed448', label: 'Ed448' } };
    if (algorithm === OID.rsaEncryption || algorithm === OID.ecPublicKey) {
      if (!digestAlgorithm || digestAlgorithm === 'SHAKE256')
        return { unsupported: `unsupported digest algorithm ${digestAlgorithm ?? ''}`.trim() };
      const rsa = algorithm === OID.rsaEncryption;
      return {
        scheme: rsa
          ? { kind: 'rsa-pkcs1', hash: digestAlgorithm, label: `RSA PKCS#1 v1.5 with ${digestAlgorithm}` }
          : { kind: 'ecdsa', hash: digestAlgorithm, label: `ECDSA with ${digestAlgorithm}` },
      };
    }
  } catch (error) {
    return {
      unsupported: `malformed parameters of signature algorithm ${algorithm}: ${(error as Error).message}`,
    };
  }
  return { unsupported: `unsupported signature algorithm ${algorithm}` };
}

const KEY_TYPES: Record<SignatureKind, readonly string[]> = {
  'rsa-pkcs1': ['rsa'],
  'rsa-pss': ['rsa', 'rsa-pss'],
  ecdsa: ['ec'],
  'ecdsa-plain': ['ec'],
  eddsa: ['ed25519', 'ed448'],
};

export interface SignatureCheck {
  ok: boolean;
  reason?: string;
  /** The check could not be made (unknown algorithm), as opposed to a signature that does not verify. */
  unsupported?: boolean;
}

function keyMismatch(scheme: SignatureScheme, key: KeyObject): SignatureCheck | undefined {
  const type = key.asymmetricKeyType ?? 'unknown';
  if (KEY_TYPES[scheme.kind].includes(type)) return undefined;
  return { ok: false, reason: `${scheme.label} signature with a ${type} key` };
}

/** Verifies `signature` over `data` (never throws). */
export function verifyWithScheme(
  scheme: SignatureScheme,
  key: KeyObject,
  data: Uint8Array,
  signature: Uint8Array,
): SignatureCheck {
  const mismatch = keyMismatch(scheme, key);
  if (mismatch) return mismatch;
  const hash = scheme.hash ? nodeHashName(scheme.hash) : null;
  try {
    let ok: boolean;
    if (scheme.kind === 'rsa-pss') {
      const options = { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: scheme.saltLength };
      ok = verify(hash, data, options, signature);
    } else if (scheme.kind === 'ecdsa' || scheme.kind === 'ecdsa-plain') {
      const dsaEncoding = scheme.kind === 'ecdsa' ? 'der' : 'ieee-p1363';
      ok = verify(hash, data, { key, dsaEncoding }, signature);
    } else {
      ok = verify(hash, data, key, signature);
    }
    return ok ? { ok } : { ok, reason: 'signature does not verify' };
  } catch (error) {
    return { ok: false, reason: `signature does not verify: ${(error as Error).message}` };
  }
}

/** Verifies `signature` over a digest already computed with `scheme.hash` (never throws). */
export function verifyDigestWithScheme(
  scheme: SignatureScheme,
  key: KeyObject,
  digest: Uint8Array,
  signature: Uint8Array,
): SignatureCheck {
  const mismatch = keyMismatch(scheme, key);
  if (mismatch) return mismatch;
  try {
    let ok: boolean;
    if (scheme.kind === 'rsa-pkcs1')
      ok = verifyRsaPkcs1Prehashed(key, scheme.hash as HashName, digest, signature);
    else if (scheme.kind === 'rsa-pss')
      ok = verifyRsaPssPrehashed(key, scheme.hash as HashName, scheme.saltLength ?? 20, digest, signature);
    else if (scheme.kind === 'ecdsa' || scheme.kind === 'ecdsa-plain')
      ok = verifyEcdsaPrehashed(key, digest, signature, scheme.kind === 'ecdsa' ? 'der' : 'ieee-p1363');
    else
      return {
        ok: false,
        reason: `${scheme.label} cannot be checked over a digest without signed attributes`,
        unsupported: true,
      };
    return ok ? { ok } : { ok, reason: 'signature does not verify' };
  } catch (error) {
    return { ok: false, reason: `signature does not verify: ${(error as Error).message}` };
  }
}
