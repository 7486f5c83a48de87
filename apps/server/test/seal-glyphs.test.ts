import { createTemplate, renderSvg, templateText } from '@openseal/seal-image';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, mobile, startTestApp, type TestApp } from './harness';

/**
 * The browser draws seals with the same engine as the server, from glyph outlines the server answers: the
 * outlines must be complete for a template's text and give the same SVG as the server's own font.
 */
describe.each(DIALECTS)('seal glyphs [%s]', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('answers the outlines a template needs, enough to render it, to signed-in users only', async () => {
    const template = createTemplate({
      sealType: 0,
      name: '上海某某信息科技有限公司',
      serial: '3101150123456',
    });
    const text = templateText(template);
    const anonymous = await t.call('GET', `/v1/sealImage/glyphs?text=${encodeURIComponent(text)}`);
    expect(anonymous.status).toBe(401);

    const token = await t.loginBySms(mobile());
    const r = await t.call('GET', `/v1/sealImage/glyphs?text=${encodeURIComponent(text)}`, { token });
    expect(r.body.code).toBe(0);
    const glyphs = r.body.data;
    for (const ch of new Set([...text].filter((c) => c.trim() !== '')))
      expect(glyphs.glyphs[ch]?.d).toBeTruthy();
    const svg = renderSvg(template, glyphs);
    expect(svg).toMatch(/^<svg[^>]*viewBox/);
    expect(svg).not.toContain('<text');
  });

  it('refuses characters the font lacks and over-long text with catalogued codes', async () => {
    const token = await t.loginBySms(mobile());
    const missing = await t.call('GET', `/v1/sealImage/glyphs?text=${encodeURIComponent('\u{1F600}')}`, {
      token,
    });
    expect(missing.body.code).toBe(6301);
    const long = await t.call('GET', `/v1/sealImage/glyphs?text=${'印'.repeat(401)}`, { token });
    expect(long.status).toBe(400);
    const font = await t.call('GET', '/v1/sealImage/glyphs?text=印&font=nope', { token });
    expect(font.body.code).toBe(6302);
  });
});
