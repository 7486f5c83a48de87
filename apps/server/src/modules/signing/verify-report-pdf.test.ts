import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeText, renderVerifyReportPdf, wrapText } from './verify-report-pdf';

/** The text poppler's pdftotext reads from a PDF (what a reader's viewer extracts too). */
async function pdfText(dir: string, bytes: Uint8Array): Promise<string> {
  const file = join(dir, `r-${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, bytes);
  return execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
}

const signature = {
  field: 'Signature1',
  kind: 'signature' as const,
  subFilter: 'ETSI.CAdES.detached',
  signer: '验签科技有限公司合同专用章',
  signerSubject: 'CN=验签科技有限公司合同专用章, O=验签科技有限公司',
  signerIssuer: 'CN=OpenSeal Issuing CA',
  serialHex: '0a1b2c3d4e5f',
  certNotBefore: '2025-01-01T00:00:00.000Z',
  certNotAfter: '2027-01-01T00:00:00.000Z',
  signingTime: '2025-06-01T08:00:00.000Z',
  page: 1,
  rect: [400, 100, 520, 220] as [number, number, number, number],
  byteRange: [0, 10, 20, 30],
  byteRangeOk: true,
  integrity: 'valid' as const,
  coversWholeDocument: true,
  signedRevision: 1,
  modifiedAfter: 'none' as const,
  changes: [],
  chain: 'trusted' as const,
  chainSubjects: ['CN=OpenSeal Issuing CA'],
  validAtSigningTime: true,
  timestamp: { time: '2025-06-01T08:00:01.000Z', valid: true, tsa: 'CN=OpenSeal TSA' },
  revocation: { status: 'good' as const, source: 'platform' },
  verdict: 'valid' as const,
  findings: [],
  reasons: [],
};

const report = {
  fileName: '采购合同.pdf',
  sha256: 'ab'.repeat(32),
  size: 12345,
  verdict: 'valid' as const,
  findings: [],
  signatures: [signature],
  revisions: 2,
  repaired: false,
  encrypted: false,
  warnings: [],
  verifiedAt: '2025-06-02T09:30:00.000Z',
  evidenceIndex: 42,
  reportId: 'vr_AAAAAAAAAAAAAAAAAAAAAA',
};

describe('the verification report PDF', () => {
  let dir: string;
  beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'openseal-report-'))));
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('is a PDF whose text carries the file, the verdict, each signature and the evidence check, in both languages', async () => {
    const bytes = await renderVerifyReportPdf(report, { systemName: '统一电子印章平台' });
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = (await pdfText(dir, bytes)).replace(/\s+/g, ' ');
    for (const s of [
      '统一电子印章平台',
      '电子签名验证报告',
      'Electronic Signature Verification Report',
      '采购合同.pdf',
      'ab'.repeat(32),
      '12345 bytes',
      '有效 / Valid',
      '签名 1 / Signature 1',
      '验签科技有限公司合同专用章',
      'CN=OpenSeal Issuing CA',
      '0a1b2c3d4e5f',
      '2025-01-01 00:00:00 UTC – 2027-01-01 00:00:00 UTC',
      '2025-06-01 08:00:01 UTC',
      '覆盖整个文档',
      '未吊销 / Not revoked',
      '签署后未修改',
      '第 1 页',
      '(400, 100) – (520, 220) pt',
      '证据日志叶子序号',
      'openseal evidence verify proof.json',
      '/evidence/42/bundle',
      'vr_AAAAAAAAAAAAAAAAAAAAAA',
    ])
      expect(text).toContain(s);
  });

  it('reports an invalid signature and what changed after it, and a file without signatures', async () => {
    const broken = {
      ...report,
      verdict: 'invalid' as const,
      signatures: [
        {
          ...signature,
          verdict: 'invalid' as const,
          integrity: 'invalid' as const,
          integrityReason: 'message digest mismatch',
          modifiedAfter: 'disallowed' as const,
          changes: [
            {
              revision: 2,
              kind: 'content' as const,
              action: 'changed' as const,
              detail: 'page 1 content changed',
              allowed: false,
            },
          ],
          revocation: {
            status: 'revoked' as const,
            source: 'OCSP',
            revokedAt: '2025-07-01T00:00:00.000Z',
            reason: 'keyCompromise',
          },
          rect: [0, 0, 0, 0] as [number, number, number, number],
          page: undefined,
          reasons: ['the document was changed after signing'],
        },
      ],
    };
    const text = (await pdfText(dir, await renderVerifyReportPdf(broken))).replace(/\s+/g, ' ');
    for (const s of [
      '无效 / Invalid',
      'message digest mismatch',
      '签署后有不允许的修改',
      'page 1 content changed',
      '不允许 / not permitted',
      '已吊销 / Revoked',
      'keyCompromise',
      '不可见签名 / Invisible signature',
      'the document was changed after signing',
    ])
      expect(text).toContain(s);
    const none = await renderVerifyReportPdf({ ...report, verdict: 'no-signatures', signatures: [] });
    expect((await pdfText(dir, none)).replace(/\s+/g, ' ')).toContain('未发现签名 / No signatures found');
  });

  it('says why a signature is indeterminate: an unconfirmed signer, or text shown after signing', async () => {
    const annotated = {
      ...signature,
      verdict: 'indeterminate' as const,
      modifiedAfter: 'allowed' as const,
      changes: [
        {
          revision: 2,
          kind: 'annotation' as const,
          action: 'added' as const,
          detail: 'FreeText annotation added on page 1',
          allowed: true,
          page: 1,
          subtype: 'FreeText',
          text: 'PAY 1,000,000 TO MALLORY',
          visible: true,
        },
      ],
      findings: [
        {
          code: 'changes.visibleAnnotation' as const,
          severity: 'indeterminate' as const,
          params: { count: 1 },
        },
      ],
    };
    const forged = {
      ...signature,
      verdict: 'indeterminate' as const,
      chain: 'untrusted' as const,
      signerIssuer: 'CN=杭州示例科技有限公司合同专用章',
      findings: [{ code: 'chain.selfSigned' as const, severity: 'indeterminate' as const }],
    };
    const read = async (sigs: (typeof annotated | typeof forged)[]) =>
      (
        await pdfText(
          dir,
          await renderVerifyReportPdf({ ...report, verdict: 'indeterminate', signatures: sigs }),
        )
      ).replace(/\s+/g, ' ');
    const changes = await read([annotated]);
    expect(changes).toContain('待定：签署后文件新增了可见内容');
    expect(changes).toContain('PAY 1,000,000 TO MALLORY');
    expect(changes).not.toContain('签名人未经本平台确认');
    const signer = await read([forged]);
    expect(signer).toContain('待定：签名人未经本平台确认');
    expect(signer).not.toContain('新增了可见内容');
    // Both at once: the document's line names the signer; each signature's line its own cause.
    const both = await read([annotated, forged]);
    expect(both).toContain('待定：签名人未经本平台确认');
    expect(both).toContain('待定：签署后文件新增了可见内容');
  });

  it('runs onto further pages with numbered footers when there are many signatures', async () => {
    const many = { ...report, signatures: Array.from({ length: 6 }, () => signature) };
    const text = await pdfText(dir, await renderVerifyReportPdf(many));
    expect(text).toMatch(/Page 1 of [2-9]/);
    expect(text).toContain('签名 6 / Signature 6');
  });

  it('wraps long text at spaces, and anywhere inside CJK text', () => {
    const measure = (s: string) => s.length;
    expect(wrapText('aaaa bbbb cccc', 9, measure)).toEqual(['aaaa bbbb', 'cccc']);
    expect(wrapText('一二三四五六七', 3, measure)).toEqual(['一二三', '四五六', '七']);
    expect(wrapText('x\ny', 10, measure)).toEqual(['x', 'y']);
    expect(placeText({ page: 2, rect: [1, 2, 3, 4] })).toContain('第 2 页');
  });
});
