/**
 * The public verification service end to end over HTTP: an upload keeps its report under an unguessable
 * id, the report reads back as JSON and downloads as a PDF whose text pdftotext can read, the upload limit
 * is a setting (VERIFY_FILE_SIZE_LIMIT, MB), and every refusal is a catalogued code.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPdfSigning } from '../src/modules/signing/pdf-signing';
import { verifyLimitBytes } from '../src/modules/signing/verify.service';
import { DIALECTS, startTestApp, type TestApp } from './harness';

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS = resolve(here, '../../../../shared/corpus/signed');
const corpusPresent = existsSync(join(CORPUS, 'signpdf__signed-twice.pdf'));
if (!corpusPresent)
  console.warn(`notice: corpus not found at ${CORPUS}; the third-party verification test is skipped`);

/** A one-page PDF written by hand, so the test needs no fixture file. */
function plainPdf(text: string, padding = 0): Buffer {
  const content = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Count 1 /Kids [3 0 R] >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  // A comment line of `padding` spaces makes a large file that is still a well-formed PDF.
  let body = `%PDF-1.7\n${padding > 0 ? `%${' '.repeat(padding)}\n` : ''}`;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

function multipart(bytes: Buffer, fileName: string) {
  const boundary = '----openseal-verify-report';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('verifyLimitBytes', () => {
  it('reads megabytes, and falls back to 3 MB when unset, unreadable or out of range', () => {
    expect(verifyLimitBytes(null)).toBe(3 * 1024 * 1024);
    expect(verifyLimitBytes('5')).toBe(5 * 1024 * 1024);
    expect(verifyLimitBytes('0.5')).toBe(512 * 1024);
    for (const bad of ['', 'abc', '0', '-1', '1000']) expect(verifyLimitBytes(bad)).toBe(3 * 1024 * 1024);
  });
});

describe.each(DIALECTS)('kept verification reports on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  let signed: Buffer;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    dir = await mkdtemp(join(tmpdir(), 'openseal-verify-report-'));
    const seal = await t.app.pki.issue(t.db, {
      profile: 'org-seal',
      subject: {
        commonName: '报告科技有限公司合同专用章',
        organization: '报告科技有限公司',
        organizationIdentifier: '91330106MA27Y5XK0X',
      },
      owner: { type: 'organization', id: 'org_report' },
      sealCode: 'REPORT-SEAL',
    });
    await writeFile(join(dir, 'in.pdf'), plainPdf('Contract'));
    await createPdfSigning({ pki: t.app.pki, work: t.app.work }).signFile(t.db, {
      inPath: join(dir, 'in.pdf'),
      outPath: join(dir, 'out.pdf'),
      serial: seal.serial,
    });
    signed = await readFile(join(dir, 'out.pdf'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const upload = (bytes: Buffer, name = 'contract.pdf', lang?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/signFile/verify/pdf',
      ...multipart(bytes, name),
      headers: { ...multipart(bytes, name).headers, ...(lang ? { 'x-language': lang } : {}) },
    });

  async function pdfText(bytes: Buffer): Promise<string> {
    const file = join(dir, `report-${Math.random().toString(36).slice(2)}.pdf`);
    await writeFile(file, bytes);
    return execFileSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(
      /\s+/g,
      ' ',
    );
  }

  it('keeps the report of a platform-signed PDF: JSON and PDF, without login', async () => {
    const res = await upload(signed, '采购合同.pdf');
    expect(res.statusCode).toBe(200);
    const answer = res.json().data;
    expect(answer.reportId).toMatch(/^vr_[A-Za-z0-9_-]{22}$/);
    expect(answer.verdict).toBe('valid');
    expect(answer.signatures[0].certNotBefore).toMatch(/^\d{4}-/);

    const kept = await t.call('GET', `/v1/signFile/verify/report/${answer.reportId}`);
    expect(kept.status).toBe(200);
    expect(kept.body.data).toEqual(answer);

    const pdf = await t.app.inject({
      method: 'GET',
      url: `/v1/signFile/verify/report/${answer.reportId}/pdf`,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toMatch(/^attachment; filename="verify-report-vr_/);
    expect(pdf.headers['content-disposition']).toContain(encodeURIComponent('验签报告-采购合同.pdf'));
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(pdf.rawPayload);
    for (const s of [
      '电子签名验证报告',
      '采购合同.pdf',
      answer.sha256,
      '有效 / Valid',
      '报告科技有限公司合同专用章',
      answer.signatures[0].serialHex,
      '覆盖整个文档',
      '未吊销 / Not revoked',
      `证据日志叶子序号 / Evidence-log leaf ${answer.evidenceIndex}`,
      'openseal evidence verify proof.json',
    ])
      expect(text).toContain(s);
    // The evidence leaf the report names records this very file: its bundle opens the file's hash.
    const evidence = await t.call('GET', `/v1/signFile/verify/report/${answer.reportId}/evidence`);
    expect(evidence.body.data.verification.leafIndex).toBe(answer.evidenceIndex);
    expect(evidence.body.data.verification.opened['hashes.file']).toBe(answer.sha256);
  });

  it.skipIf(!corpusPresent)('keeps the report of a PDF signed elsewhere, with every signature', async () => {
    const bytes = await readFile(join(CORPUS, 'signpdf__signed-twice.pdf'));
    const answer = (await upload(bytes, 'signed-twice.pdf')).json().data;
    expect(answer.signatures).toHaveLength(2);
    const kept = (await t.call('GET', `/v1/signFile/verify/report/${answer.reportId}`)).body.data;
    expect(kept.signatures.map((s: { field: string }) => s.field)).toEqual(
      answer.signatures.map((s: { field: string }) => s.field),
    );
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/v1/signFile/verify/report/${answer.reportId}/pdf`,
    });
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('signed-twice.pdf');
    expect(text).toContain('签名 2 / Signature 2');
    for (const s of answer.signatures as Array<{ signer: string | null; field: string }>)
      expect(text).toContain(s.signer ?? s.field);
  });

  it('answers catalogued errors: too large, not a PDF, unknown report', async () => {
    const big = await upload(Buffer.concat([signed, Buffer.alloc(3 * 1024 * 1024)]));
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe(5003);

    const notPdf = await upload(Buffer.from('hello, not a pdf'), 'x.pdf', 'en');
    expect(notPdf.statusCode).toBe(415);
    expect(notPdf.json()).toMatchObject({ code: 5002, message: 'The file format is wrong' });

    for (const id of ['vr_AAAAAAAAAAAAAAAAAAAAAA', 'nothing-like-an-id']) {
      const missing = await t.call('GET', `/v1/signFile/verify/report/${id}`, { lang: 'en' });
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe(12401);
      expect(missing.body.message).toMatch(/verification report does not exist/);
      const missingPdf = await t.call('GET', `/v1/signFile/verify/report/${id}/pdf`);
      expect(missingPdf.status).toBe(404);
      expect(missingPdf.body.code).toBe(12401);
      expect(missingPdf.body.message).toContain('验签报告不存在');
    }
  });

  it('takes its upload limit from VERIFY_FILE_SIZE_LIMIT (MB), which public pages can read', async () => {
    const config = async () => (await t.call('GET', '/v1/signFile/verify/config')).body.data;
    expect(await config()).toEqual({ maxBytes: 3 * 1024 * 1024, kinds: ['pdf'] });

    await t.db.deleteFrom('config_values').where('code', '=', 'VERIFY_FILE_SIZE_LIMIT').execute();
    await t.db
      .insertInto('config_values')
      .values({ code: 'VERIFY_FILE_SIZE_LIMIT', value: '1', file_key: null, is_public: false })
      .execute();
    // The configuration cache lasts 5 s (instances agree within that); this one is told at once.
    t.app.configService.forget();
    expect((await config()).maxBytes).toBe(1024 * 1024);
    const overOne = await upload(Buffer.concat([signed, Buffer.alloc(1024 * 1024)]));
    expect(overOne.statusCode).toBe(413);
    expect(overOne.json().code).toBe(5003);

    await t.db
      .updateTable('config_values')
      .set({ value: '4' })
      .where('code', '=', 'VERIFY_FILE_SIZE_LIMIT')
      .execute();
    t.app.configService.forget();
    expect((await config()).maxBytes).toBe(4 * 1024 * 1024);
    const padded = plainPdf('Large', 3.5 * 1024 * 1024);
    const accepted = await upload(padded);
    expect(accepted.json().code).toBe(0);
    expect(accepted.json().data).toMatchObject({ size: padded.length, verdict: 'no-signatures' });
  });
});
