import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { ok } from '../../lib/reply';
import { responses } from '../../lib/route-kit';
import type { FeedbackService } from './feedback.service';

/** Ratings one client may send per minute. */
export const RATINGS_PER_MINUTE = 30;

export default async function feedbackRoutes(app: FastifyInstance, opts: { feedback: FeedbackService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Feedback'];
  // Verification needs no login, so neither does rating it; a signed-in person's rating is theirs.
  const config = { public: true, rateLimit: { max: RATINGS_PER_MINUTE, timeWindow: '1 minute' } };

  r.post(
    '/v1/ces/showStatus',
    {
      schema: {
        tags,
        summary: 'Whether to offer the rating prompt for an act (once per act and person)',
        body: c.cesShowStatusRequest,
        response: responses(c.cesShowStatusResponse),
      },
      config,
    },
    async (req) => ok(await opts.feedback.showStatus(app.db, req.auth?.personId ?? null, req.body), req.lang),
  );

  r.post(
    '/v1/ces/showResult',
    {
      schema: {
        tags,
        summary: 'Rate an act (1–5 stars and a comment), or close the prompt without a score',
        body: c.cesShowResultRequest,
        response: responses(c.cesShowResultResponse),
      },
      config,
    },
    async (req) =>
      ok(
        await opts.feedback.record(
          app.db,
          { personId: req.auth?.personId ?? null, organizationId: req.auth?.organizationId ?? null },
          req.body,
        ),
        req.lang,
      ),
  );
}
