import { contracts } from '@openseal/core';
import type {
  ApprovalAction,
  ApprovalStatus,
  FlowStatus,
  FlowSummary,
  SignableSeal,
  TaskStatus,
} from '../api/types';

/**
 * Status colours and what the pages offer in each state. The buttons come from the state tables of
 * `@openseal/core` (or the server's `actions`), never from a copy of the rules here.
 */
export const FLOW_STATUS_COLOURS: Record<FlowStatus, string> = {
  pendingSign: 'gold',
  signing: 'blue',
  inApproval: 'purple',
  completed: 'green',
  terminated: 'default',
  refused: 'red',
  withdrawn: 'default',
  voided: 'volcano',
};

export const TASK_STATUS_COLOURS: Record<TaskStatus, string> = {
  waiting: 'default',
  pending: 'gold',
  inApproval: 'purple',
  approved: 'cyan',
  signed: 'green',
  refused: 'red',
  closed: 'default',
};

export const APPROVAL_STATUS_COLOURS: Record<ApprovalStatus, string> = {
  inApproval: 'purple',
  approved: 'green',
  refused: 'red',
  returned: 'orange',
  withdrawn: 'default',
  terminated: 'default',
};

/** The task may be signed now (pending, or approved). */
export function canSignTask(status: TaskStatus | null | undefined): boolean {
  return status != null && contracts.allowedActions(contracts.TASK_MACHINE, status).includes('sign');
}

/** The task may be refused now. */
export function canRefuseTask(status: TaskStatus | null | undefined): boolean {
  return status != null && contracts.allowedActions(contracts.TASK_MACHINE, status).includes('refuse');
}

/** A flow is still open (it can be signed, urged, withdrawn or refused). */
export function isFlowOpen(status: FlowStatus): boolean {
  return (contracts.OPEN_FLOW_STATUSES as readonly FlowStatus[]).includes(status);
}

export type RowAction = 'detail' | 'sign' | 'urge' | 'withdraw' | 'void' | 'download';

/**
 * The actions of a row in the sign lists. A summary carries no `actions`, so the state tables decide:
 * the caller's own task by TASK_MACHINE, the flow's by FLOW_MACHINE; the initiator's acts (urge, withdraw,
 * void) only in the list of flows the caller started. The detail page uses the server's `actions`.
 */
export function flowRowActions(row: FlowSummary, initiated: boolean): RowAction[] {
  const flow = contracts.allowedActions(contracts.FLOW_MACHINE, row.status);
  const out: RowAction[] = ['detail'];
  if (canSignTask(row.myTaskStatus)) out.push('sign');
  if (initiated && flow.includes('withdraw') && row.signedCount < row.signerCount) out.push('urge');
  if (initiated && flow.includes('withdraw')) out.push('withdraw');
  if (initiated && flow.includes('void')) out.push('void');
  out.push('download');
  return out;
}

/** What choosing a seal leads to in the signing panel. */
export type SealUse = 'sign' | 'requestApproval' | 'blocked';

export function sealUse(seal: Pick<SignableSeal, 'access'>): SealUse {
  switch (seal.access) {
    case 'direct':
    case 'authorised':
    case 'approved':
      return 'sign';
    case 'approval':
      return 'requestApproval';
    case 'refused':
      return 'blocked';
    default: {
      const never: never = seal.access;
      return never;
    }
  }
}

/** Approval decisions that must say why. */
export function approvalNeedsReason(action: ApprovalAction): boolean {
  return action === 'refuse' || action === 'return';
}

/** Decisions, in the order the buttons appear; `actions` from the server filters them. */
export const APPROVAL_ACTION_ORDER: readonly ApprovalAction[] = [
  'approve',
  'refuse',
  'return',
  'withdraw',
  'terminate',
];

export function orderedApprovalActions(actions: readonly ApprovalAction[]): ApprovalAction[] {
  return APPROVAL_ACTION_ORDER.filter((a) => actions.includes(a));
}
