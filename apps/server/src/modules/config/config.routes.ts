import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c, type Language } from '@openseal/core';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { responses } from '../../lib/route-kit';
import type { ConfigService } from './config.service';
import { COPYWRITING, copywritingFor } from './copywriting';

export default async function configRoutes(
  app: FastifyInstance,
  opts: { config: ConfigService; version: string; smsSandbox: boolean },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config } = opts;
  const tags = ['Config and files'];
  const open = { public: true };

  r.post(
    '/v1/config/component/values',
    {
      schema: {
        tags,
        summary: 'Values of several config codes',
        body: c.configValuesRequest,
        response: responses(c.configValues),
      },
      config: open,
    },
    async (req) =>
      ok({ configCodeValueBos: await config.values(req.body.codes, req.auth !== null, req.lang) }, req.lang),
  );

  r.post(
    '/v1/config/component/value',
    {
      schema: {
        tags,
        summary: 'Value of one config code',
        body: c.configValueRequest,
        response: responses(c.configCodeValue.nullable()),
      },
      config: open,
    },
    async (req) =>
      ok((await config.values([req.body.code], req.auth !== null, req.lang))[0] ?? null, req.lang),
  );

  r.get(
    '/v1/config/component/payment',
    { schema: { tags, summary: 'Payment channels', response: responses(c.paymentConfig) } },
    async (req) => {
      const channels = await config.json(
        'PAYMENT_CHANNELS',
        [] as Array<{ code: string; name: string; enabled: boolean }>,
      );
      // Sandbox while no enabled channel is a real one (sandbox channel codes start with SANDBOX_).
      const sandbox = channels.filter((ch) => ch.enabled).every((ch) => ch.code.startsWith('SANDBOX_'));
      return ok({ sandbox, channels, isNeedAmount: await config.flag('IS_NEED_AMOUNT', true) }, req.lang);
    },
  );

  r.get(
    '/v1/config/component/goods',
    { schema: { tags, summary: 'Goods on sale (UKeys, seals)', response: responses(c.goodsConfig) } },
    async (req) =>
      ok({ goods: await config.json('GOODS', [] as z.infer<typeof c.goodsConfig>['goods']) }, req.lang),
  );

  r.get(
    '/v1/organizes/dynamicConfig',
    {
      schema: {
        tags: ['Organisations'],
        summary: 'Public dynamic config of a scene (no login)',
        querystring: c.dynamicConfigQuery,
        response: responses(c.configValues),
      },
      config: open,
    },
    async (req) => ok({ configCodeValueBos: await config.scene(req.query.sceneKey, req.lang) }, req.lang),
  );

  r.get(
    '/ecmp/copywriting/json',
    {
      schema: {
        tags,
        summary: 'Interface copy of an application in a language',
        querystring: z.object({
          application: z.enum(Object.keys(COPYWRITING) as [string, ...string[]]),
          languageType: z.enum(['zh-CN', 'en']).optional(),
        }),
        response: responses(z.record(z.string(), z.string())),
      },
      config: open,
    },
    async (req) =>
      ok(copywritingFor(req.query.application, (req.query.languageType ?? req.lang) as Language), req.lang),
  );

  r.get(
    '/epmp/eepw/open/config.json',
    {
      schema: {
        tags,
        summary: 'Public front-end configuration file (plain JSON, not enveloped)',
        response: {
          200: z.object({
            version: z.string(),
            smsSandbox: z.boolean(),
            paymentSandbox: z.boolean(),
            languages: z.array(z.string()),
            defaultLanguage: z.string(),
          }),
        },
      },
      config: open,
    },
    async () => ({
      version: opts.version,
      smsSandbox: opts.smsSandbox,
      paymentSandbox: true,
      languages: ['zh-CN', 'en'],
      defaultLanguage: 'zh-CN',
    }),
  );

  // Static version files, fetched by the front end under several base paths to detect a new release.
  const versionText = async (_req: unknown, reply: { type(t: string): { send(b: string): unknown } }) =>
    reply.type('text/plain; charset=utf-8').send(`${opts.version}\n`);
  r.get(
    '/version.txt',
    { schema: { tags, summary: 'Release version (plain text)' }, config: open },
    versionText,
  );
  r.get(
    '/:basePath/version.txt',
    {
      schema: {
        tags,
        summary: 'Release version under a base path (plain text)',
        params: z.object({ basePath: z.enum(['web', 'h5', 'manage', 'seal', 'v1']) }),
      },
      config: open,
    },
    versionText,
  );
}
