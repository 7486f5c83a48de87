import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { responses } from '../../lib/route-kit';
import type { LinksService } from './links.service';

/** QR codes one client may ask for per minute (a page shows one or two). */
export const QR_PER_MINUTE = 60;

/** Where an unknown or expired short link lands: the page that says a dynamic page is no longer there. */
export const LINK_GONE_PAGE = '/invalidDynamicRecord';

export default async function linksRoutes(
  app: FastifyInstance,
  opts: { links: LinksService; qrPerMinute: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Links and QR codes'];

  r.get(
    '/s/:code',
    {
      schema: {
        tags,
        summary: 'Open a short link sent in a text message',
        description:
          'Redirects (302) to the page of this site it stands for, or to the "no longer available" page.',
        params: z.object({ code: z.string().max(64) }),
      },
      config: { public: true },
    },
    async (req, reply) => {
      const target = await opts.links.open(app.db, req.params.code);
      return reply.header('cache-control', 'no-store').redirect(target ?? LINK_GONE_PAGE, 302);
    },
  );

  r.post(
    '/v1/qrcode/genQRCode',
    {
      schema: {
        tags,
        summary: 'A QR code of an address of this platform',
        body: c.qrCodeRequest,
        response: responses(c.qrCodeResponse),
      },
      config: { public: true, rateLimit: { max: opts.qrPerMinute, timeWindow: '1 minute' } },
    },
    async (req) => ok(await opts.links.qrCode(req.body.content, req.body.format), req.lang),
  );
}
