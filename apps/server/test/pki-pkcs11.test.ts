/**
 * The platform's authorities on a PKCS#11 token (SoftHSM2): nothing private in the database, and what the
 * token signs is accepted by openssl. Skips with a notice when SoftHSM2 or openssl is absent.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSoftHsmModule, toPem } from '@openseal/pki';
import { startTestApp, type TestApp } from './harness';

const module = findSoftHsmModule();
const hasTools =
  module !== undefined &&
  spawnSync('softhsm2-util', ['--version']).status === 0 &&
  spawnSync('openssl', ['version']).status === 0;
if (!hasTools) console.warn('pki-pkcs11.test: SoftHSM2 or openssl missing; the PKCS#11 platform test skips');

describe.skipIf(!hasTools)('platform PKI on a PKCS#11 token', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openseal-hsm-'));
  let t: TestApp;
  const file = (n: string) => join(dir, n);

  beforeAll(async () => {
    const conf = file('softhsm2.conf');
    writeFileSync(
      conf,
      `directories.tokendir = ${file('tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`,
    );
    spawnSync('mkdir', ['-p', file('tokens')]);
    // The module reads its configuration when it is first loaded in this process.
    process.env.SOFTHSM2_CONF = conf;
    const init = spawnSync(
      'softhsm2-util',
      ['--init-token', '--free', '--label', 'openseal-platform', '--pin', '246810', '--so-pin', '13579'],
      { env: { ...process.env, SOFTHSM2_CONF: conf }, encoding: 'utf8' },
    );
    expect(init.status, init.stderr).toBe(0);
    t = await startTestApp('pglite', {
      PKI_KEY_STORE: 'pkcs11',
      PKCS11_MODULE: module!,
      PKCS11_TOKEN_LABEL: 'openseal-platform',
      PKCS11_PIN: '246810',
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every platform key on the token and issues certificates openssl accepts', async () => {
    const keys = await t.db.selectFrom('pki_keys').selectAll().execute();
    expect(keys.length).toBeGreaterThanOrEqual(5);
    for (const k of keys) {
      expect(k.store).toBe('pkcs11');
      expect(k.wrapped_key).toBeNull();
    }
    for (const name of ['root', 'issuing']) {
      const r = await t.app.inject({ method: 'GET', url: `/pki/ca/${name}.cer` });
      writeFileSync(file(`${name}.pem`), toPem(r.rawPayload));
    }
    const seal = await t.app.pki.issue(t.db, {
      profile: 'person-seal',
      subject: { commonName: '王五', serialNumber: 'ID-SHA256:1f3870be274f6c49b3e31a0c6728957f' },
      owner: { type: 'person', id: 'psn_x' },
    });
    writeFileSync(file('leaf.pem'), toPem(seal.der));
    const v = spawnSync(
      'openssl',
      [
        'verify',
        '-x509_strict',
        '-CAfile',
        file('root.pem'),
        '-untrusted',
        file('issuing.pem'),
        file('leaf.pem'),
      ],
      { encoding: 'utf8' },
    );
    expect(`${v.stdout}${v.stderr}`).toContain(': OK');
    // The token's seal key signs a timestamped CMS through the same path as the server's signing.
    const signer = await t.app.pki.signer(t.db, seal.serial);
    expect(signer.key.algorithm).toBe('EC-P256');
    const token = await t.app.pki.timestampToken(new Uint8Array([1, 2, 3]));
    expect(token.length).toBeGreaterThan(500);
  });
});
