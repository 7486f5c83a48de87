import type { contracts } from '@openseal/core';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet, apiPost } from '../../../lib/api-client';
import { useAccessToken } from '../../../hooks/use-session';
import type { ClaimLink, FlowEntry } from '../model/flow-outcome';
import type { ExpiryTip } from '../model/seal-expiry-tip';
import { SEALS_KEY } from './seals';

/**
 * The calls of the seal-collection flow (claim links, identity check, claim, production progress) and of
 * the seal-expiry tip (spec section 7: Seals, Misc sealRemind). The server checks every rule again.
 */
export type WorkOrder = z.output<typeof contracts.workOrder>;
export type ClaimFlowSeals = z.output<typeof contracts.claimFlowSeals>;
export type IdentityCheck = z.output<typeof contracts.identityCheck>;
export type ReceiveStatusAnswer = z.output<typeof contracts.receiveStatus>;
export type ActiveFlowAnswer = z.output<typeof contracts.activeFlowResponse>;
export type CheckSealAsync = z.output<typeof contracts.checkSealAsync>;
export type ClaimLinkAnswer = z.output<typeof contracts.claimLink>;
export type MoulagePreview = z.output<typeof contracts.moulagePreview>;

export const FLOW_KEY = [...SEALS_KEY, 'flow'] as const;

/** The seals a claim link offers (silent: the page explains a refused link itself). */
export function fetchClaimFlowSeals(link: ClaimLink): Promise<ClaimFlowSeals> {
  return apiGet<ClaimFlowSeals>(
    `/v1/seals/${encodeURIComponent(link.getSealFlowId)}/sealTypes`,
    { expires: link.expires, sig: link.sig },
    { silent: true },
  );
}

/** Whether the caller is the legal representative who may claim through the link. */
export function fetchIdentityCheck(link: ClaimLink): Promise<IdentityCheck> {
  return apiGet<IdentityCheck>(
    `/v1/seals/identityCheck/${encodeURIComponent(link.getSealFlowId)}`,
    { expires: link.expires, sig: link.sig },
    { silent: true },
  );
}

/** Claim and production status of one application (silent: the flow explains a refusal). */
export function fetchReceiveStatus(applyNo: string): Promise<ReceiveStatusAnswer> {
  return apiPost<ReceiveStatusAnswer>('/v1/seals/getSealReceiveStatus', { applyNo }, { silent: true });
}

/** Claim and production status of a claim link's applications. */
export function fetchLinkReceiveStatus(link: ClaimLink): Promise<ReceiveStatusAnswer> {
  return apiPost<ReceiveStatusAnswer>('/v1/seals/getSealReceiveStatus', { ...link }, { silent: true });
}

/** One application in full (GET /v1/seals/sealApply/{applyNo}), for its seal's name and kind. */
export function fetchWorkOrder(applyNo: string): Promise<WorkOrder> {
  return apiGet<WorkOrder>(`/v1/seals/sealApply/${encodeURIComponent(applyNo)}`, undefined, {
    silent: true,
  });
}

/** The claim itself: the agreement was accepted; production starts (as a job when so configured). */
export function claimSeals(input: { applyNos: string[] } | { link: ClaimLink }): Promise<ActiveFlowAnswer> {
  const body = 'link' in input ? { ...input.link } : { applyNos: input.applyNos };
  return apiPost<ActiveFlowAnswer>(
    '/v1/seals/activeFlow',
    { ...body, agreementAccepted: true },
    { silent: true },
  );
}

export function checkSealAsync(applyNo: string): Promise<CheckSealAsync> {
  return apiPost<CheckSealAsync>('/v1/seals/checkSealAsync', { applyNo }, { silent: true });
}

/** Production again after it failed. */
export function retryMaking(applyNo: string): Promise<ActiveFlowAnswer> {
  return apiPost<ActiveFlowAnswer>('/v1/seals/selfRetry', { applyNo });
}

/** A signed claim link (7 days) for the legal representative. */
export function fetchClaimLink(applyNos: string[]): Promise<ClaimLinkAnswer> {
  return apiGet<ClaimLinkAnswer>('/v1/seals/redirectUrl', { applyNos: applyNos.join(',') });
}

/** The impression a work order will get, drawn by the server (not for hand-drawn seals). */
export function useWorkOrderPreview(order: WorkOrder | null) {
  const token = useAccessToken();
  const enabled = token !== null && order !== null && order.sealKind !== 'personalHandDrawn';
  return useQuery({
    queryKey: [...FLOW_KEY, 'preview', token, order?.applyNo],
    queryFn: () =>
      apiPost<MoulagePreview>(
        '/v1/seals/moulages',
        {
          sealKind: order!.sealKind,
          sealType: order!.sealType,
          title: order!.title ?? undefined,
          title0: order!.title0 ?? undefined,
        },
        { silent: true },
      ),
    enabled,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

// --- the seal-expiry tip ---

/** GET /v1/permission/scene/{scene}: persons are always allowed. */
export function useScenePermission(scene: 'sealManage' | 'receiveUkey', enabled: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SEALS_KEY, 'scene', token, scene],
    queryFn: () =>
      apiGet<{ sceneCode: string; allowed: boolean }>(`/v1/permission/scene/${scene}`, undefined, {
        silent: true,
      }),
    enabled: enabled && token !== null,
    staleTime: 60_000,
    retry: false,
  });
}

export const REMIND_KEY = [...SEALS_KEY, 'remind'] as const;

/** The current expiry tip or null. Under the seals key, so a renewal elsewhere refreshes it. */
export function useLastRemind(enabled: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...REMIND_KEY, token],
    queryFn: () => apiGet<ExpiryTip | null>('/v1/sealRemind/getLastRemind', undefined, { silent: true }),
    enabled: enabled && token !== null,
    staleTime: 60_000,
    retry: false,
  });
}

/** Closes the tip of a certificate; answers the next tip or null. */
export function closeRemind(certId: string): Promise<ExpiryTip | null> {
  return apiPost<ExpiryTip | null>('/v1/sealRemind/saveOperationLog', { certId });
}

// --- the flow as a whole ---

/** What /getSealFlow needs to decide and show: who the caller is, and the applications of the entry. */
export interface ClaimFlowView {
  organizeName: string | null;
  legalName: string | null;
  expiresAt: string | null;
  isLegalPerson: boolean;
  canClaim: boolean;
  flowStatus: 'open' | 'done' | undefined;
  orders: WorkOrder[];
}

export async function loadClaimFlow(entry: FlowEntry): Promise<ClaimFlowView> {
  if (entry.kind === 'link') {
    const [who, seals] = await Promise.all([fetchIdentityCheck(entry.link), fetchClaimFlowSeals(entry.link)]);
    return {
      organizeName: seals.organizeName,
      legalName: who.legalName,
      expiresAt: seals.expiresAt,
      isLegalPerson: who.isLegalPerson,
      canClaim: who.canClaim,
      flowStatus: who.flowStatus,
      orders: seals.list,
    };
  }
  const [status, ...orders] = await Promise.all([
    fetchReceiveStatus(entry.applyNos[0]!),
    ...entry.applyNos.map(fetchWorkOrder),
  ]);
  return {
    organizeName: orders[0]?.organizeName ?? null,
    legalName: null,
    expiresAt: null,
    isLegalPerson: status.isLegalPerson,
    canClaim: status.canClaim,
    flowStatus: undefined,
    orders,
  };
}

export function useClaimFlow(entry: FlowEntry | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...FLOW_KEY, 'view', token, entry],
    queryFn: () => loadClaimFlow(entry!),
    enabled: token !== null && entry !== null,
    retry: false,
  });
}

/** Claim and production state of every application of an entry (the result pages). */
export async function loadFlowStatus(entry: FlowEntry): Promise<ReceiveStatusAnswer> {
  if (entry.kind === 'link') return fetchLinkReceiveStatus(entry.link);
  const answers = await Promise.all(entry.applyNos.map(fetchReceiveStatus));
  return {
    isLegalPerson: answers[0]?.isLegalPerson ?? false,
    canClaim: answers[0]?.canClaim ?? false,
    list: answers.flatMap((a) => a.list),
  };
}

export function useFlowStatus(entry: FlowEntry | null, refetchInterval: number | false = false) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...FLOW_KEY, 'status', token, entry],
    queryFn: () => loadFlowStatus(entry!),
    enabled: token !== null && entry !== null,
    refetchInterval,
    retry: false,
  });
}

/** The applications' names and kinds for the result pages (quietly absent when not readable). */
export function useWorkOrders(applyNos: readonly string[]) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...FLOW_KEY, 'orders', token, applyNos],
    queryFn: async () => {
      const found = await Promise.all(applyNos.map((n) => fetchWorkOrder(n).catch(() => null)));
      return found.filter((o): o is WorkOrder => o !== null);
    },
    enabled: token !== null && applyNos.length > 0,
    retry: false,
  });
}

/** Production progress of every application of an entry, polled while the seals are being made. */
export function useMakingStatus(entry: FlowEntry | null, poll: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...FLOW_KEY, 'making', token, entry],
    queryFn: async () => {
      const applyNos =
        entry!.kind === 'link'
          ? (await fetchLinkReceiveStatus(entry!.link)).list.map((i) => i.applyNo)
          : entry!.applyNos;
      return Promise.all(applyNos.map(checkSealAsync));
    },
    enabled: token !== null && entry !== null,
    refetchInterval: poll ? 1_000 : false,
    retry: false,
  });
}
