import { useQuery } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../lib/api-client';
import type {
  AccountList,
  CreateOrgRequest,
  CreateOrgResponse,
  LogoutResponse,
  TokenResponse,
} from '../../../lib/contracts';

/** The spaces of the signed-in user and the calls that move between them (spec sections 1, 4 and 7). */
export const OWN_ACCOUNTS_KEY = ['session', 'ownAccounts'] as const;

export function useOwnAccounts(token: string | null, enabled: boolean) {
  return useQuery({
    queryKey: [...OWN_ACCOUNTS_KEY, token],
    queryFn: () => apiPost<AccountList>('/v1/accounts', {}),
    enabled: enabled && token !== null,
    staleTime: 30_000,
  });
}

export function handoverToAccount(accountId: string): Promise<TokenResponse> {
  return apiPost<TokenResponse>('/v1/accounts/handover/login', { accountId });
}

export function handoverToPersonal(): Promise<TokenResponse> {
  return apiPost<TokenResponse>('/v1/organizes/handover/login', { type: 2 });
}

/** Failures are swallowed without a toast (spec section 8); the dialog shows field errors itself. */
export function createOrganization(request: CreateOrgRequest): Promise<CreateOrgResponse> {
  return apiPost<CreateOrgResponse>(
    '/v1/organizes/add',
    { organizeName: request.organizeName.trim(), uscc: request.uscc.trim() },
    { silent: true },
  );
}

export function deleteOrganization(organizeId: string): Promise<unknown> {
  return apiPost<unknown>('/v1/organizes/delete', { organizeId }, { silent: true });
}

/** true when an organisation with this name or credit code already exists. */
export function isDuplicate(field: 'organizeName' | 'uscc', value: string): Promise<boolean> {
  return apiGet<boolean>('/v1/organizes/duplicateCheck', { [field]: value }, { silent: true });
}

export function logout(redirectUrl?: string): Promise<LogoutResponse> {
  return apiPost<LogoutResponse>('/v1/accounts/logout', redirectUrl ? { redirectUrl } : {});
}
