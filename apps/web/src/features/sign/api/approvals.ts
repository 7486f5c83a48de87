import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../lib/api-client';
import { useAccessToken } from '../../../hooks/use-session';
import { SIGN_KEY } from './flows';
import type {
  ApprovalAction,
  ApprovalListResponse,
  ApprovalStatus,
  ApprovalSummary,
  RequestApprovalRequest,
} from './types';
import { ADDRESS_REFRESH_MS } from '../../../lib/query-client';

/**
 * Seal-use approvals: a member signing with a seal they do not administer asks its administrators. The
 * list and decision paths carry no /v1 prefix (as the specification writes them).
 */
export function requestApproval(flowId: string, taskId: string, request: RequestApprovalRequest) {
  return apiPost<ApprovalSummary>(
    `/v1/sign/flow/${encodeURIComponent(flowId)}/task/${encodeURIComponent(taskId)}/approval`,
    request,
  );
}

export function useApprovalList(
  which: 'receive' | 'start',
  query: { status?: ApprovalStatus; pageNum: number; pageSize: number },
) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SIGN_KEY, 'approvals', which, token, query],
    refetchInterval: ADDRESS_REFRESH_MS,
    queryFn: () => apiGet<ApprovalListResponse>(`/seal/approves/${which}`, query),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}

/** The task's latest approval (null when none was raised). */
export function useTaskApproval(flowId: string | null, taskId: string | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SIGN_KEY, 'taskApproval', token, flowId, taskId],
    refetchInterval: ADDRESS_REFRESH_MS,
    queryFn: () =>
      apiGet<ApprovalSummary | null>(
        `/seal/approve/flow/${encodeURIComponent(flowId ?? '')}/task/${encodeURIComponent(taskId ?? '')}`,
        undefined,
        { silent: true },
      ).catch(() => null),
    enabled: token !== null && Boolean(flowId) && Boolean(taskId),
  });
}

export function decideApproval(approvalId: string, action: ApprovalAction, reason?: string) {
  return apiPost<ApprovalSummary>(`/seal/approve/${encodeURIComponent(approvalId)}`, { action, reason });
}
