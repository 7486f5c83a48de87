/**
 * PDF_CERTIFY_LEVEL: the platform's first signature on an unsigned PDF is a certification with that
 * DocMDP level (P=1 no changes, 2 form filling and signing, 3 also annotations); 0 or `off` never
 * certifies. Signed through the quick-sign API, read back by the verifier and from the file's own bytes.
 * A file certified at P=1 is refused at upload (12003 pdf.certifiedNoChanges); a first signature
 * that more will follow (another placement, another signer) certifies at P=2 instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { verifyPdf, openPdf, type PdfVerifyReport } from '@openseal/pdf';
import { startTestApp, type TestApp } from './harness';
import { sealFixtures, type OrgFixture } from './seals-fixtures';
import { signFixtures } from './sign-fixtures';
import { multipart, tinyPdf } from './upload-fixtures';
import { makePdf } from '../../../packages/pdf/src/test-pdf';

/** The DocMDP level the file's catalog /Perms names, read from the bytes: /Perms /DocMDP → /Reference → /P. */
function permsLevel(bytes: Uint8Array): number | undefined {
  const doc = openPdf(bytes);
  const sig = doc.resolveDict(doc.resolveDict(doc.catalog().get('Perms'))?.get('DocMDP'));
  if (!sig) return undefined;
  const refs = doc.resolve(sig.get('Reference'));
  const first = doc.resolveDict(Array.isArray(refs) ? refs[0] : undefined);
  expect(first?.getName('TransformMethod')).toBe('DocMDP');
  return doc.resolveDict(first?.get('TransformParams'))?.getNumber('P');
}

describe('PDF_CERTIFY_LEVEL is read from the environment', () => {
  it('accepts 0–3 and off (0), defaults to 2, refuses anything else', () => {
    const base = { APP_SECRET: 'test-secret-0123456789-abcdefghijklmnop' };
    expect(loadConfig(base).pdfCertifyLevel).toBe(2);
    for (const [value, level] of [
      ['0', 0],
      ['off', 0],
      ['1', 1],
      ['2', 2],
      ['3', 3],
    ] as const)
      expect(loadConfig({ ...base, PDF_CERTIFY_LEVEL: value }).pdfCertifyLevel).toBe(level);
    for (const bad of ['4', '-1', 'on', '2.5'])
      expect(() => loadConfig({ ...base, PDF_CERTIFY_LEVEL: bad })).toThrow(/PDF_CERTIFY_LEVEL/);
  });
});

// One dialect: the setting decides what the PDF package writes; the database plays no part in it.
describe.each([
  ['1', 1],
  ['3', 3],
  ['off', 0],
] as const)('the platform first signature with PDF_CERTIFY_LEVEL=%s', (setting, level) => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  const s = signFixtures(() => t);
  let a: OrgFixture;
  let seal: string;

  beforeAll(async () => {
    t = await startTestApp('pglite', { PDF_CERTIFY_LEVEL: setting });
    const op = await f.operator();
    a = await f.org();
    seal = (await f.madeSeal(a, op)).sealCode;
  }, 120_000);
  afterAll(async () => t?.close());

  /** A quick flow over `bytes`, signed with the seal at the given placements; the answer and the file after. */
  async function quickSign(bytes: Buffer, kinds: Array<'seal' | 'ridingSeam'> = ['seal']) {
    const flow = await s.quickFlow(a.admin, await s.upload(a.admin, bytes));
    const res = await f.post('/v1/sign/flowsTask', a.admin, {
      flowId: flow.flowId,
      taskId: flow.taskId,
      willBizId: flow.willBizId,
      sealCode: seal,
      placements: kinds.map((kind) => ({ fileId: flow.fileId, kind, page: 1, x: 60, y: 60 })),
    });
    const file = await t.app.inject({
      method: 'GET',
      url: `/v1/sign/flow/${flow.flowId}/files/${flow.fileId}?download=1`,
      headers: { 'x-access-token': a.admin },
    });
    expect(file.statusCode).toBe(200);
    return { res, flow, bytes: Buffer.from(file.rawPayload) };
  }

  const check = async (bytes: Uint8Array): Promise<PdfVerifyReport> =>
    verifyPdf(bytes, { trust: await t.app.pki.trustStore(), checkRevocation: t.app.pki.checkRevocation });

  it(`signs an unsigned PDF ${level ? `as a certification with /DocMDP /P ${level}` : 'as an approval, no DocMDP'}`, async () => {
    const { res, bytes } = await quickSign(tinyPdf('Certify level'));
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    expect(res.body.data.flowStatus).toBe('completed');
    const report = await check(bytes);
    expect(report.verdict).toBe('valid');
    expect(report.signatures).toHaveLength(1);
    const first = report.signatures[0]!;
    if (level === 0) {
      expect(first.kind).toBe('signature');
      expect(first.docMdp).toBeUndefined();
      expect(permsLevel(bytes)).toBeUndefined();
      expect(bytes.toString('latin1')).not.toMatch(/\/TransformMethod\s*\/DocMDP/);
    } else {
      expect(first).toMatchObject({ kind: 'certification', docMdp: level, verdict: 'valid' });
      expect(permsLevel(bytes)).toBe(level);
    }
  });

  it(
    level === 1
      ? 'refuses the P=1 certified file at upload, before anyone prepares to sign it: 12003'
      : 'signs the file again as an approval; the first signature keeps its level and stays valid',
    async () => {
      const once = (await quickSign(tinyPdf('Signed twice'))).bytes;
      if (level === 1) {
        const { body, contentType } = multipart([
          { name: 'certified.pdf', bytes: once, type: 'application/pdf' },
        ]);
        const refused = await t.call('POST', '/v1/file/uploadInside?purpose=sign', {
          token: a.admin,
          body,
          headers: { 'content-type': contentType },
        });
        expect([refused.status, refused.body.code]).toEqual([409, 12003]);
        expect(refused.body.message).toBe('该文件已被认证签名锁定，不允许再签署');
        const report = await check(once);
        expect(report.signatures.map((x) => [x.kind, x.docMdp, x.verdict])).toEqual([
          ['certification', 1, 'valid'],
        ]);
      } else {
        const again = await quickSign(once);
        expect(again.res.body.code, JSON.stringify(again.res.body)).toBe(0);
        const report = await check(again.bytes);
        expect(report.verdict).toBe('valid');
        expect(report.signatures.map((x) => x.kind)).toEqual([
          level === 0 ? 'signature' : 'certification',
          'signature',
        ]);
        expect(report.signatures[0]!.docMdp).toBe(level === 0 ? undefined : level);
        expect(report.signatures[0]!.modifiedAfter).toBe('allowed');
        expect(permsLevel(again.bytes)).toBe(level === 0 ? undefined : level);
      }
    },
  );

  it('a seal and a riding seam in one task on an unsigned two-page file', async () => {
    // A riding seam spans pages: two at least.
    const unsigned = Buffer.from(makePdf({ pages: 2 }));
    const { res, bytes } = await quickSign(unsigned, ['seal', 'ridingSeam']);
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    const report = await check(bytes);
    expect(report.signatures.map((x) => x.verdict)).toEqual(['valid', 'valid']);
    // P=1 would forbid the riding seam that follows: a first signature with more to come certifies at P=2.
    expect(report.signatures[0]!.docMdp).toBe(level === 0 ? undefined : level === 1 ? 2 : level);
  });

  it('a flow with a second signer: the first signature leaves the file open to them', async () => {
    const b = await f.org();
    const sealB = (await f.madeSeal(b, await f.operator())).sealCode;
    const fileKey = await s.upload(a.admin, Buffer.from(makePdf({ pages: 1 })));
    const created = await f.post('/v1/sign/flows', a.admin, {
      name: '两方签署',
      files: [{ fileKey, role: 'contract' }],
      validity: '1m',
      initiatorSigns: true,
      signers: [
        { type: 'organization', name: '乙方经办', mobile: await s.mobileOf(b.admin), organizeName: b.name },
      ],
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const flow = created.body.data;
    const fileId = flow.files[0].fileId as string;
    const signAs = async (token: string, taskId: string, sealCode: string, y: number) =>
      f.post('/v1/sign/flowsTask', token, {
        flowId: flow.flowId,
        taskId,
        willBizId: await s.willFor(token, taskId),
        sealCode,
        placements: [{ fileId, kind: 'seal', page: 1, x: 60, y }],
      });
    const first = await signAs(a.admin, flow.signers[0].taskId, seal, 60);
    expect(first.body.code, JSON.stringify(first.body)).toBe(0);
    const second = await signAs(b.admin, flow.signers[1].taskId, sealB, 120);
    expect(second.body.code, JSON.stringify(second.body)).toBe(0);
    expect(second.body.data.flowStatus).toBe('completed');
    const file = await t.app.inject({
      method: 'GET',
      url: `/v1/sign/flow/${flow.flowId}/files/${fileId}?download=1`,
      headers: { 'x-access-token': a.admin },
    });
    const report = await check(Buffer.from(file.rawPayload));
    expect(report.verdict).toBe('valid');
    expect(report.signatures.map((x) => x.kind)).toEqual([
      level === 0 ? 'signature' : 'certification',
      'signature',
    ]);
    expect(report.signatures[0]!.docMdp).toBe(level === 0 ? undefined : level === 1 ? 2 : level);
    expect(report.signatures.map((x) => x.verdict)).toEqual(['valid', 'valid']);
  });
});
