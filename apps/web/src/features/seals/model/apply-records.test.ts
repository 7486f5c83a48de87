import { describe, expect, it } from 'vitest';
import type { WorkOrder } from '../api/apply';
import {
  absoluteUrl,
  carrierOfPath,
  claimPath,
  detailPath,
  isMaking,
  makingStage,
  receiveLabel,
  rowActions,
  timelineOf,
  WORK_ORDER_FILTER,
  type Viewer,
} from './apply-records';
import { contracts } from '@openseal/core';

const T0 = '2024-05-01T08:00:00.000Z';
const T1 = '2024-05-01T09:00:00.000Z';
const T2 = '2024-05-02T09:00:00.000Z';
const T3 = '2024-05-03T09:00:00.000Z';

function order(patch: Partial<WorkOrder>): WorkOrder {
  const status = patch.status ?? 'pendingReview';
  return {
    applyNo: 'apl_1',
    status,
    sealKind: 'contract',
    sealKindName: '合同专用章',
    sealType: 0,
    carrier: 'cloud',
    sealName: '某某公司合同专用章',
    title: '合同专用章',
    title0: null,
    widthMm: 42,
    heightMm: 42,
    organizeId: 'org_1',
    organizeName: '某某公司',
    applicantName: '张三',
    applicantMobile: '138****0000',
    rejectReason: null,
    createTime: T0,
    submitTime: T0,
    reviewTime: null,
    claimTime: null,
    completeTime: null,
    sealCode: null,
    receiveStatus: 'unclaimed',
    making: null,
    // What the server sends: the work-order table's actions from the status.
    actions: contracts.allowedActions(contracts.WORK_ORDER_MACHINE, status),
    ...patch,
  };
}

const admin: Viewer = { inOrg: true, isLegal: false };
const legal: Viewer = { inOrg: true, isLegal: true };
const person: Viewer = { inOrg: false, isLegal: false };

describe('application row actions', () => {
  it('lets a draft be submitted or withdrawn, and an application under review be withdrawn', () => {
    expect(rowActions(order({ status: 'preCreated', submitTime: null }), admin)).toEqual([
      'submit',
      'revoke',
      'detail',
    ]);
    expect(rowActions(order({ status: 'pendingReview' }), admin)).toEqual(['revoke', 'detail']);
  });

  it('sends others to the legal representative with a link, and lets the representative or a person claim', () => {
    const approved = order({ status: 'pendingProduction', reviewTime: T1 });
    expect(rowActions(approved, admin)).toEqual(['sendLink', 'detail']);
    expect(rowActions(approved, legal)).toEqual(['claim', 'detail']);
    expect(rowActions(approved, person)).toEqual(['claim', 'detail']);
  });

  it('offers a retry only after making failed, and nothing to claim while it is made', () => {
    const making = order({ status: 'pendingProduction', receiveStatus: 'making', claimTime: T2 });
    expect(rowActions(making, legal)).toEqual(['detail']);
    const failed = order({ status: 'pendingProduction', receiveStatus: 'failed', claimTime: T2 });
    expect(rowActions(failed, admin)).toEqual(['retry', 'detail']);
  });

  it('links a made application to its seal, and leaves closed ones only their detail', () => {
    expect(rowActions(order({ status: 'made', receiveStatus: 'made', sealCode: 'S1' }), admin)).toEqual([
      'viewSeal',
      'detail',
    ]);
    expect(rowActions(order({ status: 'rejected', receiveStatus: 'closed' }), admin)).toEqual(['detail']);
    expect(rowActions(order({ status: 'withdrawn', receiveStatus: 'closed' }), admin)).toEqual(['detail']);
  });
});

describe('application records', () => {
  it('shows the claim state only once the operator approved', () => {
    expect(receiveLabel(order({ status: 'pendingReview' }))).toBeNull();
    expect(receiveLabel(order({ status: 'pendingProduction' }))).toBe('unclaimed');
    expect(receiveLabel(order({ status: 'made', receiveStatus: 'made' }))).toBe('made');
    expect(receiveLabel(order({ status: 'withdrawn', receiveStatus: 'closed' }))).toBeNull();
  });

  it('opens the UKey tab from its route and the cloud tab otherwise', () => {
    expect(carrierOfPath('/sealService/ukeySealList')).toBe('ukey');
    expect(carrierOfPath('/sealService/cloudSealList')).toBe('cloud');
    expect(carrierOfPath('/sealService/applyRecordList')).toBe('cloud');
  });

  it('offers every status once, in lifecycle order', () => {
    expect(WORK_ORDER_FILTER).toEqual([...contracts.WORK_ORDER_STATUSES]);
  });

  it('builds detail and claim addresses, and makes a claim link absolute', () => {
    expect(detailPath({ applyNo: 'a b', carrier: 'ukey' })).toBe('/sealService/ukeySealDetail?applyNo=a%20b');
    expect(detailPath({ applyNo: 'apl_1', carrier: 'cloud' })).toBe(
      '/sealService/cloudSealDetail?applyNo=apl_1',
    );
    expect(claimPath('apl_1')).toBe('/getSealFlow?applyNo=apl_1');
    expect(absoluteUrl('https://seal.example.cn/', '/getSealFlow?x=1')).toBe(
      'https://seal.example.cn/getSealFlow?x=1',
    );
    expect(absoluteUrl('https://seal.example.cn', 'https://other/x')).toBe('https://other/x');
  });
});

describe('application timeline', () => {
  const states = (w: WorkOrder) => timelineOf(w).map((s) => `${s.label}:${s.state}`);

  it('marks a draft as waiting to be submitted', () => {
    expect(states(order({ status: 'preCreated', submitTime: null }))).toEqual([
      'saved:done',
      'submitted:current',
      'reviewed:waiting',
      'claimed:waiting',
      'completed:waiting',
    ]);
  });

  it('follows an application to its made seal with the times of each step', () => {
    const made = order({
      status: 'made',
      receiveStatus: 'made',
      reviewTime: T1,
      claimTime: T2,
      completeTime: T3,
      sealCode: 'S1',
    });
    expect(states(made)).toEqual([
      'created:done',
      'submitted:done',
      'reviewed:done',
      'claimed:done',
      'completed:done',
    ]);
    expect(timelineOf(made).map((s) => s.time)).toEqual([T0, T0, T1, T2, T3]);
  });

  it('waits for the claim after approval, and shows a failed making', () => {
    expect(states(order({ status: 'pendingProduction', reviewTime: T1 })).slice(3)).toEqual([
      'claimed:current',
      'completed:waiting',
    ]);
    expect(
      states(
        order({ status: 'pendingProduction', receiveStatus: 'failed', reviewTime: T1, claimTime: T2 }),
      ).slice(3),
    ).toEqual(['claimed:done', 'makeFailed:error']);
  });

  it('ends at the rejection or the withdrawal', () => {
    expect(states(order({ status: 'rejected', receiveStatus: 'closed', reviewTime: T1 }))).toEqual([
      'created:done',
      'submitted:done',
      'rejected:error',
    ]);
    expect(states(order({ status: 'withdrawn', receiveStatus: 'closed', completeTime: T1 }))).toEqual([
      'created:done',
      'submitted:done',
      'reviewed:skipped',
      'withdrawn:error',
    ]);
  });
});

describe('making progress', () => {
  it('is still making while the job is queued or running, and names only the stages it knows', () => {
    const job = { jobId: 'j', progress: 40, note: 'storing', attempts: 1, error: null };
    expect(isMaking({ ...job, state: 'queued' })).toBe(true);
    expect(isMaking({ ...job, state: 'running' })).toBe(true);
    expect(isMaking({ ...job, state: 'done' })).toBe(false);
    expect(isMaking({ ...job, state: 'failed' })).toBe(false);
    expect(isMaking(null)).toBe(false);
    expect(makingStage('certificate')).toBe('certificate');
    expect(makingStage('something else')).toBeNull();
    expect(makingStage(null)).toBeNull();
  });
});
