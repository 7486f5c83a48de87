/**
 * Encrypted PDFs through the sign service: a file the empty user password opens and whose permissions
 * allow filling in forms is uploaded, signed and stays encrypted; others are refused at upload with a
 * catalogued code. pdfsig and qpdf judge the signed file.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/lib/secrets';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { sealFixtures, type OrgFixture } from './seals-fixtures';

const has = (tool: string) => spawnSync(tool, ['-v'], { stdio: 'ignore' }).error === undefined;
const referees = has('pdfsig') && has('qpdf');
const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/unsigned', import.meta.url));
const hasCorpus = existsSync(join(CORPUS, 'MANIFEST.tsv'));
if (!referees) console.warn('notice: pdfsig or qpdf missing; the encrypted-file signing tests are skipped');
if (!hasCorpus)
  console.warn('notice: third-party PDF corpus not found; the encrypted corpus file is skipped');

const dir = mkdtempSync(join(tmpdir(), 'openseal-signing-encrypted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A one-page PDF written by hand. */
function plainPdf(text: string): Buffer {
  const content = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Count 1 /Kids [3 0 R] >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let body = '%PDF-1.7\n';
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

let n = 0;
/** qpdf --encrypt USER OWNER ARGS… of a plain PDF. */
function encrypted(user: string, owner: string, args: string[]): Buffer {
  const input = join(dir, `in-${++n}.pdf`);
  const output = join(dir, `locked-${n}.pdf`);
  writeFileSync(input, plainPdf(`Locked ${n}`));
  const r = spawnSync('qpdf', [
    '--allow-weak-crypto',
    '--encrypt',
    user,
    owner,
    ...args,
    '--',
    input,
    output,
  ]);
  expect(r.status, String(r.stderr)).toBeLessThan(2);
  return readFileSync(output);
}

describe.skipIf(!referees).each(DIALECTS)('encrypted PDFs in the sign service on %s', (dialect) => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  const { post } = f;
  let a: OrgFixture;
  let seal: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const op = await f.operator();
    a = await f.org();
    seal = (await f.madeSeal(a, op)).sealCode;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  async function upload(token: string, bytes: Buffer, name = 'contract.pdf', password?: string) {
    const boundary = `----s${Math.random().toString(16).slice(2)}`;
    const body = Buffer.concat([
      Buffer.from(
        password === undefined
          ? ''
          : `--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\n${password}\r\n`,
      ),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = await t.call('POST', '/v1/file/uploadInside?purpose=sign', {
      token,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    return r;
  }

  async function willFor(token: string, taskId: string) {
    const created = await post('/v1/will/createWillUrl', token, {
      source: 3,
      bizId: taskId,
      redirectUrl: '/signService/signByMe',
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const id = created.body.data.willBizId as string;
    expect((await post(`/v1/will/${id}/sendCode`, token)).body.code).toBe(0);
    const person = await t.db
      .selectFrom('sessions as s')
      .innerJoin('persons as p', 'p.id', 's.person_id')
      .select('p.mobile')
      .where('s.token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    const code = await t.smsCode(person.mobile);
    expect((await post(`/v1/will/${id}/verify`, token, { code })).body.code).toBe(0);
    return id;
  }

  /** Uploads, quick-signs with a visible seal, and returns the signed file's path. */
  async function quickSign(bytes: Buffer, password?: string): Promise<string> {
    const up = await upload(a.admin, bytes, 'contract.pdf', password);
    expect(up.body.code, JSON.stringify(up.body)).toBe(0);
    const created = await post('/v1/sign/flows', a.admin, {
      name: '加密文件签署',
      scene: 'quick',
      files: [{ fileKey: up.body.data.fileKey, role: 'contract' }],
      validity: '3m',
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const flow = created.body.data;
    // The participants' viewers get the password a protected file was uploaded with, and nobody else's.
    expect(flow.files[0].password).toBe(password ?? null);
    const task = flow.signers[0];
    const signed = await post('/v1/sign/flowsTask', a.admin, {
      flowId: flow.flowId,
      taskId: task.taskId,
      willBizId: await willFor(a.admin, task.taskId),
      sealCode: seal,
      placements: [{ fileId: flow.files[0].fileId, kind: 'seal', page: 1, x: 100, y: 100 }],
    });
    expect(signed.body.code, JSON.stringify(signed.body)).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/sign/flow/${flow.flowId}/files/${flow.files[0].fileId}?download=1`,
      headers: { 'x-access-token': a.admin },
    });
    expect(res.statusCode).toBe(200);
    const path = join(dir, `signed-${++n}.pdf`);
    writeFileSync(path, res.rawPayload);
    return path;
  }

  function expectSignedAndEncrypted(path: string, revision: number, password?: string) {
    const sig = spawnSync('pdfsig', ['-nocert', ...(password ? ['-upw', password] : []), path], {
      encoding: 'utf8',
    }).stdout;
    expect(sig.match(/Signature is Valid\./g)?.length, sig).toBe(1);
    expect(sig).toContain('Total document signed');
    const check = spawnSync('qpdf', [...(password ? [`--password=${password}`] : []), '--check', path], {
      encoding: 'utf8',
    });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain(`R = ${revision}`);
  }

  it('signs an AES-256 file whose permissions allow form filling; the file stays encrypted', async () => {
    const path = await quickSign(encrypted('', 'owner-secret', ['256', '--modify=form']));
    expectSignedAndEncrypted(path, 6);
  });

  it.skipIf(!hasCorpus)('signs the encrypted corpus file pdfjs__secHandler.pdf', async () => {
    const path = await quickSign(readFileSync(join(CORPUS, 'pdfjs__secHandler.pdf')));
    expectSignedAndEncrypted(path, 6);
  });

  it('signs a file opened with the password the user gives; the password is kept sealed, the file stays locked', async () => {
    const locked = encrypted('user-pw-7', 'owner-secret', ['256']);
    const wrong = await upload(a.admin, locked, 'locked.pdf', 'not-it');
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe(12103);
    expect(wrong.body.message).toMatch(/PDF 密码错误|password is wrong/);
    const path = await quickSign(locked, 'user-pw-7');
    expectSignedAndEncrypted(path, 6, 'user-pw-7');
    // Still locked: without the password neither referee opens it.
    expect(spawnSync('qpdf', ['--check', path], { encoding: 'utf8' }).status).not.toBe(0);
    // At rest the password is sealed (AES-GCM), never in clear.
    const rows = await t.db
      .selectFrom('file_objects')
      .select(['key', 'password_sealed'])
      .where('password_sealed', 'is not', null)
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(Buffer.from(r.password_sealed!).includes('user-pw-7')).toBe(false);
  });

  it('signs with the owner password a file whose permissions forbid form filling (the owner lifts them)', async () => {
    const forbidden = encrypted('', 'owner-secret-2', ['128', '--modify=none']);
    const path = await quickSign(forbidden, 'owner-secret-2');
    expectSignedAndEncrypted(path, 3);
  });

  it('refuses at upload a file whose permissions forbid form filling, or that needs a password', async () => {
    const forbidden = await upload(a.admin, encrypted('', 'owner-secret', ['128', '--modify=none']));
    expect(forbidden.status).toBe(400);
    expect(forbidden.body.code).toBe(12101);
    expect(forbidden.body.message).toMatch(/permissions do not allow signing|权限设置不允许签署/);
    const locked = await upload(a.admin, encrypted('user-pw', 'owner-secret', ['256']));
    expect(locked.status).toBe(400);
    expect(locked.body.code).toBe(12102);
    if (hasCorpus) {
      // RC4 40-bit with bit 6 clear: revision 2 knows no other way to allow form filling.
      const r2 = await upload(a.admin, readFileSync(join(CORPUS, 'pdfjs__bug900822.pdf')));
      expect(r2.body.code).toBe(12101);
    }
  });
});
