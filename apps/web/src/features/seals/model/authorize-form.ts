/**
 * The pure rules of the seal-authorisation pages (spec sections 4 and 9: unlimited or counted uses,
 * permanent or dated validity, app range): the form turned into the add and edit requests, the checks
 * made before sending, and how uses, validity and the allowed actions of a grant are shown.
 */
import type {
  AddSealAuthRequest,
  AuthStatus,
  EditSealAuthRequest,
  GranteeType,
  SealAuthListRequest,
  SealAuthorization,
} from '../api/authorize';

export type UsesMode = 'unlimited' | 'counted';
export type ValidityMode = 'permanent' | 'dated';

/** What the create/edit form holds; dates are whole days in the user's time zone. */
export interface AuthorizeFormValues {
  sealCode?: string | undefined;
  memberIds: string[];
  appIds: string[];
  usesMode: UsesMode;
  usesLimit?: number | null | undefined;
  validityMode: ValidityMode;
  /** First and last day of a dated validity. */
  range?: readonly [Date, Date] | null | undefined;
  appRange: string[];
}

/** Limits of the contract (addSealAuthRequest). */
export const MAX_GRANTEES = 50;
export const MAX_APP_RANGE = 20;
export const MAX_USES = 1_000_000;
const APP_ID = /^[A-Za-z0-9_-]{1,64}$/;

export type FormProblem =
  | 'sealRequired'
  | 'granteeRequired'
  | 'tooManyGrantees'
  | 'appIdInvalid'
  | 'usesInvalid'
  | 'rangeRequired'
  | 'rangeInPast'
  | 'appRangeInvalid'
  | 'tooManyApps';

export const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());
export const endOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate(), 23, 59, 59, 999);

/** The checks made before sending; `edit` skips what an edit cannot change (seal and grantees). */
export function validateAuthorizeForm(
  v: AuthorizeFormValues,
  now: Date,
  mode: 'create' | 'edit' = 'create',
): FormProblem[] {
  const problems: FormProblem[] = [];
  if (mode === 'create') {
    if (!v.sealCode) problems.push('sealRequired');
    const count = v.memberIds.length + v.appIds.length;
    if (count === 0) problems.push('granteeRequired');
    if (count > MAX_GRANTEES) problems.push('tooManyGrantees');
    if (v.appIds.some((id) => !APP_ID.test(id))) problems.push('appIdInvalid');
  }
  if (v.usesMode === 'counted') {
    const n = v.usesLimit;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_USES) problems.push('usesInvalid');
  }
  if (v.validityMode === 'dated') {
    if (!v.range) problems.push('rangeRequired');
    else if (endOfDay(v.range[1]) <= now || v.range[1] < v.range[0]) problems.push('rangeInPast');
  }
  if (v.appRange.some((id) => !APP_ID.test(id))) problems.push('appRangeInvalid');
  if (v.appRange.length > MAX_APP_RANGE) problems.push('tooManyApps');
  return problems;
}

function usesLimitOf(v: AuthorizeFormValues): number | null {
  return v.usesMode === 'counted' ? (v.usesLimit ?? null) : null;
}

/** Last moment of a dated validity: the end of its last day; null when permanent. */
function validToOf(v: AuthorizeFormValues): string | null {
  return v.validityMode === 'dated' && v.range ? endOfDay(v.range[1]).toISOString() : null;
}

/** addSealAuth request: a validity starting today or earlier starts now (the server's default). */
export function toAddRequest(v: AuthorizeFormValues, now: Date): AddSealAuthRequest {
  const from = v.validityMode === 'dated' && v.range ? startOfDay(v.range[0]) : null;
  const unique = (ids: string[]) => [...new Set(ids.map((id) => id.trim()).filter(Boolean))];
  return {
    sealCode: v.sealCode ?? '',
    grantees: [
      ...unique(v.memberIds).map((id) => ({ type: 'member' as const, id })),
      ...unique(v.appIds).map((id) => ({ type: 'app' as const, id })),
    ],
    usesLimit: usesLimitOf(v),
    ...(from && from > now ? { validFrom: from.toISOString() } : {}),
    validTo: validToOf(v),
    appRange: unique(v.appRange),
  };
}

/** editSealAuth request: only what changed is sent, so an untouched limit keeps the uses already taken as they are. */
export function toEditRequest(
  original: SealAuthorization,
  v: AuthorizeFormValues,
): EditSealAuthRequest | null {
  const request: EditSealAuthRequest = { authCode: original.authCode };
  const usesLimit = usesLimitOf(v);
  if (usesLimit !== original.usesLimit) request.usesLimit = usesLimit;
  const validTo = validToOf(v);
  const sameEnd =
    validTo === null
      ? original.validTo === null
      : original.validTo !== null && endOfDay(new Date(original.validTo)).toISOString() === validTo;
  if (!sameEnd) request.validTo = validTo;
  const range = [...new Set(v.appRange.map((id) => id.trim()).filter(Boolean))];
  if (range.join('\n') !== original.appRange.join('\n')) request.appRange = range;
  return Object.keys(request).length > 1 ? request : null;
}

/** The form of an existing grant, for editing. */
export function formFromAuthorization(a: SealAuthorization): AuthorizeFormValues {
  return {
    sealCode: a.sealCode,
    memberIds: a.granteeType === 'member' ? [a.granteeId] : [],
    appIds: a.granteeType === 'app' ? [a.granteeId] : [],
    usesMode: a.usesLimit === null ? 'unlimited' : 'counted',
    usesLimit: a.usesLimit,
    validityMode: a.validTo === null ? 'permanent' : 'dated',
    range: a.validTo === null ? null : [new Date(a.validFrom), new Date(a.validTo)],
    appRange: [...a.appRange],
  };
}

// --- display ---

const pad = (n: number) => String(n).padStart(2, '0');

/** A day in the user's time zone, YYYY-MM-DD. */
export function formatDay(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A moment in the user's time zone, YYYY-MM-DD HH:mm. */
export function formatTime(iso: string | null): string {
  if (!iso) return '-';
  const d = new Date(iso);
  return `${formatDay(iso)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export type ValidityView = { permanent: true; from: string } | { permanent: false; from: string; to: string };

export function validityView(a: Pick<SealAuthorization, 'validFrom' | 'validTo'>): ValidityView {
  return a.validTo === null
    ? { permanent: true, from: formatDay(a.validFrom) }
    : { permanent: false, from: formatDay(a.validFrom), to: formatDay(a.validTo) };
}

export type UsesView =
  { unlimited: true } | { unlimited: false; remaining: number; total: number; used: number; percent: number };

/** Remaining uses of a grant; `percent` is what is left, for a progress bar. */
export function usesView(a: Pick<SealAuthorization, 'usesLimit' | 'usesRemaining'>): UsesView {
  if (a.usesLimit === null) return { unlimited: true };
  const total = a.usesLimit;
  const remaining = Math.max(0, Math.min(total, a.usesRemaining ?? 0));
  return {
    unlimited: false,
    remaining,
    total,
    used: total - remaining,
    percent: total === 0 ? 0 : Math.round((remaining / total) * 100),
  };
}

/** What a row or the detail offers: everyone sees the detail; holders of the authorise point edit and cancel grants in effect. */
export function authActions(
  a: Pick<SealAuthorization, 'status'>,
  canAuthorise: boolean,
): ('detail' | 'edit' | 'cancel')[] {
  return a.status === 'inEffect' && canAuthorise ? ['detail', 'edit', 'cancel'] : ['detail'];
}

/** Why a grant in effect cannot be used now, or null when it can (the server's `usable` says whether). */
export function unusableReason(
  a: Pick<SealAuthorization, 'status' | 'usable' | 'validFrom' | 'validTo' | 'usesRemaining'>,
  now: Date,
): 'terminated' | 'notStarted' | 'expired' | 'exhausted' | null {
  if (a.usable) return null;
  if (a.status === 'terminated') return 'terminated';
  if (a.usesRemaining === 0) return 'exhausted';
  if (new Date(a.validFrom) > now) return 'notStarted';
  return 'expired';
}

// --- addresses ---

export const AUTHORIZE_MNG_PATH = '/sealService/authorizeMng';
export const authorizeDetailPath = (authCode: string) =>
  `/sealService/authorizeDetail?authCode=${encodeURIComponent(authCode)}`;
export const authorizeEditPath = (authCode: string) =>
  `/sealService/authorizeCreate?authCode=${encodeURIComponent(authCode)}`;
export const authorizeCreatePath = (sealCode?: string) =>
  sealCode
    ? `/sealService/authorizeCreate?sealCode=${encodeURIComponent(sealCode)}`
    : '/sealService/authorizeCreate';

// --- list filters ---

export interface AuthFilters {
  status?: AuthStatus | undefined;
  sealCode?: string | undefined;
  granteeType?: GranteeType | undefined;
}

export function toListRequest(f: AuthFilters, pageNum: number, pageSize: number): SealAuthListRequest {
  return {
    ...(f.status ? { status: f.status } : {}),
    ...(f.sealCode ? { sealCode: f.sealCode } : {}),
    ...(f.granteeType ? { granteeType: f.granteeType } : {}),
    pageNum,
    pageSize,
  };
}
