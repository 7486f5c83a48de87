import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, contracts as c } from '@openseal/core';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { clientOf, responses } from '../../lib/route-kit';
import type { AccountsService } from '../accounts/accounts.service';
import type { OrganizesService } from './organizes.service';

export default async function organizesRoutes(
  app: FastifyInstance,
  opts: { accounts: AccountsService; organizes: OrganizesService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { accounts, organizes } = opts;
  const tags = ['Organisations'];

  r.post(
    '/v1/organizes',
    {
      schema: {
        tags,
        summary: 'Organisations of the caller (older list)',
        response: responses(c.ownOrganizes),
      },
    },
    async (req) => ok(await accounts.ownOrganizes(app.db, req.requireAuth()), req.lang),
  );

  r.post(
    '/v1/organizes/handover/login',
    {
      schema: {
        tags,
        summary: 'Switch into an organisation (type 1) or back to the personal space (type 2)',
        body: c.orgHandoverRequest,
        response: responses(c.tokenResponse),
      },
    },
    async (req) => {
      const ctx = req.requireAuth();
      const target = req.body.type === 2 ? ctx.personId : (req.body.organizeId ?? req.body.accountId);
      if (!target)
        throw new AppError('request.invalid', { details: { reason: 'organizeId is required for type 1' } });
      return ok(await accounts.handover(app.db, ctx, target, clientOf(req)), req.lang);
    },
  );

  r.post(
    '/v1/organizes/add',
    {
      schema: {
        tags,
        summary: 'Create an organisation (status 0 created; 1 no valid super administrator)',
        body: c.createOrgRequest,
        response: responses(c.createOrgResponse),
      },
    },
    async (req) =>
      ok(await accounts.createOrganization(app.db, req.requireAuth(), req.body, clientOf(req)), req.lang),
  );

  r.post(
    '/v1/organizes/delete',
    {
      schema: {
        tags,
        summary: 'Delete a non-current, unverified organisation',
        body: c.deleteOrgRequest,
        response: responses(z.object({ deleted: z.literal(true), organizeId: z.string() })),
      },
    },
    async (req) =>
      ok(
        await accounts.deleteOrganization(app.db, req.requireAuth(), req.body.organizeId, clientOf(req)),
        req.lang,
      ),
  );

  r.get(
    '/v1/organizes/duplicateCheck',
    {
      schema: {
        tags,
        summary: 'true when the name or credit code is already taken',
        querystring: c.duplicateCheckQuery,
        response: responses(z.boolean()),
      },
    },
    async (req) => ok(await organizes.isTaken(app.db, req.query), req.lang),
  );
}
