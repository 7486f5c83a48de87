import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { clientOf, responses } from '../../lib/route-kit';
import type { ModuleDeps } from '../module-deps';
import { createPersonDirectory } from './person-directory';
import { createRelyingParty, type SsoSettings } from './relying-party';
import { createSsoService, FLOW_TTL_MS } from './sso.service';

/** Binds a flow to the browser that started it, so a leaked flowId or callback address is worthless. */
export const SSO_COOKIE = 'openseal_sso';

function bindingOf(req: FastifyRequest): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SSO_COOKIE) return decodeURIComponent(value.join('='));
  }
  return null;
}

function setBinding(req: FastifyRequest, reply: FastifyReply, binding: string) {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  // Lax: the provider's top-level redirect back to the callback must carry it.
  reply.header(
    'set-cookie',
    `${SSO_COOKIE}=${binding}; Path=/v1/sso; HttpOnly; SameSite=Lax; Max-Age=${FLOW_TTL_MS / 1000}${secure}`,
  );
}

/** Single sign-on as an OpenID Connect relying party (authorization code + PKCE, state and nonce). */
export default async function ssoRoutes(app: FastifyInstance, deps: ModuleDeps): Promise<void> {
  // SSO_* settings; single sign-on is off (14001) while issuer or client id is missing.
  const settings: SsoSettings | null = deps.appConfig.sso;
  const sso = createSsoService({
    relyingParty: settings ? createRelyingParty(settings) : null,
    sessions: deps.sessions,
    organizes: deps.organizes,
    config: deps.config,
    msgs: deps.msgs,
    persons: createPersonDirectory(),
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['SSO'];
  const rateLimit = { max: deps.appConfig.rateLimit.loginPerMinute, timeWindow: '1 minute' };
  const flowParams = z.object({ flowId: z.string().min(1).max(64) });

  r.get(
    '/v1/sso/status',
    {
      schema: {
        tags,
        summary: 'Whether single sign-on is configured (the login page shows its entry only then)',
        response: responses(c.ssoStatus),
      },
      config: { public: true },
    },
    async (req) => ok({ enabled: settings !== null }, req.lang),
  );

  r.post(
    '/v1/sso/beforeLogin',
    {
      schema: {
        tags,
        summary: 'Start single sign-on: answers the provider authorization address and a flowId',
        body: c.ssoBeforeLoginRequest,
        response: responses(c.ssoBeforeLoginResponse),
      },
      config: { public: true, rateLimit },
    },
    async (req, reply) => {
      const { flowId, url, binding } = await sso.beforeLogin(app.db, req.body, clientOf(req));
      setBinding(req, reply, binding);
      return ok({ flowId, url }, req.lang);
    },
  );

  r.get(
    '/v1/sso/callback',
    {
      schema: {
        tags,
        summary: "The provider's redirect back (code, state); redirects to the page that started the flow",
        querystring: z.object({}).passthrough(),
      },
      config: { public: true, rateLimit },
    },
    async (req, reply) => {
      const query = new URL(req.url, 'http://callback.invalid').searchParams;
      const { location } = await sso.callback(app.db, query, bindingOf(req), clientOf(req));
      return reply.redirect(location, 302);
    },
  );

  r.get(
    '/v1/sso/:flowId/result',
    {
      schema: {
        tags,
        summary: 'The outcome of a flow (operateType); the token is answered once',
        params: flowParams,
        response: responses(c.ssoResult),
      },
      config: { public: true, rateLimit },
    },
    async (req) =>
      ok(await sso.result(app.db, req.params.flowId, bindingOf(req), clientOf(req), req.lang), req.lang),
  );

  r.post(
    '/v1/sso/checkMobile',
    {
      schema: {
        tags,
        summary: 'operateType 1: bind a mobile proven by a loginRegister SMS code, then continue',
        body: c.ssoCheckMobileRequest,
        response: responses(c.ssoResult),
      },
      config: { public: true, rateLimit },
    },
    async (req) =>
      ok(await sso.checkMobile(app.db, req.body, bindingOf(req), clientOf(req), req.lang), req.lang),
  );

  r.post(
    '/v1/sso/agent/after/info',
    {
      schema: {
        tags,
        summary: 'The waiting step of a flow: person, masked mobile and the spaces to choose from',
        body: c.ssoFlowRequest,
        response: responses(c.ssoAgentInfo),
      },
      config: { public: true, rateLimit },
    },
    async (req) => ok(await sso.agentInfo(app.db, req.body.flowId, bindingOf(req), req.lang), req.lang),
  );

  r.post(
    '/v1/sso/agent/after/confirm',
    {
      schema: {
        tags,
        summary: 'operateType 2: choose an organisation (or null for the personal space) and log in',
        body: c.ssoAgentConfirmRequest,
        response: responses(c.ssoResult),
      },
      config: { public: true, rateLimit },
    },
    async (req) =>
      ok(await sso.agentConfirm(app.db, req.body, bindingOf(req), clientOf(req), req.lang), req.lang),
  );
}
