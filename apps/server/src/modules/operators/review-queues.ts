import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import { recordAudit } from '../audit/audit.repository';
import { operatorAuditDetail, type ClientInfo, type OperatorContext } from './operators.service';

/** One status vocabulary for every queue; an owner maps it onto its own statuses. */
export type ReviewQueueStatus = 'pending' | 'approved' | 'rejected' | 'all';
export interface ReviewQueueQuery {
  status: ReviewQueueStatus;
  page: number;
  size: number;
}
export interface ReviewQueueResult {
  total: number;
  list: readonly object[];
}
/** A decision may name the organisation it concerns, so the audit record can be filtered by it. */
export type ReviewDecisionResult = { organizationId?: string | null } | void | undefined;

/**
 * What the console needs from the modules that own the applications (real name, members). A decision
 * receives the console's transaction, so the owner's change and the console's audit record commit
 * together: an owner must run inside it (`db.isTransaction ? fn(db) : db.transaction().execute(fn)`),
 * since a Kysely transaction cannot open another.
 */
export interface ReviewQueues {
  listManualQueue(db: Db, q: ReviewQueueQuery): Promise<ReviewQueueResult>;
  approveManual(db: Db, applicationId: string, operatorId: string): Promise<ReviewDecisionResult>;
  rejectManual(
    db: Db,
    applicationId: string,
    operatorId: string,
    reason: string,
  ): Promise<ReviewDecisionResult>;
  listAuthorityQueue(db: Db, q: ReviewQueueQuery): Promise<ReviewQueueResult>;
  approveAuthority(db: Db, applicationId: string, operatorId: string): Promise<ReviewDecisionResult>;
  rejectAuthority(
    db: Db,
    applicationId: string,
    operatorId: string,
    reason: string,
  ): Promise<ReviewDecisionResult>;
  /** Seal work orders and seal changes (the seals module); a console without them answers 13007 there. */
  listSealApplyQueue?(db: Db, q: ReviewQueueQuery): Promise<ReviewQueueResult>;
  approveSealApply?(db: Db, applicationId: string, operatorId: string): Promise<ReviewDecisionResult>;
  rejectSealApply?(
    db: Db,
    applicationId: string,
    operatorId: string,
    reason: string,
  ): Promise<ReviewDecisionResult>;
  listSealChangeQueue?(db: Db, q: ReviewQueueQuery): Promise<ReviewQueueResult>;
  approveSealChange?(db: Db, applicationId: string, operatorId: string): Promise<ReviewDecisionResult>;
  rejectSealChange?(
    db: Db,
    applicationId: string,
    operatorId: string,
    reason: string,
  ): Promise<ReviewDecisionResult>;
}

export type ReviewQueueName = 'realname' | 'authority' | 'sealApply' | 'sealChange';

/** Each console queue mapped to its owner's functions and the audit vocabulary. */
const QUEUES = {
  realname: {
    list: 'listManualQueue',
    approve: 'approveManual',
    reject: 'rejectManual',
    targetType: 'realnameApplication',
  },
  authority: {
    list: 'listAuthorityQueue',
    approve: 'approveAuthority',
    reject: 'rejectAuthority',
    targetType: 'authorityApplication',
  },
  sealApply: {
    list: 'listSealApplyQueue',
    approve: 'approveSealApply',
    reject: 'rejectSealApply',
    targetType: 'sealWorkOrder',
  },
  sealChange: {
    list: 'listSealChangeQueue',
    approve: 'approveSealChange',
    reject: 'rejectSealChange',
    targetType: 'sealChange',
  },
} as const satisfies Record<
  ReviewQueueName,
  { list: keyof ReviewQueues; approve: keyof ReviewQueues; reject: keyof ReviewQueues; targetType: string }
>;

/** A queue's function, or the console's "queue unavailable" when its owner was not wired in. */
function fn<K extends keyof ReviewQueues>(queues: ReviewQueues, name: K): NonNullable<ReviewQueues[K]> {
  const f = queues[name];
  if (!f) throw new AppError('operator.queueUnavailable');
  return f.bind(queues) as NonNullable<ReviewQueues[K]>;
}

export function createReviewService(queues: ReviewQueues) {
  return {
    async list(db: Db, queue: ReviewQueueName, q: ReviewQueueQuery) {
      const r = await fn(queues, QUEUES[queue].list)(db, q);
      return { total: r.total, page: q.page, size: q.size, list: r.list as Record<string, unknown>[] };
    },

    async decide(
      db: Db,
      op: OperatorContext,
      queue: ReviewQueueName,
      applicationId: string,
      decision: { approve: true } | { approve: false; reason: string },
      client: ClientInfo,
    ) {
      const q = QUEUES[queue];
      return db.transaction().execute(async (trx) => {
        const result = decision.approve
          ? await fn(queues, q.approve)(trx, applicationId, op.operatorId)
          : await fn(queues, q.reject)(trx, applicationId, op.operatorId, decision.reason);
        const organizationId =
          result && typeof result.organizationId === 'string' ? result.organizationId : null;
        await recordAudit(trx, {
          actorPersonId: null,
          organizationId,
          action: `operator.${queue}.${decision.approve ? 'approve' : 'reject'}`,
          targetType: q.targetType,
          targetId: applicationId,
          ip: client.ip,
          detail: operatorAuditDetail(
            op.operatorId,
            client,
            decision.approve ? {} : { reason: decision.reason },
          ),
        });
        return { applicationId, decision: decision.approve ? ('approved' as const) : ('rejected' as const) };
      });
    },
  };
}
