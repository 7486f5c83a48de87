import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet, apiPost, apiUpload, ApiError, buildHeaders } from '../../../lib/api-client';
import { SESSION_QUERY_PREFIX, useAccessToken } from '../../../hooks/use-session';
import type {
  ChainRecordResponse,
  CreateFlowRequest,
  FlowDetail,
  FlowFile,
  FlowListRequest,
  FlowListResponse,
  SignLogEntry,
  SignLogListRequest,
  SignLogListResponse,
  SignOptions,
  SignTaskRequest,
  SignTaskResponse,
  TaskListRequest,
  TaskListResponse,
  UploadedFile,
  UrgeResponse,
} from './types';
import { ADDRESS_REFRESH_MS } from '../../../lib/query-client';

/**
 * The sign service's flows, tasks, files, log and evidence (issue 6). The server decides who may see and
 * do what; the pages show what it answers. Everything sits under one key so a mutation refreshes all.
 */
export const SIGN_KEY = [SESSION_QUERY_PREFIX, 'sign'] as const;

/** Stores a file to sign; a password-protected PDF goes with its password (kept sealed by the server). */
export function uploadSignFile(file: File, password?: string) {
  return apiUpload<UploadedFile>(
    '/v1/file/uploadInside',
    { purpose: 'sign' },
    file,
    file.name,
    password ? { fields: { password } } : {},
  );
}

export function createFlow(request: CreateFlowRequest) {
  return apiPost<FlowDetail>('/v1/sign/flows', request);
}

/** signRecord: flows the caller started or takes part in. */
export function useFlowList(request: FlowListRequest) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SIGN_KEY, 'flows', token, request],
    queryFn: () => apiPost<FlowListResponse>('/v1/sign/accounts/flows', request),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}

/** signByMe: the caller's tasks by state. */
export function useTaskList(request: TaskListRequest) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SIGN_KEY, 'tasks', token, request],
    queryFn: () => apiPost<TaskListResponse>('/v1/sign/tasks', request),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}

export function fetchFlow(flowId: string) {
  return apiGet<FlowDetail>(`/v1/sign/flow/${encodeURIComponent(flowId)}`);
}

export function useFlowDetail(flowId: string | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SIGN_KEY, 'flow', token, flowId],
    refetchInterval: ADDRESS_REFRESH_MS,
    queryFn: () => fetchFlow(flowId ?? ''),
    enabled: token !== null && Boolean(flowId),
  });
}

export function useSignOptions(flowId: string | null, taskId: string | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SIGN_KEY, 'options', token, flowId, taskId],
    refetchInterval: ADDRESS_REFRESH_MS,
    queryFn: () =>
      apiGet<SignOptions>(
        `/v1/sign/flow/${encodeURIComponent(flowId ?? '')}/task/${encodeURIComponent(taskId ?? '')}/options`,
      ),
    enabled: token !== null && Boolean(flowId) && Boolean(taskId),
  });
}

export function signTask(request: SignTaskRequest) {
  return apiPost<SignTaskResponse>('/v1/sign/flowsTask', request);
}

export function flowAct(flowId: string, act: 'refuse' | 'withdraw' | 'void', reason: string) {
  return apiPost<FlowDetail>(`/v1/sign/flow/${encodeURIComponent(flowId)}/${act}`, { reason });
}

export function urge(flowId: string, taskId?: string) {
  return apiPost<UrgeResponse>('/v1/sign/urge', { flowId, taskId });
}

export function oneKeyUrge(flowIds?: string[]) {
  return apiPost<UrgeResponse>('/v1/sign/oneKeyUrge', { flowIds });
}

/** signLog: every act in the caller's flows. */
export function useSignLogs(request: SignLogListRequest) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SIGN_KEY, 'logs', token, request],
    queryFn: () => apiPost<SignLogListResponse>('/v1/sign/flow/logs', request),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}

export function useFlowLog(flowId: string | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SIGN_KEY, 'flowLog', token, flowId],
    queryFn: () => apiPost<{ list: SignLogEntry[] }>('/v1/sign/flow/log', { flowId }),
    enabled: token !== null && Boolean(flowId),
  });
}

export function useChainRecord(flowId: string | null) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...SIGN_KEY, 'chain', token, flowId],
    queryFn: () =>
      apiGet<ChainRecordResponse>(`/v1/sign/flow/${encodeURIComponent(flowId ?? '')}/chainRecord`),
    enabled: token !== null && Boolean(flowId),
  });
}

/**
 * A flow file's current bytes (its latest signed revision). Not an envelope on success: the PDF itself;
 * a refusal still comes as the envelope, and becomes the same ApiError as any other call.
 */
export async function fetchFlowFileBytes(
  flowId: string,
  fileId: string,
  download = false,
): Promise<Uint8Array> {
  const path = `/v1/sign/flow/${encodeURIComponent(flowId)}/files/${encodeURIComponent(fileId)}`;
  let response: Response;
  try {
    response = await fetch(download ? `${path}?download=1` : path, {
      headers: { ...buildHeaders(false), Accept: 'application/pdf, application/ofd, application/json' },
      credentials: 'same-origin',
    });
  } catch (cause) {
    throw new ApiError({
      kind: 'network',
      code: null,
      message: 'network',
      httpStatus: null,
      flags: {},
      path,
      cause,
    });
  }
  const type = response.headers.get('content-type') ?? '';
  if (response.ok && !type.includes('json')) return new Uint8Array(await response.arrayBuffer());
  let code: number | null = null;
  let message = `HTTP ${response.status}`;
  try {
    const body = (await response.json()) as { code?: number; message?: string };
    if (typeof body.code === 'number') code = body.code;
    if (typeof body.message === 'string') message = body.message;
  } catch {
    // not an envelope either: a protocol failure below
  }
  throw new ApiError({
    kind: code === null ? 'protocol' : 'api',
    code,
    message,
    httpStatus: response.status,
    flags: {},
    path,
  });
}

export function useFlowFileBytes(flowId: string | null, fileId: string | null, revision: string | null) {
  const token = useAccessToken();
  return useQuery({
    // The revision (current hash) in the key: a new signature loads the new bytes.
    queryKey: [...SIGN_KEY, 'fileBytes', token, flowId, fileId, revision],
    queryFn: () => fetchFlowFileBytes(flowId ?? '', fileId ?? ''),
    enabled: token !== null && Boolean(flowId) && Boolean(fileId),
    staleTime: Infinity,
  });
}

/** Saves bytes under a name through a temporary link. */
export function saveBytes(bytes: Uint8Array | string, name: string, type: string): void {
  const blob = new Blob([bytes as BlobPart], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves a flow file's current version: a PDF with its signatures, or an OFD as it was uploaded. */
export async function downloadFlowFile(
  flowId: string,
  file: Pick<FlowFile, 'fileId' | 'name' | 'format'>,
): Promise<void> {
  const bytes = await fetchFlowFileBytes(flowId, file.fileId, true);
  const ext = `.${file.format}`;
  const name = file.name.toLowerCase().endsWith(ext) ? file.name : `${file.name}${ext}`;
  saveBytes(bytes, name, file.format === 'pdf' ? 'application/pdf' : 'application/ofd');
}
