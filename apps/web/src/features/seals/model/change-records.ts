import { contracts } from '@openseal/core';

/**
 * Pure rules of the change-record pages: filters kept in the address bar, which fields a change alters
 * (to show before and after side by side), and whether it may still be cancelled.
 */
export type ChangeStatus = contracts.ChangeStatus;

export const CHANGE_PAGE_SIZE = 10;

export interface ChangeListFilters {
  status?: ChangeStatus;
  sealCode?: string;
  pageNum: number;
}

/** Reads the filters from the address bar; unknown values are dropped. */
export function changeFiltersFromQuery(params: URLSearchParams): ChangeListFilters {
  const status = params.get('status');
  const sealCode = params.get('sealCode')?.trim().slice(0, 64);
  const page = Number(params.get('pageNum'));
  return {
    ...(status !== null && (contracts.CHANGE_STATUSES as readonly string[]).includes(status)
      ? { status: status as ChangeStatus }
      : {}),
    ...(sealCode ? { sealCode } : {}),
    pageNum: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** Writes the filters into the address bar; defaults are left out. */
export function changeFiltersToQuery(filters: ChangeListFilters): URLSearchParams {
  const next = new URLSearchParams();
  if (filters.status) next.set('status', filters.status);
  if (filters.sealCode?.trim()) next.set('sealCode', filters.sealCode.trim());
  if (filters.pageNum > 1) next.set('pageNum', String(filters.pageNum));
  return next;
}

/** The body of POST /v1/sealChanges/ for these filters. */
export function changeListRequest(filters: ChangeListFilters) {
  return {
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.sealCode ? { sealCode: filters.sealCode } : {}),
    pageNum: filters.pageNum,
    pageSize: CHANGE_PAGE_SIZE,
  };
}

export interface ChangeSide {
  name: string;
  sealType: number;
  title: string | null;
  title0: string | null;
}
export type ChangeField = keyof ChangeSide;

/** The fields that differ between before and after, in display order. */
export function changedFields(before: ChangeSide, after: ChangeSide): ChangeField[] {
  return (['name', 'sealType', 'title', 'title0'] as const).filter(
    (k) => (before[k] ?? null) !== (after[k] ?? null),
  );
}

/** A pending change may be cancelled by the applicant side (the change table's `revoke`). */
export function canCancelChange(change: { actions: readonly string[] }): boolean {
  return change.actions.includes('revoke');
}

/** A kind's drawing types as `/v1/seals/sealTypes` or `/v1/seals/getCustomSealList` list them. */
export interface KindTypes {
  kind: contracts.SealKind;
  sealTypes: readonly contracts.SealDrawType[];
}

export interface ChangeStyleChoice {
  /** Where the allowed types come from: custom kinds (department, industry, practice) use the custom list. */
  source: 'custom' | 'standard';
  /** False while that list is still loading. */
  ready: boolean;
  /** The types to offer: the allowed ones, and the seal's current type (first) even when no longer allowed. */
  options: { value: contracts.SealDrawType; allowed: boolean }[];
  /** What the form starts with: the current type when still allowed, else the first allowed one. */
  initial: contracts.SealDrawType;
  /** Custom kinds: the longest title allowed (from the custom list); null otherwise or while loading. */
  titleMaxLength: number | null;
}

/**
 * The drawing types an ordinary change may pick for a seal. Standard kinds read them from the seal kinds
 * of the space; custom kinds from the custom seal configuration, which also bounds the title.
 */
export function changeStyleChoice(
  seal: { sealKind: contracts.SealKind; sealType: contracts.SealDrawType },
  standard: { list: readonly KindTypes[] } | undefined,
  custom: { list: readonly KindTypes[]; titleMaxLength: number } | undefined,
): ChangeStyleChoice {
  const isCustom = contracts.SEAL_KIND_INFO[seal.sealKind].custom;
  const source = isCustom ? custom : standard;
  const allowed = [...new Set(source?.list.find((k) => k.kind === seal.sealKind)?.sealTypes ?? [])];
  const values = allowed.includes(seal.sealType) ? allowed : [seal.sealType, ...allowed];
  const options = values.map((value) => ({ value, allowed: allowed.includes(value) }));
  return {
    source: isCustom ? 'custom' : 'standard',
    ready: source !== undefined,
    options: source ? options : [{ value: seal.sealType, allowed: true }],
    initial: allowed.includes(seal.sealType) || allowed.length === 0 ? seal.sealType : allowed[0]!,
    titleMaxLength: isCustom && custom ? custom.titleMaxLength : null,
  };
}
