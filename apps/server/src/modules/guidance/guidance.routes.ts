import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { ok } from '../../lib/reply';
import { responses } from '../../lib/route-kit';
import type { GuidanceService } from './guidance.service';

/** The guidance log of the first-use tour: signed-in persons only, each reading and writing their own. */
export default async function guidanceRoutes(app: FastifyInstance, opts: { guidance: GuidanceService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Misc'];

  r.get(
    '/v1/guidanceLog/check',
    {
      schema: {
        tags,
        summary:
          'Whether to show a page’s first-use tour (home, sealList, signList): OPERATION_GUIDE is on and the caller has not finished or closed it',
        querystring: c.guidanceCheckQuery,
        response: responses(c.guidanceCheckResponse),
      },
    },
    async (req) =>
      ok(await opts.guidance.check(app.db, req.requireAuth().personId, req.query.page), req.lang),
  );

  r.post(
    '/v1/guidanceLog/save',
    {
      schema: {
        tags,
        summary: 'Log that the caller finished or closed a page’s tour, so it is not shown again',
        body: c.guidanceSaveRequest,
        response: responses(c.guidanceSaveResponse),
      },
    },
    async (req) => ok(await opts.guidance.save(app.db, req.requireAuth().personId, req.body), req.lang),
  );
}
