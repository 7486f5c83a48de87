import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, mobile, startTestApp, type TestApp } from './harness';

describe.each(DIALECTS)('config [%s]', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('serves the HOME scene without login: system name, banners, and the logo as a PNG data URL', async () => {
    const r = await t.call('GET', '/v1/organizes/dynamicConfig?sceneKey=HOME');
    expect(r.body.code).toBe(0);
    const byCode = Object.fromEntries(
      r.body.data.configCodeValueBos.map((b: { code: string }) => [b.code, b]),
    );
    expect(byCode.SYS_NAME_PUBLIC.value).toBe('统一电子印章公共服务平台');
    expect(JSON.parse(byCode.HOME_BANNER.value)[0]).toHaveProperty('title');
    expect(byCode.TOPIC_LOGO.fileKeyBase64).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(byCode.REALNAME_BANNER_VERIFIED.value).not.toBe(byCode.REALNAME_BANNER_UNVERIFIED.value);
    expect(byCode).not.toHaveProperty('GOODS');
  });
  it('serves configured texts in English when asked, and the Chinese text otherwise', async () => {
    const en = await t.call('GET', '/v1/organizes/dynamicConfig?sceneKey=HOME', { lang: 'en' });
    const byCode = Object.fromEntries(
      en.body.data.configCodeValueBos.map((b: { code: string; value: string }) => [b.code, b.value]),
    );
    expect(byCode.SYS_NAME_PUBLIC).toBe('Unified Electronic Seal Public Service Platform');
    expect(byCode.REALNAME_BANNER_UNVERIFIED).toMatch(/not verified/);
    expect(byCode.PSN_EP_SWITCH).toBe('true'); // untranslated codes keep their value
    expect(Object.keys(byCode).some((c) => c.includes('@'))).toBe(false);
    const one = await t.call('POST', '/v1/config/component/value', {
      body: { code: 'SYS_NAME_PUBLIC' },
      lang: 'en',
    });
    expect(one.body.data.value).toBe('Unified Electronic Seal Public Service Platform');
    // The translation rows themselves are not codes one can ask for.
    expect(
      (await t.call('POST', '/v1/config/component/values', { body: { codes: ['SYS_NAME_PUBLIC@en'] } })).body
        .data.configCodeValueBos,
    ).toEqual([]);
  });
  it('serves plugin routes, and refuses an unknown scene with 1001', async () => {
    const r = await t.call('GET', '/v1/organizes/dynamicConfig?sceneKey=PLUGIN_ROUTE');
    expect(JSON.parse(r.body.data.configCodeValueBos[0].value)[0]).toMatchObject({
      path: '/plugin/apiDocs',
      kind: 'iframe',
    });
    expect((await t.call('GET', '/v1/organizes/dynamicConfig?sceneKey=NOPE')).body.code).toBe(1001);
    expect((await t.call('GET', '/v1/organizes/dynamicConfig')).body.code).toBe(1001);
  });
  it('component values: anonymous callers get public codes only; a session gets the rest', async () => {
    const codes = ['SYS_NAME_PUBLIC', 'GOODS', 'NOT_A_CODE'];
    const anon = await t.call('POST', '/v1/config/component/values', { body: { codes } });
    expect(anon.body.data.configCodeValueBos.map((b: { code: string }) => b.code)).toEqual([
      'SYS_NAME_PUBLIC',
    ]);
    const token = await t.loginBySms(mobile());
    const authed = await t.call('POST', '/v1/config/component/values', { token, body: { codes } });
    expect(authed.body.data.configCodeValueBos.map((b: { code: string }) => b.code).sort()).toEqual([
      'GOODS',
      'SYS_NAME_PUBLIC',
    ]);
    expect(
      (await t.call('POST', '/v1/config/component/value', { body: { code: 'PSN_EP_SWITCH' } })).body.data,
    ).toMatchObject({ value: 'true' });
    expect(
      (await t.call('POST', '/v1/config/component/value', { body: { code: 'GOODS' } })).body.data,
    ).toBeNull();
    expect((await t.call('POST', '/v1/config/component/values', { body: { codes: 'x' } })).body.code).toBe(
      1001,
    );
  });
  it('payment and goods need a session and say the payment channel is a sandbox', async () => {
    expect((await t.call('GET', '/v1/config/component/payment')).body.code).toBe(102);
    const token = await t.loginBySms(mobile());
    const pay = await t.call('GET', '/v1/config/component/payment', { token });
    expect(pay.body.data).toMatchObject({ sandbox: true, isNeedAmount: true });
    expect(pay.body.data.channels[0].code).toBe('SANDBOX_PAY');
    const goods = await t.call('GET', '/v1/config/component/goods', { token });
    expect(goods.body.data.goods.map((g: { code: string }) => g.code)).toContain('UKEY_SIGN');
  });
  it('copywriting by application and language; the open config file; version text files', async () => {
    const zh = await t.call('GET', '/ecmp/copywriting/json?application=web&languageType=zh-CN');
    const en = await t.call('GET', '/ecmp/copywriting/json?application=web', { lang: 'en' });
    expect(zh.body.data['home.sealService']).toBe('印章服务');
    expect(en.body.data['home.sealService']).toBe('Seal service');
    expect((await t.call('GET', '/ecmp/copywriting/json?application=nope')).body.code).toBe(1001);
    const open = await t.call('GET', '/epmp/eepw/open/config.json');
    expect(open.body).toMatchObject({ smsSandbox: true, defaultLanguage: 'zh-CN' });
    for (const path of ['/version.txt', '/web/version.txt', '/h5/version.txt']) {
      const v = await t.call('GET', path);
      expect(v.status).toBe(200);
      expect(v.raw.trim()).toMatch(/^\d+\.\d+\.\d+/);
    }
    expect((await t.call('GET', '/nope/version.txt')).status).toBe(400);
  });
});
