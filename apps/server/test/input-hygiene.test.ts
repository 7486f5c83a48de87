/**
 * Input hygiene, case by case: each kind of bad input the API fuzz throws at every operation, here with
 * the exact catalogued answer it gets, in both languages, on both databases. The cases of the report
 * that found them come first: NUL on a public login, NUL in a path, a malformed multipart upload and
 * `GET /pki/ocsp/%25`, which all answered 500.
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryForCode, messageFor, type ErrorKey } from '@openseal/core';
import { buildOcspRequest, parseOcspResponse } from '@openseal/pki';
import { DIALECTS, startTestApp, type TestApp } from './harness';

/** A test-only route that hands the database a NUL itself, as a handler bug would: the safety net's case. */
function addNulRoute(app: FastifyInstance) {
  app.get('/test/nul-to-database', { config: { public: true } }, async () => {
    await sql`select ${'a\u0000b'}::text as t`.execute(app.db);
    return { code: 0 };
  });
}

describe.each(DIALECTS)('input hygiene on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, {}, addNulRoute);
  });
  afterAll(async () => t?.close());

  const raw = (
    method: 'GET' | 'POST',
    url: string,
    payload?: string | Buffer,
    contentType?: string,
    lang = 'en',
  ) =>
    t.app.inject({
      method,
      url,
      headers: {
        'x-language': lang,
        ...(contentType ? { 'content-type': contentType } : {}),
      },
      ...(payload !== undefined ? { payload } : {}),
    });

  async function expectCode(
    res: Awaited<ReturnType<typeof raw>>,
    key: ErrorKey,
    lang: 'en' | 'zh-CN' = 'en',
  ) {
    const body = res.json() as { code: number; message: string; data: unknown };
    const entry = entryForCode(body.code);
    expect(entry?.key, res.body).toBe(key);
    expect(res.statusCode).toBe(entry!.http);
    expect(body.message).toBe(messageFor(key, lang));
    return body;
  }

  it('refuses NUL in a JSON body, a path parameter and a query (1101), in both languages', async () => {
    const login = JSON.stringify({ username: 'admin\u0000', password: 'x' });
    const body = await expectCode(
      await raw('POST', '/manage/api/v1/login', login, 'application/json'),
      'request.nulCharacter',
    );
    expect(body.data).toEqual({ where: 'body', path: '/username' });
    await expectCode(
      await raw('POST', '/manage/api/v1/login', login, 'application/json', 'zh-CN'),
      'request.nulCharacter',
      'zh-CN',
    );
    expect(
      (await expectCode(await raw('GET', '/v1/sso/ab%00c/result'), 'request.nulCharacter')).data,
    ).toMatchObject({ where: 'params', path: '/flowId' });
    expect(
      (
        await expectCode(
          await raw('GET', '/v1/organizes/duplicateCheck?organizeName=a%00b'),
          'request.nulCharacter',
        )
      ).data,
    ).toMatchObject({ where: 'querystring' });
    // A NUL in an object key is a NUL too.
    await expectCode(
      await raw('POST', '/manage/api/v1/login', '{"user\\u0000":1}', 'application/json'),
      'request.nulCharacter',
    );
  });

  it('refuses text that is not UTF-8: lone surrogates, raw bytes, escapes of bad bytes', async () => {
    await expectCode(
      await raw('POST', '/manage/api/v1/login', '{"username":"\\ud800","password":"x"}', 'application/json'),
      'request.badUtf8',
    );
    for (const bad of [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe4, 0xb8]]) {
      const payload = Buffer.concat([
        Buffer.from('{"username":"a'),
        Buffer.from(bad),
        Buffer.from('","password":"x"}'),
      ]);
      await expectCode(
        await raw('POST', '/manage/api/v1/login', payload, 'application/json'),
        'request.badUtf8',
      );
    }
    // Escapes that spell bytes which are not UTF-8 cannot be decoded: a malformed address.
    await expectCode(await raw('GET', '/v1/sso/%ED%A0%80/result'), 'request.badUrl');
    await expectCode(await raw('GET', '/v1/organizes/duplicateCheck?organizeName=%C3%28'), 'request.badUrl');
  });

  it('refuses malformed escapes in the path and the query (1103)', async () => {
    for (const escape of ['%zz', '%E4%B8', '%', '%2'])
      for (const url of [
        `/v1/evidence/entries/1${escape}`,
        `/v1/organizes/duplicateCheck?organizeName=a${escape}`,
      ])
        await expectCode(await raw('GET', url), 'request.badUrl');
  });

  it('refuses a malformed multipart upload (1107) and a file name with NUL (1101)', async () => {
    const url = '/v1/signFile/verify/pdf';
    const boundary = 'b0undary';
    const type = `multipart/form-data; boundary=${boundary}`;
    const truncated = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7`;
    const cases: Array<[string | Buffer, string]> = [
      [truncated, type],
      ['garbage', 'multipart/form-data'],
      [`--${'x'.repeat(300)}--\r\n`, `multipart/form-data; boundary=${'x'.repeat(300)}`],
    ];
    for (const [payload, contentType] of cases)
      await expectCode(await raw('POST', url, payload, contentType), 'request.badMultipart');
    const nulName = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a\u0000.pdf"\r\n\r\n%PDF-1.7\n\r\n--${boundary}--\r\n`;
    expect((await expectCode(await raw('POST', url, nulName, type), 'request.nulCharacter')).data).toEqual({
      where: 'filename',
    });
  });

  it('answers the OCSP GET form with malformedRequest for a bad path, and with a status for a good one', async () => {
    for (const path of ['%25', '%2500', '%00', '!!!!', 'not base64 at all', 'AAAA']) {
      const res = await raw('GET', `/pki/ocsp/${path}`);
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type']).toBe('application/ocsp-response');
      expect(parseOcspResponse(new Uint8Array(res.rawPayload)).status, path).toBe('malformedRequest');
    }
    const request = buildOcspRequest({
      issuerCertificate: t.app.pki.caCertificate('issuing')!,
      serialHex: '01',
    });
    const b64 = Buffer.from(request).toString('base64');
    for (const path of [
      encodeURIComponent(b64),
      b64.replace(/=+$/, ''),
      encodeURIComponent(encodeURIComponent(b64)),
    ]) {
      const res = await raw('GET', `/pki/ocsp/${path}`);
      const parsed = parseOcspResponse(new Uint8Array(res.rawPayload));
      expect(parsed.status, path).toBe('successful');
      expect(parsed.find('01')?.status).toBe('unknown');
    }
  });

  it('answers wrong content types, malformed JSON, deep nesting and oversized input from the catalogue', async () => {
    const login = '/manage/api/v1/login';
    for (const type of ['text/plain', 'application/xml', 'image/png', 'application/x-www-form-urlencoded'])
      await expectCode(await raw('POST', login, 'a=1', type), 'request.unsupportedMediaType');
    for (const json of ['{"a":', '{a:1}', '', '[1,'])
      await expectCode(await raw('POST', login, json, 'application/json'), 'request.badJson');
    // Prototype poisoning is refused by the parser like any other bad JSON.
    await expectCode(
      await raw('POST', login, '{"__proto__":{"x":1}}', 'application/json'),
      'request.badJson',
    );
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    await expectCode(await raw('POST', login, deep, 'application/json'), 'request.tooDeep');
    await expectCode(
      await raw('POST', login, `{"username":${deep},"password":"x"}`, 'application/json'),
      'request.tooDeep',
    );
    await expectCode(
      await raw('POST', login, JSON.stringify({ username: 'x'.repeat(2_000_000) }), 'application/json'),
      'request.bodyTooLarge',
    );
    // Just under the body limit: validation answers (the contract bounds the name).
    await expectCode(
      await raw(
        'POST',
        login,
        JSON.stringify({ username: 'x'.repeat(1_000_000), password: 'x' }),
        'application/json',
      ),
      'request.invalid',
    );
    await expectCode(await raw('GET', `/v1/evidence/entries/${'1'.repeat(500)}`), 'request.urlTooLong');
    await expectCode(
      await raw('GET', `/v1/organizes/duplicateCheck?organizeName=${'x'.repeat(20_000)}`),
      'request.urlTooLong',
    );
  });

  it('answers a value the database refuses with 1110, not 500 (the safety net under the checks)', async () => {
    const res = await raw('GET', '/test/nul-to-database');
    const body = await expectCode(res, 'request.valueRejected');
    expect(body.data).toEqual({ sqlState: expect.stringMatching(/^(22021|22P05)$/) });
  });
});
