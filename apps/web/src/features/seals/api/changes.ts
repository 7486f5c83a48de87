import type { contracts } from '@openseal/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet, apiPost } from '../../../lib/api-client';
import { useAccessToken } from '../../../hooks/use-session';
import { SEALS_KEY } from './seals';
import { ADDRESS_REFRESH_MS } from '../../../lib/query-client';

/**
 * Seal changes (spec section 7, Seal changes): apply (ordinary, personal name, hand-painted, with a
 * preview of the drawing at the seal's size), the records, one change's detail and cancelling a pending
 * one by changeNo.
 */
export type SealChange = z.output<typeof contracts.sealChange>;
export type SealChangePage = z.output<typeof contracts.sealChangePage>;
export type SealChangeListRequest = z.input<typeof contracts.sealChangeListRequest>;
export type ApplySealChangeRequest = z.input<typeof contracts.applySealChangeRequest>;
export type UploadedFile = z.output<typeof contracts.uploadedFile>;
export type CustomSealList = z.output<typeof contracts.customSealList>;
export type TempHandPaintedPic = z.output<typeof contracts.tempHandPaintedPic>;
export type ClearFreehandResult = z.output<typeof contracts.clearFreehandResult>;

/**
 * The custom kinds (department, industry, practice) with their drawing types and the longest title, as
 * the custom seal configuration gives them: what a change of such a seal may choose from.
 */
export function useChangeCustomKinds(enabled: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SEALS_KEY, 'changes', 'customKinds', token],
    queryFn: () => apiPost<CustomSealList>('/v1/seals/getCustomSealList', {}),
    enabled: enabled && token !== null,
    staleTime: 60_000,
  });
}

export function useSealChanges(request: SealChangeListRequest) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SEALS_KEY, 'changes', token, request],
    queryFn: () => apiPost<SealChangePage>('/v1/sealChanges/', request),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}

export function useSealChange(changeNo: string | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SEALS_KEY, 'change', token, changeNo],
    refetchInterval: ADDRESS_REFRESH_MS,
    queryFn: () =>
      apiGet<SealChange>(`/v1/sealChanges/sealChangeDetail/${encodeURIComponent(changeNo ?? '')}`),
    enabled: token !== null && Boolean(changeNo),
  });
}

/** Ordinary change of an organisation's seal: redrawn with the current name, or another style or title. */
export function applySealChange(request: ApplySealChangeRequest) {
  return apiPost<SealChange>('/v1/sealChanges/applySealChange', request, { timeoutMs: 60_000 });
}

/** A personal name seal redrawn with the person's current name. */
export function personSealChange(sealCode: string, reason: string) {
  return apiPost<SealChange>('/v1/sealChanges/personSealChange', { sealCode, reason }, { timeoutMs: 60_000 });
}

/** A hand-drawn seal replaced by a new uploaded drawing. */
export function handPaintedSealChange(sealCode: string, handDrawnFileKey: string, reason: string) {
  return apiPost<SealChange>('/v1/sealChanges/handPaintedSealChange', { sealCode, handDrawnFileKey, reason });
}

/** An uploaded drawing fitted to the hand-drawn seal's size, as the change would store it (nothing stored). */
export function tempHandPaintedPic(sealCode: string, handDrawnFileKey: string) {
  return apiPost<TempHandPaintedPic>(
    '/v1/sealChanges/getTempHandPaintedPic',
    { sealCode, handDrawnFileKey },
    { timeoutMs: 60_000 },
  );
}

/** Discards an uploaded drawing that no change or application uses (clearFreehandMoulage), quietly. */
export function discardSealImage(fileKey: string) {
  return apiGet<ClearFreehandResult>('/v1/seals/clearFreehandMoulage', { fileKey }, { silent: true });
}

/** Revokes a pending change (a GET, as the spec has it); the seal is normal again. */
export function cancelSealChange(changeNo: string) {
  return apiGet<SealChange>(`/v1/sealChanges/cancelChangeFlow/${encodeURIComponent(changeNo)}`);
}

/** Uploads a drawn seal image: the same upload as a hand-drawn application. */
export { uploadSealImage } from './apply';
