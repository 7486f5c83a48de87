import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabaseForTest } from './platform-helpers';
import { DIALECTS, mobile, startTestApp, type TestApp } from './harness';

describe.each(DIALECTS)('platform [%s]', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('healthz reports the database; livez answers without it', async () => {
    const r = await t.call('GET', '/healthz');
    expect(r.body).toMatchObject({ status: 'ok', database: dialect });
    expect((await t.call('GET', '/livez')).body).toEqual({ status: 'ok' });
  });
  it('sets security headers', async () => {
    const r = await t.call('GET', '/healthz');
    expect(r.headers['content-security-policy']).toContain("default-src 'self'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(r.headers['strict-transport-security']).toContain('max-age=');
  });
  it('an unknown API path is 1009 in the envelope, in the asked language', async () => {
    const r = await t.call('GET', '/v1/does/not/exist', { lang: 'en' });
    expect([r.status, r.body.code, r.body.message]).toEqual([404, 1009, 'No such endpoint']);
  });
  it('a bad owner-switch header is 1007; malformed JSON is 1105', async () => {
    expect(
      (
        await t.call('GET', '/v1/organizes/dynamicConfig?sceneKey=HOME', {
          headers: { 'x-owner-switch': 'OTHER' },
        })
      ).body.code,
    ).toBe(1007);
    const r = await t.app.inject({
      method: 'POST',
      url: '/v1/accounts/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"mobile":',
    });
    expect([r.statusCode, r.json().code]).toEqual([400, 1105]);
  });
  it('an unexpected failure is 1004 with no stack or internals in the answer', async () => {
    const token = await t.loginBySms(mobile());
    await closeDatabaseForTest(t);
    const r = await t.call('GET', '/v1/accounts/info', { token });
    expect([r.status, r.body.code]).toEqual([500, 1004]);
    expect(r.raw).not.toMatch(/at .*\.ts|stack|Error:/);
    // The app is unusable now; give the next tests a fresh one.
    const broken = t;
    t = await startTestApp(dialect);
    await broken.close().catch(() => undefined);
  });
  it('serves /docs and /openapi.json without login, listing every built endpoint', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/docs/' })).statusCode).toBe(200);
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const listed = new Set(
      Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)),
    );
    const built = [
      'POST /v1/accounts/login',
      'GET /v1/accounts/{info}',
      'GET /v1/accounts/checkLoginStatus',
      'POST /v1/accounts',
      'POST /v1/accounts/handover/login',
      'POST /v1/accounts/logout',
      'POST /v1/accounts/changeToken',
      'POST /v1/accounts/updatePassword',
      'POST /v1/organizes',
      'POST /v1/organizes/handover/login',
      'POST /v1/organizes/add',
      'POST /v1/organizes/delete',
      'GET /v1/organizes/duplicateCheck',
      'GET /v1/organizes/dynamicConfig',
      'GET /v1/organizes/downloadUrl',
      'POST /v1/msgs/loginRegister/send',
      'POST /v1/msgs/mobileModify/send',
      'POST /v1/msgs/verify/{flowId}',
      'POST /v1/msgs/newMobile/send',
      'POST /v1/msgs/newMobile/verify',
      'POST /v1/config/component/values',
      'POST /v1/config/component/value',
      'GET /v1/config/component/payment',
      'GET /v1/config/component/goods',
      'POST /v1/file/url',
      'POST /v1/file/uploadInside',
      'POST /v1/file/uploadPic',
      'GET /ecmp/copywriting/json',
      'GET /epmp/eepw/open/config.json',
      'GET /{basePath}/version.txt',
      'GET /v1/dev/sms-outbox',
    ];
    for (const route of built) expect(listed, route).toContain(route);
  });
  it('falls back to the web app for page paths (history mode), never for API paths', async () => {
    const web = join(t.dataDir, 'web');
    await mkdir(web, { recursive: true });
    await writeFile(join(web, 'index.html'), '<!doctype html><title>OpenSeal</title>');
    await mkdir(join(web, 'assets'), { recursive: true });
    await writeFile(join(web, 'assets', 'main-abc123.js'), 'console.log(1)');
    const t2 = await startTestApp(dialect, { WEB_DIST: web });
    try {
      // Built assets are public, long-cached, and a file added after start is served too.
      const asset = await t2.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
      expect([asset.statusCode, asset.body]).toEqual([200, 'console.log(1)']);
      expect(asset.headers['cache-control']).toContain('immutable');
      await writeFile(join(web, 'assets', 'later-def456.js'), 'console.log(2)');
      expect((await t2.app.inject({ method: 'GET', url: '/assets/later-def456.js' })).statusCode).toBe(200);
      // A path that climbs out of the web root never reaches a file outside it.
      const secret = 'private-bytes-beside-the-web-root';
      await writeFile(join(t.dataDir, 'private.txt'), secret);
      for (const url of [
        '/../private.txt',
        '/assets/../../private.txt',
        '/assets/%2e%2e/%2e%2e/private.txt',
        '/..%2fprivate.txt',
        '/%2e%2e/private.txt',
      ]) {
        expect((await t2.app.inject({ method: 'GET', url })).body, url).not.toContain(secret);
      }
      const home = await t2.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
      expect([home.statusCode, home.body]).toEqual([200, '<!doctype html><title>OpenSeal</title>']);
      expect((await t2.app.inject({ method: 'GET', url: '/assets/' })).json().code).toBe(11001);
      const page = await t2.app.inject({
        method: 'GET',
        url: '/sealService/mySealList',
        headers: { accept: 'text/html' },
      });
      expect([page.statusCode, page.body]).toEqual([200, '<!doctype html><title>OpenSeal</title>']);
      expect((await t2.app.inject({ method: 'GET', url: '/some/unknown/page' })).body).toContain(
        '<title>OpenSeal',
      );
      expect(
        (await t2.app.inject({ method: 'GET', url: '/v1/unknown', headers: { accept: 'text/html' } })).json()
          .code,
      ).toBe(1009);
      expect((await t2.app.inject({ method: 'GET', url: '/missing.js' })).statusCode).toBe(404);
    } finally {
      await t2.close();
    }
  });
});

describe.each(DIALECTS)('rate limits [%s]', (dialect) => {
  it('limits login attempts and code sending per client (1003, 429)', async () => {
    const t = await startTestApp(dialect, {
      RATE_LIMIT_LOGIN_PER_MINUTE: '3',
      RATE_LIMIT_SMS_PER_MINUTE: '2',
    });
    try {
      const login = () =>
        t.call('POST', '/v1/accounts/login', { body: { mobile: '13800000003', password: 'wrong-pass1' } });
      for (let i = 0; i < 3; i++) expect((await login()).body.code).toBe(2006);
      const limited = await login();
      expect([limited.status, limited.body.code]).toEqual([429, 1003]);
      const send = () => t.call('POST', '/v1/msgs/loginRegister/send', { body: { mobile: mobile() } });
      expect((await send()).body.code).toBe(0);
      expect((await send()).body.code).toBe(0);
      expect((await send()).body.code).toBe(1003);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!process.env.REDIS_URL).each(DIALECTS)('rate limits in Redis [%s]', (dialect) => {
  it('two server instances share one limit through Redis', async () => {
    const env = {
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_PREFIX: `test-${Date.now()}-${Math.random().toString(36).slice(2, 8)}:`,
      RATE_LIMIT_LOGIN_PER_MINUTE: '4',
    };
    const a = await startTestApp(dialect, env);
    const b = await startTestApp(dialect, env);
    try {
      const login = (t: TestApp) =>
        t.call('POST', '/v1/accounts/login', { body: { mobile: '13800000003', password: 'wrong-pass1' } });
      for (const t of [a, b, a, b]) expect((await login(t)).body.code).toBe(2006);
      // The fifth attempt is refused whichever instance it reaches.
      expect((await login(a)).body.code).toBe(1003);
      expect((await login(b)).body.code).toBe(1003);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('embedded database', () => {
  it('keeps its data across a restart, and migrating again changes nothing', async () => {
    const { buildApp } = await import('../src/app');
    const { loadConfig } = await import('../src/config');
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dataDir = await mkdtemp(join(tmpdir(), 'openseal-persist-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SMS_SANDBOX_DELAY_MS: '5' });
    try {
      let app = await buildApp({ config });
      const login = await app.inject({
        method: 'POST',
        url: '/v1/accounts/login',
        payload: { mobile: '13800000001', password: 'Demo1234' },
      });
      const token = login.json().data.accessToken as string;
      await app.close();
      expect(existsSync(join(dataDir, 'pglite'))).toBe(true);
      expect((await readFile(join(dataDir, 'secrets', 'app-secret'), 'utf8')).length).toBeGreaterThan(30);
      // Between the runs an operator renames the system and a key goes missing (as from an older release).
      const { openDatabase } = await import('@openseal/db');
      const direct = await openDatabase({ dataDir: join(dataDir, 'pglite') });
      await direct.db
        .updateTable('config_values')
        .set({ value: '某市电子印章平台' })
        .where('code', '=', 'SYS_NAME_PUBLIC')
        .execute();
      await direct.db.deleteFrom('config_values').where('code', '=', 'HOME_BANNER@en').execute();
      await direct.close();
      app = await buildApp({ config });
      const config2 = await app.inject({
        method: 'POST',
        url: '/v1/config/component/values',
        payload: { codes: ['SYS_NAME_PUBLIC', 'HOME_BANNER'] },
        headers: { 'x-language': 'en' },
      });
      const values = Object.fromEntries(
        (config2.json().data.configCodeValueBos as Array<{ code: string; value: string }>).map((b) => [
          b.code,
          b.value,
        ]),
      );
      expect(values.HOME_BANNER).toContain('Unified Electronic Seal');
      const zhName = await app.inject({
        method: 'POST',
        url: '/v1/config/component/value',
        payload: { code: 'SYS_NAME_PUBLIC' },
      });
      expect(zhName.json().data.value).toBe('某市电子印章平台');
      const info = await app.inject({
        method: 'GET',
        url: '/v1/accounts/info',
        headers: { 'x-access-token': token },
      });
      expect(info.json().data.userInfoPerson.name).toBe('张三');
      await app.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('committed OpenAPI document', () => {
  it('matches the routes (run `npm run gen` after changing a route)', async () => {
    const { generateOpenApi } = await import('../../../scripts/gen-openapi');
    const committed = await readFile(new URL('../../../docs/openapi.json', import.meta.url), 'utf8');
    const generated = await generateOpenApi();
    expect(committed).toBe(generated);
    const { generateEndpointsDoc } = await import('../../../scripts/gen-endpoints-doc');
    const endpointsDoc = await readFile(new URL('../../../docs/endpoints.md', import.meta.url), 'utf8');
    expect(endpointsDoc).toBe(await generateEndpointsDoc(generated));
  });
});
