import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { entryForKey, messageFor } from '@openseal/core';

const API_PREFIXES = [
  '/v1/',
  '/seal/',
  '/pki/',
  '/manage/api/',
  '/ecmp/',
  '/epmp/',
  '/openapi.json',
  '/healthz',
  '/livez',
  '/docs',
];

/**
 * Serves the built web app with a history-mode fallback: any GET for a page that is not an API path
 * answers index.html, and the client router decides (including the plugin-route lookup). API paths that
 * do not exist answer the catalogue's 1009.
 */
export default fp<{ webDist: string }>(
  async (app, { webDist }) => {
    const index = join(webDist, 'index.html');
    const hasWeb = existsSync(index);
    if (hasWeb) {
      // The built app is public, like any web page. A wildcard route (not a file list taken at start)
      // also serves files a rebuild adds while the server runs; a missing file falls to the handler below.
      await app.register(async (scope) => {
        scope.addHook('onRoute', (route) => {
          route.config = { ...(route.config as object), public: true } as typeof route.config;
        });
        await scope.register(fastifyStatic, {
          root: webDist,
          wildcard: true,
          index: false,
          cacheControl: false,
          prefix: '/',
        });
        // The root is a directory to the static handler; it is the app's home page to a person.
        scope.get('/', { schema: { hide: true } }, (_req, reply) =>
          reply.header('cache-control', 'no-cache').sendFile('index.html'),
        );
      });
      app.log.info({ webDist }, 'serving the web app');
    } else {
      app.log.warn({ webDist }, 'no built web app found; run `npm run build:web`');
    }
    app.setNotFoundHandler((req, reply) => {
      const path = req.url.split('?')[0] ?? '/';
      const isApi = API_PREFIXES.some((p) => path === p.replace(/\/$/, '') || path.startsWith(p));
      const wantsHtml = req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
      if (!isApi && hasWeb && (wantsHtml || req.method === 'GET') && !/\.[a-z0-9]{1,8}$/i.test(path)) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      const entry = entryForKey('request.routeNotFound');
      return reply.status(entry.http).send({
        code: entry.code,
        message: messageFor('request.routeNotFound', req.lang ?? 'zh-CN'),
        data: { path },
      });
    });
    if (hasWeb) {
      // Hashed assets may be cached for long; everything else is revalidated.
      app.addHook('onSend', async (req, reply) => {
        if (req.url.startsWith('/assets/'))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
      });
    }
  },
  { name: 'web' },
);
