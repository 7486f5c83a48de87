import { useQuery } from '@tanstack/react-query';
import { SESSION_QUERY_PREFIX } from '../../../hooks/use-session';
import { apiPost } from '../../../lib/api-client';
import type { AccountList, TokenResponse } from '../../../lib/contracts';

/**
 * The spaces of the signed-in person and the switch into one (spec sections 4 and 7): the same calls the
 * account dropdown makes, kept here because features do not import each other.
 */
export function useSpaces(token: string | null) {
  return useQuery({
    queryKey: [SESSION_QUERY_PREFIX, 'selectSpace', token],
    queryFn: () => apiPost<AccountList>('/v1/accounts', {}),
    enabled: token !== null,
    staleTime: 30_000,
  });
}

export function handoverToAccount(accountId: string): Promise<TokenResponse> {
  return apiPost<TokenResponse>('/v1/accounts/handover/login', { accountId });
}
