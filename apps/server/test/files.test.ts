import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawLogoPng } from '../src/seed/logo';
import { DIALECTS, mobile, startTestApp, type TestApp } from './harness';
import { multipart, tinyPdf } from './upload-fixtures';
import { zip } from './zip-fixture';
import { buildOfd } from '../../../packages/ofd/src/test-ofd';

describe.each(DIALECTS)('files [%s]', (dialect) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    token = await t.loginBySms(mobile());
  });
  afterAll(async () => t?.close());

  const upload = async (
    path: string,
    files: Array<{ name: string; bytes: Buffer; type?: string }>,
    as: string | null = token,
  ) => {
    const m = multipart(files);
    return t.call('POST', path, { token: as, body: m.body, headers: { 'content-type': m.contentType } });
  };

  it('stores a PDF by content hash and hands out a signed, expiring download address', async () => {
    const pdf = tinyPdf();
    const r = await upload('/v1/file/uploadInside?purpose=sign', [{ name: '合同.pdf', bytes: pdf }]);
    expect(r.body.code).toBe(0);
    expect(r.body.data).toMatchObject({
      fileName: '合同.pdf',
      size: pdf.length,
      contentType: 'application/pdf',
    });
    const url = await t.call('POST', '/v1/file/url', { token, body: { fileKey: r.body.data.fileKey } });
    expect(url.body.data.url).toMatch(/^\/v1\/file\/download\/fil_/);
    const dl = await t.app.inject({ method: 'GET', url: url.body.data.url });
    expect(dl.statusCode).toBe(200);
    expect(Buffer.compare(dl.rawPayload, pdf)).toBe(0);
    expect(dl.headers['content-type']).toBe('application/pdf');
    const tampered = url.body.data.url.replace(/sig=.{4}/, 'sig=AAAA');
    expect((await t.call('GET', tampered)).body.code).toBe(5007);
    const moved = url.body.data.url.replace(/expires=\d+/, 'expires=1000');
    expect((await t.call('GET', moved)).body.code).toBe(5007);
    // Addresses live minutes (DOWNLOAD_URL_TTL_SECONDS), whatever the caller asks.
    const staticUrl = await t.call(
      'GET',
      `/v1/organizes/downloadUrl?fileKey=${r.body.data.fileKey}&needStaticUrl=true`,
      { token },
    );
    expect(new Date(staticUrl.body.data.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(300_000);
  });
  it('another person cannot get an address for the file (5201)', async () => {
    const r = await upload('/v1/file/uploadInside', [{ name: 'a.pdf', bytes: tinyPdf('mine') }]);
    const other = await t.loginBySms(mobile());
    expect(
      (await t.call('POST', '/v1/file/url', { token: other, body: { fileKey: r.body.data.fileKey } })).body
        .code,
    ).toBe(5201);
  });
  it('takes the lifetime of an address from DOWNLOAD_URL_TTL_SECONDS', async () => {
    const short = await startTestApp(dialect, { DOWNLOAD_URL_TTL_SECONDS: '45' });
    try {
      const who = await short.loginBySms(mobile());
      const m = multipart([{ name: 'a.pdf', bytes: tinyPdf('short') }]);
      const up = await short.call('POST', '/v1/file/uploadInside', {
        token: who,
        body: m.body,
        headers: { 'content-type': m.contentType },
      });
      const url = await short.call('POST', '/v1/file/url', {
        token: who,
        body: { fileKey: up.body.data.fileKey },
      });
      const left = Date.parse(url.body.data.expiresAt) - Date.now();
      expect(left).toBeGreaterThan(35_000);
      expect(left).toBeLessThanOrEqual(45_000);
    } finally {
      await short.close();
    }
  });
  it('judges by content, not by name: text named .pdf is 5002', async () => {
    const r = await upload('/v1/file/uploadInside', [
      { name: 'fake.pdf', bytes: Buffer.from('hello, not a pdf at all') },
    ]);
    expect([r.status, r.body.code]).toEqual([415, 5002]);
  });
  it('a truncated PDF is 5005', async () => {
    const pdf = tinyPdf();
    const r = await upload('/v1/file/uploadInside', [
      { name: 'cut.pdf', bytes: pdf.subarray(0, pdf.length - 40) },
    ]);
    expect(r.body.code).toBe(5005);
  });
  it('a verification upload over 3 MB is 5003, and nothing is stored', async () => {
    const big = Buffer.concat([tinyPdf(), Buffer.alloc(3 * 1024 * 1024)]);
    const before = await t.db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const r = await upload('/v1/file/uploadInside?purpose=verify', [{ name: 'big.pdf', bytes: big }]);
    expect([r.status, r.body.code]).toEqual([413, 5003]);
    const after = await t.db
      .selectFrom('files')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
  it('OFD: a whole package passes with its page count; a zip without OFD.xml is 5002; a damaged zip or a broken structure is 5005', async () => {
    const ok = await upload('/v1/file/uploadInside?purpose=sign', [
      { name: 'a.ofd', bytes: Buffer.from(buildOfd()) },
    ]);
    expect(ok.body.data.contentType).toBe('application/ofd');
    expect(
      (
        await upload('/v1/file/uploadInside?purpose=sign', [
          { name: 'b.ofd', bytes: zip({ 'readme.txt': 'x' }) },
        ])
      ).body.code,
    ).toBe(5002);
    const broken = zip({ 'OFD.xml': '<ofd:OFD/>' }).subarray(0, 40);
    expect(
      (await upload('/v1/file/uploadInside?purpose=sign', [{ name: 'c.ofd', bytes: broken }])).body.code,
    ).toBe(5005);
    // OFD.xml alone, or a document whose page is missing, is no OFD a viewer can open.
    for (const bytes of [
      zip({ 'OFD.xml': '<ofd:OFD/>', 'Doc_0/Document.xml': '<x/>' }),
      Buffer.from(buildOfd({ omit: ['Doc_0/Pages/Page_0/Content.xml'] })),
      Buffer.from(buildOfd({ parts: { 'Doc_0/Document.xml': '<ofd:Document><unclosed>' } })),
    ]) {
      const r = await upload('/v1/file/uploadInside?purpose=sign', [{ name: 'd.ofd', bytes }]);
      expect([r.status, r.body.code]).toEqual([400, 5005]);
    }
  });
  it('images: a PNG passes uploadPic; a PDF does not (5002); a truncated PNG is 5005', async () => {
    const png = drawLogoPng(64);
    expect((await upload('/v1/file/uploadPic', [{ name: 'x.png', bytes: png }])).body.data.contentType).toBe(
      'image/png',
    );
    expect((await upload('/v1/file/uploadPic', [{ name: 'x.png', bytes: tinyPdf() }])).body.code).toBe(5002);
    expect(
      (await upload('/v1/file/uploadPic', [{ name: 'x.png', bytes: png.subarray(0, png.length - 20) }])).body
        .code,
    ).toBe(5005);
  });
  it('app icons must be exactly 200x200 (5008)', async () => {
    expect(
      (await upload('/v1/file/uploadPic?purpose=appIcon', [{ name: 'i.png', bytes: drawLogoPng(64) }])).body
        .code,
    ).toBe(5008);
    expect(
      (await upload('/v1/file/uploadPic?purpose=appIcon', [{ name: 'i.png', bytes: drawLogoPng(200) }])).body
        .code,
    ).toBe(0);
  });
  it('one file at a time (5006); none is 5009; an unknown purpose is 1001; no session is 102', async () => {
    const two = await upload('/v1/file/uploadInside', [
      { name: 'a.pdf', bytes: tinyPdf('a') },
      { name: 'b.pdf', bytes: tinyPdf('b') },
    ]);
    expect(two.body.code).toBe(5006);
    expect((await t.call('POST', '/v1/file/uploadInside', { token, body: {} })).body.code).toBe(5009);
    expect(
      (await upload('/v1/file/uploadInside?purpose=nope', [{ name: 'a.pdf', bytes: tinyPdf() }])).body.code,
    ).toBe(1001);
    expect(
      (await upload('/v1/file/uploadInside', [{ name: 'a.pdf', bytes: tinyPdf() }], null)).body.code,
    ).toBe(102);
  });
  it('keeps one blob for identical content uploaded twice', async () => {
    const pdf = tinyPdf('same bytes');
    const a = await upload('/v1/file/uploadInside', [{ name: 'a.pdf', bytes: pdf }]);
    const b = await upload('/v1/file/uploadInside', [{ name: 'b.pdf', bytes: pdf }]);
    expect(a.body.data.sha256).toBe(b.body.data.sha256);
    expect(a.body.data.fileKey).not.toBe(b.body.data.fileKey);
  });
});
