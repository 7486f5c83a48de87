import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { clientOf, responses } from '../../lib/route-kit';
import type { SigningModule } from './signing-module';

const flowParams = z.object({ flowId: z.string().min(1).max(64) });
const taskParams = flowParams.extend({ taskId: z.string().min(1).max(64) });
const willParams = z.object({ willBizId: z.string().min(1).max(64) });

/**
 * Routes of the sign service (spec section 7: Signing and approvals, Notary; Misc will-auth): quick sign and
 * flows, signer tasks, urging, the sign log, seal-use approvals, will-auth and the evidence records.
 */
export default async function signingRoutes(app: FastifyInstance, opts: { signing: SigningModule }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { flows, approvals, will, notary } = opts.signing;
  const db = app.db;
  const tags = ['Signing and approvals'];

  // --- flows ---

  r.post(
    '/v1/sign/flows',
    {
      schema: {
        tags,
        summary:
          'Start a flow (or a quick sign: the caller signs first): up to 10 uploaded pdf/ofd files (at least one contract, no duplicates), signers, order, validity and positions',
        body: c.createFlowRequest,
        response: responses(c.flowDetail),
      },
    },
    async (req) => ok(await flows.create(db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/sign/internalFlow',
    {
      schema: {
        tags,
        summary:
          'Start an internal flow: inside the caller’s organisation (sign.launch), every signer an active member of it (by member id or mobile; others refused), each signing for the organisation with its seals under the usual authorisations and approvals',
        body: c.internalFlowRequest,
        response: responses(c.flowDetail),
      },
    },
    async (req) => ok(await flows.createInternal(db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/sign/accounts/flows',
    {
      schema: {
        tags,
        summary:
          'Sign records: flows the caller started or takes part in (signing administrators: the organisation’s)',
        body: c.flowListRequest,
        response: responses(c.flowListResponse),
      },
    },
    async (req) => ok(await flows.flows(db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/sign/tasks',
    {
      schema: {
        tags,
        summary: 'Flows with a task of the caller’s (pending for me, waiting, done)',
        body: c.taskListRequest,
        response: responses(c.taskListResponse),
      },
    },
    async (req) => ok(await flows.tasks(db, req.requireAuth(), req.body), req.lang),
  );

  r.get(
    '/v1/sign/flow/:flowId',
    {
      schema: {
        tags,
        summary: 'A flow: files, signers, approvals and what the caller may do now',
        params: flowParams,
        response: responses(c.flowDetail),
      },
    },
    async (req) => ok(await flows.detail(db, req.requireAuth(), req.params.flowId), req.lang),
  );

  r.get(
    '/v1/sign/flow/:flowId/files/:fileId',
    {
      schema: {
        tags,
        summary: 'The current (latest signed) version of a flow file, for its participants',
        params: flowParams.extend({ fileId: z.string().min(1).max(64) }),
        querystring: z.object({ download: z.coerce.boolean().optional() }),
      },
    },
    async (req, reply) => {
      const f = await flows.fileContent(db, req.requireAuth(), req.params.flowId, req.params.fileId);
      const disposition = req.query.download ? 'attachment' : 'inline';
      return reply
        .header('content-type', f.contentType)
        .header('content-disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(f.name)}`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('x-file-sha256', f.sha256)
        .send(f.bytes);
    },
  );

  r.get(
    '/v1/sign/flow/:flowId/task/:taskId/options',
    {
      schema: {
        tags,
        summary:
          'What a signer may sign with: seals and how (direct, authorised, approval), signatures, fixed positions',
        params: taskParams,
        response: responses(c.signOptionsResponse),
      },
    },
    async (req) =>
      ok(await flows.options(db, req.requireAuth(), req.params.flowId, req.params.taskId), req.lang),
  );

  r.post(
    '/v1/sign/flowsTask',
    {
      schema: {
        tags,
        summary:
          'Sign a task after will-auth: one incremental PAdES signature (B-T) per placement with the seal’s own certificate; authorisations are counted',
        body: c.signTaskRequest,
        response: responses(c.signTaskResponse),
      },
    },
    async (req) => ok(await flows.sign(db, req.requireAuth(), req.body), req.lang),
  );

  for (const action of ['refuse', 'withdraw', 'void'] as const)
    r.post(
      `/v1/sign/flow/:flowId/${action}`,
      {
        schema: {
          tags,
          summary: {
            refuse: 'Refuse to sign, with a reason (the flow ends as refused)',
            withdraw: 'Withdraw an open flow (initiator)',
            void: 'Void a completed flow (initiator)',
          }[action],
          params: flowParams,
          body: c.reasonRequest,
          response: responses(c.flowDetail),
        },
      },
      async (req) =>
        ok(await flows[action](db, req.requireAuth(), req.params.flowId, req.body.reason), req.lang),
    );

  r.post(
    '/v1/sign/urge',
    {
      schema: {
        tags,
        summary: 'Remind the signers whose turn it is (SMS; once per signer in 10 minutes)',
        body: c.urgeRequest,
        response: responses(c.urgeResponse),
      },
    },
    async (req) => ok(await flows.urge(db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/sign/oneKeyUrge',
    {
      schema: {
        tags,
        summary: 'Remind the signers of every open flow the caller started (or of the listed flows)',
        body: c.oneKeyUrgeRequest,
        response: responses(c.urgeResponse),
      },
    },
    async (req) => ok(await flows.oneKeyUrge(db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/sign/flow/logs',
    {
      schema: {
        tags,
        summary: 'Sign log: every act in the caller’s flows, newest first',
        body: c.signLogListRequest,
        response: responses(c.signLogListResponse),
      },
    },
    async (req) => ok(await flows.logs(db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/sign/flow/log',
    {
      schema: {
        tags,
        summary: 'The log of one flow, oldest first',
        body: c.flowLogRequest,
        response: responses(c.flowLogResponse),
      },
    },
    async (req) => ok(await flows.flowLog(db, req.requireAuth(), req.body.flowId), req.lang),
  );

  r.get(
    '/v1/sign/flow/:flowId/chainRecord',
    {
      schema: {
        tags,
        summary: 'The flow’s evidence records: each leaf with its inclusion proof and the signed tree head',
        params: flowParams,
        response: responses(c.chainRecordResponse),
      },
    },
    async (req) => ok(await notary.chainRecord(db, req.requireAuth(), req.params.flowId), req.lang),
  );

  // --- approvals ---

  r.post(
    '/v1/sign/flow/:flowId/task/:taskId/approval',
    {
      schema: {
        tags,
        summary:
          'Ask the seal administrators to allow a seal in this task (members who do not administer it)',
        params: taskParams,
        body: c.requestApprovalRequest,
        response: responses(c.approvalSummary),
      },
    },
    async (req) =>
      ok(
        await approvals.request(db, req.requireAuth(), req.params.flowId, req.params.taskId, req.body),
        req.lang,
      ),
  );

  for (const kind of ['receive', 'start'] as const)
    r.get(
      `/seal/approves/${kind}`,
      {
        schema: {
          tags,
          summary:
            kind === 'receive'
              ? 'Approvals received: seal-use requests of the organisation (seal or signing administrators)'
              : 'Approvals launched: the caller’s own seal-use requests',
          querystring: c.approvalListQuery,
          response: responses(c.approvalListResponse),
        },
      },
      async (req) => ok(await approvals.list(db, req.requireAuth(), kind, req.query), req.lang),
    );

  r.get(
    '/seal/approve/flow/:flowId/task/:taskId',
    {
      schema: {
        tags,
        summary: 'The latest seal-use approval of a task (null when none was raised)',
        params: taskParams,
        response: responses(c.approvalSummary.nullable()),
      },
    },
    async (req) =>
      ok(await approvals.ofTask(db, req.requireAuth(), req.params.flowId, req.params.taskId), req.lang),
  );

  r.post(
    '/seal/approve/:approvalId',
    {
      schema: {
        tags,
        summary:
          'Decide a seal-use approval: approve, refuse or return (seal administrators), withdraw (applicant), terminate',
        params: z.object({ approvalId: z.string().min(1).max(64) }),
        body: c.approvalDecisionRequest,
        response: responses(c.approvalSummary),
      },
    },
    async (req) =>
      ok(await approvals.decide(db, req.requireAuth(), req.params.approvalId, req.body), req.lang),
  );

  // --- will-auth ---

  const willTags = ['Misc'];
  r.post(
    '/v1/will/createWillUrl',
    {
      schema: {
        tags: willTags,
        summary:
          'Start a will-auth (intent confirmed by an SMS code to the caller’s own mobile) for one business',
        body: c.createWillRequest,
        response: responses(c.createWillResponse),
      },
    },
    async (req) => ok(await will.create(db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/will/:willBizId/sendCode',
    {
      schema: {
        tags: willTags,
        summary: 'Send the will-auth code',
        params: willParams,
        response: responses(c.willSendCodeResponse),
      },
    },
    async (req) => ok(await will.sendCode(db, req.requireAuth(), req.params.willBizId), req.lang),
  );

  r.post(
    '/v1/will/:willBizId/verify',
    {
      schema: {
        tags: willTags,
        summary:
          'Check the will-auth code; the answer carries the return address with willAuth and willBizId',
        params: willParams,
        body: c.willVerifyRequest,
        response: responses(c.willStatusResponse),
      },
    },
    async (req) =>
      ok(await will.verify(db, req.requireAuth(), req.params.willBizId, req.body.code), req.lang),
  );

  r.post(
    '/v1/auth/willAuthConfig',
    {
      schema: {
        tags: ['Authorisation'],
        summary:
          'Which will-auth methods apply to the caller for a business (SMS code, password, face — sandbox only —, UKey for an organisation’s business), why the others do not, and the default (WILL_AUTH_METHODS)',
        body: c.willAuthConfigRequest,
        response: responses(c.willAuthConfigResponse),
      },
    },
    async (req) => ok(await will.config(db, req.requireAuth(), req.body), req.lang),
  );

  r.post(
    '/v1/will/:willBizId/verifyPassword',
    {
      schema: {
        tags: willTags,
        summary: 'Confirm a will-auth with the caller’s login password (wrong guesses wait as at login)',
        params: willParams,
        body: c.willPasswordRequest,
        response: responses(c.willStatusResponse),
      },
    },
    async (req) =>
      ok(
        await will.verifyPassword(
          db,
          req.requireAuth(),
          req.params.willBizId,
          req.body.password,
          clientOf(req),
        ),
        req.lang,
      ),
  );

  r.post(
    '/v1/will/:willBizId/verifyFace',
    {
      schema: {
        tags: willTags,
        summary:
          'Confirm a will-auth by a face check: sandbox only (passes a real-named person); offered only beside the sandbox identity service',
        params: willParams,
        response: responses(c.willStatusResponse),
      },
    },
    async (req) => ok(await will.verifyFace(db, req.requireAuth(), req.params.willBizId), req.lang),
  );

  r.post(
    '/v1/will/:willBizId/verifyUkey',
    {
      schema: {
        tags: willTags,
        summary:
          'Confirm a will-auth of an organisation’s business with a UKey bound to it: its signature over a challenge of /v1/sealUKeyBinding/challenge',
        params: willParams,
        body: c.willUkeyRequest,
        response: responses(c.willStatusResponse),
      },
    },
    async (req) =>
      ok(
        await will.verifyUkey(db, req.requireAuth(), req.params.willBizId, req.body, clientOf(req).ip),
        req.lang,
      ),
  );

  r.get(
    '/v1/will/willStatus',
    {
      schema: {
        tags: willTags,
        summary: 'Where a will-auth stands',
        querystring: c.willStatusQuery,
        response: responses(c.willStatusResponse),
      },
    },
    async (req) => ok(await will.status(db, req.requireAuth(), req.query.willBizId), req.lang),
  );

  r.post(
    '/v1/will/saveFrontData',
    {
      schema: {
        tags: willTags,
        summary: 'Keep the page’s state across the will-auth page',
        body: c.willFrontDataRequest,
        response: responses(z.object({})),
      },
    },
    async (req) =>
      ok(await will.saveFrontData(db, req.requireAuth(), req.body.willBizId, req.body.data), req.lang),
  );

  r.get(
    '/v1/will/getFrontData',
    {
      schema: {
        tags: willTags,
        summary: 'The page state kept for a will-auth',
        querystring: c.willStatusQuery,
        response: responses(c.willFrontDataResponse),
      },
    },
    async (req) => ok(await will.frontData(db, req.requireAuth(), req.query.willBizId), req.lang),
  );

  // --- notary ---

  const notaryTags = ['Notary'];
  r.get(
    '/v1/notaryLogs/:bizNo/scene/:scene',
    {
      schema: {
        tags: notaryTags,
        summary:
          'Evidence records of a business number in a scene (signFlow: flow id; seal: seal code; file: SHA-256)',
        params: z.object({ bizNo: z.string().min(1).max(128), scene: c.notaryScene }),
        response: responses(c.notaryListResponse),
      },
    },
    async (req) =>
      ok(await notary.byBiz(db, req.requireAuth(), req.params.bizNo, req.params.scene), req.lang),
  );

  r.post(
    '/v1/operationLog/list',
    {
      schema: {
        tags: notaryTags,
        summary: 'Notarised acts of the caller’s flows (sign-log rows with an evidence leaf), newest first',
        body: c.signLogListRequest,
        response: responses(c.signLogListResponse),
      },
    },
    async (req) => ok(await flows.logs(db, req.requireAuth(), req.body, true), req.lang),
  );

  r.get(
    '/v1/open/notaryLogs/:sealCode/openSealNotary',
    {
      schema: {
        tags: notaryTags,
        summary:
          'Evidence records of a seal: made, state changes and every signature with it (its owner only)',
        params: z.object({ sealCode: z.string().min(1).max(64) }),
        response: responses(c.notaryListResponse),
      },
    },
    async (req) => ok(await notary.byBiz(db, req.requireAuth(), req.params.sealCode, 'seal'), req.lang),
  );

  r.post(
    '/v1/open/notaryLogs/signature/signInfo',
    {
      schema: {
        tags: notaryTags,
        summary: 'The signatures in a signed file version, by its SHA-256, with their evidence records',
        body: c.signInfoRequest,
        response: responses(c.notaryListResponse),
      },
    },
    async (req) => ok(await notary.signInfo(db, req.requireAuth(), req.body.fileHash), req.lang),
  );

  r.get(
    '/v1/notaryLogs/:notaryLogId',
    {
      schema: {
        tags: notaryTags,
        summary: 'One evidence record with its proof bundle',
        params: z.object({ notaryLogId: z.string().min(1).max(20) }),
        response: responses(c.chainRecordResponse.shape.records.element),
      },
    },
    async (req) => ok(await notary.one(db, req.requireAuth(), req.params.notaryLogId), req.lang),
  );
}
