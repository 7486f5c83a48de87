/**
 * The seal service: applications (work orders) from apply to made, the operator's review, the claim by
 * the legal representative (directly or through a signed, expiring link), production as a durable job
 * (image, certificate, seal record, audit, evidence), management (enable, disable, freeze, cancel, singly
 * or in batch, with the certificate held, released or revoked), renewal and the expiry tip.
 * Every status moves through the tables of @openseal/core (seals/state-machines).
 *
 * This is the service's one face; each step of the lifecycle lives in a file of its own:
 * seal-applications (kinds, previews, applications, review), seal-claims (claim links and the claim),
 * seal-making (the production job), seal-management (the seals, their status and renewal, the UKey
 * directory), seal-holdings (what a space holds and may use) and seal-reminds (the expiry tip), over
 * what they share in seal-core and seal-views.
 */
import type { Language } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { AuthContext } from '../session/session.service';
import { createSealApplications } from './seal-applications.service';
import { createSealClaims } from './seal-claims.service';
import { createSealCore, type SealsDeps } from './seal-core';
import { createSealHoldings } from './seal-holdings.service';
import { createSealMaking } from './seal-making.service';
import { createSealManagement } from './seal-management.service';
import { createSealReminds } from './seal-reminds.service';
import { sealOut } from './seal-views';
import type * as repo from './seals.repository';

export { CLAIM_LINK_DAYS } from './seal-claims.service';
export type { ClientInfo, SealsDeps } from './seal-core';

export function createSealsService(deps: SealsDeps) {
  const core = createSealCore(deps);
  const { makeSeal } = createSealMaking(deps, core);
  const { renewSeal, directory, ...management } = createSealManagement(deps, core);
  const { reviewQueue, ...applications } = createSealApplications(deps, core);
  const { resolveKind, holderOf, handDrawn, moveSeal, ownSeal, withdrawCertificate } = core;

  return {
    makeSeal,
    renewSeal,
    /** For the change service: the same rules and records the applications use. */
    internals: {
      resolveKind,
      holderOf,
      handDrawn,
      moveSeal,
      sealOut: async (_db: Db, ctx: AuthContext | null, s: repo.SealView, lang: Language, now = new Date()) =>
        sealOut(deps.files, ctx, s, lang, now),
      ownSeal,
      withdrawCertificate,
    },
    directory,
    ...applications,
    /** The operator's review of applications (the console queue sealApply). */
    reviewQueue,
    ...createSealClaims(deps, core),
    ...management,
    ...createSealHoldings(deps, core),
    ...createSealReminds(),
  };
}

export type SealsService = ReturnType<typeof createSealsService>;
