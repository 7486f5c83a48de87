import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { ok } from '../../lib/reply';
import { clientOf, responses } from '../../lib/route-kit';
import type { AnchorActor, TrustAnchorsService } from '../pki/trust-anchors.service';
import { requireOperator } from './operator-auth';
import { operatorAuditDetail } from './operators.service';

/** A certificate arrives as PEM text or base64 DER in JSON; its own limit is checked by the service. */
const ADD_BODY_LIMIT = 256 * 1024;

/**
 * The console's trust anchors (other platforms' CA certificates the verifier trusts): list, add, disable,
 * enable, remove. Registered inside the operator scope, whose hooks require an operator token.
 */
export function registerTrustAnchorRoutes(scope: FastifyInstance, anchors: TrustAnchorsService): void {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['Operator console'];
  const security: Array<Record<string, string[]>> = [];
  const description = `Needs an operator token in the ${c.OPERATOR_TOKEN_HEADER} header.`;
  const actorOf = (req: Parameters<typeof clientOf>[0]): AnchorActor => {
    const op = requireOperator(req);
    const client = clientOf(req);
    return {
      operatorId: op.operatorId,
      ip: client.ip,
      detail: (extra) => operatorAuditDetail(op.operatorId, client, extra),
    };
  };

  r.get(
    '/manage/api/v1/trust-anchors',
    {
      schema: {
        tags,
        summary: 'Trust anchors: the operator-added ones, and those built in (platform root, TRUST_LIST)',
        security,
        description,
        querystring: c.trustAnchorListQuery,
        response: responses(c.trustAnchorList),
      },
    },
    async (req) => {
      requireOperator(req);
      return ok(await anchors.list(scope.db, req.query.status), req.lang);
    },
  );

  r.post(
    '/manage/api/v1/trust-anchors',
    {
      bodyLimit: ADD_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Add a trust anchor: one CA certificate (PEM, or DER in base64), checked by content',
        security,
        description,
        body: c.trustAnchorAddRequest,
        response: responses(c.trustAnchor),
      },
    },
    async (req) => ok(await anchors.add(scope.db, actorOf(req), req.body), req.lang),
  );

  for (const action of ['disable', 'enable', 'remove'] as const) {
    r.post(
      `/manage/api/v1/trust-anchors/:anchorId/${action}`,
      {
        schema: {
          tags,
          summary: {
            disable: 'Disable a trust anchor: kept, no longer trusted',
            enable: 'Enable a disabled trust anchor again',
            remove: 'Remove a trust anchor (kept for the audit trail, no longer listed or trusted)',
          }[action],
          security,
          description,
          params: c.trustAnchorParams,
          response: responses(c.trustAnchor),
        },
      },
      async (req) => ok(await anchors.change(scope.db, actorOf(req), req.params.anchorId, action), req.lang),
    );
  }
}
