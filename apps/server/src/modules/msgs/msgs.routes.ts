import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { clientOf, responses } from '../../lib/route-kit';
import type { AccountsService } from '../accounts/accounts.service';
import type { MsgsService } from './msgs.service';

export default async function msgsRoutes(
  app: FastifyInstance,
  opts: { msgs: MsgsService; accounts: AccountsService; smsPerMinute: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { msgs, accounts } = opts;
  const tags = ['Messages'];
  const rateLimit = { max: opts.smsPerMinute, timeWindow: '1 minute' };

  r.post(
    '/v1/msgs/loginRegister/send',
    {
      schema: {
        tags,
        summary: 'Send a login/registration code',
        body: c.sendCodeRequest,
        response: responses(c.sendCodeResponse),
      },
      config: { public: true, rateLimit },
    },
    async (req) =>
      ok(
        await msgs.send(app.db, { mobile: req.body.mobile, scene: 'loginRegister', personId: null }),
        req.lang,
      ),
  );

  r.post(
    '/v1/msgs/mobileModify/send',
    {
      schema: {
        tags,
        summary: "Send a code to the caller's own mobile (identity proof)",
        response: responses(c.sendCodeResponse),
      },
      config: { rateLimit },
    },
    async (req) => ok(await accounts.sendToOwnMobile(app.db, req.requireAuth()), req.lang),
  );

  r.post(
    '/v1/msgs/verify/:flowId',
    {
      schema: {
        tags,
        summary: 'Verify the code of a flow',
        params: z.object({ flowId: z.string().max(64) }),
        body: c.verifyCodeRequest,
        response: responses(c.verifyCodeResponse),
      },
    },
    async (req) =>
      ok(
        await msgs.verify(app.db, {
          flowId: req.params.flowId,
          code: req.body.code,
          personId: req.requireAuth().personId,
        }),
        req.lang,
      ),
  );

  r.post(
    '/v1/msgs/newMobile/send',
    {
      schema: {
        tags,
        summary: 'Send a code to a new mobile, after a verified mobileModify flow',
        body: z.object({ mobile: c.mobile, proofFlowId: z.string().max(64) }),
        response: responses(c.sendCodeResponse.extend({ proofFlowId: z.string() })),
      },
      config: { rateLimit },
    },
    async (req) => ok(await accounts.sendToNewMobile(app.db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/msgs/newMobile/verify',
    {
      schema: {
        tags,
        summary: "Confirm the new mobile's code; the mobile changes",
        body: z.object({ flowId: z.string().max(64), code: z.string(), proofFlowId: z.string().max(64) }),
        response: responses(z.object({ updated: z.literal(true), registerMobile: z.string() })),
      },
    },
    async (req) =>
      ok(await accounts.confirmNewMobile(app.db, req.requireAuth(), req.body, clientOf(req)), req.lang),
  );
}
