/**
 * The sign service: quick signing and multi-party flows. A flow holds up to ten files (PDF signed, OFD
 * stored and shown), its signers as tasks (persons, or organisations with a signatory), their order and
 * the validity. Each signer's placements become their own incremental PAdES signatures, one per placement,
 * each with the certificate of the seal it shows; earlier signatures stay valid. Every act is a sign-log
 * row, and every act that carries weight an evidence leaf, in the same transaction as the state change.
 *
 * Signing is slow (a timestamp per signature) and runs outside the transaction; the transaction then
 * checks that each file is still the version the signatures were built on and retries otherwise, so two
 * signers of a parallel flow never lose each other's signature.
 *
 * This is the service's one face; each step of a flow's life lives in a file of its own:
 * flow-creation (files, signers, order, validity), flow-signing (the signer's options and signatures),
 * flow-reminders (urging signers), flow-endings (refusal, withdrawal, void, expiry) and flow-queries
 * (detail, lists, logs, files), over what they share in flow-core and flow-views.
 */
import type { Db } from '@openseal/db';
import type { Participation } from './flow-context';
import { createFlowCore, type FlowsDeps } from './flow-core';
import { createFlowCreation } from './flow-creation.service';
import { createFlowEndings } from './flow-endings.service';
import { createFlowQueries } from './flow-queries.service';
import { createFlowReminders } from './flow-reminders.service';
import { createFlowSigning } from './flow-signing.service';
import { detailOf } from './flow-views';

export type { FlowsDeps } from './flow-core';
export { URGE_INTERVAL_MS } from './flow-reminders.service';

export function createFlowsService(deps: FlowsDeps) {
  const core = createFlowCore(deps);
  return {
    ...createFlowCreation(deps, core),
    ...createFlowSigning(deps, core),
    ...createFlowEndings(deps, core),
    ...createFlowReminders(deps, core),
    expireIfDue: core.expireIfDue,
    detailOf: (db: Db, p: Participation) => detailOf(db, deps.files, p),
    load: core.load,
    ...createFlowQueries(deps, core),
  };
}

export type FlowsService = ReturnType<typeof createFlowsService>;
