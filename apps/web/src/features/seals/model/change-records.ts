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
