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
  /** Hash the signature is computed with (absent for EdDSA). */
  hash?: HashName;
  saltLength?: number;
  /** Human-readable, e.g. 'ECDSA with SHA-256'. */
  label: string;
}

const RSA_WITH: Record<string, HashName> = {
  [OID.sha1WithRsa]: 'SHA-1',
  '1.3.14.3.2.29': 'SHA-1',
  [OID.sha256WithRsa]: 'SHA-256',
  [OID.sha384WithRsa]: 'SHA-384',
  [OID.sha512WithRsa]: 'SHA-512',
};
const ECDSA_WITH: Record<string, HashName> = {
  [OID.ecdsaWithSha1]: 'SHA-1',
  [OID.ecdsaWithSha256]: 'SHA-256',
  [OID.ecdsaWithSha384]: 'SHA-384',
  [OID.ecdsaWithSha512]: 'SHA-512',
};
/** BSI TR-03111 ecdsa-plain-SHA*: the signature is r||s, not a DER SEQUENCE. */
const PLAIN_ECDSA_WITH: Record<string, HashName> = {
  '0.4.0.127.0.7.1.1.4.1.1': 'SHA-1',
  '0.4.0.127.0.7.1.1.4.1.3': 'SHA-256',
  '0.4.0.127.0.7.1.1.4.1.4': 'SHA-384',
  '0.4.0.127.0.7.1.1.4.1.5': 'SHA-512',
};

export type SchemeResolution = { scheme: SignatureScheme } | { unsupported: string };

/** RSASSA-PSS-params (RFC 4055): hash [0], mgf [1], saltLength [2], each with RFC defaults. */
function resolvePss(params: Uint8Array | undefined): SchemeResolution {
  let hash: HashName | undefined = 'SHA-1';
  let mgfHash: HashName | undefined = 'SHA-1';
  let saltLength = 20;
  if (params && params.length > 2) {
    for (const field of readChildren(readTlv(params))) {
      const inner = readTlv(field.value);
      if (field.tag === 0xa0) hash = hashByOid(readOid(readChildren(inner)[0]));
      else if (field.tag === 0xa1) {
        const [mgfOid, mgfParams] = readChildren(inner);
        if (readOid(mgfOid) !== OID.mgf1)
          return { unsupported: 'RSA-PSS with a mask generation function other than MGF1' };
        mgfHash = hashByOid(readOid(readChildren(expectTag(mgfParams, 0x30, 'MGF1 params'))[0]));
      } else if (field.tag === 0xa2)
        saltLength = Number(decodeInteger(expectTag(inner, 0x02, 'saltLength').value));
    }
  }
  if (!hash) return { unsupported: 'RSA-PSS with an unsupported hash' };
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
    if (algorithm === OID.ed25519) return { scheme: { kind: 'eddsa', label: 'Ed25519' } };
    if (algorithm === OID.ed448) return { scheme: { kind: 'eddsa', label: 'Ed448' } };
    if (algorithm === OID.rsaEncryption || algorithm === OID.ecPublicKey) {
      if (!digestAlgorithm) return { unsupported: 'unsupported digest algorithm' };
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
    else return { ok: false, reason: `${scheme.label} cannot sign a digest without signed attributes` };
    return ok ? { ok } : { ok, reason: 'signature does not verify' };
  } catch (error) {
    return { ok: false, reason: `signature does not verify: ${(error as Error).message}` };
  }
}
