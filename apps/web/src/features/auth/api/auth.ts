import { useQuery } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../lib/api-client';
import type { LoginRequest, LoginResponse, SendCodeResponse } from '../../../lib/contracts';

/** Login and registration by mobile number (SMS code or password), and the sandbox SMS outbox. */
export function sendLoginCode(mobile: string): Promise<SendCodeResponse> {
  return apiPost<SendCodeResponse>('/v1/msgs/loginRegister/send', { mobile }, { notLogin: true });
}

export function login(request: LoginRequest): Promise<LoginResponse> {
  return apiPost<LoginResponse>('/v1/accounts/login', request, { notLogin: true });
}

export interface SandboxSms {
  id: string;
  mobile: string;
  scene: string;
  body: string;
  code: string | null;
  status: string;
  createdAt: string;
}

/** Sandbox only: the messages the sandbox SMS provider "sent" to a number, newest first. */
export function useSmsOutbox(mobile: string, enabled: boolean) {
  return useQuery({
    queryKey: ['sandbox', 'smsOutbox', mobile],
    queryFn: () => apiGet<{ messages: SandboxSms[] }>('/v1/dev/sms-outbox', { mobile }, { silent: true }),
    enabled: enabled && mobile.length > 0,
    // Delivery is asynchronous: poll while the panel is open.
    refetchInterval: 1_500,
    retry: false,
  });
}
