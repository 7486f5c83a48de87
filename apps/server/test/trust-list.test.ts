/**
 * TRUST_LIST: a PEM file of extra trust anchors, read when the platform starts. A PDF sealed under another
 * platform's root is indeterminate (its issuer not confirmed) on a platform without that root, and its
 * chain is trusted on a platform whose TRUST_LIST holds it: valid once revocation is known (a CRL of the
 * foreign issuing CA in the document's DSS), indeterminate for revocation alone without one. The root is
 * published at /pki/trust-anchors and listed among the console's built-in anchors.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts } from '@openseal/core';
import { signPdf } from '@openseal/pdf';
import { buildCadesDetached, buildCrl, fromPem } from '@openseal/pki';
import { DEMO_OPERATOR, seedOperator } from '../src/modules/operators/seed-operator';
import { makeForeignPlatform, type ForeignPlatform } from './foreign-platform';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { multipart, tinyPdf } from './upload-fixtures';

const SEAL = '杭州示例科技有限公司合同专用章';
const ROOT_SUBJECT = 'C=CN, O=异地电子认证服务平台, CN=异地电子认证服务平台 Root CA';

describe.each(DIALECTS)('TRUST_LIST [%s]', (dialect) => {
  let dir: string;
  let foreign: ForeignPlatform;
  /** Signed by the foreign seal; no revocation data. */
  let bare: Buffer;
  /** Signed by the foreign seal, with the foreign issuing CA's CRL (revoking nobody) in its DSS. */
  let withCrl: Buffer;
  /** The same, with a CRL that revokes the seal an hour before now. */
  let revoked: Buffer;
  let listed: TestApp;
  let plain: TestApp;

  async function sealed(text: string, crls: Uint8Array[]): Promise<Buffer> {
    const signer = { certificate: foreign.seal.der, chain: [foreign.issuing.der], key: foreign.seal.key };
    const out = await signPdf(tinyPdf(text), {
      sign: (digest) => buildCadesDetached({ digest, signer }),
      signingTime: new Date(),
      name: SEAL,
      fieldName: 'ForeignSeal',
      dss: { certificates: [foreign.issuing.der], crls },
    });
    return Buffer.from(out.bytes!);
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'openseal-trust-list-'));
    foreign = await makeForeignPlatform();
    bare = await foreign.signedPdf('Between platforms');
    const crl = (n: number, list: Array<{ serialHex: string; revokedAt: Date }>) =>
      buildCrl({
        issuer: { certificate: foreign.issuing.der, key: foreign.issuing.key },
        thisUpdate: new Date(Date.now() - 60_000),
        nextUpdate: new Date(Date.now() + 86_400_000),
        crlNumber: n,
        revoked: list.map((r) => ({ ...r, reason: 'keyCompromise' as const })),
      });
    withCrl = await sealed('Between platforms, with a CRL', [await crl(1, [])]);
    const serialHex = new (await import('node:crypto')).X509Certificate(foreign.seal.der).serialNumber;
    revoked = await sealed('Between platforms, revoked', [
      await crl(2, [{ serialHex: serialHex.toLowerCase(), revokedAt: new Date(Date.now() - 3_600_000) }]),
    ]);
    const listFile = join(dir, 'trust-list.pem');
    await writeFile(listFile, foreign.root.pem);
    listed = await startTestApp(dialect, { TRUST_LIST: listFile });
    plain = await startTestApp(dialect);
  });
  afterAll(async () => {
    await listed?.close();
    await plain?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function verify(t: TestApp, bytes: Buffer): Promise<contracts.PdfVerifyResponse> {
    const { body, contentType } = multipart([{ name: 'foreign.pdf', bytes, type: 'application/pdf' }]);
    const res = await t.call('POST', '/v1/signFile/verify/pdf', {
      body,
      headers: { 'content-type': contentType },
    });
    expect(res.body.code, res.body.message).toBe(0);
    return contracts.pdfVerifyResponse.parse(res.body.data);
  }

  it('without TRUST_LIST: the foreign seal is indeterminate, its root issuer named as not available', async () => {
    for (const bytes of [bare, withCrl, revoked]) {
      const report = await verify(plain, bytes);
      const sig = report.signatures[0]!;
      expect(report.verdict).toBe('indeterminate');
      expect(sig).toMatchObject({
        signer: SEAL,
        integrity: 'valid',
        chain: 'untrusted',
        verdict: 'indeterminate',
        subIndication: 'NO_CERTIFICATE_CHAIN_FOUND',
      });
      // The only decisive reason is the unconfirmed issuer: revocation data of an unknown CA proves nothing.
      expect(sig.findings.filter((f) => f.severity !== 'info')).toEqual([
        { code: 'chain.issuerMissing', severity: 'indeterminate', params: { issuer: ROOT_SUBJECT } },
      ]);
    }
    const bundle = fromPem((await plain.app.inject({ method: 'GET', url: '/pki/trust-anchors' })).body);
    expect(bundle).toHaveLength(1);
  });

  it('with TRUST_LIST: the chain is trusted; valid with the CRL in the DSS, indeterminate for revocation alone without', async () => {
    const good = await verify(listed, withCrl);
    expect(good.verdict).toBe('valid');
    expect(good.signatures[0]).toMatchObject({
      signer: SEAL,
      integrity: 'valid',
      chain: 'trusted',
      revocation: { status: 'good', source: 'dss' },
      verdict: 'valid',
    });
    expect(good.signatures[0]!.chainSubjects.at(-1)).toBe(ROOT_SUBJECT);
    expect(good.signatures[0]!.findings.filter((f) => f.severity !== 'info')).toEqual([]);

    // No CRL or OCSP for the foreign CA, and the platform answers only for its own certificates.
    const unknown = await verify(listed, bare);
    const sig = unknown.signatures[0]!;
    expect(sig).toMatchObject({
      chain: 'trusted',
      revocation: { status: 'unknown' },
      verdict: 'indeterminate',
      subIndication: 'TRY_LATER',
    });
    const decisive = sig.findings.filter((f) => f.severity !== 'info').map((f) => f.code);
    expect(decisive).toEqual(['revocation.unknown']);
    expect(decisive).not.toContain('chain.issuerMissing');

    // Revoked an hour ago, and no timestamp proves the signature came first.
    const gone = await verify(listed, revoked);
    expect(gone.signatures[0]).toMatchObject({
      chain: 'trusted',
      revocation: { status: 'revoked' },
      verdict: 'indeterminate',
      subIndication: 'REVOKED_NO_POE',
    });
  });

  it('publishes the listed root at /pki/trust-anchors and in the console as a built-in anchor', async () => {
    const res = await listed.app.inject({ method: 'GET', url: '/pki/trust-anchors' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-pem-file');
    const ders = fromPem(res.body).map((d) => Buffer.from(d));
    expect(ders).toHaveLength(2);
    expect(ders.some((d) => d.equals(Buffer.from(foreign.root.der)))).toBe(true);

    await seedOperator(listed.db, { demo: true });
    const login = await listed.call('POST', '/manage/api/v1/login', { body: DEMO_OPERATOR });
    expect(login.body.code, login.body.message).toBe(0);
    const list = await listed.call('GET', '/manage/api/v1/trust-anchors', {
      headers: { 'x-operator-token': login.body.data.operatorToken },
    });
    expect(list.body.code).toBe(0);
    expect(list.body.data.builtIn.map((a: { source: string }) => a.source)).toEqual([
      'platform',
      'trustList',
    ]);
    expect(list.body.data.builtIn[1].subject).toContain('异地电子认证服务平台 Root CA');
    // Built in, not operator-added: nothing an operator could disable.
    expect(list.body.data.list).toEqual([]);
  });
});
