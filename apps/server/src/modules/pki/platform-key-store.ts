import type { Db } from '@openseal/db';
import {
  Pkcs11KeyStore,
  SoftwareKeyStore,
  type KeyAlgorithm,
  type KeyHandle,
  type KeyRecord,
  type KeyStore,
} from '@openseal/pki';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findKey, insertKey } from './pki.repository';

export interface KeyStoreSettings {
  dataDir: string;
  kek: string | undefined;
  keyStore: 'software' | 'pkcs11';
  pkcs11: { module: string | undefined; tokenLabel: string | undefined; pin: string | undefined };
}

/** The key-encryption key: from PKI_KEK, or generated once into the data directory with a warning. */
export function loadKek(settings: KeyStoreSettings, warn: (msg: string) => void): Uint8Array {
  if (settings.kek) {
    const k = /^[0-9a-fA-F]{64}$/.test(settings.kek)
      ? Buffer.from(settings.kek, 'hex')
      : Buffer.from(settings.kek, 'base64');
    if (k.length !== 32) throw new Error('PKI_KEK must be 32 bytes (64 hex digits or base64)');
    return k;
  }
  const dir = join(settings.dataDir, 'secrets');
  const file = join(dir, 'pki-kek');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    warn(
      `PKI_KEK is not set: generated a key-encryption key in ${file}. Whoever reads that file can unwrap ` +
        'every platform key: keep it apart from database backups, or set PKI_KEK (or PKI_KEY_STORE=pkcs11).',
    );
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

/**
 * The platform's key store with every key recorded in `pki_keys`: a software store wraps private keys
 * under the key-encryption key; a PKCS#11 token keeps them and the table keeps only their public half.
 */
export async function openPlatformKeyStore(
  db: Db,
  settings: KeyStoreSettings,
  warn: (msg: string) => void,
): Promise<KeyStore & { close(): Promise<void> }> {
  if (settings.keyStore === 'pkcs11') {
    const { module, tokenLabel, pin } = settings.pkcs11;
    if (!module || !tokenLabel || !pin)
      throw new Error('PKI_KEY_STORE=pkcs11 needs PKCS11_MODULE, PKCS11_TOKEN_LABEL and PKCS11_PIN');
    const token = new Pkcs11KeyStore({ modulePath: module, tokenLabel, pin });
    await token.open();
    return {
      kind: 'pkcs11',
      async generate(algorithm: KeyAlgorithm, label: string): Promise<KeyHandle> {
        const key = await token.generate(algorithm, label);
        await insertKey(db, {
          id: key.id,
          algorithm,
          label,
          store: 'pkcs11',
          public_key: key.publicKeySpki,
          wrapped_key: null,
        });
        return key;
      },
      load: (id) => token.load(id),
      close: async () => token.close(),
    };
  }
  const kek = loadKek(settings, warn);
  const store = new SoftwareKeyStore({
    kek,
    records: {
      async put(r: KeyRecord) {
        await insertKey(db, {
          id: r.id,
          algorithm: r.algorithm,
          label: r.label,
          store: 'software',
          public_key: r.publicKeySpki,
          wrapped_key: r.wrappedKey,
          created_at: r.createdAt,
        });
      },
      async get(id: string) {
        const row = await findKey(db, id);
        if (!row || !row.wrapped_key) return undefined;
        return {
          id: row.id,
          algorithm: row.algorithm,
          label: row.label,
          publicKeySpki: row.public_key,
          wrappedKey: row.wrapped_key,
          createdAt: row.created_at,
        };
      },
    },
  });
  return Object.assign(store, { close: async () => {} });
}
