import { createHash, createPublicKey } from 'node:crypto';
import pkcs11js, { type PKCS11, type Template } from 'pkcs11js';
import type { KeyAlgorithm, KeyHandle, KeyStore } from '../types';
import { ecdsaRawToDer } from '../util/ecdsa';
import { newKeyId } from './key-record';
import { KeyStoreError } from './key-store-error';
import { acquireModule, loginSession, logoutSession, releaseModule } from './pkcs11-module';

export interface Pkcs11KeyStoreOptions {
  /** Path of the PKCS#11 shared library, e.g. from `findSoftHsmModule()`. */
  modulePath: string;
  tokenLabel: string;
  pin: string;
}

/** DER OID prime256v1, the CKA_EC_PARAMS of P-256 keys. */
const P256_PARAMS = Buffer.from('06082a8648ce3d030107', 'hex');

interface TokenKey {
  algorithm: KeyAlgorithm;
  privateKey: Buffer;
  spki: Uint8Array;
}

/**
 * Keys generated inside a PKCS#11 token (private key sensitive and non-extractable), found again by
 * CKA_ID = UTF-8 bytes of the key id. The store keeps one logged-in session; calls are synchronous
 * native calls, so a sign never interleaves with another on the session.
 */
export class Pkcs11KeyStore implements KeyStore {
  readonly kind = 'pkcs11' as const;
  private readonly options: Pkcs11KeyStoreOptions;
  private lib: PKCS11 | undefined;
  private session: Buffer | undefined;
  private readonly keys = new Map<string, TokenKey>();

  constructor(options: Pkcs11KeyStoreOptions) {
    this.options = { ...options };
  }

  async open(): Promise<void> {
    if (this.session) return;
    const { modulePath, tokenLabel, pin } = this.options;
    const lib = acquireModule(modulePath);
    try {
      const slot = lib.C_GetSlotList(true).find((s) => lib.C_GetTokenInfo(s).label.trim() === tokenLabel);
      if (!slot) throw new KeyStoreError('token-not-found', `no PKCS#11 token labelled "${tokenLabel}"`);
      const session = lib.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
      try {
        loginSession(modulePath, tokenLabel, session, pin);
      } catch (error) {
        lib.C_CloseSession(session);
        throw error;
      }
      this.lib = lib;
      this.session = session;
    } catch (error) {
      releaseModule(modulePath);
      if (error instanceof KeyStoreError) throw error;
      throw new KeyStoreError('pkcs11-error', `cannot open token "${tokenLabel}"`, { cause: error });
    }
  }

  async close(): Promise<void> {
    if (!this.session || !this.lib) return;
    const { lib, session } = this;
    this.session = undefined;
    this.lib = undefined;
    this.keys.clear();
    try {
      logoutSession(this.options.modulePath, this.options.tokenLabel);
      lib.C_CloseSession(session);
    } finally {
      releaseModule(this.options.modulePath);
    }
  }

  async generate(algorithm: KeyAlgorithm, label: string): Promise<KeyHandle> {
    const { lib, session } = this.opened();
    const id = newKeyId();
    const ckaId = Buffer.from(id, 'utf8');
    const common: Template = [
      { type: pkcs11js.CKA_TOKEN, value: true },
      { type: pkcs11js.CKA_ID, value: ckaId },
      { type: pkcs11js.CKA_LABEL, value: label },
    ];
    const publicTemplate: Template = [
      ...common,
      { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PUBLIC_KEY },
    ];
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
        { type: pkcs11js.CKA_VERIFY, value: true },
      );
      privateTemplate.push({ type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_EC });
    } else if (algorithm === 'RSA-2048') {
      mechanism = pkcs11js.CKM_RSA_PKCS_KEY_PAIR_GEN;
      publicTemplate.push(
        { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_RSA },
        { type: pkcs11js.CKA_MODULUS_BITS, value: 2048 },
        { type: pkcs11js.CKA_PUBLIC_EXPONENT, value: Buffer.from([1, 0, 1]) },
        { type: pkcs11js.CKA_VERIFY, value: true },
      );
      privateTemplate.push({ type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_RSA });
    } else {
      throw new KeyStoreError('unsupported-algorithm', `unsupported key algorithm ${String(algorithm)}`);
    }
    const pair = this.call('C_GenerateKeyPair', () =>
      lib.C_GenerateKeyPair(session, { mechanism }, publicTemplate, privateTemplate),
    );
    const key: TokenKey = {
      algorithm,
      privateKey: pair.privateKey,
      spki: this.readSpki(pair.publicKey, algorithm),
    };
    this.keys.set(id, key);
    return this.handleFor(id, key);
  }

  async load(id: string): Promise<KeyHandle> {
    const known = this.keys.get(id);
    if (known) return this.handleFor(id, known);
    const ckaId = Buffer.from(id, 'utf8');
    const privateKey = this.findOne(pkcs11js.CKO_PRIVATE_KEY, ckaId);
    const publicKey = this.findOne(pkcs11js.CKO_PUBLIC_KEY, ckaId);
    if (!privateKey || !publicKey)
      throw new KeyStoreError('key-not-found', `no key pair with CKA_ID "${id}" on the token`);
    const algorithm = this.algorithmOf(publicKey, id);
    const key: TokenKey = { algorithm, privateKey, spki: this.readSpki(publicKey, algorithm) };
    this.keys.set(id, key);
    return this.handleFor(id, key);
  }

  private handleFor(id: string, key: TokenKey): KeyHandle {
    return Object.freeze({
      id,
      algorithm: key.algorithm,
      publicKeySpki: new Uint8Array(key.spki),
      sign: async (data: Uint8Array) => this.signWith(id, data),
    });
  }

  private signWith(id: string, data: Uint8Array): Uint8Array {
    const { lib, session } = this.opened();
    const key = this.keys.get(id);
    if (!key)
      throw new KeyStoreError('not-open', `key ${id} was loaded before the store was closed; load it again`);
    if (key.algorithm === 'EC-P256') {
      // SoftHSM lacks CKM_ECDSA_SHA256: hash here and let the token sign the digest.
      const digest = createHash('sha256').update(data).digest();
      const raw = this.call('C_Sign', () => {
        lib.C_SignInit(session, { mechanism: pkcs11js.CKM_ECDSA }, key.privateKey);
        return lib.C_Sign(session, digest, Buffer.alloc(132));
      });
      return ecdsaRawToDer(raw);
    }
    const signature = this.call('C_Sign', () => {
      lib.C_SignInit(session, { mechanism: pkcs11js.CKM_SHA256_RSA_PKCS }, key.privateKey);
      return lib.C_Sign(session, Buffer.from(data), Buffer.alloc(512));
    });
    return new Uint8Array(signature);
  }

  private findOne(objectClass: number, ckaId: Buffer): Buffer | undefined {
    const { lib, session } = this.opened();
    return this.call('C_FindObjects', () => {
      lib.C_FindObjectsInit(session, [
        { type: pkcs11js.CKA_CLASS, value: objectClass },
        { type: pkcs11js.CKA_ID, value: ckaId },
      ]);
      try {
        return lib.C_FindObjects(session) ?? undefined;
      } finally {
        lib.C_FindObjectsFinal(session);
      }
    });
  }

  private algorithmOf(publicKey: Buffer, id: string): KeyAlgorithm {
    const { lib, session } = this.opened();
    const [type] = this.call('C_GetAttributeValue', () =>
      lib.C_GetAttributeValue(session, publicKey, [{ type: pkcs11js.CKA_KEY_TYPE }]),
    );
    const keyType = readUlong(type?.value);
    if (keyType === pkcs11js.CKK_EC) {
      const [params] = lib.C_GetAttributeValue(session, publicKey, [{ type: pkcs11js.CKA_EC_PARAMS }]);
      if (params?.value.equals(P256_PARAMS)) return 'EC-P256';
    } else if (keyType === pkcs11js.CKK_RSA) {
      const [modulus] = lib.C_GetAttributeValue(session, publicKey, [{ type: pkcs11js.CKA_MODULUS }]);
      if (modulus && significantBits(modulus.value) === 2048) return 'RSA-2048';
    }
    throw new KeyStoreError(
      'unsupported-algorithm',
      `key ${id} on the token is neither EC P-256 nor RSA-2048`,
    );
  }

  /** Rebuilds the SubjectPublicKeyInfo from the token's public attributes. */
  private readSpki(publicKey: Buffer, algorithm: KeyAlgorithm): Uint8Array {
    const { lib, session } = this.opened();
    const b64url = (b: Buffer) => b.toString('base64url');
    if (algorithm === 'EC-P256') {
      const [point] = this.call('C_GetAttributeValue', () =>
        lib.C_GetAttributeValue(session, publicKey, [{ type: pkcs11js.CKA_EC_POINT }]),
      );
      const q = uncompressedPoint(point?.value ?? Buffer.alloc(0));
      const jwk = { kty: 'EC', crv: 'P-256', x: b64url(q.subarray(1, 33)), y: b64url(q.subarray(33, 65)) };
      return new Uint8Array(
        createPublicKey({ key: jwk, format: 'jwk' }).export({ format: 'der', type: 'spki' }),
      );
    }
    const [modulus, exponent] = this.call('C_GetAttributeValue', () =>
      lib.C_GetAttributeValue(session, publicKey, [
        { type: pkcs11js.CKA_MODULUS },
        { type: pkcs11js.CKA_PUBLIC_EXPONENT },
      ]),
    );
    if (!modulus || !exponent) throw new KeyStoreError('pkcs11-error', 'token returned no RSA public key');
    const jwk = { kty: 'RSA', n: b64url(stripZeros(modulus.value)), e: b64url(stripZeros(exponent.value)) };
    return new Uint8Array(
      createPublicKey({ key: jwk, format: 'jwk' }).export({ format: 'der', type: 'spki' }),
    );
  }

  private opened(): { lib: PKCS11; session: Buffer } {
    if (!this.lib || !this.session) throw new KeyStoreError('not-open', 'the PKCS#11 key store is not open');
    return { lib: this.lib, session: this.session };
  }

  private call<T>(what: string, fn: () => T): T {
    try {
      return fn();
    } catch (cause) {
      if (cause instanceof KeyStoreError) throw cause;
      throw new KeyStoreError('pkcs11-error', `${what} failed: ${(cause as Error).message}`, { cause });
    }
  }
}

/** CKA_EC_POINT is a DER OCTET STRING around 04||X||Y (PKCS#11 2.40); some tokens send it bare. */
function uncompressedPoint(value: Buffer): Buffer {
  if (value.length === 65 && value[0] === 0x04) return value;
  if (value.length === 67 && value[0] === 0x04 && value[1] === 65 && value[2] === 0x04)
    return value.subarray(2);
  throw new KeyStoreError('pkcs11-error', 'CKA_EC_POINT is not an uncompressed P-256 point');
}

function readUlong(value: Buffer | undefined): number {
  if (!value || value.length === 0) return -1;
  return value.length >= 8 ? Number(value.readBigUInt64LE(0)) : value.readUInt32LE(0);
}

function stripZeros(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  return b.subarray(i);
}

function significantBits(b: Buffer): number {
  const s = stripZeros(b);
  return (s.length - 1) * 8 + (s[0] ?? 0).toString(2).length;
}
