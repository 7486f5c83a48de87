import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { ok } from '../../lib/reply';
import { responses } from '../../lib/route-kit';
import { createSealGlyphsService } from './seal-glyphs.service';

/**
 * `GET /v1/sealImage/glyphs`: the outlines the browser's seal preview needs. Signed-in users only (the
 * preview belongs to applying for and changing seals), and bounded by the query schema.
 */
export default async function sealGlyphsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = createSealGlyphsService();
  r.get(
    '/v1/sealImage/glyphs',
    {
      schema: {
        tags: ['Seals'],
        summary:
          'Glyph outlines of the seal font for the characters a seal template draws (any signed-in user)',
        querystring: c.glyphsQuery,
        response: responses(c.glyphSetOut),
      },
    },
    async (req) => {
      req.requireAuth();
      return ok(await service.glyphs(req.query.text, req.query.font), req.lang);
    },
  );
}
