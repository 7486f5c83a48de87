import type { SealCarrier, WorkOrder, WorkOrderStatus } from '../api/apply';

/**
 * What the application records show and allow (spec sections 4 and 6): the buttons of a row, the
 * claim column, the status timeline, which tab a route opens and where a row's detail lives.
 */

/** Every work-order status once, in lifecycle order, for the status filter (a missing one fails to compile). */
const STATUS_ORDER: Record<WorkOrderStatus, number> = {
  preCreated: 0,
  pendingReview: 1,
  pendingProduction: 2,
  made: 3,
  rejected: 4,
  withdrawn: 5,
};
export const WORK_ORDER_FILTER = (Object.keys(STATUS_ORDER) as WorkOrderStatus[]).sort(
  (a, b) => STATUS_ORDER[a] - STATUS_ORDER[b],
);

export type RowAction = 'detail' | 'submit' | 'revoke' | 'claim' | 'sendLink' | 'retry' | 'viewSeal';

export interface Viewer {
  /** In an organisation space; a person claims their own seals. */
  inOrg: boolean;
  /** Holds the legal-representative role of the organisation. */
  isLegal: boolean;
}

/** Whether the caller claims seals themselves: the legal representative, or a person for their own. */
export function claimsItself(viewer: Viewer): boolean {
  return !viewer.inOrg || viewer.isLegal;
}

/** Waiting for its claim: approved by the operator, not yet claimed. */
export function awaitsClaim(w: Pick<WorkOrder, 'status' | 'receiveStatus'>): boolean {
  return w.status === 'pendingProduction' && w.receiveStatus === 'unclaimed';
}

/**
 * The buttons of an application, from the server's `actions` (what the work-order table allows) and its
 * claim state. Only the legal representative claims; others send them a link (spec section 6).
 */
export function rowActions(
  w: Pick<WorkOrder, 'status' | 'receiveStatus' | 'actions' | 'sealCode'>,
  viewer: Viewer,
): RowAction[] {
  const out: RowAction[] = [];
  if (w.actions.includes('submit')) out.push('submit');
  if (awaitsClaim(w)) out.push(claimsItself(viewer) ? 'claim' : 'sendLink');
  if (w.receiveStatus === 'failed') out.push('retry');
  if (w.status === 'made' && w.sealCode) out.push('viewSeal');
  if (w.actions.includes('revoke')) out.push('revoke');
  out.push('detail');
  return out;
}

/** The claim column: only meaningful once the operator approved; null shows a dash. */
export function receiveLabel(
  w: Pick<WorkOrder, 'status' | 'receiveStatus'>,
): WorkOrder['receiveStatus'] | null {
  if (w.status === 'pendingProduction' || w.status === 'made') return w.receiveStatus;
  return null;
}

/** The tab a route opens: the UKey list, otherwise the cloud one. */
export function carrierOfPath(path: string): SealCarrier {
  return path.toLowerCase().includes('ukey') ? 'ukey' : 'cloud';
}

export const LIST_PATH: Record<SealCarrier, string> = {
  cloud: '/sealService/cloudSealList',
  ukey: '/sealService/ukeySealList',
};

/** Where an application's detail lives: the cloud or the UKey detail route. */
export function detailPath(w: Pick<WorkOrder, 'applyNo' | 'carrier'>): string {
  const base = w.carrier === 'ukey' ? '/sealService/ukeySealDetail' : '/sealService/cloudSealDetail';
  return `${base}?applyNo=${encodeURIComponent(w.applyNo)}`;
}

/** The claim page of the seal-collection flow for one application. */
export function claimPath(applyNo: string): string {
  return `/getSealFlow?applyNo=${encodeURIComponent(applyNo)}`;
}

/** A same-site claim address made absolute, to send to someone. */
export function absoluteUrl(origin: string, url: string): string {
  return /^https?:\/\//i.test(url)
    ? url
    : `${origin.replace(/\/$/, '')}${url.startsWith('/') ? '' : '/'}${url}`;
}

export type StepKey = 'created' | 'submitted' | 'reviewed' | 'claimed' | 'completed';
export type StepState = 'done' | 'current' | 'waiting' | 'error' | 'skipped';
export interface TimelineStep {
  key: StepKey;
  /** Message key under sealApply.step: the words change with the outcome (approved, rejected …). */
  label: string;
  time: string | null;
  state: StepState;
}

/** The steps of an application from creation to the made seal, with what happened at each. */
export function timelineOf(
  w: Pick<
    WorkOrder,
    'status' | 'receiveStatus' | 'createTime' | 'submitTime' | 'reviewTime' | 'claimTime' | 'completeTime'
  >,
): TimelineStep[] {
  const closedEarly = w.status === 'withdrawn';
  const rejected = w.status === 'rejected';
  const steps: TimelineStep[] = [
    { key: 'created', label: w.submitTime ? 'created' : 'saved', time: w.createTime, state: 'done' },
  ];
  steps.push({
    key: 'submitted',
    label: 'submitted',
    time: w.submitTime,
    state: w.submitTime ? 'done' : w.status === 'preCreated' ? 'current' : 'skipped',
  });
  steps.push({
    key: 'reviewed',
    label: rejected ? 'rejected' : 'reviewed',
    time: w.reviewTime,
    state: rejected
      ? 'error'
      : w.reviewTime
        ? 'done'
        : w.status === 'pendingReview'
          ? 'current'
          : closedEarly
            ? 'skipped'
            : 'waiting',
  });
  if (closedEarly) {
    steps.push({ key: 'completed', label: 'withdrawn', time: w.completeTime, state: 'error' });
    return steps;
  }
  if (rejected) return steps;
  const failed = w.receiveStatus === 'failed';
  steps.push({
    key: 'claimed',
    label: 'claimed',
    time: w.claimTime,
    state: w.claimTime ? 'done' : w.status === 'pendingProduction' ? 'current' : 'waiting',
  });
  steps.push({
    key: 'completed',
    label: failed ? 'makeFailed' : 'completed',
    time: w.status === 'made' ? w.completeTime : null,
    state: w.status === 'made' ? 'done' : failed ? 'error' : w.claimTime ? 'current' : 'waiting',
  });
  return steps;
}

/** Still being made: a job that has not ended. */
export function isMaking(making: WorkOrder['making']): boolean {
  return making !== null && (making.state === 'queued' || making.state === 'running');
}

/** The stages the making job reports (its note), each with words of its own; others are not shown. */
const MAKING_STAGES = ['drawing', 'storing', 'certificate', 'done'] as const;
export type MakingStage = (typeof MAKING_STAGES)[number];

export function makingStage(note: string | null): MakingStage | null {
  return (MAKING_STAGES as readonly string[]).includes(note ?? '') ? (note as MakingStage) : null;
}
