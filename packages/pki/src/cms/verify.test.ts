import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCrl } from '../crl/index';
import { buildCadesDetached } from './cades';
import { buildSignedData } from './signed-data';
import { buildTimeStampToken, makeLocalTimestamper } from './tsa';
import { verifyCms, type CmsVerifyInput } from './verify';
import { verifyTimeStampToken } from './timestamp-verify';
import {
  has,
  issueIdentity,
  makeTempDir,
  makeTestPki,
  runTool,
  writeFiles,
  type TestPki,
} from './test-fixtures';
import type { HashName } from './oids';

const data = new TextEncoder().encode('%PDF-1.7 signed byte ranges '.repeat(40));
const nodeHash = (alg: string): string => alg.replace('-', '').toLowerCase();
const hashOf =
  (bytes: Uint8Array) =>
  async (alg: HashName): Promise<Uint8Array> =>
    new Uint8Array(createHash(nodeHash(alg)).update(bytes).digest());
const sha256 = (bytes: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(bytes).digest());

// Within the validity of the test certificates (which start a day ago).
const STAMP_TIME = new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000 + 250);

let pki: TestPki;
let dir: string;
let trust: CmsVerifyInput['trust'];

beforeAll(async () => {
  pki = await makeTestPki();
  dir = makeTempDir();
  trust = { anchors: [pki.root.certificate] };
  writeFiles(dir, {
    'data.bin': data,
    'ec.pem': pki.ecLeaf.pem,
    'ec.key': pki.ecLeaf.keyPem,
    'rsa.pem': pki.rsaLeaf.pem,
    'rsa.key': pki.rsaLeaf.keyPem,
    'inter.pem': pki.intermediate.pem,
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const signer = (which: 'ecLeaf' | 'rsaLeaf') => ({
  certificate: pki[which].certificate,
  chain: [pki.intermediate.certificate],
  key: pki[which].key,
});

const timestamper = () =>
  makeLocalTimestamper({
    tsa: { certificate: pki.tsa.certificate, chain: [pki.intermediate.certificate], key: pki.tsa.key },
    policy: '2.25.234770949406353382624719008145168115034.1.1',
    serialNumber: () => randomBytes(8),
    now: () => STAMP_TIME,
  });

describe('verifyCms on our own signatures', () => {
  for (const which of ['ecLeaf', 'rsaLeaf'] as const) {
    it(`${which}: trusted against the test root, untrusted without anchors`, async () => {
      const cms = await buildCadesDetached({ digest: sha256(data), signer: signer(which) });
      const r = await verifyCms({ cms, digestOf: hashOf(data), trust, subFilter: 'ETSI.CAdES.detached' });
      expect(r).toMatchObject({
        parsed: true,
        integrity: 'valid',
        chain: 'trusted',
        signingCertificateRef: 'match',
        digestAlgorithm: 'SHA-256',
        timestamp: null,
        validAtSigningTime: null,
      });
      expect(r.signer?.commonName).toBe(which === 'ecLeaf' ? 'Alice EC' : 'Bob RSA');
      expect(r.signatureAlgorithm).toBe(
        which === 'ecLeaf' ? 'ECDSA with SHA-256' : 'RSA PKCS#1 v1.5 with SHA-256',
      );
      expect(r.chainSubjects).toHaveLength(3);
      expect(r.chainSubjects[2]).toContain('OpenSeal Test Root');

      const untrusted = await verifyCms({ cms, digestOf: hashOf(data), trust: { anchors: [] } });
      expect(untrusted.integrity).toBe('valid');
      expect(untrusted.chain).toBe('untrusted');
      expect(untrusted.chainReason).toContain('OpenSeal Test Root');
    });
  }

  it('flipping one signed byte makes integrity invalid', async () => {
    const cms = await buildCadesDetached({ digest: sha256(data), signer: signer('ecLeaf') });
    const tampered = Uint8Array.from(data);
    tampered[100] = (tampered[100] as number) ^ 1;
    const r = await verifyCms({ cms, digestOf: hashOf(tampered), trust });
    expect(r.integrity).toBe('invalid');
    expect(r.integrityReason).toMatch(/message digest/);
  });

  it('a flipped bit in the signature value makes integrity invalid', async () => {
    const cms = await buildCadesDetached({ digest: sha256(data), signer: signer('rsaLeaf') });
    const copy = Uint8Array.from(cms);
    // The RSA signature value is the last 256 bytes of this CMS (no unsigned attributes).
    copy[copy.length - 10] = (copy[copy.length - 10] as number) ^ 0x40;
    const r = await verifyCms({ cms: copy, digestOf: hashOf(data), trust });
    expect(r.parsed).toBe(true);
    expect(r.integrity).toBe('invalid');
    expect(r.integrityReason).toMatch(/signature/);
  });

  it('a wrong anchor gives untrusted, even one with the same name', async () => {
    const cms = await buildCadesDetached({ digest: sha256(data), signer: signer('ecLeaf') });
    const other = await issueIdentity({ subject: 'CN=Some Other Root', ca: true });
    const twin = await issueIdentity({ subject: 'CN=OpenSeal Test Root, O=OpenSeal Test, C=LU', ca: true });
    for (const anchor of [other, twin]) {
      const r = await verifyCms({ cms, digestOf: hashOf(data), trust: { anchors: [anchor.certificate] } });
      expect(r.integrity).toBe('valid');
      expect(r.chain).toBe('untrusted');
    }
  });

  it('an intermediate whose signature was tampered with makes the chain invalid', async () => {
    const inter = Uint8Array.from(pki.intermediate.certificate);
    inter[inter.length - 3] = (inter[inter.length - 3] as number) ^ 0x01;
    const cms = await buildCadesDetached({
      digest: sha256(data),
      signer: { certificate: pki.ecLeaf.certificate, chain: [inter], key: pki.ecLeaf.key },
    });
    const r = await verifyCms({ cms, digestOf: hashOf(data), trust });
    expect(r.integrity).toBe('valid');
    expect(r.chain).toBe('invalid');
    expect(r.chainReason).toMatch(/OpenSeal Test Issuing CA.*does not verify/);
  });

  it('a signature time-stamp reports its time and validity', async () => {
    const cms = await buildCadesDetached({
      digest: sha256(data),
      signer: signer('ecLeaf'),
      timestamp: timestamper(),
    });
    const r = await verifyCms({ cms, digestOf: hashOf(data), trust });
    expect(r.integrity).toBe('valid');
    expect(r.timestamp).toMatchObject({ valid: true, chain: 'trusted' });
    expect(r.timestamp?.time.toISOString()).toBe(STAMP_TIME.toISOString());
    expect(r.timestamp?.tsa).toContain('OpenSeal Test TSA');
    expect(r.validAtSigningTime).toBe(true);
  });

  it('a time-stamp over something else than the signature value is reported invalid', async () => {
    const stamp = timestamper();
    const cms = await buildCadesDetached({
      digest: sha256(data),
      signer: signer('ecLeaf'),
      timestamp: () => stamp(new TextEncoder().encode('not the signature')),
    });
    const r = await verifyCms({ cms, digestOf: hashOf(data), trust });
    expect(r.integrity).toBe('valid');
    expect(r.timestamp?.valid).toBe(false);
    expect(r.timestamp?.reason).toMatch(/imprint/);
  });

  it('a time-stamp from outside the TSA certificate validity is invalid', async () => {
    const stamp = makeLocalTimestamper({
      tsa: { certificate: pki.tsa.certificate, chain: [pki.intermediate.certificate], key: pki.tsa.key },
      policy: '2.25.234770949406353382624719008145168115034.1.1',
      serialNumber: () => randomBytes(8),
      now: () => new Date('2099-01-01T00:00:00Z'),
    });
    const cms = await buildCadesDetached({
      digest: sha256(data),
      signer: signer('ecLeaf'),
      timestamp: stamp,
    });
    const r = await verifyCms({ cms, digestOf: hashOf(data), trust });
    expect(r.timestamp).toMatchObject({ valid: false, reason: expect.stringMatching(/validity of the TSA/) });
    expect(r.validAtSigningTime).toBeNull();
  });

  it('reads the signing-time attribute and checks the certificate validity at that time', async () => {
    const cms = await buildSignedData({
      digest: sha256(data),
      signer: signer('ecLeaf'),
      signingTime: new Date(),
    });
    const r = await verifyCms({ cms, digestOf: hashOf(data), trust });
    expect(Math.abs((r.signingTime?.getTime() ?? 0) - Date.now())).toBeLessThan(5000);
    expect(r.validAtSigningTime).toBe(true);
  });

  it('adbe.pkcs7.sha1: the eContent is the SHA-1 of the signed bytes', async () => {
    const sha1 = new Uint8Array(createHash('sha1').update(data).digest());
    const cms = await buildSignedData({ digest: sha256(sha1), content: sha1, signer: signer('rsaLeaf') });
    const ok = await verifyCms({ cms, digestOf: hashOf(data), trust, subFilter: 'adbe.pkcs7.sha1' });
    expect(ok.integrity).toBe('valid');
    const other = await verifyCms({
      cms,
      digestOf: hashOf(data.subarray(1)),
      trust,
      subFilter: 'adbe.pkcs7.sha1',
    });
    expect(other.integrity).toBe('invalid');
    expect(other.integrityReason).toMatch(/SHA-1/);
  });

  it('a document time-stamp (ETSI.RFC3161) verifies through verifyCms and verifyTimeStampToken', async () => {
    const token = await buildTimeStampToken({
      tsa: { certificate: pki.tsa.certificate, chain: [pki.intermediate.certificate], key: pki.tsa.key },
      request: { hashAlgorithm: 'SHA-256', hashedMessage: sha256(data), certReq: true },
      serialNumber: Uint8Array.of(7),
      genTime: STAMP_TIME,
      policy: '2.25.234770949406353382624719008145168115034.1.1',
    });
    const r = await verifyCms({ cms: token, digestOf: hashOf(data), trust, subFilter: 'ETSI.RFC3161' });
    expect(r).toMatchObject({ integrity: 'valid', chain: 'trusted' });
    expect(r.timestamp?.valid).toBe(true);
    expect(r.signingTime?.toISOString()).toBe(STAMP_TIME.toISOString());
    const wrong = await verifyCms({
      cms: token,
      digestOf: hashOf(data.subarray(2)),
      trust,
      subFilter: 'ETSI.RFC3161',
    });
    expect(wrong.integrity).toBe('invalid');

    const direct = await verifyTimeStampToken(token, data, trust);
    expect(direct).toMatchObject({ valid: true, chain: 'trusted' });
    const byDigest = await verifyTimeStampToken(token, { digest: sha256(data), algorithm: 'SHA-256' }, trust);
    expect(byDigest.valid).toBe(true);
    expect((await verifyTimeStampToken(token, data.subarray(1), { anchors: [] })).valid).toBe(false);
  });

  it('tolerates zero padding after the DER, as in a PDF /Contents', async () => {
    const cms = await buildCadesDetached({ digest: sha256(data), signer: signer('ecLeaf') });
    const padded = new Uint8Array(cms.length + 4000);
    padded.set(cms);
    expect((await verifyCms({ cms: padded, digestOf: hashOf(data), trust })).integrity).toBe('valid');
  });

  it('garbage and truncated input give parsed: false, never a throw', async () => {
    const cms = await buildCadesDetached({ digest: sha256(data), signer: signer('ecLeaf') });
    const inputs = [
      new Uint8Array(0),
      new Uint8Array(100),
      randomBytes(500),
      new TextEncoder().encode('<</Type /Sig>>'),
      ...[1, 2, 10, 50, cms.length / 2, cms.length - 1].map((n) => cms.subarray(0, Math.floor(n))),
      Uint8Array.from([...cms, 0x01]),
    ];
    for (const input of inputs) {
      const r = await verifyCms({ cms: input, digestOf: hashOf(data), trust });
      expect(r.parsed).toBe(false);
      expect(r.parseError).toBeTruthy();
      expect(r.integrity).toBe('invalid');
    }
  });

  it('a digestOf that throws is an integrity failure, not a crash', async () => {
    const cms = await buildCadesDetached({ digest: sha256(data), signer: signer('ecLeaf') });
    const r = await verifyCms({
      cms,
      trust,
      digestOf: async () => {
        throw new Error('byte range unreadable');
      },
    });
    expect(r.integrity).toBe('invalid');
    expect(r.integrityReason).toContain('byte range unreadable');
  });
});

describe.skipIf(!has('openssl'))('verifyCms on CMS made by openssl', () => {
  const opensslSign = (name: string, extra: string[]): Uint8Array => {
    const args = ['cms', '-sign', '-binary', '-in', 'data.bin', '-outform', 'DER', '-out', name, ...extra];
    const r = runTool('openssl', args, dir);
    expect(r.status, r.output).toBe(0);
    return new Uint8Array(readFileSync(join(dir, name)));
  };

  const cases: Array<[string, string[], string]> = [
    ['EC, subjectKeyIdentifier', ['-signer', 'ec.pem', '-inkey', 'ec.key', '-keyid'], 'ECDSA with SHA-256'],
    ['EC, no signed attributes', ['-signer', 'ec.pem', '-inkey', 'ec.key', '-noattr'], 'ECDSA with SHA-256'],
    [
      'EC, SHA-384, no signed attributes',
      ['-signer', 'ec.pem', '-inkey', 'ec.key', '-noattr', '-md', 'sha384'],
      'ECDSA with SHA-384',
    ],
    [
      'RSA, SHA-512',
      ['-signer', 'rsa.pem', '-inkey', 'rsa.key', '-md', 'sha512'],
      'RSA PKCS#1 v1.5 with SHA-512',
    ],
    [
      'RSA, SHA-1, no signed attributes',
      ['-signer', 'rsa.pem', '-inkey', 'rsa.key', '-noattr', '-md', 'sha1'],
      'RSA PKCS#1 v1.5 with SHA-1',
    ],
    [
      'RSA-PSS',
      ['-signer', 'rsa.pem', '-inkey', 'rsa.key', '-keyopt', 'rsa_padding_mode:pss'],
      'RSA-PSS with SHA-256',
    ],
    [
      'RSA-PSS, no signed attributes',
      [
        '-signer',
        'rsa.pem',
        '-inkey',
        'rsa.key',
        '-noattr',
        '-keyopt',
        'rsa_padding_mode:pss',
        '-keyopt',
        'rsa_pss_saltlen:32',
      ],
      'RSA-PSS with SHA-256',
    ],
  ];
  cases.forEach(([label, args, algorithm], i) => {
    it(`${label}: valid, and invalid over other bytes`, async () => {
      const cms = opensslSign(`openssl-${i}.der`, [...args, '-certfile', 'inter.pem']);
      const r = await verifyCms({ cms, digestOf: hashOf(data), trust });
      expect(r.integrityReason).toBeUndefined();
      expect(r).toMatchObject({
        parsed: true,
        integrity: 'valid',
        chain: 'trusted',
        signatureAlgorithm: algorithm,
      });
      const bad = await verifyCms({ cms, digestOf: hashOf(data.subarray(3)), trust });
      expect(bad.integrity).toBe('invalid');
    });
  });

  it('signer certificate missing from the CMS, then supplied by the caller', async () => {
    const cms = opensslSign('nocerts.der', ['-signer', 'ec.pem', '-inkey', 'ec.key', '-nocerts']);
    const r = await verifyCms({ cms, digestOf: hashOf(data), trust });
    // Not a broken signature: one that cannot be checked without its certificate (ETSI: indeterminate).
    expect(r).toMatchObject({
      parsed: true,
      signer: null,
      integrity: 'unknown',
      verdict: 'indeterminate',
      subIndication: 'NO_SIGNING_CERTIFICATE_FOUND',
    });
    expect(r.integrityReason).toMatch(/signer certificate not found/);
    const supplied = await verifyCms({
      cms,
      digestOf: hashOf(data),
      trust: { anchors: [pki.root.certificate], intermediates: [pki.intermediate.certificate] },
      extraCertificates: [pki.ecLeaf.certificate],
    });
    expect(supplied).toMatchObject({ integrity: 'valid', chain: 'trusted' });
    // Trusted and intact, but nothing says whether the certificate is revoked.
    expect(supplied).toMatchObject({ verdict: 'indeterminate', subIndication: 'TRY_LATER' });
  });

  it('an attached CMS must carry the caller’s bytes', async () => {
    const cms = opensslSign('attached.der', ['-signer', 'ec.pem', '-inkey', 'ec.key', '-nodetach']);
    expect((await verifyCms({ cms, digestOf: hashOf(data), trust })).integrity).toBe('valid');
    const other = await verifyCms({ cms, digestOf: hashOf(new Uint8Array(5)), trust });
    expect(other.integrity).toBe('invalid');
    expect(other.integrityReason).toMatch(/attached content/);
  });
});

describe('verdicts (ETSI EN 319 102-1): valid, invalid, indeterminate', () => {
  const crlRevoking = (revokedAt: Date | undefined) =>
    buildCrl({
      issuer: { certificate: pki.intermediate.certificate, key: pki.intermediate.key },
      thisUpdate: new Date(Date.now() - 60_000),
      nextUpdate: new Date(Date.now() + 86_400_000),
      crlNumber: 7,
      revoked: revokedAt
        ? [{ serialHex: pki.ecLeaf.x509.serialNumber.toLowerCase(), revokedAt, reason: 'keyCompromise' }]
        : [],
    });
  const stamped = () =>
    buildCadesDetached({ digest: sha256(data), signer: signer('ecLeaf'), timestamp: timestamper() });

  it('trusted, intact, timestamped and not revoked: valid', async () => {
    const r = await verifyCms({
      cms: await stamped(),
      digestOf: hashOf(data),
      trust,
      revocation: { crls: [await crlRevoking(undefined)] },
    });
    expect(r).toMatchObject({ verdict: 'valid', revocation: { status: 'good' }, provenTime: STAMP_TIME });
    expect(r.findings).toEqual([]);
  });

  it('revoked after the time a trusted timestamp proves: still valid, with the revocation noted', async () => {
    const r = await verifyCms({
      cms: await stamped(),
      digestOf: hashOf(data),
      trust,
      revocation: { crls: [await crlRevoking(new Date(STAMP_TIME.getTime() + 3_600_000))] },
    });
    expect(r.verdict).toBe('valid');
    expect(r.findings.map((f) => [f.code, f.severity])).toEqual([['revocation.revokedAfterSigning', 'info']]);
  });

  it('revoked before the proven signing time: invalid (REVOKED)', async () => {
    const r = await verifyCms({
      cms: await stamped(),
      digestOf: hashOf(data),
      trust,
      revocation: { crls: [await crlRevoking(new Date(STAMP_TIME.getTime() - 3_600_000))] },
    });
    expect(r).toMatchObject({ verdict: 'invalid', subIndication: 'REVOKED' });
  });

  it('revoked and no timestamp to prove when it was signed: indeterminate (REVOKED_NO_POE)', async () => {
    const cms = await buildSignedData({
      digest: sha256(data),
      signer: signer('ecLeaf'),
      signingTime: STAMP_TIME,
    });
    const r = await verifyCms({
      cms,
      digestOf: hashOf(data),
      trust,
      revocation: { crls: [await crlRevoking(new Date(STAMP_TIME.getTime() + 3_600_000))] },
    });
    expect(r).toMatchObject({
      integrity: 'valid',
      verdict: 'indeterminate',
      subIndication: 'REVOKED_NO_POE',
    });
  });

  it('no revocation information: indeterminate (TRY_LATER); an unknown issuer: indeterminate, named', async () => {
    const r = await verifyCms({ cms: await stamped(), digestOf: hashOf(data), trust });
    expect(r).toMatchObject({ verdict: 'indeterminate', subIndication: 'TRY_LATER' });
    const untrusted = await verifyCms({
      cms: await stamped(),
      digestOf: hashOf(data),
      trust: { anchors: [] },
    });
    expect(untrusted).toMatchObject({
      verdict: 'indeterminate',
      subIndication: 'NO_CERTIFICATE_CHAIN_FOUND',
    });
    // The CMS carries the issuing CA but not the root: the path stops at an issuer not at hand.
    expect(untrusted.findings).toContainEqual({
      code: 'chain.issuerMissing',
      severity: 'indeterminate',
      params: { issuer: 'CN=OpenSeal Test Root, O=OpenSeal Test, C=LU' },
    });
    const withRoot = await verifyCms({
      cms: await stamped(),
      digestOf: hashOf(data),
      trust: { anchors: [], intermediates: [pki.root.certificate] },
    });
    expect(withRoot.findings).toContainEqual({
      code: 'chain.untrusted',
      severity: 'indeterminate',
      params: { issuer: 'CN=OpenSeal Test Root, O=OpenSeal Test, C=LU' },
    });
    // The TSA is not trusted either, so its time proves nothing.
    expect(untrusted.provenTime).toBeUndefined();
    expect(untrusted.findings.map((f) => f.code)).toContain('timestamp.untrusted');
  });

  it('a tampered intermediate is a broken chain: invalid', async () => {
    const inter = Uint8Array.from(pki.intermediate.certificate);
    inter[inter.length - 3] = (inter[inter.length - 3] as number) ^ 0x01;
    const cms = await buildCadesDetached({
      digest: sha256(data),
      signer: { certificate: pki.ecLeaf.certificate, chain: [inter], key: pki.ecLeaf.key },
    });
    const r = await verifyCms({ cms, digestOf: hashOf(data), trust });
    expect(r).toMatchObject({ verdict: 'invalid', subIndication: 'CERTIFICATE_CHAIN_GENERAL_FAILURE' });
  });

  it.skipIf(!has('openssl'))(
    'a self-signed seal certificate made with openssl is never valid, whatever its name says',
    async () => {
      const forged = runTool(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-keyout',
          'forged.key',
          '-out',
          'forged.pem',
          '-days',
          '30',
          '-utf8',
          '-subj',
          '/CN=杭州示例科技有限公司合同专用章/O=杭州示例科技有限公司',
        ],
        dir,
      );
      expect(forged.status, forged.output).toBe(0);
      const signed = runTool(
        'openssl',
        [
          'cms',
          '-sign',
          '-binary',
          '-in',
          'data.bin',
          '-signer',
          'forged.pem',
          '-inkey',
          'forged.key',
          '-outform',
          'DER',
          '-out',
          'forged.der',
        ],
        dir,
      );
      expect(signed.status, signed.output).toBe(0);
      const r = await verifyCms({
        cms: new Uint8Array(readFileSync(join(dir, 'forged.der'))),
        digestOf: hashOf(data),
        trust,
      });
      expect(r).toMatchObject({
        integrity: 'valid',
        chain: 'untrusted',
        verdict: 'indeterminate',
        subIndication: 'NO_CERTIFICATE_CHAIN_FOUND',
      });
      expect(r.signer?.commonName).toBe('杭州示例科技有限公司合同专用章');
      expect(r.findings[0]).toEqual({
        code: 'chain.selfSigned',
        severity: 'indeterminate',
        params: { subject: 'CN=杭州示例科技有限公司合同专用章, O=杭州示例科技有限公司' },
      });
    },
  );
});
