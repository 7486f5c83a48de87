import { createDecipheriv, createPrivateKey, createPublicKey, randomBytes, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { KeyAlgorithm } from '../types';
import { MemoryKeyRecordStore, newKeyId } from './key-record';
import { KeyStoreError } from './key-store-error';
import { SoftwareKeyStore } from './software-key-store';

const ALGORITHMS: KeyAlgorithm[] = ['EC-P256', 'RSA-2048'];

function verifyWith(spki: Uint8Array, data: Uint8Array, signature: Uint8Array): boolean {
  const key = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
  return verify('sha256', data, key, signature);
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  return Buffer.from(haystack).indexOf(Buffer.from(needle));
}

describe('SoftwareKeyStore', () => {
  it.each(ALGORITHMS)(
    '%s: signs with SHA-256 and node:crypto verifies, also after reloading',
    async (algorithm) => {
      const records = new MemoryKeyRecordStore();
      const kek = randomBytes(32);
      const store = new SoftwareKeyStore({ kek, records });
      const handle = await store.generate(algorithm, 'test key');
      expect(handle.id).toMatch(/^key_[a-z2-7]{20}$/);
      expect(handle.algorithm).toBe(algorithm);
      const data = new TextEncoder().encode('document to seal');
      const signature = await handle.sign(data);
      expect(verifyWith(handle.publicKeySpki, data, signature)).toBe(true);
      expect(verifyWith(handle.publicKeySpki, new TextEncoder().encode('other'), signature)).toBe(false);

      // A fresh store with the same KEK and records (as after a restart) finds and uses the key.
      const reopened = new SoftwareKeyStore({ kek, records });
      const loaded = await reopened.load(handle.id);
      expect(Buffer.from(loaded.publicKeySpki).equals(Buffer.from(handle.publicKeySpki))).toBe(true);
      expect(verifyWith(loaded.publicKeySpki, data, await loaded.sign(data))).toBe(true);
    },
  );

  it('ECDSA signatures are DER Ecdsa-Sig-Value', async () => {
    const store = new SoftwareKeyStore({ kek: randomBytes(32), records: new MemoryKeyRecordStore() });
    const handle = await store.generate('EC-P256', 'der check');
    const signature = await handle.sign(new Uint8Array([1, 2, 3]));
    expect(signature[0]).toBe(0x30);
    expect(signature[1]).toBe(signature.length - 2);
  });

  it.each(ALGORITHMS)(
    '%s: records carry only the wrapped key, never the PKCS#8 plaintext',
    async (algorithm) => {
      const records = new MemoryKeyRecordStore();
      const kek = randomBytes(32);
      const store = new SoftwareKeyStore({ kek, records });
      const handle = await store.generate(algorithm, 'secret');
      const [record] = records.all();
      expect(record).toBeDefined();
      expect(record!.id).toBe(handle.id);
      expect(record!.label).toBe('secret');
      expect(record!.wrappedKey[0]).toBe(1);

      // Recover the plaintext through an independent path (node:crypto with the KEK) and look for it.
      const w = record!.wrappedKey;
      const decipher = createDecipheriv('aes-256-gcm', kek, w.subarray(1, 13));
      decipher.setAAD(Buffer.from(record!.id));
      decipher.setAuthTag(w.subarray(13, 29));
      const pkcs8 = Buffer.concat([decipher.update(w.subarray(29)), decipher.final()]);
      expect(pkcs8[0]).toBe(0x30);
      const serialised = Buffer.concat([
        Buffer.from(JSON.stringify({ ...record, wrappedKey: undefined, publicKeySpki: undefined })),
        record!.publicKeySpki,
        record!.wrappedKey,
      ]);
      expect(indexOfBytes(serialised, pkcs8)).toBe(-1);
      // Nor any private component (PKCS#8 also embeds public parts, which the SPKI legitimately repeats).
      const jwk = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' });
      const secrets = [jwk.d, jwk.p, jwk.q, jwk.dp, jwk.dq, jwk.qi].filter((v): v is string => !!v);
      expect(secrets.length).toBe(algorithm === 'EC-P256' ? 1 : 6);
      for (const secret of secrets) {
        expect(indexOfBytes(serialised, Buffer.from(secret, 'base64url'))).toBe(-1);
      }
      expect(JSON.stringify(handle)).not.toContain('privateKey');
    },
  );

  it('refuses a wrong KEK with code kek-mismatch', async () => {
    const records = new MemoryKeyRecordStore();
    const handle = await new SoftwareKeyStore({ kek: randomBytes(32), records }).generate('EC-P256', 'k');
    const other = new SoftwareKeyStore({ kek: randomBytes(32), records });
    const error = await other.load(handle.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyStoreError);
    expect((error as KeyStoreError).code).toBe('kek-mismatch');
    expect((error as KeyStoreError).message).toMatch(/key-encryption key/);
  });

  it('refuses a wrapped key moved to another id (the id is authenticated)', async () => {
    const records = new MemoryKeyRecordStore();
    const kek = randomBytes(32);
    const handle = await new SoftwareKeyStore({ kek, records }).generate('EC-P256', 'k');
    const record = (await records.get(handle.id))!;
    const movedId = newKeyId();
    await records.put({ ...record, id: movedId });
    const error = await new SoftwareKeyStore({ kek, records }).load(movedId).catch((e: unknown) => e);
    expect((error as KeyStoreError).code).toBe('kek-mismatch');
  });

  it('refuses a record whose public key was swapped', async () => {
    const records = new MemoryKeyRecordStore();
    const kek = randomBytes(32);
    const store = new SoftwareKeyStore({ kek, records });
    const a = await store.generate('EC-P256', 'a');
    const b = await store.generate('EC-P256', 'b');
    const record = (await records.get(a.id))!;
    await records.put({ ...record, publicKeySpki: b.publicKeySpki });
    const error = await new SoftwareKeyStore({ kek, records }).load(a.id).catch((e: unknown) => e);
    expect((error as KeyStoreError).code).toBe('record-corrupt');
  });

  it('rejects a KEK that is not 32 bytes and an unknown id', async () => {
    expect(() => new SoftwareKeyStore({ kek: randomBytes(16), records: new MemoryKeyRecordStore() })).toThrow(
      KeyStoreError,
    );
    const store = new SoftwareKeyStore({ kek: randomBytes(32), records: new MemoryKeyRecordStore() });
    await expect(store.load('key_unknown')).rejects.toMatchObject({ code: 'key-not-found' });
  });
});
