import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import type { z } from 'zod';
import { ok } from '../../lib/reply';
import { responses } from '../../lib/route-kit';
import type { PkiService } from '../pki/pki.service';
import { latestMigration } from './config.repository';

type Provider = z.infer<typeof c.selfCheckResponse>['providers'][number];

const since = (t0: number) => Math.round((performance.now() - t0) * 10) / 10;

/**
 * /pageTest's data: the deployment checks itself — the database answers and is migrated, the platform CAs
 * are in date, the timestamp unit stamps, and which outside services are sandboxes. Public (the page is),
 * so it names no secret, address or key.
 */
export default async function selfCheckRoutes(
  app: FastifyInstance,
  opts: { pki: PkiService; version: string; providers: Provider[] },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/v1/config/selfCheck',
    {
      schema: {
        tags: ['Config and files'],
        summary: 'The deployment checking itself (database, PKI, timestamp unit, sandbox or live services)',
        response: responses(c.selfCheckResponse),
      },
      config: { public: true, rateLimit: { max: 20, timeWindow: '1 minute' } },
    },
    async (req) => {
      let t0 = performance.now();
      let database: z.infer<typeof c.selfCheckResponse>['database'];
      try {
        const migration = await latestMigration(app.db);
        database = {
          ok: true,
          detail: 'answers',
          ms: since(t0),
          dialect: app.database.dialect,
          migration,
        };
      } catch (err) {
        database = {
          ok: false,
          detail: (err as Error).message.slice(0, 200),
          ms: since(t0),
          dialect: app.database.dialect,
          migration: null,
        };
      }
      const pki: z.infer<typeof c.selfCheckResponse>['pki'] = (['root', 'issuing'] as const).map((name) => {
        const der = opts.pki.caCertificate(name);
        if (!der) return { name, ok: false, detail: 'not started', ms: null, subject: null, notAfter: null };
        const cert = new X509Certificate(der);
        const notAfter = new Date(cert.validTo);
        const days = Math.floor((notAfter.getTime() - Date.now()) / 86_400_000);
        return {
          name,
          ok: days > 30,
          detail: days > 30 ? `valid for ${days} more days` : `expires in ${days} days`,
          ms: null,
          subject: cert.subject.replaceAll('\n', ', '),
          notAfter: notAfter.toISOString(),
        };
      });
      t0 = performance.now();
      try {
        const token = await opts.pki.timestampToken(createHash('sha256').update(randomBytes(32)).digest());
        pki.push({
          name: 'timestamp',
          ok: token.length > 0,
          detail: `token of ${token.length} bytes`,
          ms: since(t0),
          subject: null,
          notAfter: null,
        });
      } catch (err) {
        pki.push({
          name: 'timestamp',
          ok: false,
          detail: (err as Error).message.slice(0, 200),
          ms: since(t0),
          subject: null,
          notAfter: null,
        });
      }
      return ok(
        {
          version: opts.version,
          checkedAt: new Date().toISOString(),
          database,
          pki,
          providers: opts.providers,
        },
        req.lang,
      );
    },
  );
}
