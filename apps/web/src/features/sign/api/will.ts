import { useQuery } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../lib/api-client';
import { useAccessToken } from '../../../hooks/use-session';
import { SIGN_KEY } from './flows';
import type { CreateWillResponse, WillSendCodeResponse, WillStatusResponse } from './types';

/** Will-auth: the signer confirms the intent to sign by an SMS code (source sign = 3). */
export const WILL_SOURCE_SIGN = 3;

export function createWill(taskId: string, redirectUrl?: string) {
  return apiPost<CreateWillResponse>('/v1/will/createWillUrl', {
    source: WILL_SOURCE_SIGN,
    bizId: taskId,
    redirectUrl,
  });
}

export function sendWillCode(willBizId: string) {
  return apiPost<WillSendCodeResponse>(`/v1/will/${encodeURIComponent(willBizId)}/sendCode`, {});
}

export function verifyWill(willBizId: string, code: string) {
  return apiPost<WillStatusResponse>(`/v1/will/${encodeURIComponent(willBizId)}/verify`, { code });
}

export function useWillStatus(willBizId: string | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SIGN_KEY, 'will', token, willBizId],
    queryFn: () => apiGet<WillStatusResponse>('/v1/will/willStatus', { willBizId }),
    enabled: token !== null && Boolean(willBizId),
  });
}

export function saveFrontData(willBizId: string, data: string) {
  return apiPost<unknown>('/v1/will/saveFrontData', { willBizId, data });
}

export function getFrontData(willBizId: string) {
  return apiGet<{ data: string | null }>('/v1/will/getFrontData', { willBizId });
}
