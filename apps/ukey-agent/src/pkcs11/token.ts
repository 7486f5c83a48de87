import { createHash, createPublicKey, randomBytes, X509Certificate } from 'node:crypto';
import pkcs11js, { type PKCS11, type Template } from 'pkcs11js';
import { AppError } from '@openseal/core';
import { pkcs11Code } from './module';

/** A token present in a slot, initialised (an empty SoftHSM slot or a blank card is not a key). */
export interface Token {
  slot: Buffer;
  serial: string;
  label: string;
  manufacturer: string;
  model: string;
  flags: number;
}

export type KeyAlgorithm = 'EC-P256' | 'RSA-2048';

/** DER OID prime256v1, the CKA_EC_PARAMS of P-256 keys. */
const P256_PARAMS = Buffer.from('06082a8648ce3d030107', 'hex');
/** DER DigestInfo prefix for SHA-256 (RFC 8017 §9.2 note 1): CKM_RSA_PKCS signs it with the digest appended. */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/** The agent's own objects on a token are public data objects of this application. */
export const AGENT_APPLICATION = 'openseal-ukey-agent';
export const SEAL_IMAGE_APPLICATION = 'openseal-seal-image';

export function presentTokens(lib: PKCS11): Token[] {
  const tokens: Token[] = [];
  for (const slot of lib.C_GetSlotList(true)) {
    let info: pkcs11js.TokenInfo;
    try {
      info = lib.C_GetTokenInfo(slot);
    } catch (cause) {
      // A key pulled out between the two calls is simply not there.
      if (pkcs11Code(cause) === pkcs11js.CKR_TOKEN_NOT_PRESENT) continue;
      throw cause;
    }
    if ((info.flags & pkcs11js.CKF_TOKEN_INITIALIZED) === 0) continue;
    tokens.push({
      slot,
      serial: info.serialNumber.trim(),
      label: info.label.trim(),
      manufacturer: info.manufacturerID.trim(),
      model: info.model.trim(),
      flags: info.flags,
    });
  }
  return tokens;
}

/**
 * The one key a call is about (spec section 8): the named serial when it is inserted; otherwise "wrong
 * serial" when another key is in, "several keys" when none was named and more than one is in, and "not
 * inserted" when there is none.
 */
export function chooseToken(tokens: Token[], serial: string | undefined): Token {
  if (tokens.length === 0) throw new AppError('ukey.notInserted', { details: { reason: 'notInserted' } });
  if (serial !== undefined) {
    const found = tokens.find((t) => t.serial === serial);
    if (found) return found;
    throw new AppError('ukey.wrongSerial', {
      details: { expected: serial, inserted: tokens.map((t) => t.serial) },
    });
  }
  if (tokens.length > 1)
    throw new AppError('ukey.multiple', { details: { inserted: tokens.map((t) => t.serial) } });
  return tokens[0]!;
}

export function withSession<T>(lib: PKCS11, token: Token, fn: (session: Buffer) => T): T {
  let session: Buffer;
  try {
    session = lib.C_OpenSession(token.slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
  } catch (cause) {
    throw tokenFailure(cause);
  }
  try {
    return fn(session);
  } finally {
    try {
      lib.C_CloseSession(session);
    } catch {
      // The key may have been pulled out; nothing is left to close.
    }
  }
}

/** A PKCS#11 failure the caller did not expect: a key pulled out answers 7001, anything else 7027. */
export function tokenFailure(cause: unknown): AppError {
  if (cause instanceof AppError) return cause;
  const code = pkcs11Code(cause);
  if (
    code === pkcs11js.CKR_TOKEN_NOT_PRESENT ||
    code === pkcs11js.CKR_DEVICE_REMOVED ||
    code === pkcs11js.CKR_SESSION_HANDLE_INVALID
  )
    return new AppError('ukey.notInserted', { details: { reason: 'removed' }, cause });
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new AppError('ukey.tokenError', { params: { reason }, details: { reason }, cause });
}

export function findObjects(lib: PKCS11, session: Buffer, template: Template): Buffer[] {
  lib.C_FindObjectsInit(session, template);
  try {
    const out: Buffer[] = [];
    for (;;) {
      const batch = lib.C_FindObjects(session, 32);
      if (batch.length === 0) return out;
      out.push(...batch);
    }
  } finally {
    lib.C_FindObjectsFinal(session);
  }
}

function attribute(lib: PKCS11, session: Buffer, object: Buffer, type: number): Buffer {
  const [a] = lib.C_GetAttributeValue(session, object, [{ type }]);
  return a?.value instanceof Buffer ? a.value : Buffer.alloc(0);
}

function readUlong(value: Buffer): number {
  return value.length >= 8 ? Number(value.readBigUInt64LE(0)) : value.readUInt32LE(0);
}

function stripZeros(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  return b.subarray(i);
}

/** CKA_EC_POINT is a DER OCTET STRING around 04||X||Y (PKCS#11 2.40); some tokens send it bare. */
function uncompressedPoint(value: Buffer): Buffer {
  if (value.length === 65 && value[0] === 0x04) return value;
  if (value.length === 67 && value[0] === 0x04 && value[1] === 65 && value[2] === 0x04)
    return value.subarray(2);
  throw new AppError('ukey.tokenError', { params: { reason: 'unsupported EC point encoding' } });
}

export interface TokenPublicKey {
  handle: Buffer;
  /** CKA_ID as lower-case hex: what ties a key pair, its certificate and its seal images together. */
  keyId: string;
  algorithm: KeyAlgorithm | 'other';
  spki?: Buffer | undefined;
}

/** The SubjectPublicKeyInfo of a public key object, rebuilt from its attributes. */
function spkiOf(
  lib: PKCS11,
  session: Buffer,
  handle: Buffer,
): { algorithm: KeyAlgorithm | 'other'; spki?: Buffer } {
  const keyType = readUlong(attribute(lib, session, handle, pkcs11js.CKA_KEY_TYPE));
  const b64url = (b: Buffer) => b.toString('base64url');
  if (keyType === pkcs11js.CKK_EC) {
    if (!attribute(lib, session, handle, pkcs11js.CKA_EC_PARAMS).equals(P256_PARAMS))
      return { algorithm: 'other' };
    const q = uncompressedPoint(attribute(lib, session, handle, pkcs11js.CKA_EC_POINT));
    const jwk = { kty: 'EC', crv: 'P-256', x: b64url(q.subarray(1, 33)), y: b64url(q.subarray(33, 65)) };
    return {
      algorithm: 'EC-P256',
      spki: createPublicKey({ key: jwk, format: 'jwk' }).export({ format: 'der', type: 'spki' }),
    };
  }
  if (keyType === pkcs11js.CKK_RSA) {
    const n = stripZeros(attribute(lib, session, handle, pkcs11js.CKA_MODULUS));
    const e = stripZeros(attribute(lib, session, handle, pkcs11js.CKA_PUBLIC_EXPONENT));
    const spki = createPublicKey({ key: { kty: 'RSA', n: b64url(n), e: b64url(e) }, format: 'jwk' }).export({
      format: 'der',
      type: 'spki',
    });
    return { algorithm: n.length * 8 === 2048 ? 'RSA-2048' : 'other', spki };
  }
  return { algorithm: 'other' };
}

export function publicKeys(lib: PKCS11, session: Buffer): TokenPublicKey[] {
  return findObjects(lib, session, [{ type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PUBLIC_KEY }]).map(
    (handle) => ({
      handle,
      keyId: attribute(lib, session, handle, pkcs11js.CKA_ID).toString('hex'),
      ...spkiOf(lib, session, handle),
    }),
  );
}

export interface TokenCertificate {
  handle: Buffer;
  keyId: string;
  label: string;
  der: Buffer;
}

export function certificates(lib: PKCS11, session: Buffer): TokenCertificate[] {
  return findObjects(lib, session, [
    { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_CERTIFICATE },
    { type: pkcs11js.CKA_CERTIFICATE_TYPE, value: pkcs11js.CKC_X_509 },
  ]).map((handle) => ({
    handle,
    keyId: attribute(lib, session, handle, pkcs11js.CKA_ID).toString('hex'),
    label: attribute(lib, session, handle, pkcs11js.CKA_LABEL).toString('utf8'),
    der: attribute(lib, session, handle, pkcs11js.CKA_VALUE),
  }));
}

export interface DataObject {
  handle: Buffer;
  label: string;
  keyId: string;
  value: Buffer;
}

export function dataObjects(lib: PKCS11, session: Buffer, application: string, label?: string): DataObject[] {
  const template: Template = [
    { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_DATA },
    { type: pkcs11js.CKA_APPLICATION, value: application },
  ];
  if (label !== undefined) template.push({ type: pkcs11js.CKA_LABEL, value: label });
  return findObjects(lib, session, template).map((handle) => ({
    handle,
    label: attribute(lib, session, handle, pkcs11js.CKA_LABEL).toString('utf8'),
    keyId: attribute(lib, session, handle, pkcs11js.CKA_OBJECT_ID).toString('hex'),
    value: attribute(lib, session, handle, pkcs11js.CKA_VALUE),
  }));
}

/**
 * Replaces a public data object. SoftHSM keeps CKA_VALUE of data objects read-only after creation, so an
 * update is a destroy and a create.
 */
export function writeDataObject(
  lib: PKCS11,
  session: Buffer,
  o: { application: string; label: string; value: Buffer; keyId?: string },
): void {
  for (const old of dataObjects(lib, session, o.application, o.label))
    lib.C_DestroyObject(session, old.handle);
  const template: Template = [
    { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_DATA },
    { type: pkcs11js.CKA_TOKEN, value: true },
    { type: pkcs11js.CKA_PRIVATE, value: false },
    { type: pkcs11js.CKA_MODIFIABLE, value: true },
    { type: pkcs11js.CKA_APPLICATION, value: o.application },
    { type: pkcs11js.CKA_LABEL, value: o.label },
    { type: pkcs11js.CKA_VALUE, value: o.value },
  ];
  // CKA_OBJECT_ID is free-form DER in PKCS#11; the agent keeps the key's CKA_ID there to tie an image to a key.
  if (o.keyId) template.push({ type: pkcs11js.CKA_OBJECT_ID, value: Buffer.from(o.keyId, 'hex') });
  lib.C_CreateObject(session, template);
}

export function generateKeyPair(
  lib: PKCS11,
  session: Buffer,
  algorithm: KeyAlgorithm,
  label: string,
): { keyId: string; spki: Buffer } {
  const ckaId = randomBytes(16);
  const common: Template = [
    { type: pkcs11js.CKA_TOKEN, value: true },
    { type: pkcs11js.CKA_ID, value: ckaId },
    { type: pkcs11js.CKA_LABEL, value: label },
  ];
  const publicTemplate: Template = [
    ...common,
    { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PUBLIC_KEY },
    { type: pkcs11js.CKA_PRIVATE, value: false },
    { type: pkcs11js.CKA_VERIFY, value: true },
  ];
  // The private key never leaves the token: sensitive, not extractable, usable only for signing.
  const privateTemplate: Template = [
    ...common,
    { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
    { type: pkcs11js.CKA_PRIVATE, value: true },
    { type: pkcs11js.CKA_SENSITIVE, value: true },
    { type: pkcs11js.CKA_EXTRACTABLE, value: false },
    { type: pkcs11js.CKA_SIGN, value: true },
  ];
  let mechanism: number;
  if (algorithm === 'EC-P256') {
    mechanism = pkcs11js.CKM_EC_KEY_PAIR_GEN;
    publicTemplate.push(
      { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_EC },
      { type: pkcs11js.CKA_EC_PARAMS, value: P256_PARAMS },
    );
    privateTemplate.push({ type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_EC });
  } else {
    mechanism = pkcs11js.CKM_RSA_PKCS_KEY_PAIR_GEN;
    publicTemplate.push(
      { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_RSA },
      { type: pkcs11js.CKA_MODULUS_BITS, value: 2048 },
      { type: pkcs11js.CKA_PUBLIC_EXPONENT, value: Buffer.from([1, 0, 1]) },
    );
    privateTemplate.push({ type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_RSA });
  }
  const pair = lib.C_GenerateKeyPair(session, { mechanism }, publicTemplate, privateTemplate);
  const { spki } = spkiOf(lib, session, pair.publicKey);
  if (!spki)
    throw new AppError('ukey.tokenError', { params: { reason: 'the token returned no public key' } });
  return { keyId: ckaId.toString('hex'), spki };
}

/** Writes (or replaces) the certificate of a key pair on the token; answers the key's CKA_ID. */
export function writeCertificate(lib: PKCS11, session: Buffer, der: Buffer, label: string): string {
  const cert = new X509Certificate(der);
  const spki = cert.publicKey.export({ format: 'der', type: 'spki' });
  const key = publicKeys(lib, session).find((k) => k.spki?.equals(spki));
  if (!key) throw new AppError('ukey.keyNotOnToken');
  const ckaId = Buffer.from(key.keyId, 'hex');
  for (const old of certificates(lib, session).filter((c) => c.keyId === key.keyId))
    lib.C_DestroyObject(session, old.handle);
  const names = certificateNames(der);
  lib.C_CreateObject(session, [
    { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_CERTIFICATE },
    { type: pkcs11js.CKA_CERTIFICATE_TYPE, value: pkcs11js.CKC_X_509 },
    { type: pkcs11js.CKA_TOKEN, value: true },
    { type: pkcs11js.CKA_PRIVATE, value: false },
    { type: pkcs11js.CKA_LABEL, value: label },
    { type: pkcs11js.CKA_ID, value: ckaId },
    { type: pkcs11js.CKA_SUBJECT, value: names.subject },
    { type: pkcs11js.CKA_ISSUER, value: names.issuer },
    { type: pkcs11js.CKA_SERIAL_NUMBER, value: names.serial },
    { type: pkcs11js.CKA_VALUE, value: der },
  ]);
  return key.keyId;
}

/** DER of the subject and issuer Names and of the serial INTEGER, cut out of the certificate itself. */
function certificateNames(der: Buffer): { subject: Buffer; issuer: Buffer; serial: Buffer } {
  // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { [0] version?, serial, sigAlg, issuer, validity, subject, ... } }
  const tlv = (buf: Buffer, at: number) => {
    let len = buf[at + 1]!;
    let header = 2;
    if (len & 0x80) {
      const n = len & 0x7f;
      len = 0;
      for (let i = 0; i < n; i++) len = len * 256 + buf[at + 2 + i]!;
      header = 2 + n;
    }
    return { tag: buf[at]!, start: at, body: at + header, end: at + header + len };
  };
  const certificate = tlv(der, 0);
  const tbs = tlv(der, certificate.body);
  const fields: Array<ReturnType<typeof tlv>> = [];
  for (let at = tbs.body; at < tbs.end && fields.length < 7;) {
    const f = tlv(der, at);
    fields.push(f);
    at = f.end;
  }
  const offset = fields[0]?.tag === 0xa0 ? 1 : 0;
  const pick = (i: number) => {
    const f = fields[i + offset];
    if (!f) throw new AppError('ukey.certInvalid');
    return der.subarray(f.start, f.end);
  };
  return { serial: pick(0), issuer: pick(2), subject: pick(4) };
}

export function findPrivateKey(lib: PKCS11, session: Buffer, keyId: string): Buffer | undefined {
  return findObjects(lib, session, [
    { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
    { type: pkcs11js.CKA_ID, value: Buffer.from(keyId, 'hex') },
  ])[0];
}

/**
 * Signs a SHA-256 digest. ECDSA answers DER Ecdsa-Sig-Value, RSA a PKCS#1 v1.5 signature: both verify
 * with any `verify('sha256', data, …)`. SoftHSM has no CKM_ECDSA_SHA256, so the digest goes to CKM_ECDSA.
 */
export function signDigest(
  lib: PKCS11,
  session: Buffer,
  privateKey: Buffer,
  algorithm: KeyAlgorithm,
  digest: Buffer,
): Buffer {
  if (algorithm === 'EC-P256') {
    lib.C_SignInit(session, { mechanism: pkcs11js.CKM_ECDSA }, privateKey);
    return ecdsaRawToDer(lib.C_Sign(session, digest, Buffer.alloc(132)));
  }
  lib.C_SignInit(session, { mechanism: pkcs11js.CKM_RSA_PKCS }, privateKey);
  return lib.C_Sign(session, Buffer.concat([SHA256_DIGEST_INFO, digest]), Buffer.alloc(512));
}

function derInteger(magnitude: Buffer): Buffer {
  const trimmed = stripZeros(magnitude);
  const pad = (trimmed[0] ?? 0) & 0x80 ? Buffer.from([0]) : Buffer.alloc(0);
  return Buffer.concat([Buffer.from([0x02, pad.length + trimmed.length]), pad, trimmed]);
}

/** PKCS#11 answers raw r||s; X.509, CMS and node:crypto want the DER SEQUENCE of two INTEGERs. */
export function ecdsaRawToDer(raw: Buffer): Buffer {
  if (raw.length === 0 || raw.length % 2 !== 0 || raw.length > 132)
    throw new AppError('ukey.tokenError', {
      params: { reason: `unexpected ECDSA signature length ${raw.length}` },
    });
  const half = raw.length / 2;
  const body = Buffer.concat([derInteger(raw.subarray(0, half)), derInteger(raw.subarray(half))]);
  return Buffer.concat([
    Buffer.from(body.length < 0x80 ? [0x30, body.length] : [0x30, 0x81, body.length]),
    body,
  ]);
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();
