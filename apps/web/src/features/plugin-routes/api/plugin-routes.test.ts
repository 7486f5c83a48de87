import { describe, expect, it } from 'vitest';
import { findPluginRoute, isSafeTarget, parsePluginRoutes } from './plugin-routes';

describe('plugin routes', () => {
  const values = [
    {
      code: 'PLUGIN_ROUTES',
      value: JSON.stringify([
        { path: '/plugin/apiDocs', title: '接口文档', kind: 'iframe', target: '/docs' },
        { path: '/plugin/site', title: 'Site', kind: 'link', target: 'https://example.gov.cn/' },
        { path: 'no-slash', kind: 'iframe', target: '/x' },
        { path: '/bad-kind', kind: 'popup', target: '/x' },
      ]),
      fileKeyBase64: null,
    },
  ];

  it('keeps well-formed entries only', () => {
    expect(parsePluginRoutes(values).map((r) => r.path)).toEqual(['/plugin/apiDocs', '/plugin/site']);
    expect(parsePluginRoutes([{ code: 'PLUGIN_ROUTES', value: 'oops', fileKeyBase64: null }])).toEqual([]);
  });

  it('finds a route by path, ignoring a trailing slash', () => {
    const routes = parsePluginRoutes(values);
    expect(findPluginRoute(routes, '/plugin/apiDocs/')?.kind).toBe('iframe');
    expect(findPluginRoute(routes, '/plugin/none')).toBeUndefined();
  });

  it('embeds or links http(s) and same-site targets only', () => {
    expect(isSafeTarget('/docs')).toBe(true);
    expect(isSafeTarget('https://example.gov.cn/')).toBe(true);
    expect(isSafeTarget('javascript:alert(1)')).toBe(false);
    expect(isSafeTarget('//evil.example')).toBe(false);
  });
});
