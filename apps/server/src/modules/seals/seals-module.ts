/**
 * The seals module's parts, built once in app.ts: the routes use them, and the operator console's
 * review queues (seal work orders and seal changes) call into them.
 */
import type { Db } from '@openseal/db';
import type { ModuleDeps } from '../module-deps';
import type { JobRunner } from '../jobs/jobs.service';
import { createSealAuthorizationsService } from './seal-authorizations.service';
import { createSealChangesService } from './seal-changes.service';
import { sealFileAccess } from './seal-file-access';
import { ownsSealBusiness } from './seal-will-business';
import { createSealsService } from './seals.service';

type QueueQuery = { status: 'pending' | 'approved' | 'rejected' | 'all'; page: number; size: number };

export function createSealsModule(
  deps: Pick<ModuleDeps, 'pki' | 'evidence' | 'files' | 'config' | 'organizes' | 'secret'> & {
    db: Db;
    jobs: JobRunner;
    log: { warn(obj: object, msg: string): void };
  },
) {
  const seals = createSealsService(deps);
  // Seal pictures are read by whoever may view the seal, judged again each time an address is used.
  deps.files.registerAccess('seal', sealFileAccess);
  const changes = createSealChangesService({
    seals,
    jobs: deps.jobs,
    pki: deps.pki,
    evidence: deps.evidence,
    files: deps.files,
  });
  const authorizations = createSealAuthorizationsService({ evidence: deps.evidence });
  return {
    seals,
    changes,
    authorizations,
    /** For the will-auth service: whether a will-auth of the seal service may name this object for the caller. */
    ownsWillBusiness: ownsSealBusiness,
    /** The console queues, in the shape of operators/review-queues.ts. */
    reviewQueues: {
      listSealApplyQueue: (db: Db, q: QueueQuery) => seals.reviewQueue.list(db, q),
      approveSealApply: (db: Db, id: string, operatorId: string) =>
        seals.reviewQueue.approve(db, id, operatorId),
      rejectSealApply: (db: Db, id: string, operatorId: string, reason: string) =>
        seals.reviewQueue.reject(db, id, operatorId, reason),
      listSealChangeQueue: (db: Db, q: QueueQuery) => changes.reviewQueue.list(db, q),
      approveSealChange: (db: Db, id: string, operatorId: string) =>
        changes.reviewQueue.approve(db, id, operatorId),
      rejectSealChange: (db: Db, id: string, operatorId: string, reason: string) =>
        changes.reviewQueue.reject(db, id, operatorId, reason),
    },
  };
}

export type SealsModule = ReturnType<typeof createSealsModule>;
