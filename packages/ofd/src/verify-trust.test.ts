/**
 * The signer of an OFD seal against trust anchors: valid only through a chain to an anchor, every link's
 * signature checked (SM2 with SM3, RSA, ECDSA), inside the certificates' validity; indeterminate otherwise,
 * whatever the certificate's names say. The reasons agree with the catalogue of packages/core.
 */
import { createHash, generateKeyPairSync, sign as nodeSign, type KeyObject } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OFD_REASONS, ofdReasonText } from '@openseal/core';
import smCrypto from 'sm-crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { fromPem, OFD_FINDINGS, readOfd, type OfdVerifyOptions } from './index';
import { buildOfd, RED_PIXEL, signerFor, testCa, testSigner, type TestSigner } from './test-ofd';

const sealed = (signer: TestSigner, at?: Date) =>
  buildOfd({ seal: { picture: RED_PIXEL, boundary: '120 200 40 40', signer, sealName: '合同专用章', at } });

async function checkOf(ofd: Uint8Array, options: OfdVerifyOptions) {
  const [check] = await readOfd(ofd).verifySignatures(options);
  return check!;
}

describe('OFD signer against trust anchors (SM2 with SM3)', () => {
  const root = testCa('测试根 CA');
  const intermediate = testCa('测试二级 CA', { issuer: root });
  const leaf = testSigner('杭州示例科技有限公司', { issuer: intermediate });
  const ofd = sealed(leaf);

  it('is valid through root → intermediate → signer, each link checked', async () => {
    const check = await checkOf(ofd, {
      trustAnchors: [root.certificate],
      intermediates: [intermediate.certificate],
    });
    expect(check).toMatchObject({ verdict: 'valid', reason: 'signerConfirmed', chain: 'trusted' });
    expect(check.chainPath.map((c) => c.subject)).toEqual([
      '杭州示例科技有限公司',
      '测试二级 CA',
      '测试根 CA',
    ]);
    // The intermediate may itself be the anchor.
    expect((await checkOf(ofd, { trustAnchors: [intermediate.certificate] })).verdict).toBe('valid');
  });

  it('is indeterminate without anchors, or without the intermediate that leads to one', async () => {
    expect(await checkOf(ofd, {})).toMatchObject({
      verdict: 'indeterminate',
      reason: 'noTrustAnchors',
      chain: 'untrusted',
    });
    expect(await checkOf(ofd, { trustAnchors: [root.certificate] })).toMatchObject({
      verdict: 'indeterminate',
      reason: 'issuerUnknown',
      signer: { issuer: '测试二级 CA' },
    });
  });

  it('never trusts a self-made certificate that copies the names of a trusted one', async () => {
    // A forger's self-signed certificate with the company's name, and a forged "intermediate" with the
    // intermediate's name and a key of the forger's: neither verifies under the real root.
    const forged = testSigner('杭州示例科技有限公司');
    const self = await checkOf(sealed(forged), {
      trustAnchors: [root.certificate],
      intermediates: [intermediate.certificate],
    });
    expect(self).toMatchObject({ verdict: 'indeterminate', reason: 'issuerUnknown', chain: 'untrusted' });

    const fakeIntermediate = testCa('测试二级 CA', { issuer: testCa('测试根 CA') });
    const fakeLeaf = testSigner('杭州示例科技有限公司', { issuer: fakeIntermediate });
    const check = await checkOf(sealed(fakeLeaf), {
      trustAnchors: [root.certificate],
      intermediates: [intermediate.certificate, fakeIntermediate.certificate],
    });
    expect(check).toMatchObject({ verdict: 'indeterminate', chain: 'invalid', reason: 'chainInvalid' });
  });

  it('needs every issuer on the way to be a CA: a signer cannot issue a signer', async () => {
    const notCa = testSigner('普通签章人', { issuer: root });
    const underling = testSigner('冒充的签章人', { issuer: notCa });
    const check = await checkOf(sealed(underling), {
      trustAnchors: [root.certificate],
      intermediates: [notCa.certificate],
    });
    expect(check).toMatchObject({ verdict: 'indeterminate', reason: 'chainInvalid', chain: 'invalid' });
  });

  it('checks times: signed outside the signer’s validity, or a certificate expired by now', async () => {
    const anchors = { trustAnchors: [root.certificate], intermediates: [intermediate.certificate] };
    const early = await checkOf(sealed(leaf, new Date(Date.UTC(2020, 0, 1))), anchors);
    expect(early).toMatchObject({
      verdict: 'indeterminate',
      reason: 'signingTimeOutsideValidity',
      certificateValidAtSigning: false,
    });
    const expired = await checkOf(ofd, { ...anchors, now: new Date(Date.UTC(2050, 0, 1)) });
    expect(expired).toMatchObject({ verdict: 'indeterminate', reason: 'certificateExpired' });
    const shortLived = testSigner('短期证书', {
      issuer: intermediate,
      notBefore: new Date(Date.UTC(2025, 0, 1)),
      notAfter: new Date(Date.UTC(2025, 11, 31)),
    });
    const lapsed = await checkOf(sealed(shortLived, new Date(Date.UTC(2025, 5, 1))), anchors);
    expect(lapsed).toMatchObject({ verdict: 'indeterminate', problems: ['certificateExpired'] });
    expect(lapsed.certificateValidAtSigning).toBe(true);
  });

  it('keeps a broken seal invalid, anchors or not', async () => {
    const value = buildOfd({ seal: { picture: RED_PIXEL, boundary: '1 1 1 1', signer: leaf } });
    const files = (await import('fflate')).unzipSync(value);
    const bytes = files['Doc_0/Signs/Sign_0/SignedValue.dat']!.slice();
    bytes[bytes.length - 5]! ^= 1;
    files['Doc_0/Signs/Sign_0/SignedValue.dat'] = bytes;
    const broken = (await import('fflate')).zipSync(files);
    const check = await checkOf(broken, {
      trustAnchors: [root.certificate],
      intermediates: [intermediate.certificate],
    });
    expect(check).toMatchObject({ verdict: 'invalid', reason: 'signatureInvalid', chain: 'notChecked' });
  });

  it('reads anchors from a PEM bundle, skipping what is not a certificate', () => {
    const b64 = (der: Uint8Array) => Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n');
    const pem = [root, intermediate]
      .map((c) => `-----BEGIN CERTIFICATE-----\n${b64(c.certificate)}\n-----END CERTIFICATE-----\n`)
      .join('');
    const parsed = fromPem(`junk\n${pem}-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n`);
    expect(parsed.map((d) => Buffer.from(d).equals(Buffer.from(root.certificate)))).toEqual([true, false]);
    expect(parsed).toHaveLength(2);
  });
});

/** A signer of a node:crypto key pair, for RSA and ECDSA chains. */
function nodeSigner(
  name: string,
  pair: { privateKey: KeyObject; publicKey: KeyObject },
  algorithm: string,
  hash: 'sha256' | 'sha384',
  options: Parameters<typeof signerFor>[2] = {},
): TestSigner {
  return signerFor(
    name,
    {
      algorithm,
      spki: new Uint8Array(pair.publicKey.export({ type: 'spki', format: 'der' })),
      sign: (data) => new Uint8Array(nodeSign(hash, data, pair.privateKey)),
      hash: (data) => new Uint8Array(createHash(hash).update(data).digest()),
    },
    options,
  );
}

describe('OFD signer chains by WebCrypto (RSA, ECDSA)', () => {
  it('checks an RSA root and an ECDSA P-384 signer under it', async () => {
    const rsaRoot = nodeSigner(
      'RSA Root',
      generateKeyPairSync('rsa', { modulusLength: 2048 }),
      '1.2.840.113549.1.1.11',
      'sha256',
      { ca: true },
    );
    const ecSigner = nodeSigner(
      'EC 签章人',
      generateKeyPairSync('ec', { namedCurve: 'P-384' }),
      '1.2.840.10045.4.3.3',
      'sha384',
      { issuer: rsaRoot },
    );
    const check = await checkOf(sealed(ecSigner), { trustAnchors: [rsaRoot.certificate] });
    expect(check).toMatchObject({ verdict: 'valid', chain: 'trusted', algorithm: '1.2.840.10045.4.3.3' });

    // An ECDSA P-256 CA issuing an SM2 signer: the link is checked by WebCrypto, the seal by sm-crypto.
    const ecCa = nodeSigner(
      'EC CA',
      generateKeyPairSync('ec', { namedCurve: 'P-256' }),
      '1.2.840.10045.4.3.2',
      'sha256',
      { ca: true },
    );
    const sm2 = testSigner('SM2 签章人', { issuer: ecCa });
    expect((await checkOf(sealed(sm2), { trustAnchors: [ecCa.certificate] })).verdict).toBe('valid');
    expect((await checkOf(sealed(sm2), { trustAnchors: [rsaRoot.certificate] })).reason).toBe(
      'issuerUnknown',
    );
  });

  it('counts a SHA-1 link as not allowed', async () => {
    const weakRoot = nodeSigner(
      'Weak Root',
      generateKeyPairSync('rsa', { modulusLength: 2048 }),
      '1.2.840.113549.1.1.5',
      'sha256',
      { ca: true },
    );
    const signer = testSigner('签章人', { issuer: weakRoot });
    const check = await checkOf(sealed(signer), {
      trustAnchors: [testCa('另一根').certificate],
      intermediates: [weakRoot.certificate],
    });
    expect(check).toMatchObject({ verdict: 'indeterminate', reason: 'chainAlgorithmUnsupported' });
  });
});

describe.skipIf(spawnSync('which', ['openssl']).status !== 0)('an openssl-made SM2 chain (referee)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openseal-ofd-sm2-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const openssl = (...args: string[]) => {
    const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout;
  };

  it('agrees with openssl: a seal by a key openssl certified under its SM2 CA is valid', async () => {
    const sm2Key = (file: string) =>
      openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:SM2', '-out', file);
    sm2Key('ca.key');
    openssl(
      ...['req', '-x509', '-new', '-key', 'ca.key', '-sm3', '-subj', '/CN=OpenSSL SM2 CA', '-days', '3650'],
      ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
      ...['-out', 'ca.pem'],
    );
    sm2Key('leaf.key');
    openssl('req', '-new', '-key', 'leaf.key', '-sm3', '-subj', '/CN=OpenSSL SM2 Signer', '-out', 'leaf.csr');
    // GM/T 0009's default distinguishing id; OpenSSL 3.0 signs with an empty one unless told.
    const distid = 'distid:1234567812345678';
    const issue = (out: string, ...sigopt: string[]) =>
      openssl(
        ...['x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-sm3', '-days', '365'],
        ...sigopt,
        ...['-out', out],
      );
    issue('leaf.pem', '-sigopt', distid);
    issue('leaf-empty-id.pem');
    // The referee: openssl itself accepts the chain with that id.
    expect(openssl('verify', '-CAfile', 'ca.pem', '-vfyopt', distid, 'leaf.pem')).toContain('leaf.pem: OK');

    const text = openssl('pkey', '-in', 'leaf.key', '-noout', '-text');
    const hexOf = (label: string) =>
      new RegExp(`${label}:\\s*([0-9a-f:\\s]+?)(?:\\n\\S|$)`).exec(text)![1]!.replace(/[:\s]/g, '');
    const privateKey = hexOf('priv').padStart(64, '0');
    const publicKey = hexOf('pub');
    const [caDer] = fromPem(openssl('x509', '-in', 'ca.pem'));
    const [leafDer] = fromPem(openssl('x509', '-in', 'leaf.pem'));
    const signer: TestSigner = {
      name: 'OpenSSL SM2 Signer',
      certificate: leafDer!,
      algorithm: '1.2.156.10197.1.501',
      sign: (data) =>
        Uint8Array.from(
          Buffer.from(
            smCrypto.sm2.doSignature(Array.from(data), privateKey, { der: true, hash: true, publicKey }),
            'hex',
          ),
        ),
      hash: (data) => Uint8Array.from(Buffer.from(smCrypto.sm3(data), 'hex')),
    };
    // Signed now: openssl's certificates start today.
    const ofd = sealed(signer, new Date());
    const check = await checkOf(ofd, { trustAnchors: [caDer!] });
    expect(check).toMatchObject({ verdict: 'valid', chain: 'trusted' });
    expect(check.chainPath.map((c) => c.subject)).toEqual(['OpenSSL SM2 Signer', 'OpenSSL SM2 CA']);
    // The same certificate signed with an empty id (OpenSSL 3.0's default) is not one GM/T 0009 allows.
    const [emptyId] = fromPem(openssl('x509', '-in', 'leaf-empty-id.pem'));
    expect(
      await checkOf(sealed({ ...signer, certificate: emptyId! }, new Date()), { trustAnchors: [caDer!] }),
    ).toMatchObject({ verdict: 'indeterminate', reason: 'chainInvalid' });
  }, 30_000);
});

describe('reason catalogue', () => {
  it('has one catalogued entry per finding, with the same verdict, and text in both languages', () => {
    const catalogued = Object.fromEntries(OFD_REASONS.map((r) => [r.key, r.verdict]));
    expect(catalogued).toEqual({ ...OFD_FINDINGS });
    const codes = OFD_REASONS.map((r) => r.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.every((c) => c >= 1201 && c <= 1219)).toBe(true);
    expect(ofdReasonText('issuerUnknown', 'zh-CN', { issuer: 'X CA' })).toContain('签章者未经本平台确认');
    expect(ofdReasonText('issuerUnknown', 'en', { issuer: 'X CA' })).toContain('(issuer: X CA)');
  });
});
