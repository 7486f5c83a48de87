import { execFileSync } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyAlgorithm } from '../types';
import pkcs11js from 'pkcs11js';
import { Pkcs11KeyStore } from './pkcs11-key-store';
import { acquireModule, releaseModule } from './pkcs11-module';
import { findSoftHsmModule } from './softhsm';

function has(tool: string): boolean {
  try {
    execFileSync('which', [tool], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const modulePath = findSoftHsmModule();
const available = modulePath !== undefined && has('softhsm2-util');
if (!available) console.warn('softhsm2 not installed: PKCS#11 key store tests skipped');

const TOKEN = 'openseal-test';
const PIN = '123456';

function verifyWith(spki: Uint8Array, data: Uint8Array, signature: Uint8Array): boolean {
  const key = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
  return verify('sha256', data, key, signature);
}

describe.skipIf(!available)('Pkcs11KeyStore on SoftHSM', () => {
  let dir = '';
  let store: Pkcs11KeyStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openseal-softhsm-'));
    const conf = join(dir, 'softhsm2.conf');
    writeFileSync(conf, `directories.tokendir = ${dir}\nobjectstore.backend = file\nlog.level = ERROR\n`);
    // SoftHSM reads its configuration at C_Initialize, so it must be in the environment before opening.
    process.env.SOFTHSM2_CONF = conf;
    execFileSync(
      'softhsm2-util',
      ['--init-token', '--free', '--label', TOKEN, '--pin', PIN, '--so-pin', '654321'],
      {
        env: { ...process.env, SOFTHSM2_CONF: conf },
        stdio: 'ignore',
      },
    );
    store = new Pkcs11KeyStore({ modulePath: modulePath!, tokenLabel: TOKEN, pin: PIN });
    await store.open();
  });

  afterAll(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each<KeyAlgorithm>(['EC-P256', 'RSA-2048'])(
    '%s: generates on the token, signs, node:crypto verifies',
    async (algorithm) => {
      const handle = await store.generate(algorithm, `test ${algorithm}`);
      expect(handle.algorithm).toBe(algorithm);
      const details = createPublicKey({
        key: Buffer.from(handle.publicKeySpki),
        format: 'der',
        type: 'spki',
      }).asymmetricKeyDetails;
      if (algorithm === 'EC-P256') expect(details?.namedCurve).toBe('prime256v1');
      else expect(details?.modulusLength).toBe(2048);
      const data = new TextEncoder().encode(`sign me with ${algorithm}`);
      // Several signatures: raw r||s with leading zero bytes must still convert to valid DER.
      for (let i = 0; i < 20; i++) {
        const signature = await handle.sign(data);
        expect(verifyWith(handle.publicKeySpki, data, signature)).toBe(true);
      }
    },
  );

  it('finds keys again by CKA_ID after the store is closed and reopened', async () => {
    const ec = await store.generate('EC-P256', 'persisted ec');
    const rsa = await store.generate('RSA-2048', 'persisted rsa');
    await store.close();
    await expect(ec.sign(new Uint8Array([1]))).rejects.toMatchObject({ code: 'not-open' });
    store = new Pkcs11KeyStore({ modulePath: modulePath!, tokenLabel: TOKEN, pin: PIN });
    await store.open();
    for (const original of [ec, rsa]) {
      const loaded = await store.load(original.id);
      expect(loaded.algorithm).toBe(original.algorithm);
      expect(Buffer.from(loaded.publicKeySpki).equals(Buffer.from(original.publicKeySpki))).toBe(true);
      const data = new Uint8Array([7, 7, 7]);
      expect(verifyWith(original.publicKeySpki, data, await loaded.sign(data))).toBe(true);
    }
  });

  it('private keys are sensitive and never extractable', async () => {
    const handle = await store.generate('EC-P256', 'attrs');
    // Inspect the token object directly through the module the store shares in this process.
    const lib = acquireModule(modulePath!);
    const slot = lib.C_GetSlotList(true).find((s) => lib.C_GetTokenInfo(s).label.trim() === TOKEN)!;
    const session = lib.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION);
    try {
      lib.C_FindObjectsInit(session, [
        { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
        { type: pkcs11js.CKA_ID, value: Buffer.from(handle.id) },
      ]);
      const privateKey = lib.C_FindObjects(session);
      lib.C_FindObjectsFinal(session);
      expect(privateKey).toBeTruthy();
      const attrs = lib.C_GetAttributeValue(session, privateKey!, [
        { type: pkcs11js.CKA_SENSITIVE },
        { type: pkcs11js.CKA_EXTRACTABLE },
        { type: pkcs11js.CKA_TOKEN },
        { type: pkcs11js.CKA_LABEL },
      ]);
      expect(attrs.map((a) => a.value[0])).toEqual([1, 0, 1, 'a'.charCodeAt(0)]);
      expect(attrs[3]!.value.toString()).toBe('attrs');
      expect(() => lib.C_GetAttributeValue(session, privateKey!, [{ type: pkcs11js.CKA_VALUE }])).toThrow(
        /CKR_ATTRIBUTE_SENSITIVE/,
      );
    } finally {
      lib.C_CloseSession(session);
      releaseModule(modulePath!);
    }
  });

  it('reports unknown keys, bad tokens and bad PINs with codes', async () => {
    await expect(store.load('key_doesnotexist0000000')).rejects.toMatchObject({ code: 'key-not-found' });
    const noToken = new Pkcs11KeyStore({ modulePath: modulePath!, tokenLabel: 'no-such-token', pin: PIN });
    await expect(noToken.open()).rejects.toMatchObject({ code: 'token-not-found' });
    // A second store in the same process shares the token login, but only with the same PIN.
    const badPin = new Pkcs11KeyStore({ modulePath: modulePath!, tokenLabel: TOKEN, pin: '000000' });
    await expect(badPin.open()).rejects.toMatchObject({ code: 'login-failed' });
    const samePin = new Pkcs11KeyStore({ modulePath: modulePath!, tokenLabel: TOKEN, pin: PIN });
    await samePin.open();
    await samePin.close();
    // With no login held, the token itself refuses the wrong PIN.
    await store.close();
    await expect(badPin.open()).rejects.toMatchObject({ code: 'login-failed' });
    await store.open();
  });
});
