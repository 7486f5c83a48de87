import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCadesDetached } from './cades';
import { buildSignedData } from './signed-data';
import { ctx, seq } from './der';
import { parseCrl } from '../crl/index';
import { parseOcspResponse } from '../ocsp/index';
import { verifyCms } from './verify';
import {
  has,
  issueIdentity,
  makeTempDir,
  makeTestPki,
  runTool,
  writeFiles,
  type TestIdentity,
  type TestPki,
} from './test-fixtures';

const data = new TextEncoder().encode('revocation test content');
const digestOf = async (alg: string): Promise<Uint8Array> =>
  new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest());
const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

let pki: TestPki;
let dir: string;
let cms: Uint8Array;

const utcIndexTime = (d: Date): string => d.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z';

async function makeCrl(issuer: TestIdentity, revoked: TestIdentity[], at = new Date()): Promise<Uint8Array> {
  const crl = await x509.X509CrlGenerator.create({
    issuer: issuer.x509.subject,
    thisUpdate: new Date(at.getTime() - 60_000),
    nextUpdate: new Date(at.getTime() + 86_400_000),
    entries: revoked.map((r) => ({
      serialNumber: r.x509.serialNumber,
      revocationDate: at,
      reason: x509.X509CrlReason.keyCompromise,
    })),
    signingKey: issuer.keys.privateKey,
    signingAlgorithm:
      issuer.key.algorithm === 'RSA-2048'
        ? { name: 'RSASSA-PKCS1-v1_5' }
        : { name: 'ECDSA', hash: 'SHA-256' },
  });
  return new Uint8Array(crl.rawData);
}

beforeAll(async () => {
  pki = await makeTestPki();
  dir = makeTempDir();
  cms = await buildCadesDetached({
    digest: sha256(data),
    signer: {
      certificate: pki.ecLeaf.certificate,
      chain: [pki.intermediate.certificate],
      key: pki.ecLeaf.key,
    },
  });
  writeFiles(dir, {
    'inter.pem': pki.intermediate.pem,
    'inter.key': pki.intermediate.keyPem,
    'leaf.pem': pki.ecLeaf.pem,
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const trust = () => ({ anchors: [pki.root.certificate] });

describe('revocation from CRLs', () => {
  it('the package CRL reader understands a CRL made by @peculiar/x509', async () => {
    const crl = parseCrl(await makeCrl(pki.intermediate, [pki.ecLeaf]));
    expect(crl.revoked).toHaveLength(1);
    expect(crl.revoked[0]?.reason).toBe('keyCompromise');
    expect(crl.verify(pki.intermediate.certificate)).toBe(true);
  });

  it('a CRL listing the signer gives revoked; one not listing it gives good', async () => {
    const revoked = await verifyCms({
      cms,
      digestOf,
      trust: trust(),
      revocation: { crls: [await makeCrl(pki.intermediate, [pki.ecLeaf])] },
    });
    expect(revoked.revocation).toMatchObject({ status: 'revoked', source: 'dss', method: 'crl' });
    expect(revoked.revocation.reason).toContain('keyCompromise');
    expect(revoked.revocation.revokedAt).toBeInstanceOf(Date);

    const good = await verifyCms({
      cms,
      digestOf,
      trust: trust(),
      revocation: { crls: [await makeCrl(pki.intermediate, [pki.rsaLeaf])] },
    });
    expect(good.revocation).toMatchObject({ status: 'good', source: 'dss', method: 'crl' });
  });

  it('ignores a CRL not signed by the issuer', async () => {
    const impostor = await issueIdentity({
      subject: pki.intermediate.x509.subject,
      ca: true,
      algorithm: 'RSA-2048',
    });
    const r = await verifyCms({
      cms,
      digestOf,
      trust: trust(),
      revocation: { crls: [await makeCrl(impostor, [pki.ecLeaf])] },
    });
    expect(r.revocation).toMatchObject({ status: 'unknown', source: 'none' });
  });

  it('a CRL archived in the adbe-revocationInfoArchival signed attribute counts as CMS evidence', async () => {
    const crl = await makeCrl(pki.intermediate, [pki.ecLeaf]);
    const archival = seq(ctx(0, seq(crl)));
    const signed = await buildSignedData({
      digest: sha256(data),
      signer: {
        certificate: pki.ecLeaf.certificate,
        chain: [pki.intermediate.certificate],
        key: pki.ecLeaf.key,
      },
      extraSignedAttributes: [{ type: '1.2.840.113583.1.1.8', values: [archival.slice().buffer] }],
      signingTime: new Date(Date.now() - 3_600_000),
    });
    const r = await verifyCms({ cms: signed, digestOf, trust: trust() });
    expect(r.integrity).toBe('valid');
    expect(r.revocation).toMatchObject({ status: 'revoked', source: 'cms', method: 'crl' });
    expect(r.revocation.reason).toContain('revoked after the signing time');
  });

  it('falls back to checkRevocation only when the evidence is silent', async () => {
    let asked = 0;
    const checkRevocation = async () => {
      asked++;
      return { status: 'good' as const, source: 'online' as const };
    };
    const r = await verifyCms({ cms, digestOf, trust: trust(), checkRevocation });
    expect(r.revocation).toMatchObject({ status: 'good', source: 'online' });
    const crls = [await makeCrl(pki.intermediate, [pki.ecLeaf])];
    const withCrl = await verifyCms({ cms, digestOf, trust: trust(), checkRevocation, revocation: { crls } });
    expect(withCrl.revocation.status).toBe('revoked');
    expect(asked).toBe(1);
    const failing = await verifyCms({
      cms,
      digestOf,
      trust: trust(),
      checkRevocation: async () => {
        throw new Error('responder down');
      },
    });
    expect(failing.revocation).toMatchObject({ status: 'unknown', source: 'online' });
  });
});

describe.skipIf(!has('openssl'))('revocation from OCSP responses made by openssl ocsp', () => {
  function opensslOcsp(name: string, status: 'V' | 'R', signer: { pem: string; key: string }): Uint8Array {
    const expiry = utcIndexTime(pki.ecLeaf.x509.notAfter);
    const revoked = status === 'R' ? `${utcIndexTime(new Date(Date.now() - 60_000))},keyCompromise` : '';
    const serial = pki.ecLeaf.x509.serialNumber.toUpperCase();
    writeFiles(dir, {
      [`${name}.idx`]: `${status}\t${expiry}\t${revoked}\t${serial}\tunknown\t/CN=Alice EC\n`,
    });
    const req = runTool(
      'openssl',
      ['ocsp', '-issuer', 'inter.pem', '-cert', 'leaf.pem', '-no_nonce', '-reqout', `${name}.req`],
      dir,
    );
    expect(req.status, req.output).toBe(0);
    const args = [
      'ocsp',
      '-index',
      `${name}.idx`,
      '-CA',
      'inter.pem',
      '-rsigner',
      signer.pem,
      '-rkey',
      signer.key,
    ];
    const resp = runTool(
      'openssl',
      [...args, '-reqin', `${name}.req`, '-respout', `${name}.resp`, '-ndays', '1'],
      dir,
    );
    expect(resp.status, resp.output).toBe(0);
    return new Uint8Array(readFileSync(join(dir, `${name}.resp`)));
  }

  it('reads good and revoked responses signed by the issuer', async () => {
    const good = opensslOcsp('good', 'V', { pem: 'inter.pem', key: 'inter.key' });
    expect(parseOcspResponse(good).responses[0]?.status).toBe('good');
    const r1 = await verifyCms({ cms, digestOf, trust: trust(), revocation: { ocspResponses: [good] } });
    expect(r1.revocation).toMatchObject({ status: 'good', source: 'dss', method: 'ocsp' });

    const revoked = opensslOcsp('revoked', 'R', { pem: 'inter.pem', key: 'inter.key' });
    const r2 = await verifyCms({
      cms,
      digestOf,
      trust: trust(),
      revocation: { ocspResponses: [good, revoked] },
    });
    expect(r2.revocation).toMatchObject({ status: 'revoked', method: 'ocsp', reason: 'keyCompromise' });
  });

  it('accepts a delegated responder of the issuer, not one of another CA', async () => {
    const delegated = await issueIdentity({
      subject: 'CN=OpenSeal Test OCSP',
      issuer: pki.intermediate,
      extendedKeyUsage: ['1.3.6.1.5.5.7.3.9'],
    });
    const stranger = await issueIdentity({
      subject: 'CN=Stranger OCSP',
      issuer: pki.root,
      extendedKeyUsage: ['1.3.6.1.5.5.7.3.9'],
    });
    writeFiles(dir, {
      'delegated.pem': delegated.pem,
      'delegated.key': delegated.keyPem,
      'stranger.pem': stranger.pem,
      'stranger.key': stranger.keyPem,
    });
    const ok = opensslOcsp('delegated', 'R', { pem: 'delegated.pem', key: 'delegated.key' });
    const r1 = await verifyCms({ cms, digestOf, trust: trust(), revocation: { ocspResponses: [ok] } });
    expect(r1.revocation).toMatchObject({ status: 'revoked', method: 'ocsp' });

    const rogue = opensslOcsp('stranger', 'R', { pem: 'stranger.pem', key: 'stranger.key' });
    const r2 = await verifyCms({ cms, digestOf, trust: trust(), revocation: { ocspResponses: [rogue] } });
    expect(r2.revocation).toMatchObject({ status: 'unknown', source: 'none' });
  });
});
