/**
 * Algorithms by the rules: EdDSA only with the digest RFC 8419 (and ISO 32002) binds to its curve,
 * SHA-3, SHAKE256 and RSASSA-PSS verified, weak algorithms reported. Signatures are made here with
 * node:crypto keys; openssl is the referee where version 3.0 can sign or verify the format (it cannot
 * make or check EdDSA CMS, so those are checked against node:crypto's raw EdDSA only).
 */
import { constants, createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCrl } from '../crl/index';
import { verifyCms, type CmsVerifyInput, type CmsVerifyResult } from './verify';
import { ctx, oid, seq } from './der';
import { OID } from './oids';
import {
  algorithmId,
  buildTestCms,
  derNull,
  has,
  issueForKey,
  makeTempDir,
  makeTestPki,
  runTool,
  smallInteger,
  writeFiles,
  type TestPki,
} from './test-fixtures';

const data = new TextEncoder().encode('%PDF-1.7 bytes covered by the signature '.repeat(30));
const tampered = data.map((b, i) => (i === 40 ? b ^ 1 : b));
const shake256 = (bytes: Uint8Array) =>
  new Uint8Array(createHash('shake256', { outputLength: 64 }).update(bytes).digest());
const hashWith = (node: string, bytes: Uint8Array) => new Uint8Array(createHash(node).update(bytes).digest());
const NODE: Record<string, string> = {
  MD5: 'md5',
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
  'SHA3-256': 'sha3-256',
  'SHA3-384': 'sha3-384',
  'SHA3-512': 'sha3-512',
};
/** digestOf over `bytes`, as a PDF verifier computes it over the byte ranges. */
const digestOf =
  (bytes: Uint8Array): CmsVerifyInput['digestOf'] =>
  async (alg) =>
    alg === 'SHAKE256' ? shake256(bytes) : hashWith(NODE[alg] as string, bytes);

const SHAKE256_LEN_512 = Uint8Array.of(0x02, 0x02, 0x02, 0x00);
const SHAKE256_LEN_256 = Uint8Array.of(0x02, 0x02, 0x01, 0x00);

let pki: TestPki;
let crl: Uint8Array;
let dir: string;
const trust = () => ({ anchors: [pki.root.certificate], intermediates: [pki.intermediate.certificate] });

beforeAll(async () => {
  pki = await makeTestPki();
  dir = makeTempDir();
  // A real CRL from the issuing CA that revokes nobody: revocation is known, so a sound signature is valid.
  const now = Date.now();
  crl = await buildCrl({
    issuer: { certificate: pki.intermediate.certificate, key: pki.intermediate.key },
    thisUpdate: new Date(now - 3_600_000),
    nextUpdate: new Date(now + 86_400_000),
    crlNumber: 1,
    revoked: [],
  });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function check(cms: Uint8Array, over = data): Promise<CmsVerifyResult> {
  return verifyCms({ cms, digestOf: digestOf(over), trust: trust(), revocation: { crls: [crl] } });
}

const codes = (r: CmsVerifyResult) => r.findings.map((f) => f.code);

async function eddsaSigner(type: 'ed25519' | 'ed448') {
  const { publicKey, privateKey } =
    type === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ed448');
  const certificate = await issueForKey({
    subject: `CN=${type} signer, O=OpenSeal Test`,
    issuer: pki.intermediate,
    publicKey,
  });
  return { certificate, privateKey, publicKey };
}

function eddsaCms(
  signer: { certificate: Uint8Array; privateKey: KeyObject },
  signatureOid: string,
  digestAlgorithm: Uint8Array,
  contentDigest: Uint8Array,
): Uint8Array {
  return buildTestCms({
    certificate: signer.certificate,
    chain: [pki.intermediate.certificate],
    digestAlgorithm,
    contentDigest,
    signatureAlgorithm: algorithmId(signatureOid),
    sign: (attrs) => new Uint8Array(sign(null, attrs, signer.privateKey)),
  });
}

describe('EdDSA in CMS (RFC 8419, ISO 32002)', () => {
  it('Ed25519 with SHA-512 is valid; any other digest is a crypto-constraint failure', async () => {
    const signer = await eddsaSigner('ed25519');
    const good = eddsaCms(signer, OID.ed25519, algorithmId(OID.sha512), hashWith('sha512', data));
    const r = await check(good);
    expect(r).toMatchObject({
      integrity: 'valid',
      chain: 'trusted',
      signatureAlgorithm: 'Ed25519',
      digestAlgorithm: 'SHA-512',
      revocation: { status: 'good' },
      verdict: 'valid',
    });
    expect(codes(r)).toEqual(['timestamp.none']);

    const broken = await check(good, tampered);
    expect(broken).toMatchObject({ integrity: 'invalid', verdict: 'invalid', subIndication: 'HASH_FAILURE' });

    for (const [digest, node] of [
      [OID.sha256, 'sha256'],
      [OID.sha3_512, 'sha3-512'],
    ] as const) {
      const wrong = eddsaCms(signer, OID.ed25519, algorithmId(digest), hashWith(node, data));
      const w = await check(wrong);
      // The signature itself verifies; the rule on its digest does not hold.
      expect(w.integrity).toBe('valid');
      expect(w).toMatchObject({ verdict: 'indeterminate', subIndication: 'CRYPTO_CONSTRAINTS_FAILURE' });
      expect(w.findings).toContainEqual({
        code: 'algorithm.eddsaDigest',
        severity: 'indeterminate',
        params: {
          signature: 'Ed25519',
          digest: node === 'sha256' ? 'SHA-256' : 'SHA3-512',
          required: 'SHA-512',
        },
      });
    }
  });

  it('Ed448 with SHAKE256 (512-bit output, with or without the length parameter) is valid', async () => {
    const signer = await eddsaSigner('ed448');
    for (const digestAlgorithm of [
      algorithmId(OID.shake256),
      algorithmId(OID.shake256Len, SHAKE256_LEN_512),
    ]) {
      const r = await check(eddsaCms(signer, OID.ed448, digestAlgorithm, shake256(data)));
      expect(r).toMatchObject({
        integrity: 'valid',
        signatureAlgorithm: 'Ed448',
        digestAlgorithm: 'SHAKE256',
        verdict: 'valid',
      });
      const broken = await check(eddsaCms(signer, OID.ed448, digestAlgorithm, shake256(data)), tampered);
      expect(broken.verdict).toBe('invalid');
    }
  });

  it('Ed448 with SHA-512, or SHAKE256 of another length, is a crypto-constraint failure', async () => {
    const signer = await eddsaSigner('ed448');
    const sha512 = await check(
      eddsaCms(signer, OID.ed448, algorithmId(OID.sha512), hashWith('sha512', data)),
    );
    expect(sha512).toMatchObject({
      integrity: 'valid',
      verdict: 'indeterminate',
      subIndication: 'CRYPTO_CONSTRAINTS_FAILURE',
    });
    expect(codes(sha512)).toContain('algorithm.eddsaDigest');

    const short = new Uint8Array(createHash('shake256', { outputLength: 32 }).update(data).digest());
    const len256 = await check(
      eddsaCms(signer, OID.ed448, algorithmId(OID.shake256Len, SHAKE256_LEN_256), short),
    );
    expect(len256).toMatchObject({ verdict: 'indeterminate', subIndication: 'CRYPTO_CONSTRAINTS_FAILURE' });
    expect(len256.findings).toContainEqual(
      expect.objectContaining({
        code: 'algorithm.eddsaDigest',
        params: expect.objectContaining({ digest: 'SHAKE256/256' }),
      }),
    );
  });

  it('the EdDSA signature value is the one node:crypto makes over the signed attributes', async () => {
    const signer = await eddsaSigner('ed25519');
    const cms = eddsaCms(signer, OID.ed25519, algorithmId(OID.sha512), hashWith('sha512', data));
    // Flip one bit of the signature value (the last 64 bytes of this CMS): integrity fails on the signature.
    const bad = cms.slice();
    bad[bad.length - 1] = (bad[bad.length - 1] as number) ^ 1;
    expect(await check(bad)).toMatchObject({ integrity: 'invalid', subIndication: 'SIG_CRYPTO_FAILURE' });
  });
});

describe('SHA-3 and RSASSA-PSS', () => {
  const pssParams = (hashOid: string, salt: number) =>
    seq(ctx(0, seq(oid(hashOid))), ctx(1, seq(oid(OID.mgf1), seq(oid(hashOid)))), ctx(2, smallInteger(salt)));

  it('RSASSA-PSS with SHA-256 and with SHA3-256 parameters verifies, and openssl agrees', async () => {
    const rsa = pki.rsaLeaf;
    for (const [hashOid, node, salt] of [
      [OID.sha256, 'sha256', 32],
      [OID.sha3_256, 'sha3-256', 32],
      [OID.sha256, 'sha256', 20],
    ] as const) {
      const cms = buildTestCms({
        certificate: rsa.certificate,
        chain: [pki.intermediate.certificate],
        digestAlgorithm: algorithmId(hashOid),
        contentDigest: hashWith(node, data),
        signatureAlgorithm: algorithmId(OID.rsaPss, pssParams(hashOid, salt)),
        sign: (attrs) =>
          new Uint8Array(
            sign(node, attrs, {
              key: rsa.privateKey,
              padding: constants.RSA_PKCS1_PSS_PADDING,
              saltLength: salt,
            }),
          ),
      });
      const r = await check(cms);
      expect(r, `${node} salt ${salt}`).toMatchObject({ integrity: 'valid', verdict: 'valid' });
      expect(r.signatureAlgorithm).toMatch(/^RSA-PSS with SHA(-|3-)256$/);
      expect((await check(cms, tampered)).verdict).toBe('invalid');
      if (has('openssl') && node === 'sha256') {
        writeFiles(dir, {
          'pss.der': cms,
          'data.bin': data,
          'root.pem': pki.root.pem,
          'inter.pem': pki.intermediate.pem,
        });
        const out = runTool(
          'openssl',
          [
            'cms',
            '-verify',
            '-binary',
            '-inform',
            'DER',
            '-in',
            'pss.der',
            '-content',
            'data.bin',
            '-CAfile',
            'root.pem',
            '-certfile',
            'inter.pem',
            '-purpose',
            'any',
            '-out',
            '/dev/null',
          ],
          dir,
        );
        expect(out.output).toMatch(/Verification successful/);
      }
    }
  });

  it('a PSS salt length that does not match the signature fails', async () => {
    const rsa = pki.rsaLeaf;
    const cms = buildTestCms({
      certificate: rsa.certificate,
      digestAlgorithm: algorithmId(OID.sha256),
      contentDigest: hashWith('sha256', data),
      signatureAlgorithm: algorithmId(OID.rsaPss, pssParams(OID.sha256, 20)),
      sign: (attrs) =>
        new Uint8Array(
          sign('sha256', attrs, {
            key: rsa.privateKey,
            padding: constants.RSA_PKCS1_PSS_PADDING,
            saltLength: 32,
          }),
        ),
    });
    expect((await check(cms)).integrity).toBe('invalid');
  });

  it('ECDSA with SHA3-256 and SHA3-512 digests and signature identifiers verifies', async () => {
    const ec = pki.ecLeaf;
    for (const [digestOid, sigOid, node] of [
      [OID.sha3_256, OID.ecdsaWithSha3_256, 'sha3-256'],
      [OID.sha3_512, OID.ecdsaWithSha3_512, 'sha3-512'],
    ] as const) {
      const cms = buildTestCms({
        certificate: ec.certificate,
        chain: [pki.intermediate.certificate],
        digestAlgorithm: algorithmId(digestOid),
        contentDigest: hashWith(node, data),
        signatureAlgorithm: algorithmId(sigOid),
        sign: (attrs) => new Uint8Array(sign(node, attrs, ec.privateKey)),
      });
      const r = await check(cms);
      expect(r).toMatchObject({ integrity: 'valid', verdict: 'valid' });
      expect(r.digestAlgorithm).toBe(node.toUpperCase());
    }
  });

  it.skipIf(!has('openssl'))('openssl-made CMS: RSA with SHA3-256, and RSASSA-PSS', async () => {
    writeFiles(dir, { 'data.bin': data, 'rsa.pem': pki.rsaLeaf.pem, 'rsa.key': pki.rsaLeaf.keyPem });
    const make = (name: string, extra: string[]) => {
      const out = runTool(
        'openssl',
        [
          'cms',
          '-sign',
          '-binary',
          '-in',
          'data.bin',
          '-signer',
          'rsa.pem',
          '-inkey',
          'rsa.key',
          '-outform',
          'DER',
          '-out',
          name,
          ...extra,
        ],
        dir,
      );
      expect(out.status, out.output).toBe(0);
      return new Uint8Array(readFileSync(join(dir, name)));
    };
    const sha3 = await check(make('sha3.der', ['-md', 'sha3-256']));
    expect(sha3).toMatchObject({ integrity: 'valid', digestAlgorithm: 'SHA3-256', verdict: 'valid' });
    const pss = await check(
      make('pss.der', ['-md', 'sha256', '-keyopt', 'rsa_padding_mode:pss', '-keyopt', 'rsa_pss_saltlen:32']),
    );
    expect(pss).toMatchObject({
      integrity: 'valid',
      signatureAlgorithm: 'RSA-PSS with SHA-256',
      verdict: 'valid',
    });
  });
});

describe('weak algorithms are reported, and never give a plain valid', () => {
  it.skipIf(!has('openssl'))(
    'SHA-1 and MD5 digests (openssl-made): intact, weak, indeterminate',
    async () => {
      writeFiles(dir, { 'data.bin': data, 'rsa.pem': pki.rsaLeaf.pem, 'rsa.key': pki.rsaLeaf.keyPem });
      for (const md of ['sha1', 'md5']) {
        const name = `${md}.der`;
        const out = runTool(
          'openssl',
          [
            'cms',
            '-sign',
            '-binary',
            '-md',
            md,
            '-in',
            'data.bin',
            '-signer',
            'rsa.pem',
            '-inkey',
            'rsa.key',
            '-outform',
            'DER',
            '-out',
            name,
          ],
          dir,
        );
        expect(out.status, out.output).toBe(0);
        const r = await check(new Uint8Array(readFileSync(join(dir, name))));
        expect(r.integrity, md).toBe('valid');
        expect(r).toMatchObject({ verdict: 'indeterminate', subIndication: 'CRYPTO_CONSTRAINTS_FAILURE' });
        expect(r.findings).toContainEqual({
          code: 'algorithm.weak',
          severity: 'indeterminate',
          params: { algorithm: md === 'sha1' ? 'SHA-1' : 'MD5' },
        });
      }
    },
  );

  it('an RSA key under 2048 bits, and a certificate signed with SHA-1', async () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const certificate = await issueForKey({
      subject: 'CN=Short Key',
      issuer: pki.intermediate,
      publicKey: small.publicKey,
    });
    const cms = buildTestCms({
      certificate,
      digestAlgorithm: algorithmId(OID.sha256),
      contentDigest: hashWith('sha256', data),
      signatureAlgorithm: algorithmId(OID.sha256WithRsa, derNull()),
      sign: (attrs) => new Uint8Array(sign('sha256', attrs, small.privateKey)),
    });
    const r = await check(cms);
    expect(r).toMatchObject({ integrity: 'valid', chain: 'trusted', verdict: 'indeterminate' });
    expect(r.findings).toContainEqual({
      code: 'algorithm.weakKey',
      severity: 'indeterminate',
      params: { bits: 1024, subject: 'CN=Short Key' },
    });

    const ed = generateKeyPairSync('ed25519');
    // Issued by the EC root: an ECDSA key may sign with any hash (a WebCrypto RSA key is bound to one).
    const sha1Cert = await issueForKey({
      subject: 'CN=SHA1 Signed',
      issuer: pki.root,
      publicKey: ed.publicKey,
      hash: 'SHA-1',
    });
    const r2 = await check(
      eddsaCms(
        { certificate: sha1Cert, privateKey: ed.privateKey },
        OID.ed25519,
        algorithmId(OID.sha512),
        hashWith('sha512', data),
      ),
    );
    expect(r2).toMatchObject({ integrity: 'valid', chain: 'trusted', verdict: 'indeterminate' });
    expect(r2.findings).toContainEqual({
      code: 'algorithm.weakCertificate',
      severity: 'indeterminate',
      params: { algorithm: 'SHA-1', subject: 'CN=SHA1 Signed' },
    });
  });
});
