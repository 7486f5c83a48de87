import fp from 'fastify-plugin';
import { AppError, HEADERS } from '@openseal/core';
import type { AuthContext, SessionService } from '../modules/session/session.service';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    /** The session, or the code-102 error when there is none. */
    requireAuth(): AuthContext;
  }
  interface FastifyContextConfig {
    /** Routes are closed by default; `public: true` opens one to anonymous callers. */
    public?: boolean;
  }
}

export function tokenOf(headers: Record<string, string | string[] | undefined>): string | null {
  const raw = headers[HEADERS.accessToken];
  const token = Array.isArray(raw) ? raw[0] : raw;
  if (token) return token.trim();
  const authz = headers.authorization;
  const bearer = typeof authz === 'string' && /^Bearer\s+(\S+)$/i.exec(authz);
  return bearer ? (bearer[1] ?? null) : null;
}

/**
 * Identity on every request: a route without `config.public` needs a valid token and answers the
 * section-8 session code that fits when it has none; a public route ignores a stale token.
 */
export default fp<{ sessions: SessionService }>(
  async (app, { sessions }) => {
    app.decorateRequest('auth', null);
    app.decorateRequest('requireAuth', function (this: { auth: AuthContext | null }) {
      if (!this.auth) throw new AppError('session.missing');
      return this.auth;
    });
    app.addHook('preHandler', async (req) => {
      const config = req.routeOptions.config as { public?: boolean } | undefined;
      const isPublic = config?.public === true || req.routeOptions.url === undefined;
      const token = tokenOf(req.headers);
      if (token) {
        try {
          req.auth = await sessions.resolve(app.db, token);
        } catch (e) {
          if (!isPublic) throw e;
          req.auth = null;
        }
      }
      if (!isPublic && !req.auth) throw new AppError('session.missing');
    });
  },
  { name: 'auth', dependencies: ['db'] },
);
