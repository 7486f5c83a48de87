/**
 * The status sets of spec section 4 for seals and what surrounds them, with their allowed transitions as
 * data: one table per set, keyed by action, and one function (`nextStatus`) that reads them. The server
 * changes a status only through these tables; the web app reads the same tables to show what is possible.
 * Wire values are ours (the spec gives only the meanings).
 */

/** Seal work order (application): pre-created, pending review, pending production, made, rejected, withdrawn. */
export const WORK_ORDER_STATUSES = [
  'preCreated',
  'pendingReview',
  'pendingProduction',
  'made',
  'rejected',
  'withdrawn',
] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];

/**
 * Seal: normal on record, scrapped, frozen, change in approval, making, expired, disabled, voided, renewing.
 * `expired` is never stored: a normal seal past its validity reads as expired (`effectiveSealStatus`).
 */
export const SEAL_STATUSES = [
  'normal',
  'scrapped',
  'frozen',
  'changeInApproval',
  'making',
  'expired',
  'disabled',
  'voided',
  'renewing',
] as const;
export type SealStatus = (typeof SEAL_STATUSES)[number];

/** Change order: pending review, changed, returned, revoked. */
export const CHANGE_STATUSES = ['pendingReview', 'changed', 'returned', 'revoked'] as const;
export type ChangeStatus = (typeof CHANGE_STATUSES)[number];

/** Seal authorisation: in effect, terminated. */
export const AUTH_STATUSES = ['inEffect', 'terminated'] as const;
export type AuthStatus = (typeof AUTH_STATUSES)[number];

/** Certificate renewal: in progress, success, failed. */
export const RENEWAL_STATUSES = ['inProgress', 'success', 'failed'] as const;
export type RenewalStatus = (typeof RENEWAL_STATUSES)[number];

/** One row of a table: the statuses an action may start from and the one it leads to. */
export interface Transition<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
}
export type Machine<S extends string, A extends string> = { readonly [K in A]: Transition<S> };

export type WorkOrderAction = 'submit' | 'approve' | 'reject' | 'revoke' | 'make';
export const WORK_ORDER_MACHINE: Machine<WorkOrderStatus, WorkOrderAction> = {
  /** A saved (pre-created) application is submitted for review. */
  submit: { from: ['preCreated'], to: 'pendingReview' },
  /** The operator approves: the seal waits for its claim and production. */
  approve: { from: ['pendingReview'], to: 'pendingProduction' },
  reject: { from: ['pendingReview'], to: 'rejected' },
  /** The applicant withdraws before production was approved. */
  revoke: { from: ['preCreated', 'pendingReview'], to: 'withdrawn' },
  make: { from: ['pendingProduction'], to: 'made' },
};

export type SealAction =
  | 'made'
  | 'enable'
  | 'disable'
  | 'freeze'
  | 'invalidate'
  | 'scrap'
  | 'applyChange'
  | 'endChange'
  | 'startRenewal'
  | 'endRenewal';
export const SEAL_MACHINE: Machine<SealStatus, SealAction> = {
  made: { from: ['making'], to: 'normal' },
  enable: { from: ['disabled', 'frozen'], to: 'normal' },
  disable: { from: ['normal'], to: 'disabled' },
  freeze: { from: ['normal'], to: 'frozen' },
  /** Cancelling a seal in use voids it; its certificate is revoked. */
  invalidate: { from: ['normal', 'disabled', 'frozen'], to: 'voided' },
  /** Cancelling a seal that has run out of validity retires it as scrapped. */
  scrap: { from: ['expired'], to: 'scrapped' },
  applyChange: { from: ['normal'], to: 'changeInApproval' },
  /** A change approved, returned or revoked brings the seal back to normal. */
  endChange: { from: ['changeInApproval'], to: 'normal' },
  startRenewal: { from: ['normal', 'expired'], to: 'renewing' },
  /** Success or failure: the validity decides whether the seal then reads as normal or expired. */
  endRenewal: { from: ['renewing'], to: 'normal' },
};

export type ChangeAction = 'approve' | 'return' | 'revoke';
export const CHANGE_MACHINE: Machine<ChangeStatus, ChangeAction> = {
  approve: { from: ['pendingReview'], to: 'changed' },
  return: { from: ['pendingReview'], to: 'returned' },
  revoke: { from: ['pendingReview'], to: 'revoked' },
};

export type AuthAction = 'edit' | 'cancel' | 'exhaust';
export const AUTH_MACHINE: Machine<AuthStatus, AuthAction> = {
  edit: { from: ['inEffect'], to: 'inEffect' },
  cancel: { from: ['inEffect'], to: 'terminated' },
  /** The last counted use ends the authorisation. */
  exhaust: { from: ['inEffect'], to: 'terminated' },
};

export type RenewalAction = 'succeed' | 'fail';
export const RENEWAL_MACHINE: Machine<RenewalStatus, RenewalAction> = {
  succeed: { from: ['inProgress'], to: 'success' },
  fail: { from: ['inProgress'], to: 'failed' },
};

/** The status `action` leads to from `from`, or null when the table does not allow it. */
export function nextStatus<S extends string, A extends string>(
  machine: Machine<S, A>,
  from: S,
  action: A,
): S | null {
  const t = machine[action];
  return t.from.includes(from) ? t.to : null;
}

/** The actions the table allows from a status (for the web app's buttons). */
export function allowedActions<S extends string, A extends string>(machine: Machine<S, A>, from: S): A[] {
  return (Object.keys(machine) as A[]).filter((a) => machine[a].from.includes(from));
}

/** A stored seal status as the user sees it: a normal seal past its validity is expired. */
export function effectiveSealStatus(
  stored: SealStatus,
  validTo: Date | null,
  now: Date = new Date(),
): SealStatus {
  return stored === 'normal' && validTo !== null && validTo.getTime() <= now.getTime() ? 'expired' : stored;
}
