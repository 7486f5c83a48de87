import { useQuery } from '@tanstack/react-query';
import type { contracts } from '@openseal/core';
import type { z } from 'zod';
import { apiGet, apiPost } from '../../../lib/api-client';

/** Single sign-on over the platform's OpenID relying party (spec sections 4 and 7). */
export type SsoLoginType = z.output<typeof contracts.ssoLoginType>;
export type SsoStatus = z.output<typeof contracts.ssoStatus>;
export type SsoBeforeLoginRequest = z.input<typeof contracts.ssoBeforeLoginRequest>;
export type SsoBeforeLoginResponse = z.output<typeof contracts.ssoBeforeLoginResponse>;
export type SsoResult = z.output<typeof contracts.ssoResult>;
export type SsoAgentInfo = z.output<typeof contracts.ssoAgentInfo>;
export type SsoOwnOrganize = z.output<typeof contracts.ssoOwnOrganize>;

/** Whether the login page offers single sign-on; an unreachable server simply hides the entry. */
export function useSsoStatus() {
  return useQuery({
    queryKey: ['sso', 'status'],
    queryFn: () => apiGet<SsoStatus>('/v1/sso/status', undefined, { silent: true }),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Starts a flow; the answer is the provider's authorization address to open. */
export function beginSso(request: SsoBeforeLoginRequest): Promise<SsoBeforeLoginResponse> {
  return apiPost<SsoBeforeLoginResponse>('/v1/sso/beforeLogin', request, { notLogin: true });
}

/**
 * The outcome of a flow. It hands out the token once, so the page keeps it in one query that is never
 * refetched; its failures (315 above all) are shown by the page, not as toasts.
 */
export function fetchSsoResult(flowId: string): Promise<SsoResult> {
  return apiGet<SsoResult>(`/v1/sso/${encodeURIComponent(flowId)}/result`, undefined, {
    silent: true,
    notLogin: true,
  });
}

export function useSsoResult(flowId: string | null) {
  return useQuery({
    queryKey: ['sso', 'result', flowId],
    queryFn: () => fetchSsoResult(flowId!),
    enabled: flowId !== null,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
}

/**
 * operateType 1: prove a mobile with a loginRegister SMS code; answers the flow's next result. The caller
 * shows 315 as the login-exception dialog and passes other failures to the error handler.
 */
export function checkSsoMobile(request: {
  flowId: string;
  mobile: string;
  code: string;
}): Promise<SsoResult> {
  return apiPost<SsoResult>('/v1/sso/checkMobile', request, { notLogin: true });
}

/** operateType 2: who is logging in and which organisations they may enter. */
export function useSsoAgentInfo(flowId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['sso', 'agentInfo', flowId],
    queryFn: () =>
      apiPost<SsoAgentInfo>('/v1/sso/agent/after/info', { flowId }, { silent: true, notLogin: true }),
    enabled,
    retry: false,
    staleTime: Infinity,
  });
}

/** operateType 2: the chosen organisation, or null for the personal space. */
export function confirmSsoSpace(request: { flowId: string; organizeId: string | null }): Promise<SsoResult> {
  return apiPost<SsoResult>('/v1/sso/agent/after/confirm', request, { notLogin: true });
}
