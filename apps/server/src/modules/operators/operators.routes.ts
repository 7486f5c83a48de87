import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, contracts as c } from '@openseal/core';
import { ok } from '../../lib/reply';
import { clientOf, responses } from '../../lib/route-kit';
import type { ModuleDeps } from '../module-deps';
import { createAuditViewerService } from './audit-viewer.service';
import { requireOperator, useOperatorAuth } from './operator-auth';
import { createOperatorsService, operatorAuditDetail } from './operators.service';
import { recordAudit } from '../audit/audit.repository';
import { z } from 'zod';
import { materialReviewAccess, REVIEW_ACCESS } from './material-access';
import { createReviewService, type ReviewQueues } from './review-queues';
import type { TrustAnchorsService } from '../pki/trust-anchors.service';
import { registerTrustAnchorRoutes } from './trust-anchors.routes';

export type OperatorsRoutesOptions = Pick<ModuleDeps, 'appConfig' | 'files' | 'loginThrottle'> & {
  /** The real-name and members services' queue functions; without them the queue routes answer 13007. */
  reviewQueues?: ReviewQueues | undefined;
  /** Operator-managed trust anchors (the pki module); without it the console has no anchor routes. */
  trustAnchors?: TrustAnchorsService | undefined;
};

/** The operator console API (the regulator's side), under /manage/api/v1. */
export default async function operatorsRoutes(
  app: FastifyInstance,
  deps: OperatorsRoutesOptions,
): Promise<void> {
  const operators = createOperatorsService({
    ttlMinutes: deps.appConfig.operatorSession.ttlMinutes,
    idleMinutes: deps.appConfig.operatorSession.idleMinutes,
    throttle: deps.loginThrottle,
  });
  deps.files.registerAccess(REVIEW_ACCESS, materialReviewAccess);
  const auditViewer = createAuditViewerService();
  const review = deps.reviewQueues ? createReviewService(deps.reviewQueues) : null;
  const reviewOrFail = () => {
    if (!review) throw new AppError('operator.queueUnavailable');
    return review;
  };

  await app.register(async (scope) => {
    useOperatorAuth(scope, operators);
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const tags = ['Operator console'];
    // Console routes take the operator token, not the user token the document's default scheme names.
    const security: Array<Record<string, string[]>> = [];
    const description = `Needs an operator token in the ${c.OPERATOR_TOKEN_HEADER} header.`;

    r.post(
      '/manage/api/v1/login',
      {
        schema: {
          tags,
          summary:
            'Operator login by username and password (after a few failures from one address, that address waits; others do not)',
          security: [],
          body: c.operatorLoginRequest,
          response: responses(c.operatorLoginResponse),
        },
        config: {
          operatorPublic: true,
          rateLimit: { max: deps.appConfig.rateLimit.loginPerMinute, timeWindow: '1 minute' },
        },
      },
      async (req) => ok(await operators.login(scope.db, req.body, clientOf(req)), req.lang),
    );

    r.post(
      '/manage/api/v1/logout',
      {
        schema: {
          tags,
          summary: 'Operator logout',
          security,
          description,
          response: responses(c.operatorLogoutResponse),
        },
      },
      async (req) => ok(await operators.logout(scope.db, requireOperator(req), clientOf(req)), req.lang),
    );

    r.get(
      '/manage/api/v1/me',
      {
        schema: {
          tags,
          summary: 'The operator of the current token',
          security,
          description,
          response: responses(c.operatorMeResponse),
        },
      },
      async (req) => ok(operators.me(requireOperator(req)), req.lang),
    );

    r.get(
      '/manage/api/v1/materials/:fileKey/url',
      {
        schema: {
          tags,
          summary:
            "A short-lived download address of an applicant's material (licence, letter, application file), for this operator while their account is active",
          security,
          description,
          params: z.object({ fileKey: z.string().min(1).max(128) }),
          response: responses(c.fileUrlResponse),
        },
      },
      async (req) => {
        const op = requireOperator(req);
        const link = await deps.files.urlChecked(
          scope.db,
          { kind: 'operator', operatorId: op.operatorId },
          req.params.fileKey,
          { via: REVIEW_ACCESS, id: '' },
        );
        // Reading an applicant's identity documents is itself an act worth a record.
        await recordAudit(scope.db, {
          actorPersonId: null,
          organizationId: link.file.owner_org_id,
          action: 'operator.material.view',
          targetType: 'file',
          targetId: req.params.fileKey,
          ip: clientOf(req).ip,
          detail: operatorAuditDetail(op.operatorId, clientOf(req)),
        });
        return ok({ url: link.url, expiresAt: link.expiresAt }, req.lang);
      },
    );

    r.get(
      '/manage/api/v1/audit-logs',
      {
        schema: {
          tags,
          summary: 'Audit log, newest first: who did what, when, from where',
          security,
          description,
          querystring: c.auditLogQuery,
          response: responses(c.auditLogPage),
        },
      },
      async (req) => {
        requireOperator(req);
        return ok(await auditViewer.list(scope.db, req.query), req.lang);
      },
    );

    r.get(
      '/manage/api/v1/queues/:queue',
      {
        schema: {
          tags,
          summary: 'A review queue: manual organisation real-name or authority applications',
          security,
          description,
          params: c.reviewQueueParams,
          querystring: c.reviewQueueQuery,
          response: responses(c.reviewQueuePage),
        },
      },
      async (req) => {
        requireOperator(req);
        return ok(await reviewOrFail().list(scope.db, req.params.queue, req.query), req.lang);
      },
    );

    r.post(
      '/manage/api/v1/queues/:queue/:applicationId/approve',
      {
        schema: {
          tags,
          summary: 'Approve an application',
          security,
          description,
          params: c.reviewDecisionParams,
          response: responses(c.reviewDecisionResponse),
        },
      },
      async (req) =>
        ok(
          await reviewOrFail().decide(
            scope.db,
            requireOperator(req),
            req.params.queue,
            req.params.applicationId,
            { approve: true },
            clientOf(req),
          ),
          req.lang,
        ),
    );

    r.post(
      '/manage/api/v1/queues/:queue/:applicationId/reject',
      {
        schema: {
          tags,
          summary: 'Reject an application with a reason',
          security,
          description,
          params: c.reviewDecisionParams,
          body: c.reviewRejectRequest,
          response: responses(c.reviewDecisionResponse),
        },
      },
      async (req) =>
        ok(
          await reviewOrFail().decide(
            scope.db,
            requireOperator(req),
            req.params.queue,
            req.params.applicationId,
            { approve: false, reason: req.body.reason },
            clientOf(req),
          ),
          req.lang,
        ),
    );

    if (deps.trustAnchors) registerTrustAnchorRoutes(scope, deps.trustAnchors);
  });
}
