/**
 * The status sets of spec section 4 for signing: the sign flow and the seal-use approval, plus the
 * signer's task that the two need between them. As with the seal sets, each is a table of allowed
 * transitions keyed by action; the server changes a status only through these tables and the web app
 * reads them to show which buttons apply. Wire values are ours (the spec gives only the meanings).
 */
import type { Machine } from '../seals/state-machines';

/** Sign flow: pending sign, signing, in approval, completed, terminated, refused, withdrawn, voided. */
export const FLOW_STATUSES = [
  'pendingSign',
  'signing',
  'inApproval',
  'completed',
  'terminated',
  'refused',
  'withdrawn',
  'voided',
] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];
/** A flow in one of these can still be signed, urged, withdrawn or refused. */
export const OPEN_FLOW_STATUSES = ['pendingSign', 'signing', 'inApproval'] as const satisfies FlowStatus[];

export type FlowAction =
  'sign' | 'complete' | 'requestApproval' | 'closeApproval' | 'refuse' | 'withdraw' | 'expire' | 'void';
export const FLOW_MACHINE: Machine<FlowStatus, FlowAction> = {
  /** A signature that leaves others still to sign. */
  sign: { from: ['pendingSign', 'signing'], to: 'signing' },
  /** The last signature. */
  complete: { from: ['pendingSign', 'signing'], to: 'completed' },
  /** A signer needs a seal-use approval before signing. */
  requestApproval: { from: ['pendingSign', 'signing'], to: 'inApproval' },
  /** The last open approval ended (approved, refused, returned, withdrawn or terminated). */
  closeApproval: { from: ['inApproval'], to: 'signing' },
  /** A signer refuses, with a reason. */
  refuse: { from: ['pendingSign', 'signing', 'inApproval'], to: 'refused' },
  /** The initiator takes the flow back before it completes. */
  withdraw: { from: ['pendingSign', 'signing', 'inApproval'], to: 'withdrawn' },
  /** The validity ran out before every signer signed. */
  expire: { from: ['pendingSign', 'signing', 'inApproval'], to: 'terminated' },
  /** The initiator voids a completed flow (the signed files stay, marked void in the records). */
  void: { from: ['completed'], to: 'voided' },
};

/**
 * A signer's task (not a spec set; the flow's needs it): waiting for an earlier signer, pending (their
 * turn), in approval, approved (may sign with the approved seal), signed, refused, closed (the flow
 * ended before they signed).
 */
export const TASK_STATUSES = [
  'waiting',
  'pending',
  'inApproval',
  'approved',
  'signed',
  'refused',
  'closed',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export type TaskAction =
  'activate' | 'requestApproval' | 'grantApproval' | 'denyApproval' | 'sign' | 'refuse' | 'close';
export const TASK_MACHINE: Machine<TaskStatus, TaskAction> = {
  /** The signers before them (sequential order) have signed. */
  activate: { from: ['waiting'], to: 'pending' },
  requestApproval: { from: ['pending'], to: 'inApproval' },
  grantApproval: { from: ['inApproval'], to: 'approved' },
  /** Refused, returned, withdrawn or terminated: the signer is back to choosing. */
  denyApproval: { from: ['inApproval'], to: 'pending' },
  sign: { from: ['pending', 'approved'], to: 'signed' },
  refuse: { from: ['pending', 'inApproval', 'approved'], to: 'refused' },
  close: { from: ['waiting', 'pending', 'inApproval', 'approved'], to: 'closed' },
};

/** Seal-use approval: in approval, approved, refused seal use, returned, withdrawn, terminated. */
export const APPROVAL_STATUSES = [
  'inApproval',
  'approved',
  'refused',
  'returned',
  'withdrawn',
  'terminated',
] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export type ApprovalAction = 'approve' | 'refuse' | 'return' | 'withdraw' | 'terminate';
export const APPROVAL_MACHINE: Machine<ApprovalStatus, ApprovalAction> = {
  /** A seal administrator allows this use; the applicant may then sign once with the seal. */
  approve: { from: ['inApproval'], to: 'approved' },
  /** Seal use refused: the applicant may not ask again for this seal in this flow. */
  refuse: { from: ['inApproval'], to: 'refused' },
  /** Sent back to the applicant, who may correct and ask again. */
  return: { from: ['inApproval'], to: 'returned' },
  /** The applicant takes the request back. */
  withdraw: { from: ['inApproval'], to: 'withdrawn' },
  /** Ended by a signing administrator, or by the platform when the flow ends. */
  terminate: { from: ['inApproval'], to: 'terminated' },
};

/** Sequential: one signer at a time in order; parallel: everyone at once. */
export const SIGN_ORDERS = ['sequential', 'parallel'] as const;
export type SignOrder = (typeof SIGN_ORDERS)[number];

/** Quick-sign validity options (spec section 9): one month, three months, half year, one year. */
export const FLOW_VALIDITY_OPTIONS = ['1m', '3m', '6m', '1y'] as const;
export type FlowValidity = (typeof FLOW_VALIDITY_OPTIONS)[number];
const VALIDITY_MONTHS: Record<FlowValidity, number> = { '1m': 1, '3m': 3, '6m': 6, '1y': 12 };

/** The end of a flow's validity: the same time of day, that many calendar months later (clamped). */
export function flowValidUntil(validity: FlowValidity, from: Date): Date {
  const months = VALIDITY_MONTHS[validity];
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** What a placement puts on the page: the signer's seal, the signatory's personal signature, a riding seam. */
export const PLACEMENT_KINDS = ['seal', 'signature', 'ridingSeam'] as const;
export type PlacementKind = (typeof PLACEMENT_KINDS)[number];

/** Will-auth sources (spec section 3): auth=1, getSeal=2, sign=3, renewSeal=2. */
export const WILL_SOURCES = { auth: 1, getSeal: 2, sign: 3, renewSeal: 2 } as const;
export const WILL_STATUSES = ['created', 'verified', 'used', 'expired'] as const;
export type WillStatus = (typeof WILL_STATUSES)[number];

/** Kinds of acts in a flow's sign log, each also an evidence leaf. */
export const SIGN_LOG_ACTIONS = [
  'create',
  'sign',
  'requestApproval',
  'approve',
  'refuseApproval',
  'returnApproval',
  'withdrawApproval',
  'terminateApproval',
  'refuse',
  'withdraw',
  'void',
  'expire',
  'urge',
  'download',
] as const;
export type SignLogAction = (typeof SIGN_LOG_ACTIONS)[number];
