import type { contracts } from '@openseal/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet, apiPost } from '../../../lib/api-client';
import { SESSION_QUERY_PREFIX, useAccessToken } from '../../../hooks/use-session';
import { SEALS_KEY } from './seals';
import { hasPoint, usePermissions } from '../../../hooks/use-permissions';

/**
 * Seal authorisations (spec sections 4, 6 and 7, Authorisation): an organisation lets members or apps use
 * one of its seals, with counted or unlimited uses, dated or permanent validity and an app range. The
 * server decides who may read or change what; the pages only show what it answers.
 */
export type SealAuthorization = z.output<typeof contracts.sealAuthorization>;
export type SealAuthPage = z.output<typeof contracts.sealAuthPage>;
export type SealAuthListRequest = z.input<typeof contracts.sealAuthListRequest>;
export type AddSealAuthRequest = z.input<typeof contracts.addSealAuthRequest>;
export type EditSealAuthRequest = z.input<typeof contracts.editSealAuthRequest>;
export type AuthStatus = SealAuthorization['status'];
export type GranteeType = SealAuthorization['granteeType'];
type MemberOut = z.output<typeof contracts.memberOut>;

/** Under the seals root, so a seal mutation anywhere refreshes what authorisations show as well. */
export const SEAL_AUTH_KEY = [...SEALS_KEY, 'authorisations'] as const;

/**
 * mySealsAuthorized: all of the organisation's grants (authorise permission) or the caller's own;
 * `mine: true` asks for only the grants to the caller whatever their permissions (the grantee's page).
 */
export function useSealAuthList(request: SealAuthListRequest, enabled = true) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SEAL_AUTH_KEY, 'list', token, request],
    queryFn: () => apiPost<SealAuthPage>('/v1/sealAuth/mySealsAuthorized', request),
    enabled: enabled && token !== null,
    placeholderData: keepPreviousData,
  });
}

/** One grant with its remaining uses: GET /v1/sealAuth/sealAuthDetail/{authCode}. */
export function useSealAuthDetail(authCode: string | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SEAL_AUTH_KEY, 'detail', token, authCode],
    queryFn: () =>
      apiGet<SealAuthorization>(`/v1/sealAuth/sealAuthDetail/${encodeURIComponent(authCode ?? '')}`),
    enabled: token !== null && authCode !== null && authCode !== '',
  });
}

/** getAuthorSeals: the grants to the caller that can be used now (in effect, in validity, uses left). */
export function useAuthorSeals(enabled = true) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SEAL_AUTH_KEY, 'usable', token],
    queryFn: () => apiGet<{ list: SealAuthorization[] }>('/v1/accounts/getAuthorSeals'),
    enabled: enabled && token !== null,
  });
}

export function addSealAuth(request: AddSealAuthRequest) {
  return apiPost<{ list: SealAuthorization[] }>('/v1/sealAuth/addSealAuth', request);
}

export function editSealAuth(request: EditSealAuthRequest) {
  return apiPost<SealAuthorization>('/v1/sealAuth/editSealAuth', request);
}

export function cancelSealAuth(authCode: string) {
  return apiPost<SealAuthorization>(`/v1/sealAuth/cancelAuth/${encodeURIComponent(authCode)}`, {});
}

/** The pages offer grant, edit and cancel only with `seal.authorise`. */
export function useAuthorisePermission(enabled = true) {
  const query = usePermissions(enabled);
  return { ...query, canAuthorise: hasPoint(query.data, 'seal.authorise') };
}

/**
 * Active members of the organisation to grant to (POST /v1/organizes/members/accounts, member.view). Quiet:
 * without the member view point the form says so in place and still grants to apps.
 */
export function useGranteeMembers(enabled = true) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [SESSION_QUERY_PREFIX, 'sealAuthMembers', token],
    queryFn: () =>
      apiPost<{ total: number; list: MemberOut[] }>(
        '/v1/organizes/members/accounts',
        {
          status: 'active',
          pageNum: 1,
          pageSize: 100,
        },
        { silent: true },
      ),
    enabled: enabled && token !== null,
    staleTime: 30_000,
  });
}
