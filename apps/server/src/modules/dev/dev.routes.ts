import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, checkMobile } from '@openseal/core';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { responses } from '../../lib/route-kit';
import type { MsgsService } from '../msgs/msgs.service';

/** Development-only routes; registered only while the sandbox SMS provider is active. */
export default async function devRoutes(app: FastifyInstance, opts: { msgs: MsgsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/v1/dev/sms-outbox',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'SANDBOX ONLY: text messages the sandbox SMS provider "sent" to a mobile, newest first',
        querystring: z.object({ mobile: z.string() }),
        response: responses(
          z.object({
            sandbox: z.literal(true),
            messages: z.array(
              z.object({
                id: z.string(),
                mobile: z.string(),
                scene: z.string(),
                body: z.string().nullable(),
                code: z.string().nullable(),
                status: z.string(),
                error: z.string().nullable(),
                createdAt: z.string(),
                deliveredAt: z.string().nullable(),
              }),
            ),
          }),
        ),
      },
      config: { public: true },
    },
    async (req) => {
      const mobile = checkMobile(req.query.mobile);
      if (!mobile.ok) throw new AppError(mobile.key);
      return ok({ sandbox: true as const, messages: await opts.msgs.outbox(app.db, mobile.value) }, req.lang);
    },
  );
}
