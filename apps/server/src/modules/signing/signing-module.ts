/**
 * The sign service's parts, built once in app.ts: flows (quick sign and multi-party), approvals,
 * will-auth and the evidence records, plus the sweeper that ends flows whose validity ran out.
 */
import { contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { ModuleDeps } from '../module-deps';
import { createApprovalsService } from './approvals.service';
import { FLOW_ACCESS, flowFileAccess } from './file-access';
import { createFlowsService } from './flows.service';
import { createNotaryService } from './notary.service';
import { createPdfSigning } from './pdf-signing';
import { createWillService, type WillBusiness, type WillMethodsDeps } from './will.service';

/** WILL_AUTH_METHODS as a list of known methods; unset or unreadable: the default order. */
function offeredMethods(value: unknown): readonly contracts.WillMethod[] {
  if (!Array.isArray(value)) return contracts.DEFAULT_WILL_METHODS;
  const known = value.filter((m): m is contracts.WillMethod =>
    (contracts.WILL_METHODS as readonly unknown[]).includes(m),
  );
  return [...new Set(known)];
}

export function createSigningModule(
  deps: Pick<
    ModuleDeps,
    | 'pki'
    | 'evidence'
    | 'files'
    | 'msgs'
    | 'links'
    | 'appConfig'
    | 'work'
    | 'config'
    | 'accounts'
    | 'organizes'
  > & {
    db: Db;
    log: { warn(obj: object, msg: string): void };
    /** How often open flows are checked for expiry. */
    sweepIntervalMs?: number;
    /** Whether a will-auth of the seal service (authorisation, claim, renewal) may name this object for the caller. */
    ownsSealBusiness: WillBusiness['ownsSealBusiness'];
    /** The UKey module's keys and proof, for confirming intent with a bound key. */
    ukeyProof: WillMethodsDeps['ukeys'];
  },
) {
  // Files uploaded into a flow, and the seal pictures its approvals show, are read by its participants.
  deps.files.registerAccess(FLOW_ACCESS, flowFileAccess);
  const will = createWillService({
    msgs: deps.msgs,
    ownsSealBusiness: deps.ownsSealBusiness,
    offered: async () => offeredMethods(await deps.config.json<unknown>('WILL_AUTH_METHODS', null)),
    // No live face service is wired: a face check exists only beside the sandbox identity service.
    faceSandbox: deps.appConfig.realName.provider === 'sandbox',
    passwords: {
      has: (db, personId) => deps.accounts.hasPassword(db, personId),
      confirm: (db, personId, password, client) =>
        deps.accounts.confirmOwnPassword(db, personId, password, client),
    },
    ukeys: deps.ukeyProof,
  });
  const flows = createFlowsService({
    organizes: deps.organizes,
    evidence: deps.evidence,
    files: deps.files,
    msgs: deps.msgs,
    links: deps.links,
    will,
    signing: createPdfSigning({
      pki: deps.pki,
      work: deps.work,
      certifyLevel: deps.appConfig.pdfCertifyLevel,
    }),
    work: deps.work,
    log: deps.log,
  });
  const approvals = createApprovalsService({
    evidence: deps.evidence,
    files: deps.files,
    msgs: deps.msgs,
    flows,
  });
  const notary = createNotaryService({ evidence: deps.evidence, flows });
  let timer: NodeJS.Timeout | null = null;
  return {
    flows,
    approvals,
    will,
    notary,
    /** Ends expired flows on a cadence; the timer never keeps the process alive. */
    start() {
      if (timer) return;
      timer = setInterval(() => {
        flows
          .sweepExpired(deps.db)
          .catch((err: unknown) => deps.log.warn({ err }, 'could not end expired flows'));
        // Links sent in text messages that expired a week ago go (the week answers late taps kindly).
        deps.links
          .deleteExpired(deps.db, new Date(Date.now() - 7 * 86_400_000))
          .catch((err: unknown) => deps.log.warn({ err }, 'could not drop expired short links'));
      }, deps.sweepIntervalMs ?? 60_000);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

export type SigningModule = ReturnType<typeof createSigningModule>;
