import type { contracts } from '@openseal/core';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet, apiPost, apiUpload } from '../../../lib/api-client';
import { useAccessToken, useAccountInfo } from '../../../hooks/use-session';
import { SEALS_KEY, type SealKindOption } from './seals';

/**
 * Seal applications (work orders) of the current space, spec sections 1–4 and 7: previews, applying,
 * the record list, revoke, submit a draft, retry after failed making, claim links and production progress.
 */
export type WorkOrder = z.output<typeof contracts.workOrder>;
export type WorkOrderPage = z.output<typeof contracts.workOrderPage>;
export type WorkOrderStatus = WorkOrder['status'];
export type ReceiveStatus = WorkOrder['receiveStatus'];
export type MakingState = z.output<typeof contracts.makingState>;
export type SealApplyRequest = z.input<typeof contracts.sealApplyRequest>;
export type SealApplyListRequest = z.input<typeof contracts.sealApplyListRequest>;
export type MoulagePreviewRequest = z.input<typeof contracts.moulagePreviewRequest>;
export type MoulagePreview = z.output<typeof contracts.moulagePreview>;
export type SealKindStatus = z.output<typeof contracts.sealKindStatus>;
export type ClaimLink = z.output<typeof contracts.claimLink>;
export type CheckSealAsync = z.output<typeof contracts.checkSealAsync>;
export type ActiveFlowResponse = z.output<typeof contracts.activeFlowResponse>;
export type ReceiveStatusAnswer = z.output<typeof contracts.receiveStatus>;
export type CustomSealList = z.output<typeof contracts.customSealList>;
export type UploadedFile = z.output<typeof contracts.uploadedFile>;
export type SealKind = SealKindOption['kind'];
export type SealCarrier = WorkOrder['carrier'];

const APPLY_KEY = [...SEALS_KEY, 'apply'] as const;

// --- kinds and previews ---

/** Custom kinds of CUSTOM_SEAL_CONFIG with the longest title an applicant may write. */
export function useCustomSealConfig() {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...APPLY_KEY, 'custom', token],
    queryFn: () => apiPost<CustomSealList>('/v1/seals/getCustomSealList', {}),
    enabled: token !== null,
    staleTime: 60_000,
  });
}

/** Per kind: the space's seals of it and its open applications, i.e. whether another may be applied for. */
export function useKindStatuses(kinds: readonly SealKind[]) {
  const token = useAccessToken();
  return useQueries({
    queries: kinds.map((kind) => ({
      queryKey: [...APPLY_KEY, 'kindStatus', token, kind],
      queryFn: () => apiGet<SealKindStatus>(`/v1/seals/${encodeURIComponent(kind)}/sealStatus`),
      enabled: token !== null,
      staleTime: 10_000,
    })),
  });
}

/** The impression the server would make (template and PNG); null request: nothing to preview. */
export function useMoulagePreview(request: MoulagePreviewRequest | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...APPLY_KEY, 'moulage', token, request],
    queryFn: () => apiPost<MoulagePreview>('/v1/seals/moulages', request, { silent: true }),
    enabled: token !== null && request !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
}

// --- applications ---

export function applySeal(request: SealApplyRequest) {
  return apiPost<WorkOrder>('/v1/seals/sealApply', request);
}

/** Submits a saved (pre-created) application for review. */
export function submitDraft(applyNo: string) {
  return apiPost<WorkOrder>('/v1/seals/sealApply', { applyNo });
}

export function revokeApply(applyNo: string) {
  return apiPost<WorkOrder>(`/v1/seals/sealApply/revoke/${encodeURIComponent(applyNo)}`, {});
}

export function retryMaking(applyNo: string) {
  return apiPost<ActiveFlowResponse>('/v1/seals/selfRetry', { applyNo });
}

/** A signed, expiring claim link for the legal representative. */
export function claimLink(applyNos: readonly string[]) {
  return apiGet<ClaimLink>('/v1/seals/redirectUrl', { applyNos: applyNos.join(',') });
}

export function useWorkOrders(filter: SealApplyListRequest, enabled = true) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...APPLY_KEY, 'list', token, filter],
    queryFn: () => apiPost<WorkOrderPage>('/v1/seals/sealApplys', filter),
    enabled: enabled && token !== null,
    placeholderData: keepPreviousData,
  });
}

export function useWorkOrder(applyNo: string | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...APPLY_KEY, 'detail', token, applyNo],
    queryFn: () => apiGet<WorkOrder>(`/v1/seals/sealApply/${encodeURIComponent(applyNo ?? '')}`),
    enabled: token !== null && applyNo !== null && applyNo !== '',
  });
}

/** Production state of a claimed application, polled every 2 s while `polling`. */
export function useMakingProgress(applyNo: string, polling: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...APPLY_KEY, 'making', token, applyNo],
    queryFn: () => apiPost<CheckSealAsync>('/v1/seals/checkSealAsync', { applyNo }),
    enabled: token !== null && polling,
    refetchInterval: polling ? 2_000 : false,
  });
}

/** Whether the caller may claim this application themselves (the legal representative, or a person). */
export function useReceiveStatus(applyNo: string, enabled: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...APPLY_KEY, 'receive', token, applyNo],
    queryFn: () => apiPost<ReceiveStatusAnswer>('/v1/seals/getSealReceiveStatus', { applyNo }),
    enabled: token !== null && enabled,
  });
}

/** Uploads a drawn seal image (purpose `sealImage`: transparent PNG ≤ 50 KB). */
export function uploadSealImage(png: Blob): Promise<UploadedFile> {
  return apiUpload<UploadedFile>('/v1/file/uploadPic', { purpose: 'sealImage' }, png, 'hand-drawn-seal.png');
}

/** Who is looking: in an organisation space, and whether as its legal representative (who claims seals). */
export function useApplyViewer(): { inOrg: boolean; isLegal: boolean } | null {
  const account = useAccountInfo();
  if (!account.data) return null;
  return {
    inOrg: Boolean(account.data.userInfoOrg),
    isLegal: account.data.roles.some((r) => r.code === 'legalPerson'),
  };
}
