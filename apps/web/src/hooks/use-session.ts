import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { apiGet } from '../lib/api-client';
import type { AccountInfo, CheckLoginStatusResponse } from '../lib/contracts';
import { getAccessToken, subscribeSession } from '../lib/session';

/** Queries that belong to the signed-in user share this key prefix, so one call drops them on logout. */
export const SESSION_QUERY_PREFIX = 'session';
export const ACCOUNT_INFO_KEY = [SESSION_QUERY_PREFIX, 'accountInfo'] as const;
export const LOGIN_STATUS_KEY = [SESSION_QUERY_PREFIX, 'loginStatus'] as const;

export function useAccessToken(): string | null {
  return useSyncExternalStore(subscribeSession, getAccessToken, () => null);
}

export function fetchAccountInfo(): Promise<AccountInfo> {
  return apiGet<AccountInfo>('/v1/accounts/info');
}

/** The signed-in user (GET /v1/accounts/info); disabled while logged out. */
export function useAccountInfo() {
  const token = useAccessToken();
  const query = useQuery({
    queryKey: [...ACCOUNT_INFO_KEY, token],
    queryFn: fetchAccountInfo,
    enabled: token !== null,
    staleTime: 60_000,
  });
  return { ...query, token, isLoggedIn: token !== null };
}

/** GET /v1/accounts/checkLoginStatus: never an error; `valid: false` means the stored token is dead. */
export function useLoginStatus() {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...LOGIN_STATUS_KEY, token],
    queryFn: () =>
      apiGet<CheckLoginStatusResponse>('/v1/accounts/checkLoginStatus', undefined, { silent: true }),
    enabled: token !== null,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Identity of an account-info answer: an organisation present means 1 (spec section 4). */
export function identityOf(info: AccountInfo | undefined): 1 | 2 | null {
  if (!info) return null;
  return info.userInfoOrg ? 1 : info.identityType;
}

/** The current space is real-named: the person, and the organisation in an organisation space. */
export function isSpaceRealNamed(info: AccountInfo | undefined): boolean {
  if (!info) return false;
  const personOk = info.userInfoPerson.hasRealName;
  return info.userInfoOrg ? personOk && info.userInfoOrg.hasRealName : personOk;
}
