import { describe, expect, it } from 'vitest';
import type { KeyAlgorithm } from '../types';
import { toPem } from '../util/pem';
import { has, makeTestPki, ORG_SEAL_SUBJECT, run, tempDir } from '../util/test-support';
import { buildCrl } from './build-crl';
import { parseCrl } from './parse-crl';

const hasOpenssl = has('openssl');
if (!hasOpenssl) console.warn('openssl not installed: CRL checks against openssl skipped');

const thisUpdate = new Date(Date.now() - 60_000);
const nextUpdate = new Date(Date.now() + 7 * 86_400_000);

describe.each<KeyAlgorithm>(['EC-P256', 'RSA-2048'])('CRL with %s', (algorithm) => {
  it('openssl accepts a good certificate and reports a revoked one', async () => {
    const pki = await makeTestPki(algorithm);
    const good = await pki.issue('org-seal', ORG_SEAL_SUBJECT);
    const revoked = await pki.issue('person-seal', { commonName: '李四', serialNumber: 'deadbeef' });
    const held = await pki.issue('person', { commonName: '王五', serialNumber: 'cafe' });
    const revokedAt = new Date('2026-01-02T03:04:05Z');
    const crl = await buildCrl({
      issuer: { certificate: pki.issuing.der, key: pki.issuing.key },
      thisUpdate,
      nextUpdate,
      crlNumber: 42n,
      revoked: [
        { serialHex: revoked.serialHex, revokedAt, reason: 'keyCompromise' },
        { serialHex: held.serialHex, revokedAt, reason: 'certificateHold' },
      ],
    });

    const parsed = parseCrl(crl);
    expect(parsed.crlNumber).toBe(42n);
    expect(parsed.issuer).toBe('CN=OpenSeal Test Issuing CA,O=OpenSeal Test,C=CN');
    expect(parsed.thisUpdate.getTime()).toBe(Math.floor(thisUpdate.getTime() / 1000) * 1000);
    expect(parsed.revoked).toEqual([
      { serialHex: revoked.serialHex, revokedAt, reason: 'keyCompromise' },
      { serialHex: held.serialHex, revokedAt, reason: 'certificateHold' },
    ]);
    expect(parsed.find(good.serialHex)).toBeUndefined();
    expect(parsed.find(revoked.serialHex.toUpperCase())?.reason).toBe('keyCompromise');
    expect(parsed.unknownCriticalExtensions).toEqual([]);
    expect(parsed.verify(pki.issuing.der)).toBe(true);
    expect(parsed.verify(pki.root.der)).toBe(false);
    const tampered = new Uint8Array(crl);
    tampered[tampered.length - 5]! ^= 1; // inside the signature value
    expect(parseCrl(tampered).verify(pki.issuing.der)).toBe(false);

    if (!hasOpenssl) return;
    const dir = tempDir();
    try {
      dir.write('root.pem', pki.root.pem);
      dir.write('issuing.pem', pki.issuing.pem);
      dir.write('good.pem', good.pem);
      dir.write('revoked.pem', revoked.pem);
      dir.write('held.pem', held.pem);
      dir.write('crl.pem', toPem(crl, 'X509 CRL'));
      const check = (leaf: string) =>
        run(
          'openssl',
          [
            'verify',
            '-crl_check',
            '-CRLfile',
            'crl.pem',
            '-CAfile',
            'root.pem',
            '-untrusted',
            'issuing.pem',
            leaf,
          ],
          dir.path,
        );
      expect(check('good.pem').stdout.trim()).toBe('good.pem: OK');
      const bad = check('revoked.pem');
      expect(bad.status).not.toBe(0);
      expect(bad.stdout + bad.stderr).toContain('certificate revoked');
      expect(check('held.pem').stdout + check('held.pem').stderr).toContain('certificate revoked');

      const text = run(
        'openssl',
        ['crl', '-in', 'crl.pem', '-noout', '-text', '-CAfile', 'issuing.pem'],
        dir.path,
      );
      expect(text.stderr).toContain('verify OK');
      expect(text.stdout).toContain('Version 2 (0x1)');
      expect(text.stdout).toMatch(/X509v3 CRL Number:\s+42/);
      expect(text.stdout).toContain('X509v3 Authority Key Identifier');
      expect(text.stdout).toMatch(/X509v3 CRL Reason Code:\s+Key Compromise/);
      expect(text.stdout).toMatch(/X509v3 CRL Reason Code:\s+Certificate Hold/);
    } finally {
      dir.remove();
    }
  }, 60_000);
});

describe('CRL edge cases', () => {
  it('an empty CRL has no revoked list, unspecified carries no reason code, large CRL numbers survive', async () => {
    const pki = await makeTestPki('EC-P256');
    const issuer = { certificate: pki.issuing.der, key: pki.issuing.key };
    const empty = parseCrl(await buildCrl({ issuer, thisUpdate, nextUpdate, crlNumber: 0, revoked: [] }));
    expect(empty.revoked).toEqual([]);
    expect(empty.crlNumber).toBe(0n);
    expect(empty.verify(pki.issuing.der)).toBe(true);

    const big = (1n << 150n) + 12345n;
    const der = await buildCrl({
      issuer,
      thisUpdate,
      nextUpdate,
      crlNumber: big,
      revoked: [{ serialHex: '00ff', revokedAt: thisUpdate, reason: 'unspecified' }],
    });
    const parsed = parseCrl(der);
    expect(parsed.crlNumber).toBe(big);
    expect(parsed.revoked[0]).toMatchObject({ serialHex: '00ff', reason: 'unspecified' });
    // No reason-code extension OID (2.5.29.21 = 55 1d 15) anywhere in the CRL.
    expect(Buffer.from(der).includes(Buffer.from('551d15', 'hex'))).toBe(false);
  }, 60_000);

  it('refuses a key that does not match the issuer, and non-CRL input', async () => {
    const pki = await makeTestPki('EC-P256');
    await expect(
      buildCrl({
        issuer: { certificate: pki.issuing.der, key: pki.root.key },
        thisUpdate,
        nextUpdate,
        crlNumber: 1,
        revoked: [],
      }),
    ).rejects.toThrow(/does not match/);
    expect(() => parseCrl(pki.root.der)).toThrow(TypeError);
    expect(() => parseCrl(new Uint8Array([1, 2, 3]))).toThrow(TypeError);
  }, 60_000);
});
