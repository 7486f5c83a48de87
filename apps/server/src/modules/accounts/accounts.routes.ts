import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { clientOf, responses } from '../../lib/route-kit';
import type { SessionService } from '../session/session.service';
import { tokenOf } from '../../plugins/auth';
import type { AccountsService } from './accounts.service';

export default async function accountsRoutes(
  app: FastifyInstance,
  opts: { accounts: AccountsService; sessions: SessionService; loginPerMinute: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { accounts } = opts;
  const tags = ['Accounts'];

  r.post(
    '/v1/accounts/login',
    {
      schema: {
        tags,
        summary: 'Log in (and register) by mobile + SMS code, or by mobile + password',
        body: c.loginRequest,
        response: responses(c.loginResponse),
      },
      config: { public: true, rateLimit: { max: opts.loginPerMinute, timeWindow: '1 minute' } },
    },
    async (req) =>
      ok(
        await accounts.login(
          app.db,
          req.body as { mobile: string; code?: string; password?: string },
          clientOf(req),
        ),
        req.lang,
      ),
  );

  r.get(
    '/v1/accounts/checkLoginStatus',
    {
      schema: {
        tags,
        summary: 'Whether the token is still valid (never an error)',
        response: responses(c.checkLoginStatusResponse),
      },
      config: { public: true },
    },
    async (req) => {
      const token = tokenOf(req.headers);
      if (!token) return ok({ valid: false, accountId: null, identityType: null, expiresAt: null }, req.lang);
      try {
        const ctx = await opts.sessions.resolve(app.db, token);
        return ok(
          {
            valid: true,
            accountId: ctx.accountId,
            identityType: ctx.identityType,
            expiresAt: ctx.expiresAt.toISOString(),
          },
          req.lang,
        );
      } catch {
        return ok({ valid: false, accountId: null, identityType: null, expiresAt: null }, req.lang);
      }
    },
  );

  r.post(
    '/v1/accounts',
    {
      schema: {
        tags,
        summary: 'Account list: personal and organisation spaces',
        response: responses(c.accountList),
      },
    },
    async (req) => ok(await accounts.accountList(app.db, req.requireAuth()), req.lang),
  );

  r.post(
    '/v1/accounts/handover/login',
    {
      schema: {
        tags,
        summary: 'Switch space; answers a new token bound to it',
        body: c.handoverRequest,
        response: responses(c.tokenResponse),
      },
    },
    async (req) =>
      ok(await accounts.handover(app.db, req.requireAuth(), req.body.accountId, clientOf(req)), req.lang),
  );

  r.post(
    '/v1/accounts/logout',
    {
      schema: {
        tags,
        summary: 'Log out',
        body: c.logoutRequest.optional(),
        response: responses(c.logoutResponse),
      },
    },
    async (req) =>
      ok(await accounts.logout(app.db, req.requireAuth(), req.body?.redirectUrl, clientOf(req)), req.lang),
  );

  r.post(
    '/v1/accounts/changeToken',
    {
      schema: {
        tags,
        summary: 'Replace the token of the current space',
        response: responses(c.changeTokenResponse),
      },
    },
    async (req) => ok(await accounts.changeToken(app.db, req.requireAuth(), clientOf(req)), req.lang),
  );

  r.post(
    '/v1/accounts/updatePassword',
    {
      schema: {
        tags,
        summary: 'Set or change the password (old password or verified mobileModify flow)',
        body: c.updatePasswordRequest,
        response: responses(z.object({ updated: z.literal(true) })),
      },
    },
    async (req) =>
      ok(await accounts.updatePassword(app.db, req.requireAuth(), req.body, clientOf(req)), req.lang),
  );

  // Registered last: static paths above win over the parameter.
  r.get(
    '/v1/accounts/:info',
    {
      schema: {
        tags,
        summary: 'Account info of the current session ({info} = "info")',
        params: z.object({ info: z.literal('info') }),
        response: responses(c.accountInfo),
      },
    },
    async (req) => ok(await accounts.info(app.db, req.requireAuth(), req.lang), req.lang),
  );
}
