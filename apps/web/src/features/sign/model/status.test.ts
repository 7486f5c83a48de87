import { contracts } from '@openseal/core';
import { describe, expect, it } from 'vitest';
import type { FlowSummary } from '../api/types';
import {
  APPROVAL_STATUS_COLOURS,
  approvalNeedsReason,
  canRefuseTask,
  canSignTask,
  FLOW_STATUS_COLOURS,
  flowRowActions,
  isFlowOpen,
  orderedApprovalActions,
  sealUse,
  TASK_STATUS_COLOURS,
} from './status';

const row = (over: Partial<FlowSummary> = {}): FlowSummary => ({
  flowId: 'f',
  name: 'n',
  scene: 'flow',
  status: 'signing',
  order: 'sequential',
  initiatorName: 'a',
  initiatorOrganizeName: null,
  createdAt: '2031-01-01T00:00:00Z',
  validUntil: '2031-02-01T00:00:00Z',
  finishedAt: null,
  fileCount: 1,
  signerCount: 2,
  signedCount: 1,
  myTaskId: null,
  myTaskStatus: null,
  ...over,
});

describe('sign statuses', () => {
  it('has a colour for every status of the three sets', () => {
    expect(Object.keys(FLOW_STATUS_COLOURS).sort()).toEqual([...contracts.FLOW_STATUSES].sort());
    expect(Object.keys(TASK_STATUS_COLOURS).sort()).toEqual([...contracts.TASK_STATUSES].sort());
    expect(Object.keys(APPROVAL_STATUS_COLOURS).sort()).toEqual([...contracts.APPROVAL_STATUSES].sort());
  });

  it('reads signing and refusing from the task table', () => {
    expect(contracts.TASK_STATUSES.filter((s) => canSignTask(s))).toEqual(['pending', 'approved']);
    expect(contracts.TASK_STATUSES.filter((s) => canRefuseTask(s))).toEqual([
      'pending',
      'inApproval',
      'approved',
    ]);
    expect(canSignTask(null)).toBe(false);
  });

  it('knows the open flow statuses', () => {
    expect(contracts.FLOW_STATUSES.filter(isFlowOpen)).toEqual(['pendingSign', 'signing', 'inApproval']);
  });

  it('offers list actions by the flow table, the initiator’s only in their own list', () => {
    expect(flowRowActions(row(), false)).toEqual(['detail', 'download']);
    expect(flowRowActions(row(), true)).toEqual(['detail', 'urge', 'withdraw', 'download']);
    expect(flowRowActions(row({ status: 'completed', signedCount: 2 }), true)).toEqual([
      'detail',
      'void',
      'download',
    ]);
    expect(flowRowActions(row({ myTaskId: 't', myTaskStatus: 'pending' }), false)).toContain('sign');
    expect(flowRowActions(row({ status: 'withdrawn' }), true)).toEqual(['detail', 'download']);
  });

  it('maps seal access to what the panel offers', () => {
    expect(sealUse({ access: 'direct' })).toBe('sign');
    expect(sealUse({ access: 'authorised' })).toBe('sign');
    expect(sealUse({ access: 'approved' })).toBe('sign');
    expect(sealUse({ access: 'approval' })).toBe('requestApproval');
    expect(sealUse({ access: 'refused' })).toBe('blocked');
  });

  it('orders approval decisions and asks a reason to refuse or return', () => {
    expect(orderedApprovalActions(['terminate', 'approve', 'refuse'])).toEqual([
      'approve',
      'refuse',
      'terminate',
    ]);
    expect(approvalNeedsReason('refuse')).toBe(true);
    expect(approvalNeedsReason('return')).toBe(true);
    expect(approvalNeedsReason('approve')).toBe(false);
  });
});
