import type { contracts } from '@openseal/core';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet, apiPost, apiUpload } from '../../../lib/api-client';

/** The real-name flow of spec sections 2 and 5 (`/v1/accounts/auth/*`) and the info-change confirmation. */
export type RealNameFlowRequest = z.input<typeof contracts.realNameFlowRequest>;
export type RealNameFlowResponse = z.output<typeof contracts.realNameFlowResponse>;
export type RealNamePersonRequest = z.input<typeof contracts.realNamePersonRequest>;
export type RealNamePersonResponse = z.output<typeof contracts.realNamePersonResponse>;
export type RealNameOrgRequest = z.input<typeof contracts.realNameOrgRequest>;
export type RealNameOrgResponse = z.output<typeof contracts.realNameOrgResponse>;
export type RealNameResult = z.output<typeof contracts.realNameResult>;
export type RealNameRecords = z.output<typeof contracts.realNameRecords>;
export type RealNameMaterial = z.output<typeof contracts.realNameMaterial>;
export type RealNameAuditDetail = z.output<typeof contracts.realNameAuditDetail>;
export type RealNameStep = RealNameResult['step'];
export type MaterialKind = RealNameMaterial['kind'];
export type OrgMethod = RealNameOrgRequest['method'];
export type DiscoverChangedItems = z.output<typeof contracts.discoverChangedItemsResponse>;
export type ConfirmChangedItems = z.output<typeof contracts.confirmChangedItemsResponse>;
export type ChangedItem = DiscoverChangedItems['discoverChangedItems'][number];
export type Holders = z.output<typeof contracts.holdersOut>;

export const REALNAME_QUERY_KEY = ['session', 'realname'] as const;

const flowPath = (flowId: string, tail: string) => `/v1/accounts/auth/${encodeURIComponent(flowId)}/${tail}`;

export function startFlow(request: RealNameFlowRequest): Promise<RealNameFlowResponse> {
  return apiPost<RealNameFlowResponse>('/v1/accounts/auth/flow', request);
}

export function submitPerson(
  flowId: string,
  request: RealNamePersonRequest,
): Promise<RealNamePersonResponse> {
  return apiPost<RealNamePersonResponse>(flowPath(flowId, 'person'), request);
}

export function submitOrganization(
  flowId: string,
  request: RealNameOrgRequest,
): Promise<RealNameOrgResponse> {
  return apiPost<RealNameOrgResponse>(flowPath(flowId, 'organization'), request);
}

export function confirmCode(flowId: string, code: string): Promise<RealNameResult> {
  return apiPost<RealNameResult>(flowPath(flowId, 'confirmCode'), { code: code.trim() });
}

/** A wrong amount is answered with an error the page shows next to the field, so no toast here. */
export function confirmAmount(flowId: string, amountCents: number): Promise<RealNameResult> {
  return apiPost<RealNameResult>(flowPath(flowId, 'confirmAmount'), { amountCents }, { silent: true });
}

export function fetchResult(flowId: string): Promise<RealNameResult> {
  return apiGet<RealNameResult>(flowPath(flowId, 'result'));
}

/** The flow's result, polled while it is still moving (verifying every second, under review every 3 s). */
export function useFlowResult(flowId: string | null) {
  return useQuery({
    queryKey: [...REALNAME_QUERY_KEY, 'result', flowId],
    queryFn: () => fetchResult(flowId!),
    enabled: flowId !== null,
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data || data.status !== 'pending') return false;
      if (data.step === 'verifying') return 1_000;
      if (data.step === 'awaitingReview') return 3_000;
      return false;
    },
  });
}

export function useRecords(enabled = true) {
  return useQuery({
    queryKey: [...REALNAME_QUERY_KEY, 'records'],
    queryFn: () => apiGet<RealNameRecords>('/v1/accounts/auth/records'),
    enabled,
  });
}

export function useAuditDetail(flowId: string | null) {
  return useQuery({
    queryKey: [...REALNAME_QUERY_KEY, 'auditDetail', flowId],
    queryFn: () => apiGet<RealNameAuditDetail>(flowPath(flowId!, 'auditDetail')),
    enabled: flowId !== null,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 3_000 : false),
  });
}

/** A time-limited download address for an uploaded material. */
export function fileUrl(fileKey: string): Promise<{ url: string }> {
  return apiPost<{ url: string }>('/v1/file/url', { fileKey });
}

/** Upload one manual-path material (multipart, through the same transport). */
export function uploadMaterial(kind: MaterialKind, file: File): Promise<RealNameMaterial> {
  return apiUpload<RealNameMaterial>('/v1/accounts/auth/material', { kind }, file, file.name);
}

export function useChangedItems() {
  return useQuery({
    queryKey: [...REALNAME_QUERY_KEY, 'changedItems'],
    queryFn: () => apiPost<DiscoverChangedItems>('/v1/organizes/discoverChangedItems', {}),
  });
}

export function confirmChangedItems(): Promise<ConfirmChangedItems> {
  return apiPost<ConfirmChangedItems>('/v1/organizes/confirmChangedItems', {});
}

/**
 * The check behind the info-change tip: once per token (a login or a space switch is a new token), and
 * silent, because a registry that cannot be reached must not put an error over every page.
 */
export function useChangedItemsCheck(token: string | null, enabled: boolean) {
  return useQuery({
    queryKey: [...REALNAME_QUERY_KEY, 'changedItems', token],
    queryFn: () => apiPost<DiscoverChangedItems>('/v1/organizes/discoverChangedItems', {}, { silent: true }),
    enabled: enabled && token !== null,
    staleTime: Infinity,
    retry: false,
  });
}

/** The legal representative and super administrator, named to a member who may not confirm. */
export function useHolders(enabled: boolean) {
  return useQuery({
    queryKey: [...REALNAME_QUERY_KEY, 'holders'],
    queryFn: () => apiPost<Holders>('/v1/organizes/legalPerson', {}, { silent: true }),
    enabled,
    retry: false,
  });
}
