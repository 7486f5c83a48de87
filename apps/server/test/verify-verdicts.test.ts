/**
 * The three verdicts through the public verification API (`POST /v1/signFile/verify/pdf`): a seal forged
 * with openssl (a self-signed certificate named like a company's contract seal) is indeterminate, never
 * valid, with its catalogued reasons; a platform-signed PDF is valid; the same PDF with one signed byte
 * changed is invalid. The answer carries reason codes and parameters, the same whatever the language
 * asked; the catalogue renders them in zh-CN and en.
 */
import { spawnSync } from 'node:child_process';
import { createPrivateKey, sign as nodeSign, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts, verifyReasonText, type VerifyReasonCode } from '@openseal/core';
import { signPdf } from '@openseal/pdf';
import { buildCadesDetached, type KeyHandle } from '@openseal/pki';
import { createPdfSigning } from '../src/modules/signing/pdf-signing';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { multipart, tinyPdf } from './upload-fixtures';

const FORGED_CN = '杭州示例科技有限公司合同专用章';
const FORGED_SUBJECT = `CN=${FORGED_CN}, O=杭州示例科技有限公司`;

/** A self-signed RSA certificate named like a company seal, made with openssl, and a KeyHandle for its key. */
async function forgeSeal(dir: string): Promise<{ der: Uint8Array; key: KeyHandle }> {
  const run = (args: string[]) => {
    const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  };
  run([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'forged.key',
    '-out',
    'forged.pem',
    '-days',
    '365',
    '-utf8',
    '-subj',
    `/CN=${FORGED_CN}/O=杭州示例科技有限公司`,
    '-addext',
    'keyUsage=critical,digitalSignature,nonRepudiation',
  ]);
  const pem = await readFile(join(dir, 'forged.pem'), 'utf8');
  const x509 = new X509Certificate(pem);
  const privateKey = createPrivateKey(await readFile(join(dir, 'forged.key'), 'utf8'));
  return {
    der: new Uint8Array(x509.raw),
    key: {
      id: 'forged',
      algorithm: 'RSA-2048',
      publicKeySpki: new Uint8Array(x509.publicKey.export({ format: 'der', type: 'spki' })),
      sign: async (data) => new Uint8Array(nodeSign('sha256', data, privateKey)),
    },
  };
}

describe.each(DIALECTS)('verdicts of POST /v1/signFile/verify/pdf [%s]', (dialect) => {
  let t: TestApp;
  let dir: string;
  let forged: Buffer;
  let platformSigned: Buffer;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    dir = await mkdtemp(join(tmpdir(), 'openseal-verdicts-'));

    const seal = await forgeSeal(dir);
    const signed = await signPdf(tinyPdf('Contract of sale'), {
      sign: (digest) => buildCadesDetached({ digest, signer: { certificate: seal.der, key: seal.key } }),
      signingTime: new Date(),
      name: FORGED_CN,
      fieldName: 'Seal',
    });
    forged = Buffer.from(signed.bytes!);

    const cert = await t.app.pki.issue(t.db, {
      profile: 'org-seal',
      subject: {
        commonName: '验签科技有限公司合同专用章',
        organization: '验签科技有限公司',
        organizationIdentifier: '91330106MA27Y5XK0X',
      },
      owner: { type: 'organization', id: 'org_verdicts' },
      sealCode: 'VERDICTS-SEAL',
    });
    await writeFile(join(dir, 'in.pdf'), tinyPdf('Amount 100 EUR'));
    await createPdfSigning({ pki: t.app.pki, work: t.app.work }).signFile(t.db, {
      inPath: join(dir, 'in.pdf'),
      outPath: join(dir, 'out.pdf'),
      serial: cert.serial,
    });
    platformSigned = await readFile(join(dir, 'out.pdf'));
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Uploads a PDF as the verification page does, in a language; checks the answer against its contract. */
  async function verify(bytes: Buffer, lang?: 'zh-CN' | 'en') {
    const { body, contentType } = multipart([{ name: 'c.pdf', bytes, type: 'application/pdf' }]);
    const res = await t.call('POST', '/v1/signFile/verify/pdf', {
      body,
      headers: { 'content-type': contentType },
      ...(lang ? { lang } : {}),
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.code, res.body.message).toBe(0);
    const parsed = contracts.pdfVerifyResponse.safeParse(res.body.data);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    return { message: res.body.message, data: parsed.data! };
  }

  it('a self-signed certificate named like a company seal: indeterminate, never valid, with catalogued reasons', async () => {
    const zh = await verify(forged, 'zh-CN');
    const en = await verify(forged, 'en');
    for (const [lang, { data }] of [
      ['zh-CN', zh],
      ['en', en],
    ] as const) {
      expect(data.verdict).toBe('indeterminate');
      expect(data.signatures).toHaveLength(1);
      const sig = data.signatures[0]!;
      expect(sig).toMatchObject({
        field: 'Seal',
        signer: FORGED_CN,
        signerSubject: FORGED_SUBJECT,
        signerIssuer: FORGED_SUBJECT,
        integrity: 'valid',
        coversWholeDocument: true,
        modifiedAfter: 'none',
        chain: 'untrusted',
        verdict: 'indeterminate',
        subIndication: 'NO_CERTIFICATE_CHAIN_FOUND',
      });
      expect(sig.verdict).not.toBe('valid');
      // The decisive reason names the forged subject; the others only inform.
      expect(sig.findings.filter((f) => f.severity !== 'info')).toEqual([
        { code: 'chain.selfSigned', severity: 'indeterminate', params: { subject: FORGED_SUBJECT } },
      ]);
      expect(sig.findings.map((f) => f.code)).toContain('timestamp.none');
      // The reasons are written in the language asked.
      expect(sig.reasons).toEqual([verifyReasonText('chain.selfSigned', lang, { subject: FORGED_SUBJECT })]);
      expect(data.findings).toEqual([
        {
          code: 'document.signatureIndeterminate',
          severity: 'indeterminate',
          params: { field: 'Seal', signer: FORGED_CN },
        },
      ]);
    }
    // The verdict and findings do not depend on the language asked; the reasons' text and the message do.
    const strip = (d: typeof zh.data) => ({
      ...d,
      verifiedAt: '',
      reportId: '',
      evidenceIndex: 0,
      signatures: d.signatures.map((x) => ({ ...x, reasons: [] })),
    });
    expect(strip(en.data)).toEqual(strip(zh.data));
    expect(zh.data.signatures[0]!.reasons[0]).toMatch(/[\u4e00-\u9fff]/);
    expect(zh.message).not.toBe(en.message);

    // Each reason code is catalogued in both languages, its parameters filled in.
    const text = (code: VerifyReasonCode, params: Record<string, string | number>) => ({
      zh: verifyReasonText(code, 'zh-CN', params),
      en: verifyReasonText(code, 'en', params),
    });
    expect(text('chain.selfSigned', { subject: FORGED_SUBJECT })).toEqual({
      zh: `签名人未经本平台确认：证书 ${FORGED_SUBJECT} 是自签名证书，不在本平台的信任列表中`,
      en: `The signer is not confirmed by this platform: ${FORGED_SUBJECT} is a self-signed certificate outside its trust anchors`,
    });
    expect(text('document.signatureIndeterminate', { field: 'Seal', signer: FORGED_CN })).toEqual({
      zh: `签名“Seal”（${FORGED_CN}）的签名人未能确认`,
      en: `The signer of "Seal" (${FORGED_CN}) cannot be confirmed`,
    });

    // The kept report says the same, and so does the evidence leaf of the verification.
    const kept = await t.call('GET', `/v1/signFile/verify/report/${en.data.reportId}`);
    expect(kept.body.data).toMatchObject({ verdict: 'indeterminate', reportId: en.data.reportId });
    expect(kept.body.data.signatures[0]).toMatchObject({ verdict: 'indeterminate', chain: 'untrusted' });
    const leaf = (await t.app.evidence.openedEntry(en.data.evidenceIndex)).entry;
    expect(leaf).toMatchObject({ kind: 'verify', data: { verdict: 'indeterminate' } });
  });

  it('a platform-signed PDF: valid, trusted, timestamped, revocation known', async () => {
    for (const lang of ['zh-CN', 'en'] as const) {
      const { data } = await verify(platformSigned, lang);
      expect(data.verdict).toBe('valid');
      expect(data.findings).toEqual([]);
      expect(data.signatures).toHaveLength(1);
      const sig = data.signatures[0]!;
      expect(sig).toMatchObject({
        signer: '验签科技有限公司合同专用章',
        kind: 'certification',
        docMdp: 2,
        integrity: 'valid',
        coversWholeDocument: true,
        modifiedAfter: 'none',
        chain: 'trusted',
        revocation: { status: 'good' },
        verdict: 'valid',
      });
      expect(sig.subIndication).toBeUndefined();
      expect(sig.timestamp?.valid).toBe(true);
      expect(sig.provenTime).toBe(sig.timestamp?.time);
      expect(sig.findings.filter((f) => f.severity !== 'info')).toEqual([]);
      expect(sig.reasons).toEqual([]);
    }
  });

  it('the platform-signed PDF with one signed byte changed: invalid (HASH_FAILURE), in either signed range', async () => {
    const sig = (await verify(platformSigned)).data.signatures[0]!;
    const [, firstLength, secondStart] = sig.byteRange as [number, number, number, number];
    const text = platformSigned.toString('latin1');
    // One byte of the page text (first range), and one byte of the signature's own /M date (second range).
    const inFirst = text.indexOf('Amount 100 EUR') + 'Amount '.length;
    const mAt = text.indexOf('/M (D:', secondStart);
    expect(inFirst).toBeLessThan(firstLength);
    expect(mAt).toBeGreaterThanOrEqual(secondStart);
    for (const [at, to] of [
      [inFirst, '9'],
      [mAt + '/M (D:'.length, '1'],
    ] as const) {
      const tampered = Buffer.from(platformSigned);
      expect(tampered[at]).not.toBe(to.charCodeAt(0));
      tampered[at] = to.charCodeAt(0);
      for (const lang of ['zh-CN', 'en'] as const) {
        const { data } = await verify(tampered, lang);
        expect(data.verdict, `byte ${at}`).toBe('invalid');
        const s = data.signatures[0]!;
        expect(s).toMatchObject({
          integrity: 'invalid',
          verdict: 'invalid',
          subIndication: 'HASH_FAILURE',
          byteRange: sig.byteRange,
        });
        expect(s.findings[0]).toEqual({ code: 'integrity.hashMismatch', severity: 'invalid' });
        expect(s.reasons[0]).toBe(verifyReasonText('integrity.hashMismatch', lang));
        expect(data.findings).toContainEqual({
          code: 'document.signatureInvalid',
          severity: 'invalid',
          params: { field: s.field, signer: '验签科技有限公司合同专用章' },
        });
      }
    }
    expect(verifyReasonText('integrity.hashMismatch', 'zh-CN')).toBe('签名后被签内容已被改动（摘要不符）');
  });
});
