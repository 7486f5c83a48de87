import { createPublicKey, sign as cryptoSign, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { fromBase64, fromHex, isHash, sha256, toBase64, toHex } from './bytes';

/** The state of the log at one size. */
export interface TreeHead {
  treeSize: number;
  /** MTH of the first treeSize leaves, lowercase hex. */
  rootHash: string;
  /** Milliseconds since the Unix epoch. */
  timestamp: number;
}

/** A tree head signed by the log key (ECDSA P-256 with SHA-256, DER signature in base64). */
export interface SignedTreeHead extends TreeHead {
  keyId: string;
  signature: string;
}

/** The log key, wherever it lives (a key file, an HSM): the log only asks it to sign. */
export interface EvidenceSigner {
  keyId: string;
  /** DER SubjectPublicKeyInfo of the P-256 public key. */
  publicKeySpki: Uint8Array;
  /** ECDSA P-256 over SHA-256 of `data`; DER-encoded signature. */
  sign(data: Uint8Array): Promise<Uint8Array>;
}

const U64_MAX_SAFE = Number.MAX_SAFE_INTEGER;

function assertTreeHead(th: TreeHead): void {
  if (!Number.isSafeInteger(th.treeSize) || th.treeSize < 0)
    throw new RangeError('treeSize must be an integer ≥ 0');
  if (!Number.isSafeInteger(th.timestamp) || th.timestamp < 0 || th.timestamp > U64_MAX_SAFE)
    throw new RangeError('timestamp must be an integer ≥ 0');
  if (!isHash(th.rootHash)) throw new TypeError('rootHash must be 64 lowercase hex digits');
}

/**
 * The bytes a tree head signature covers: the TLS encoding of RFC 9162 TreeHeadDataV2 with no extensions,
 * 51 bytes: uint64 timestamp, uint64 tree_size, NodeHash root_hash (one length byte 32, then the hash),
 * and an empty sth_extensions list (two zero bytes).
 */
export function encodeTreeHead(th: TreeHead): Uint8Array {
  assertTreeHead(th);
  const out = Buffer.alloc(8 + 8 + 1 + 32 + 2);
  out.writeBigUInt64BE(BigInt(th.timestamp), 0);
  out.writeBigUInt64BE(BigInt(th.treeSize), 8);
  out.writeUInt8(32, 16);
  Buffer.from(fromHex(th.rootHash)).copy(out, 17);
  out.writeUInt16BE(0, 49);
  return new Uint8Array(out);
}

export async function signTreeHead(th: TreeHead, signer: EvidenceSigner): Promise<SignedTreeHead> {
  const signature = await signer.sign(encodeTreeHead(th));
  return {
    treeSize: th.treeSize,
    rootHash: th.rootHash,
    timestamp: th.timestamp,
    keyId: signer.keyId,
    signature: toBase64(signature),
  };
}

/** Reads a public key given as DER SPKI bytes, SPKI base64 or PEM; null when it is none of them. */
export function readPublicKey(key: Uint8Array | string): KeyObject | null {
  try {
    if (typeof key === 'string') {
      const trimmed = key.trim();
      if (trimmed.startsWith('-----BEGIN')) return createPublicKey(trimmed);
      return createPublicKey({ key: Buffer.from(fromBase64(trimmed)), format: 'der', type: 'spki' });
    }
    return createPublicKey({ key: Buffer.from(key), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

function isP256(key: KeyObject): boolean {
  return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
}

/** The SPKI DER of a key given in any form `readPublicKey` takes; null when unreadable or not P-256. */
export function spkiOf(key: Uint8Array | string): Uint8Array | null {
  const k = readPublicKey(key);
  return k && isP256(k) ? new Uint8Array(k.export({ format: 'der', type: 'spki' })) : null;
}

/** The key id the platform uses: SHA-256 of the SPKI DER, lowercase hex (as RFC 6962 log ids are). */
export function keyIdOf(publicKeySpki: Uint8Array): string {
  return toHex(sha256(publicKeySpki));
}

/** True when the signature of `sth` verifies with the P-256 key; false for anything malformed. */
export function verifyTreeHead(sth: SignedTreeHead, publicKey: Uint8Array | string): boolean {
  try {
    const key = readPublicKey(publicKey);
    if (!key || !isP256(key)) return false;
    const signature = fromBase64(sth.signature);
    return cryptoVerify('sha256', encodeTreeHead(sth), { key, dsaEncoding: 'der' }, signature);
  } catch {
    return false;
  }
}

/** A signer over a node:crypto P-256 private key (a key file, or tests). An HSM signer has the same shape. */
export function createKeySigner(privateKey: KeyObject, keyId?: string): EvidenceSigner {
  if (privateKey.type !== 'private' || !isP256(privateKey))
    throw new TypeError('the log key must be a P-256 private key');
  const publicKeySpki = new Uint8Array(createPublicKey(privateKey).export({ format: 'der', type: 'spki' }));
  return {
    keyId: keyId ?? keyIdOf(publicKeySpki),
    publicKeySpki,
    sign: async (data) => new Uint8Array(cryptoSign('sha256', data, { key: privateKey, dsaEncoding: 'der' })),
  };
}

/** PEM text of a DER SPKI, for people and for openssl. */
export function spkiToPem(spki: Uint8Array): string {
  const b64 = toBase64(spki)
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '');
  return `-----BEGIN PUBLIC KEY-----\n${b64}\n-----END PUBLIC KEY-----\n`;
}
