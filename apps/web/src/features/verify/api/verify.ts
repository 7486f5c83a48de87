import { LIMITS } from '@openseal/core';
import { useQuery } from '@tanstack/react-query';
import { apiGet, apiUpload } from '../../../lib/api-client';
import { checkEvidence, evidenceUrl, sha256, toHex, type VerifyEvidence } from '../model/evidence-check';
import type { VerifyConfig, VerifyReport } from '../model/verify-report';

/**
 * The calls of the public verification pages (no login): the upload limit, the upload itself and a kept
 * report. All are silent: the pages show every refusal in place, in the user's language (the server
 * answers in the language the request names).
 */
export const VERIFY_KEY = ['verify'] as const;

export function fetchVerifyConfig(): Promise<VerifyConfig> {
  return apiGet<VerifyConfig>('/v1/signFile/verify/config', undefined, { silent: true, notLogin: true });
}

/** The limit the server enforces; the section 9 default until it has answered (or if it cannot). */
export function useVerifyConfig(): VerifyConfig & { loaded: boolean } {
  const q = useQuery({ queryKey: [...VERIFY_KEY, 'config'], queryFn: fetchVerifyConfig, staleTime: 60_000 });
  return q.data
    ? { ...q.data, loaded: true }
    : { maxBytes: LIMITS.verifyUploadMaxBytes, kinds: ['pdf'], loaded: q.isFetched };
}

/** Verification may take a while on a large file: the server allows itself 20 s, plus the upload. */
export function uploadForVerify(file: Blob, fileName: string): Promise<VerifyReport> {
  return apiUpload<VerifyReport>('/v1/signFile/verify/pdf', {}, file, fileName, {
    silent: true,
    notLogin: true,
    timeoutMs: 120_000,
  });
}

export function fetchVerifyReport(reportId: string): Promise<VerifyReport> {
  return apiGet<VerifyReport>(`/v1/signFile/verify/report/${encodeURIComponent(reportId)}`, undefined, {
    silent: true,
    notLogin: true,
  });
}

export function useVerifyReport(reportId: string | null, initial?: VerifyReport) {
  return useQuery({
    queryKey: [...VERIFY_KEY, 'report', reportId],
    queryFn: () => fetchVerifyReport(reportId!),
    enabled: !!reportId,
    initialData: initial && initial.reportId === reportId ? initial : undefined,
    staleTime: Infinity,
    retry: false,
  });
}

export function fetchVerifyEvidence(reportId: string): Promise<VerifyEvidence> {
  return apiGet<VerifyEvidence>(evidenceUrl(reportId), undefined, { silent: true, notLogin: true });
}

/**
 * The evidence of a kept report, then its check in the browser (leaf hashes, openings, inclusion paths,
 * the tree head's signature) against the file's SHA-256: the one the browser computed of the uploaded
 * file when there is one, else the report's.
 */
export function useVerifyEvidence(reportId: string, fileSha256: string | undefined) {
  const evidence = useQuery({
    queryKey: [...VERIFY_KEY, 'evidence', reportId],
    queryFn: () => fetchVerifyEvidence(reportId),
    staleTime: 60_000,
    retry: false,
  });
  const check = useQuery({
    queryKey: [...VERIFY_KEY, 'evidence-check', reportId, fileSha256, evidence.data?.treeHead.rootHash],
    queryFn: () => checkEvidence(evidence.data!, fileSha256!),
    enabled: !!evidence.data && !!fileSha256,
    staleTime: Infinity,
    retry: false,
  });
  return { evidence, check };
}

/** SHA-256 of bytes in the browser, lowercase hex; `key` names the bytes (the report they were verified in). */
export function useSha256(bytes: Uint8Array | null, key: string) {
  return useQuery({
    queryKey: [...VERIFY_KEY, 'sha256', key],
    queryFn: async () => toHex(await sha256(bytes!)),
    enabled: !!bytes,
    staleTime: Infinity,
  });
}
