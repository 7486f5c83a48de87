import { apiPost } from '../../../lib/api-client';
import type { SendCodeResponse, UpdatePasswordRequest, VerifyCodeResponse } from '../../../lib/contracts';

/** Set or change the login password, with the old password or a verified SMS flow. */
export function sendMobileModifyCode(): Promise<SendCodeResponse> {
  return apiPost<SendCodeResponse>('/v1/msgs/mobileModify/send', {});
}

export function verifyCode(flowId: string, code: string): Promise<VerifyCodeResponse> {
  return apiPost<VerifyCodeResponse>(`/v1/msgs/verify/${encodeURIComponent(flowId)}`, { code });
}

export function updatePassword(request: UpdatePasswordRequest): Promise<unknown> {
  return apiPost<unknown>('/v1/accounts/updatePassword', request);
}
