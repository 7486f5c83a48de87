import * as asn1js from 'asn1js';
import smCrypto from 'sm-crypto';
import { toHex } from './bytes';

/**
 * Signature checks that run in the browser as on the server: SM2 with SM3 by `sm-crypto` (with the
 * default distinguishing identifier 1234567812345678 of GB/T 32918 and GM/T 0009), RSA PKCS#1 v1.5, ECDSA
 * and Ed25519 by WebCrypto. SHA-1 based signatures are no longer allowed and count as unsupported.
 */
export type HashName = 'SM3' | 'SHA-256' | 'SHA-384' | 'SHA-512';

type Scheme =
  | { kind: 'sm2'; hash: 'SM3' }
  | { kind: 'rsa'; hash: Exclude<HashName, 'SM3'> }
  | { kind: 'ecdsa'; hash: Exclude<HashName, 'SM3'> }
  | { kind: 'ed25519' };

export const SIGNATURE_OID = {
  sm2WithSm3: '1.2.156.10197.1.501',
  rsaWithSha256: '1.2.840.113549.1.1.11',
};

const SCHEMES: Record<string, Scheme> = {
  '1.2.156.10197.1.501': { kind: 'sm2', hash: 'SM3' },
  '1.2.840.113549.1.1.11': { kind: 'rsa', hash: 'SHA-256' },
  '1.2.840.113549.1.1.12': { kind: 'rsa', hash: 'SHA-384' },
  '1.2.840.113549.1.1.13': { kind: 'rsa', hash: 'SHA-512' },
  '1.2.840.10045.4.3.2': { kind: 'ecdsa', hash: 'SHA-256' },
  '1.2.840.10045.4.3.3': { kind: 'ecdsa', hash: 'SHA-384' },
  '1.2.840.10045.4.3.4': { kind: 'ecdsa', hash: 'SHA-512' },
  '1.3.101.112': { kind: 'ed25519' },
};

const CURVES: Record<string, { name: 'P-256' | 'P-384' | 'P-521'; size: number }> = {
  '1.2.840.10045.3.1.7': { name: 'P-256', size: 32 },
  '1.3.132.0.34': { name: 'P-384', size: 48 },
  '1.3.132.0.35': { name: 'P-521', size: 66 },
};
const SM2_CURVE = '1.2.156.10197.1.301';

/** The hash a signature algorithm signs with, for checking a data hash made for it; undefined if unknown. */
export function hashOfAlgorithm(oid: string): HashName | undefined {
  const s = SCHEMES[oid];
  return s && s.kind !== 'ed25519' ? s.hash : undefined;
}

export function isSupportedAlgorithm(oid: string): boolean {
  return oid in SCHEMES;
}

export interface PublicKeyInfo {
  spki: Uint8Array;
  /** The subjectPublicKey bits. */
  publicKey: Uint8Array;
  keyAlgorithm: string;
  keyCurve?: string;
}

/**
 * Whether `signature` over `data` verifies with `key` under the algorithm `oid`: 'unsupported' when the
 * algorithm (or the key's kind for it) is not one this package checks; never throws.
 */
export async function checkSignature(
  oid: string,
  data: Uint8Array,
  signature: Uint8Array,
  key: PublicKeyInfo,
): Promise<boolean | 'unsupported'> {
  const scheme = SCHEMES[oid];
  if (!scheme) return 'unsupported';
  try {
    switch (scheme.kind) {
      case 'sm2':
        return sm2Verify(data, signature, key);
      case 'rsa':
        return await subtleVerify(
          { name: 'RSASSA-PKCS1-v1_5', hash: scheme.hash },
          'RSASSA-PKCS1-v1_5',
          key.spki,
          signature,
          data,
        );
      case 'ecdsa': {
        const curve = key.keyCurve ? CURVES[key.keyCurve] : undefined;
        if (!curve) return 'unsupported';
        const raw = ecdsaRaw(signature, curve.size);
        if (!raw) return false;
        return await subtleVerify(
          { name: 'ECDSA', namedCurve: curve.name },
          { name: 'ECDSA', hash: scheme.hash },
          key.spki,
          raw,
          data,
        );
      }
      case 'ed25519':
        return await subtleVerify({ name: 'Ed25519' }, { name: 'Ed25519' }, key.spki, signature, data);
    }
  } catch {
    // A key WebCrypto will not import for the algorithm (or a runtime without it) is not a failed signature.
    return 'unsupported';
  }
}

function sm2Verify(data: Uint8Array, signature: Uint8Array, key: PublicKeyInfo): boolean | 'unsupported' {
  if (key.keyCurve !== SM2_CURVE && key.keyAlgorithm !== SM2_CURVE) return 'unsupported';
  const point = key.publicKey;
  if (point.length !== 65 || point[0] !== 4) return false;
  try {
    // A DER SEQUENCE { r, s }, or r‖s as 64 bytes, as some writers store it.
    const der = !(signature.length === 64 && signature[0] !== 0x30);
    return smCrypto.sm2.doVerifySignature(Array.from(data), toHex(signature), toHex(point), {
      der,
      hash: true,
    });
  } catch {
    return false;
  }
}

type Subtle = typeof globalThis.crypto.subtle;

async function subtleVerify(
  importAlgorithm: Parameters<Subtle['importKey']>[2],
  verifyAlgorithm: Parameters<Subtle['verify']>[0],
  spki: Uint8Array,
  signature: Uint8Array,
  data: Uint8Array,
): Promise<boolean> {
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey('spki', spki as Uint8Array<ArrayBuffer>, importAlgorithm, false, [
    'verify',
  ]);
  return subtle.verify(
    verifyAlgorithm,
    key,
    signature as Uint8Array<ArrayBuffer>,
    data as Uint8Array<ArrayBuffer>,
  );
}

/** An ECDSA-Sig-Value (DER SEQUENCE { r, s }) as WebCrypto's r‖s of the curve's size; undefined if malformed. */
function ecdsaRaw(der: Uint8Array, size: number): Uint8Array | undefined {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Sequence)) return undefined;
  const [r, s] = parsed.result.valueBlock.value;
  if (!(r instanceof asn1js.Integer) || !(s instanceof asn1js.Integer)) return undefined;
  const out = new Uint8Array(size * 2);
  for (const [i, n] of [r, s].entries()) {
    let bytes = new Uint8Array(n.valueBlock.valueHexView);
    while (bytes.length > 1 && bytes[0] === 0) bytes = bytes.subarray(1);
    if (bytes.length > size) return undefined;
    out.set(bytes, i * size + size - bytes.length);
  }
  return out;
}
