/**
 * Rules of the seal-collection flow (spec sections 2, 4 and 6): which entry the address names, what the
 * server's answers mean for the page to show, and where each outcome lives. The pages only render; the
 * decisions are here so they can be tested without a browser.
 */

/** Catalogued codes the flow reacts to (packages/core/src/errors/entries/seals.ts and the permissions). */
export const FLOW_CODES = {
  workOrderNotFound: 6109,
  claimLinkInvalid: 6111,
  nothingToClaim: 6112,
} as const;

/** A claim link's signed query. */
export interface ClaimLink {
  getSealFlowId: string;
  expires: number;
  sig: string;
}

/** What /getSealFlow and the result pages were opened with: the in-app applications or a claim link. */
export type FlowEntry = { kind: 'apply'; applyNos: string[] } | { kind: 'link'; link: ClaimLink };

export type ReceiveStatus = 'unclaimed' | 'making' | 'made' | 'failed' | 'closed';
export type WorkOrderStatus =
  'preCreated' | 'pendingReview' | 'pendingProduction' | 'made' | 'rejected' | 'withdrawn';

export interface FlowItem {
  applyNo: string;
  status: WorkOrderStatus;
  receiveStatus: ReceiveStatus;
}

/** Why a flow shows no claim; each has its words under `sealFlow.reason.<reason>`. */
export type NoClaimReason =
  'linkInvalid' | 'flowDone' | 'nothingToClaim' | 'closed' | 'notFound' | 'noClaimPermission' | 'noEntry';

export type FlowOutcome =
  | { kind: 'claim'; claimable: string[] }
  | { kind: 'onlyLegal' }
  | { kind: 'noAuth'; reason: NoClaimReason }
  | { kind: 'none'; reason: NoClaimReason }
  | { kind: 'waiting' }
  | { kind: 'made' }
  | { kind: 'manualReview' };

export const FLOW_PATHS = {
  claim: '/getSealFlow',
  noAuth: '/noGetSealAuthResult',
  none: '/noGetSealResult',
  made: '/getSealResult',
  waiting: '/getSealWaitResult',
  manualReview: '/getArtificialSealtResult',
  onlyLegal: '/getSealResultOnlyLegal',
} as const;

export type FlowResultVariant = Exclude<keyof typeof FLOW_PATHS, 'claim'>;

/** The variant a result route shows (one component serves them all); null for an unknown path. */
export function resultVariantOf(path: string): FlowResultVariant | null {
  for (const [variant, p] of Object.entries(FLOW_PATHS))
    if (p === path && variant !== 'claim') return variant as FlowResultVariant;
  return null;
}

const MAX_APPLY_NOS = 20;

/** `a, b,,a` → ['a', 'b']: trimmed, without blanks and repeats, at most what one claim takes. */
export function parseApplyNos(value: string | null | undefined): string[] {
  if (!value) return [];
  const seen = new Set<string>();
  for (const part of value.split(',')) {
    const v = part.trim();
    if (v && v.length <= 64) seen.add(v);
  }
  return [...seen].slice(0, MAX_APPLY_NOS);
}

/** The entry an address names: a complete claim link wins over application numbers; null when neither. */
export function flowEntryOf(params: URLSearchParams): FlowEntry | null {
  const id = params.get('getSealFlowId')?.trim() ?? '';
  const expiresText = params.get('expires')?.trim() ?? '';
  const sig = params.get('sig')?.trim() ?? '';
  if (id) {
    const expires = /^\d{1,12}$/.test(expiresText) ? Number(expiresText) : Number.NaN;
    // An incomplete link is still a link: the server answers why it is not valid.
    return {
      kind: 'link',
      link: { getSealFlowId: id, expires: Number.isFinite(expires) ? expires : 0, sig },
    };
  }
  const applyNos = parseApplyNos(params.get('applyNo') ?? params.get('applyNos'));
  return applyNos.length > 0 ? { kind: 'apply', applyNos } : null;
}

/** The query that carries an entry to another flow page, so a reload asks the server again. */
export function entryQuery(entry: FlowEntry, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (entry.kind === 'link') {
    params.set('getSealFlowId', entry.link.getSealFlowId);
    params.set('expires', String(entry.link.expires));
    params.set('sig', entry.link.sig);
  } else params.set('applyNo', entry.applyNos.join(','));
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return params.toString();
}

/** The address of an outcome, carrying the entry (and the reason where there is one). */
export function outcomeAddress(outcome: FlowOutcome, entry: FlowEntry): string {
  if (outcome.kind === 'claim') return `${FLOW_PATHS.claim}?${entryQuery(entry)}`;
  const extra: Record<string, string> =
    outcome.kind === 'noAuth' || outcome.kind === 'none' ? { reason: outcome.reason } : {};
  return `${FLOW_PATHS[outcome.kind]}?${entryQuery(entry, extra)}`;
}

/**
 * What the flow shows for the server's answer: who the caller is and where each application stands.
 * Waiting seals come before the claim question, so the legal representative is never asked twice.
 */
export function decideFlow(input: {
  isLegalPerson: boolean;
  canClaim: boolean;
  flowStatus?: 'open' | 'done';
  items: readonly FlowItem[];
}): FlowOutcome {
  const { items } = input;
  if (items.length === 0) return { kind: 'none', reason: 'nothingToClaim' };
  const claimable = items
    .filter((i) => i.status === 'pendingProduction' && i.receiveStatus === 'unclaimed')
    .map((i) => i.applyNo);
  if (claimable.length > 0 && input.flowStatus !== 'done') {
    if (!input.isLegalPerson) return { kind: 'onlyLegal' };
    if (!input.canClaim) return { kind: 'noAuth', reason: 'noClaimPermission' };
    return { kind: 'claim', claimable };
  }
  if (items.some((i) => i.receiveStatus === 'making' || i.receiveStatus === 'failed'))
    return { kind: 'waiting' };
  if (items.some((i) => i.receiveStatus === 'made')) return { kind: 'made' };
  if (items.some((i) => i.status === 'pendingReview' || i.status === 'preCreated'))
    return { kind: 'manualReview' };
  if (input.flowStatus === 'done') return { kind: 'none', reason: 'flowDone' };
  return { kind: 'none', reason: 'closed' };
}

/** A refused read or claim turned into an outcome; null when the failure is not the flow's to explain. */
export function outcomeOfError(code: number | null): FlowOutcome | null {
  if (code === FLOW_CODES.claimLinkInvalid) return { kind: 'none', reason: 'linkInvalid' };
  if (code === FLOW_CODES.nothingToClaim) return { kind: 'none', reason: 'nothingToClaim' };
  if (code === FLOW_CODES.workOrderNotFound) return { kind: 'none', reason: 'notFound' };
  // Permission codes (11xxx): the caller may not claim here.
  if (code !== null && code >= 11000 && code < 12000) return { kind: 'noAuth', reason: 'noClaimPermission' };
  return null;
}

const REASONS: readonly NoClaimReason[] = [
  'linkInvalid',
  'flowDone',
  'nothingToClaim',
  'closed',
  'notFound',
  'noClaimPermission',
  'noEntry',
];

/** A reason read from the address; unknown words fall back to the page's general one. */
export function reasonOf(value: string | null, fallback: NoClaimReason): NoClaimReason {
  return REASONS.find((r) => r === value) ?? fallback;
}

/** Where the claim answer leads: a job to wait for, or the seals already made. */
export function afterClaim(answer: { async: boolean; list: readonly FlowItem[] }): 'waiting' | 'made' {
  if (answer.async) return 'waiting';
  return answer.list.every((i) => i.receiveStatus === 'made') ? 'made' : 'waiting';
}

export interface MakingProgress {
  applyNo: string;
  receiveStatus: ReceiveStatus;
  making: { state: 'queued' | 'running' | 'done' | 'failed'; progress: number } | null;
}

/** One seal's production as a percentage: a made seal is 100, a queued one 0. */
export function percentOf(item: MakingProgress): number {
  if (item.receiveStatus === 'made') return 100;
  const p = item.making?.progress ?? 0;
  return Math.max(0, Math.min(item.receiveStatus === 'making' ? 99 : 100, Math.round(p)));
}

/** The wait page's state over every seal: still making, all made, or some failed (retry offered). */
export function waitStateOf(items: readonly MakingProgress[]): 'making' | 'done' | 'failed' {
  if (items.length > 0 && items.every((i) => i.receiveStatus === 'made')) return 'done';
  if (items.some((i) => i.receiveStatus === 'failed' || i.making?.state === 'failed')) return 'failed';
  return 'making';
}

/** A server time (ISO 8601) in the reader's language, to the minute; '-' when absent or unreadable. */
export function formatFlowTime(iso: string | null | undefined, language: string): string {
  if (!iso) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '-';
  return d.toLocaleString(language === 'en' ? 'en-GB' : 'zh-CN', {
    hour12: false,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
}
