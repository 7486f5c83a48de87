import type {} from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { readSingleFile } from '../../lib/multipart';
import { clientOf, responses } from '../../lib/route-kit';
import type { AppConfig } from '../../config';
import type { ModuleDeps } from '../module-deps';
import {
  createHttpIdentityVerifier,
  createSandboxIdentityVerifier,
  type IdentityVerifier,
} from './identity-provider';
import { createRealnameService } from './realname.service';

function verifierFrom(s: AppConfig['realName'], log: FastifyInstance['log']): IdentityVerifier {
  if (s.provider === 'http') {
    if (!s.gatewayUrl || !s.gatewayKey)
      throw new Error('REALNAME_PROVIDER=http needs REALNAME_GATEWAY_URL and REALNAME_GATEWAY_KEY');
    return createHttpIdentityVerifier({ url: s.gatewayUrl, key: s.gatewayKey, log });
  }
  return createSandboxIdentityVerifier({ delayMs: s.sandboxDelayMs });
}

/** Routes of the realname module (wired in app.ts with the shared module dependencies). */
export default async function realnameRoutes(app: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const verifier = verifierFrom(deps.appConfig.realName, app.log);
  app.addHook('onClose', async () => verifier.close());
  const realname = createRealnameService({
    verifier,
    msgs: deps.msgs,
    files: deps.files,
    organizes: deps.organizes,
    accounts: deps.accounts,
    secret: deps.secret,
    log: app.log,
    db: app.db,
  });
  const tags = ['Real name'];
  const flowParams = z.object({ flowId: z.string().max(64) });

  r.post(
    '/v1/accounts/auth/flow',
    {
      schema: {
        tags,
        summary: 'Start a real-name flow (organizeType 2 person, 1 organisation); answers the flowId',
        body: c.realNameFlowRequest,
        response: responses(c.realNameFlowResponse),
      },
    },
    async (req) => ok(await realname.startFlow(app.db, req.requireAuth(), req.body, clientOf(req)), req.lang),
  );

  r.get(
    '/v1/accounts/auth/:flowId/result',
    {
      schema: {
        tags,
        summary: 'Result of a real-name flow: pending, success or failure with the reason (applicant only)',
        params: flowParams,
        response: responses(c.realNameResult),
      },
    },
    async (req) => ok(await realname.result(app.db, req.requireAuth(), req.params.flowId), req.lang),
  );

  r.get(
    '/v1/auth/accountRealNamedLevel',
    {
      schema: {
        tags: ['Authorisation'],
        summary:
          'The current account’s real-name level: the person (none, pending, verified and by which method) and, in an organisation space, the organisation, and whether the caller is its legal representative',
        response: responses(c.accountRealNamedLevelResponse),
      },
    },
    async (req) => ok(await realname.level(app.db, req.requireAuth()), req.lang),
  );

  r.post(
    '/v1/accounts/auth/:flowId/person',
    {
      schema: {
        tags,
        summary: 'Person real-name details (name, resident ID, mobile); sends the SMS code',
        params: flowParams,
        body: c.realNamePersonRequest,
        response: responses(c.realNamePersonResponse),
      },
    },
    async (req) =>
      ok(
        await realname.submitPerson(app.db, req.requireAuth(), req.params.flowId, req.body, clientOf(req)),
        req.lang,
      ),
  );

  r.post(
    '/v1/accounts/auth/:flowId/organization',
    {
      schema: {
        tags,
        summary: 'Organisation real-name details and method (legalSms, bank, manual)',
        params: flowParams,
        body: c.realNameOrgRequest,
        response: responses(c.realNameOrgResponse),
      },
    },
    async (req) =>
      ok(
        await realname.submitOrganization(
          app.db,
          req.requireAuth(),
          req.params.flowId,
          req.body,
          clientOf(req),
        ),
        req.lang,
      ),
  );

  r.post(
    '/v1/accounts/auth/:flowId/confirmCode',
    {
      schema: {
        tags,
        summary: 'Confirm the SMS code of a person or legalSms flow; verification then runs asynchronously',
        params: flowParams,
        body: c.realNameCodeRequest,
        response: responses(c.realNameResult),
      },
    },
    async (req) =>
      ok(
        await realname.confirmCode(
          app.db,
          req.requireAuth(),
          req.params.flowId,
          req.body.code,
          clientOf(req),
        ),
        req.lang,
      ),
  );

  r.post(
    '/v1/accounts/auth/:flowId/confirmAmount',
    {
      schema: {
        tags,
        summary: 'Enter the micro-payment amount received (3 tries)',
        params: flowParams,
        body: c.realNameAmountRequest,
        response: responses(c.realNameResult),
      },
    },
    async (req) =>
      ok(
        await realname.confirmAmount(
          app.db,
          req.requireAuth(),
          req.params.flowId,
          req.body.amountCents,
          clientOf(req),
        ),
        req.lang,
      ),
  );

  r.post(
    '/v1/accounts/auth/material',
    {
      schema: {
        tags,
        summary:
          'Upload one manual-path material (business licence or authorisation letter: jpg/png/pdf ≤ 10 MB)',
        consumes: ['multipart/form-data'],
        querystring: c.realNameMaterialQuery,
        response: responses(c.realNameMaterial),
      },
    },
    async (req) => {
      const ctx = req.requireAuth();
      const file = await readSingleFile(req, deps.files.maxBytes('material'));
      return ok(await realname.uploadMaterial(app.db, ctx, { ...file, kind: req.query.kind }), req.lang);
    },
  );

  r.get(
    '/v1/accounts/auth/records',
    {
      schema: {
        tags,
        summary: "Real-name records: the current organisation's, or the person's own",
        response: responses(c.realNameRecords),
      },
    },
    async (req) => ok(await realname.records(app.db, req.requireAuth()), req.lang),
  );

  r.get(
    '/v1/accounts/auth/:flowId/auditDetail',
    {
      schema: {
        tags,
        summary:
          "realNameAuditDetail: the record and its history (applicant or the applicant's organisation)",
        params: flowParams,
        response: responses(c.realNameAuditDetail),
      },
    },
    async (req) => ok(await realname.auditDetail(app.db, req.requireAuth(), req.params.flowId), req.lang),
  );

  r.post(
    '/v1/organizes/discoverChangedItems',
    {
      schema: {
        tags: ['Organisations'],
        summary:
          'Info-change dialog: registry data that differ from the organisation’s, and whether the caller may confirm',
        response: responses(c.discoverChangedItemsResponse),
      },
    },
    async (req) => ok(await realname.discoverChangedItems(app.db, req.requireAuth()), req.lang),
  );

  r.post(
    '/v1/organizes/confirmChangedItems',
    {
      schema: {
        tags: ['Organisations'],
        summary: 'Confirm the registry data (legalPerson, sealAdmin, admin, superAdmin); answers a new token',
        response: responses(c.confirmChangedItemsResponse),
      },
    },
    async (req) => ok(await realname.confirmChangedItems(app.db, req.requireAuth(), clientOf(req)), req.lang),
  );
}
