import { contracts, LIMITS } from '@openseal/core';

/**
 * Pure rules of the my-seals page: the list filters kept in the address bar, which single and batch
 * actions a selection allows (read from each seal's `actions`, which the server derives from the seal
 * state machine), and the renewal window of spec sections 5 and 9 (30 days or fewer before expiry).
 */
export type SealStatus = contracts.SealStatus;
export type SealKind = contracts.SealKind;
export type SealCarrier = contracts.SealCarrier;

export const PAGE_SIZES = [10, 20, 50] as const;
export const DEFAULT_PAGE_SIZE = 10;
const DAY_MS = 86_400_000;

export interface SealListFilters {
  status?: SealStatus;
  sealKind?: SealKind;
  carrier?: SealCarrier;
  keyword?: string;
  pageNum: number;
  pageSize: number;
}

const isOneOf = <T extends string>(values: readonly T[], v: string | null): v is T =>
  v !== null && (values as readonly string[]).includes(v);

const positiveInt = (v: string | null, fallback: number, max: number) => {
  const n = v === null ? NaN : Number(v);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
};

/** Reads the filters from the address bar; unknown or malformed values are dropped. */
export function filtersFromQuery(params: URLSearchParams): SealListFilters {
  const status = params.get('status');
  const kind = params.get('sealKind');
  const carrier = params.get('carrier');
  const keyword = params.get('keyword')?.trim().slice(0, 50);
  const size = positiveInt(params.get('pageSize'), DEFAULT_PAGE_SIZE, 100);
  return {
    ...(isOneOf(contracts.SEAL_STATUSES, status) ? { status } : {}),
    ...(isOneOf(contracts.SEAL_KINDS, kind) ? { sealKind: kind } : {}),
    ...(isOneOf(contracts.SEAL_CARRIERS, carrier) ? { carrier } : {}),
    ...(keyword ? { keyword } : {}),
    pageNum: positiveInt(params.get('pageNum'), 1, 100_000),
    pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_PAGE_SIZE,
  };
}

/**
 * Writes the filters into the address bar, keeping other parameters (such as an open `sealCode`);
 * defaults are left out so a plain list has a plain address.
 */
export function filtersToQuery(filters: SealListFilters, current: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(current);
  const set = (key: string, value: string | undefined) => {
    if (value === undefined || value === '') next.delete(key);
    else next.set(key, value);
  };
  set('status', filters.status);
  set('sealKind', filters.sealKind);
  set('carrier', filters.carrier);
  set('keyword', filters.keyword?.trim() || undefined);
  set('pageNum', filters.pageNum > 1 ? String(filters.pageNum) : undefined);
  set('pageSize', filters.pageSize !== DEFAULT_PAGE_SIZE ? String(filters.pageSize) : undefined);
  return next;
}

/** A filter changed: back to the first page. */
export function withFilter(filters: SealListFilters, patch: Partial<SealListFilters>): SealListFilters {
  const next = { ...filters, ...patch, pageNum: 1 };
  for (const key of ['status', 'sealKind', 'carrier', 'keyword'] as const)
    if (next[key] === undefined || next[key] === '') delete next[key];
  return next;
}

// --- actions ---

/** What the page offers on seals: each maps to one call (enable, disable, disable with freeze, cancel). */
export type ManageAction = 'enable' | 'disable' | 'freeze' | 'invalidate';
export const MANAGE_ACTIONS: readonly ManageAction[] = ['enable', 'disable', 'freeze', 'invalidate'];

/** Whether one seal allows an action; cancelling covers voiding a seal in use and scrapping an expired one. */
export function sealAllows(seal: { actions: readonly string[] }, action: ManageAction): boolean {
  if (action === 'invalidate') return seal.actions.includes('invalidate') || seal.actions.includes('scrap');
  return seal.actions.includes(action);
}

/** The single actions of one seal, in the page's order. */
export function actionsOf(seal: { actions: readonly string[] }): ManageAction[] {
  return MANAGE_ACTIONS.filter((a) => sealAllows(seal, a));
}

/** Batch actions the whole selection allows (the server does all or none); nothing for an empty one. */
export function batchActionsFor(seals: readonly { actions: readonly string[] }[]): ManageAction[] {
  if (seals.length === 0) return [];
  return MANAGE_ACTIONS.filter((a) => seals.every((s) => sealAllows(s, a)));
}

/** What the certificate becomes after an action: held while disabled or frozen, revoked when cancelled. */
export function certificateAfter(action: ManageAction): 'good' | 'hold' | 'revoked' {
  switch (action) {
    case 'enable':
      return 'good';
    case 'disable':
    case 'freeze':
      return 'hold';
    case 'invalidate':
      return 'revoked';
    default: {
      const never: never = action;
      return never;
    }
  }
}

// --- validity and renewal ---

/**
 * Whole days from now to the end of validity, counted by calendar day as the expiry tip counts them;
 * negative once it has ended; null without an end.
 */
export function daysLeft(validTo: string | null, now: Date = new Date()): number | null {
  if (!validTo) return null;
  const end = new Date(validTo);
  if (Number.isNaN(end.getTime())) return null;
  const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  return Math.round((startOfDay(end) - startOfDay(now)) / DAY_MS);
}

/** The hint beside a validity: expiring within the renewal window, or already ended. */
export function expiryHint(
  validTo: string | null,
  now: Date = new Date(),
): { kind: 'expiring'; days: number } | { kind: 'ended' } | null {
  if (!validTo) return null;
  const ms = new Date(validTo).getTime() - now.getTime();
  if (ms <= 0) return { kind: 'ended' };
  const days = daysLeft(validTo, now) ?? 0;
  return days <= LIMITS.renewalWindowDays ? { kind: 'expiring', days } : null;
}

export type RenewalBlock = 'status' | 'noCertificate' | 'certificate' | 'notDue';

/**
 * Whether the seal may be renewed now, and if not why: its status must allow renewal (normal or expired),
 * it must hold a good certificate, and the certificate must end within the window (or have ended).
 */
export function renewalState(
  seal: {
    actions: readonly string[];
    certSerial: string | null;
    certStatus: string | null;
    validTo: string | null;
  },
  now: Date = new Date(),
): { canRenew: true } | { canRenew: false; reason: RenewalBlock; days?: number } {
  if (!seal.actions.includes('startRenewal')) return { canRenew: false, reason: 'status' };
  if (!seal.certSerial || !seal.validTo) return { canRenew: false, reason: 'noCertificate' };
  if (seal.certStatus !== 'good') return { canRenew: false, reason: 'certificate' };
  const ms = new Date(seal.validTo).getTime() - now.getTime();
  if (ms > LIMITS.renewalWindowDays * DAY_MS)
    return { canRenew: false, reason: 'notDue', days: Math.ceil(ms / DAY_MS) - LIMITS.renewalWindowDays };
  return { canRenew: true };
}

/** The change a seal takes, by its kind (spec section 7): ordinary for organisations, else by the person's kind. */
export type ChangeType = 'ordinary' | 'personal' | 'handPainted';
export function changeTypeOf(kind: SealKind): ChangeType {
  if (kind === 'personalName') return 'personal';
  if (kind === 'personalHandDrawn') return 'handPainted';
  return 'ordinary';
}

/** Whether a change may be applied for now (a normal seal with no pending change). */
export function canApplyChange(
  seal: { actions: readonly string[] },
  pendingChangeNo: string | null,
): boolean {
  return seal.actions.includes('applyChange') && pendingChangeNo === null;
}

// --- formatting ---

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A day as YYYY-MM-DD in local time; a dash for nothing. */
export function formatDay(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '—';
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

/** A moment as YYYY-MM-DD HH:mm in local time; a dash for nothing. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '—';
  return `${formatDay(value)} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}
