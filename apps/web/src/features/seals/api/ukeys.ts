import type { contracts } from '@openseal/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet, apiPost } from '../../../lib/api-client';
import { SESSION_QUERY_PREFIX, useAccessToken } from '../../../hooks/use-session';
import { usePermissions } from '../../../hooks/use-permissions';

/**
 * UKeys on the server (spec section 7, "USB key"): bindings under /v1/sealUKeyBinding and UKey
 * applications with their import under /v1/pub/ukeyApply. The server checks every permission and state;
 * the pages only choose what to offer.
 */
export type UkeyKind = contracts.UkeyKind;
export type UkeyApplyType = contracts.UkeyApplyType;
export type UkeyApplyStatus = contracts.UkeyApplyStatus;
export type BoundUkey = z.output<typeof contracts.ukeyOut>;
export type BoundUkeyPage = z.output<typeof contracts.ukeyPage>;
export type UkeyCert = z.output<typeof contracts.ukeyCertOut>;
export type UkeyChallenge = z.output<typeof contracts.ukeyChallengeOut>;
export type UkeyBindRequest = z.input<typeof contracts.ukeyBindRequest>;
export type UkeyBindSeals = z.output<typeof contracts.ukeyBindSealsOut>;
export type AgentDownload = z.output<typeof contracts.ukeyAgentDownloadOut>;
export type UkeyApply = z.output<typeof contracts.ukeyApplyOut>;
export type UkeyApplyDetail = z.output<typeof contracts.ukeyApplyDetail>;
export type UkeyApplyPage = z.output<typeof contracts.ukeyApplyPage>;
export type UkeyApplyInfo = z.output<typeof contracts.ukeyApplyInfoOut>;
export type UkeyApplyRequest = z.input<typeof contracts.ukeyApplyRequest>;
export type UkeyMakingData = z.output<typeof contracts.ukeyMakingDataOut>;

/** Query-key root of the UKey pages; invalidate it after any UKey mutation. */
export const UKEYS_KEY = [SESSION_QUERY_PREFIX, 'ukeys'] as const;

const B = '/v1/sealUKeyBinding';
const A = '/v1/pub/ukeyApply';

/** The caller's permission points: seal.manage for bindings, ukey.receive for applications. */
export function useUkeyPermissionPoints() {
  const query = usePermissions();
  return { ...query, data: query.data?.points };
}

export interface UkeyListFilter {
  tab: UkeyKind;
  keyword?: string;
  pageNum: number;
  pageSize: number;
}

export function useBoundUkeys(filter: UkeyListFilter, enabled: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...UKEYS_KEY, 'list', token, filter],
    queryFn: () => apiPost<BoundUkeyPage>(`${B}/uKeyList`, filter),
    enabled: enabled && token !== null,
    placeholderData: keepPreviousData,
  });
}

/** One bound key, found through the list of its kind (there is no single-key read). */
export function useBoundUkey(ukeySn: string | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...UKEYS_KEY, 'one', token, ukeySn],
    queryFn: async () => {
      for (const tab of ['offline', 'online'] as const) {
        const page = await apiPost<BoundUkeyPage>(`${B}/uKeyList`, {
          tab,
          keyword: ukeySn,
          pageNum: 1,
          pageSize: 100,
        });
        const found = page.list.find((k) => k.ukeySn === ukeySn);
        if (found) return found;
      }
      return null;
    },
    enabled: token !== null && !!ukeySn,
  });
}

export function useBindSeals(ukeySn: string | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...UKEYS_KEY, 'bindSeals', token, ukeySn],
    queryFn: () => apiGet<UkeyBindSeals>(`${B}/getUKeyBindSeals`, { ukeySn }),
    enabled: token !== null && !!ukeySn,
  });
}

export function useAgentDownload(enabled = true) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...UKEYS_KEY, 'download', token],
    queryFn: () => apiGet<AgentDownload>(`${B}/download`),
    enabled: enabled && token !== null,
    staleTime: 10 * 60_000,
  });
}

export function fetchChallenge(ukeySn: string) {
  return apiPost<UkeyChallenge>(`${B}/challenge`, { ukeySn });
}

export function bindUkey(request: UkeyBindRequest) {
  return apiPost<BoundUkey>(`${B}/binding`, request);
}

export function cancelUkeyBinding(ukeySn: string) {
  return apiPost<{ ukeySn: string; status: 'unbound' }>(`${B}/cancelBinding`, { ukeySn });
}

export function fetchCertProperties(request: { ukeySn: string } | { certificate: string }) {
  return apiPost<UkeyCert>(`${B}/certProperties`, request);
}

export function updateBindingSeal(request: { ukeySn: string; sealCodes: string[]; ukeyName?: string }) {
  return apiPost<BoundUkey>(`${B}/updateBindingSeal`, request);
}

// --- applications ---

export interface UkeyApplyFilter {
  status?: UkeyApplyStatus;
  ukeyType?: UkeyApplyType;
  pageNum: number;
  pageSize: number;
}

export function useUkeyApplies(filter: UkeyApplyFilter, enabled: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...UKEYS_KEY, 'applies', token, filter],
    queryFn: () => apiPost<UkeyApplyPage>(`${A}/list`, filter),
    enabled: enabled && token !== null,
    placeholderData: keepPreviousData,
  });
}

export function useUkeyApplyDetail(applyNo: string | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...UKEYS_KEY, 'apply', token, applyNo],
    queryFn: () => apiPost<UkeyApplyDetail>(`${A}/detail`, { applyNo }),
    enabled: token !== null && !!applyNo,
  });
}

export function useUkeyApplyInfo(enabled: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...UKEYS_KEY, 'applyInfo', token],
    queryFn: () => apiPost<UkeyApplyInfo>(`${A}/info`, {}),
    enabled: enabled && token !== null,
    staleTime: 30_000,
  });
}

export function applyForUkey(request: UkeyApplyRequest) {
  return apiPost<UkeyApply>(`${A}/apply`, request);
}

export function revokeUkeyApply(applyNo: string) {
  return apiPost<UkeyApply>(`${A}/revoke`, { applyNo });
}

export function fetchMakingData(request: { applyNo: string; ukeySn: string; publicKeySpki: string }) {
  return apiPost<UkeyMakingData>(`${A}/makingData`, request);
}

export function finishUkeyApply(request: {
  applyNo: string;
  ukeySn: string;
  challengeId: string;
  signature: string;
}) {
  return apiPost<UkeyApply>(`${A}/done`, request);
}

export function executeUkeyApplyOpt(request: {
  applyNo: string;
  opt: 'fail' | 'retry' | 'revoke';
  reason?: string;
}) {
  return apiPost<UkeyApply>(`${A}/executeOpt`, request);
}
