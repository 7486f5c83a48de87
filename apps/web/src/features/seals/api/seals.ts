import type { contracts } from '@openseal/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet } from '../../../lib/api-client';
import { SESSION_QUERY_PREFIX, useAccessToken } from '../../../hooks/use-session';
import { ADDRESS_REFRESH_MS } from '../../../lib/query-client';

/**
 * The seals of the current space, shared by every seal page (spec section 7, Seals). Each page keeps the
 * calls only it makes in its own api file; these are the reads several pages need.
 */
export type Seal = z.output<typeof contracts.seal>;
export type SealPage = z.output<typeof contracts.sealPage>;
export type SealDetail = z.output<typeof contracts.sealDetail>;
/** mySealList filters (GET /v1/accounts/seals query). */
export type SealListQuery = Omit<z.input<typeof contracts.sealListQuery>, 'pageNum' | 'pageSize'> & {
  pageNum?: number;
  pageSize?: number;
};
export type SealKindOption = z.output<typeof contracts.sealKindOption>;

/** Query-key root of everything seal-related; invalidate it after any seal mutation. */
export const SEALS_KEY = [SESSION_QUERY_PREFIX, 'seals'] as const;

/** mySealList: GET /v1/accounts/seals with filters, one page. */
export function useMySeals(query: SealListQuery, enabled = true) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SEALS_KEY, 'list', token, query],
    refetchInterval: ADDRESS_REFRESH_MS,
    queryFn: () => apiGet<SealPage>('/v1/accounts/seals', query),
    enabled: enabled && token !== null,
    placeholderData: keepPreviousData,
  });
}

/** One seal with its renewals and pending change: GET /v1/seals/{sealCode}. */
export function useSeal(sealCode: string | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SEALS_KEY, 'detail', token, sealCode],
    refetchInterval: ADDRESS_REFRESH_MS,
    queryFn: () => apiGet<SealDetail>(`/v1/seals/${encodeURIComponent(sealCode ?? '')}`),
    enabled: token !== null && sealCode !== null && sealCode !== '',
  });
}

/** The seal kinds the current space may apply for (GET /v1/seals/sealTypes). */
export function useSealKinds() {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SEALS_KEY, 'kinds', token],
    queryFn: () => apiGet<{ list: SealKindOption[] }>('/v1/seals/sealTypes'),
    enabled: token !== null,
    staleTime: 60_000,
  });
}
