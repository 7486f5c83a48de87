import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { KeyStoreError } from './key-store-error';

const VERSION = 1;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;
const HEADER = 1 + IV_LENGTH + TAG_LENGTH;

export function assertKek(kek: Uint8Array): void {
  if (!(kek instanceof Uint8Array) || kek.byteLength !== 32) {
    throw new KeyStoreError('invalid-kek', 'the key-encryption key must be 32 bytes (AES-256)');
  }
}

/** AES-256-GCM with the key id as AAD, so a wrapped key cannot be moved to another record. */
export function wrapKey(kek: Uint8Array, id: string, pkcs8: Uint8Array): Uint8Array {
  const iv = randomBytes(IV_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', kek, iv, { authTagLength: TAG_LENGTH });
  cipher.setAAD(Buffer.from(id, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(pkcs8), cipher.final()]);
  const out = new Uint8Array(HEADER + ciphertext.byteLength);
  out[0] = VERSION;
  out.set(iv, 1);
  out.set(cipher.getAuthTag(), 1 + IV_LENGTH);
  out.set(ciphertext, HEADER);
  return out;
}

/** The PKCS#8 DER; the caller must wipe it once the KeyObject is built. */
export function unwrapKey(kek: Uint8Array, id: string, wrapped: Uint8Array): Buffer {
  if (wrapped.byteLength <= HEADER || wrapped[0] !== VERSION) {
    throw new KeyStoreError('record-corrupt', `key ${id}: wrapped key has an unknown layout`);
  }
  const decipher = createDecipheriv('aes-256-gcm', kek, wrapped.subarray(1, 1 + IV_LENGTH), {
    authTagLength: TAG_LENGTH,
  });
  decipher.setAAD(Buffer.from(id, 'utf8'));
  decipher.setAuthTag(wrapped.subarray(1 + IV_LENGTH, HEADER));
  try {
    return Buffer.concat([decipher.update(wrapped.subarray(HEADER)), decipher.final()]);
  } catch (cause) {
    throw new KeyStoreError(
      'kek-mismatch',
      `key ${id}: cannot unwrap the private key — the key-encryption key is not the one it was wrapped with, or the record was altered`,
      { cause },
    );
  }
}
