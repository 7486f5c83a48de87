import { z } from 'zod';

const check = z.object({
  ok: z.boolean(),
  detail: z.string(),
  ms: z.number().nullable().describe('how long the check took'),
});

/** GET /v1/config/selfCheck: what /pageTest shows — the deployment checking itself. */
export const selfCheckResponse = z.object({
  version: z.string(),
  checkedAt: z.string(),
  database: check.extend({ dialect: z.enum(['pglite', 'postgres']), migration: z.string().nullable() }),
  pki: z.array(
    check.extend({
      name: z.enum(['root', 'issuing', 'timestamp']),
      subject: z.string().nullable(),
      notAfter: z.string().nullable(),
    }),
  ),
  providers: z.array(
    z.object({
      kind: z.enum(['sms', 'identity', 'payment', 'keyStore', 'rateLimits']),
      mode: z.enum(['sandbox', 'live']),
      name: z.string(),
    }),
  ),
});
