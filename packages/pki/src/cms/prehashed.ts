/**
 * Signature checks over a digest rather than over data. A detached CMS without signed attributes signs
 * the content digest directly, and the verifier only ever sees that digest (the caller hashes the PDF
 * byte ranges), while node:crypto's verify() insists on hashing the data itself.
 */
import { constants, createHash, publicDecrypt, type KeyObject } from 'node:crypto';
import { bytesEqual, derNull, expectTag, octets, oid, readChildren, readOid, readTlv, seq } from './der';
import { CURVES } from './ec-curves';
import { hashOid, hashSize, nodeHashName, type HashName } from './oids';

/** RSASSA-PKCS1-v1_5: recover the DigestInfo and compare (both parameter encodings are in the wild). */
export function verifyRsaPkcs1Prehashed(
  key: KeyObject,
  hash: HashName,
  digest: Uint8Array,
  sig: Uint8Array,
): boolean {
  let recovered: Uint8Array;
  try {
    recovered = new Uint8Array(publicDecrypt({ key, padding: constants.RSA_PKCS1_PADDING }, sig));
  } catch {
    return false;
  }
  const alg = oid(hashOid(hash));
  return (
    bytesEqual(recovered, seq(seq(alg, derNull()), octets(digest))) ||
    bytesEqual(recovered, seq(seq(alg), octets(digest)))
  );
}

function mgf1(hash: string, seed: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let filled = 0;
  for (let counter = 0; filled < length; counter++) {
    const c = Uint8Array.of(counter >>> 24, (counter >>> 16) & 0xff, (counter >>> 8) & 0xff, counter & 0xff);
    const block = createHash(hash).update(seed).update(c).digest();
    out.set(block.subarray(0, Math.min(block.length, length - filled)), filled);
    filled += block.length;
  }
  return out;
}

/** RSASSA-PSS (RFC 8017 9.1.2, EMSA-PSS-VERIFY) with MGF1 over the same hash. */
export function verifyRsaPssPrehashed(
  key: KeyObject,
  hash: HashName,
  saltLength: number,
  digest: Uint8Array,
  sig: Uint8Array,
): boolean {
  const modBits = key.asymmetricKeyDetails?.modulusLength;
  if (!modBits) return false;
  let decrypted: Uint8Array;
  try {
    decrypted = new Uint8Array(publicDecrypt({ key, padding: constants.RSA_NO_PADDING }, sig));
  } catch {
    return false;
  }
  const emBits = modBits - 1;
  const emLen = Math.ceil(emBits / 8);
  const hLen = hashSize(hash);
  if (decrypted.length > emLen && decrypted.subarray(0, decrypted.length - emLen).some((b) => b !== 0))
    return false;
  const em = decrypted.subarray(decrypted.length - emLen);
  if (emLen < hLen + saltLength + 2 || em[emLen - 1] !== 0xbc) return false;
  const maskedDb = em.subarray(0, emLen - hLen - 1);
  const h = em.subarray(emLen - hLen - 1, emLen - 1);
  const topMask = 0xff >> (8 * emLen - emBits);
  if (((maskedDb[0] as number) & ~topMask) !== 0) return false;
  const db = mgf1(nodeHashName(hash), h, maskedDb.length).map((m, i) => m ^ (maskedDb[i] as number));
  db[0] = (db[0] as number) & topMask;
  const psLen = emLen - hLen - saltLength - 2;
  if (db.subarray(0, psLen).some((b) => b !== 0) || db[psLen] !== 0x01) return false;
  const salt = db.subarray(psLen + 1);
  const hPrime = createHash(nodeHashName(hash))
    .update(new Uint8Array(8))
    .update(digest)
    .update(salt)
    .digest();
  return bytesEqual(h, hPrime);
}

// ---------------------------------------------------------------- ECDSA over prime curves

type Point = { x: bigint; y: bigint } | null;

const big = (bytes: Uint8Array): bigint =>
  bytes.length === 0 ? 0n : BigInt('0x' + Buffer.from(bytes).toString('hex'));

function mod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r < 0n ? r + m : r;
}

function invert(a: bigint, m: bigint): bigint {
  let [oldR, r] = [mod(a, m), m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return mod(oldS, m);
}

function addPoints(P: Point, Q: Point, a: bigint, p: bigint): Point {
  if (!P) return Q;
  if (!Q) return P;
  let lambda: bigint;
  if (P.x === Q.x) {
    if (mod(P.y + Q.y, p) === 0n) return null;
    lambda = mod((3n * P.x * P.x + a) * invert(2n * P.y, p), p);
  } else {
    lambda = mod((Q.y - P.y) * invert(Q.x - P.x, p), p);
  }
  const x = mod(lambda * lambda - P.x - Q.x, p);
  return { x, y: mod(lambda * (P.x - x) - P.y, p) };
}

function multiply(k: bigint, P: Point, a: bigint, p: bigint): Point {
  let result: Point = null;
  let addend = P;
  for (let e = k; e > 0n; e >>= 1n) {
    if (e & 1n) result = addPoints(result, addend, a, p);
    addend = addPoints(addend, addend, a, p);
  }
  return result;
}

function decodePoint(bytes: Uint8Array): Point {
  if (bytes[0] !== 0x04 || bytes.length % 2 !== 1) return null;
  const half = (bytes.length - 1) / 2;
  return { x: big(bytes.subarray(1, 1 + half)), y: big(bytes.subarray(1 + half)) };
}

/** The named curve and public point of an EC SubjectPublicKeyInfo. */
function readEcSpki(spki: Uint8Array): { curveOid: string; point: Uint8Array } | undefined {
  const [algId, bits] = readChildren(readTlv(spki));
  const params = readChildren(expectTag(algId, 0x30, 'AlgorithmIdentifier'))[1];
  if (!params || params.tag !== 0x06 || !bits || bits.tag !== 0x03) return undefined;
  return { curveOid: readOid(params), point: bits.value.subarray(1) };
}

/** ECDSA verification over a digest; `signature` is r||s (plain) or a DER Ecdsa-Sig-Value. */
export function verifyEcdsaPrehashed(
  key: KeyObject,
  digest: Uint8Array,
  signature: Uint8Array,
  encoding: 'der' | 'ieee-p1363',
): boolean {
  const spki = readEcSpki(new Uint8Array(key.export({ format: 'der', type: 'spki' })));
  const curve = spki && CURVES[spki.curveOid];
  if (!spki || !curve)
    throw new Error('unsupported elliptic curve for a signature without signed attributes');
  const p = BigInt('0x' + curve.p);
  const a = BigInt('0x' + curve.a);
  const n = BigInt('0x' + curve.n);
  const G = decodePoint(Buffer.from(curve.g, 'hex'));
  const Q = decodePoint(spki.point);
  let r: bigint;
  let s: bigint;
  if (encoding === 'der') {
    const [ri, si] = readChildren(readTlv(signature));
    r = big(expectTag(ri, 0x02, 'r').value);
    s = big(expectTag(si, 0x02, 's').value);
  } else {
    if (signature.length % 2 !== 0) return false;
    r = big(signature.subarray(0, signature.length / 2));
    s = big(signature.subarray(signature.length / 2));
  }
  if (!Q || r <= 0n || s <= 0n || r >= n || s >= n) return false;
  const nBits = n.toString(2).length;
  let e = big(digest);
  if (digest.length * 8 > nBits) e >>= BigInt(digest.length * 8 - nBits);
  const w = invert(s, n);
  const X = addPoints(multiply(mod(e * w, n), G, a, p), multiply(mod(r * w, n), Q, a, p), a, p);
  return X !== null && mod(X.x, n) === r;
}
