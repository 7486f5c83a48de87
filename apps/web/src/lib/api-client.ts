import { entryForCode, HEADERS, OWNER_SWITCH_VALUE, SUCCESS_CODES } from '@openseal/core';
import { getLanguage } from './language';
import { getAccessToken, getKeySerial } from './session';

/**
 * The one transport to the API server. It sends the four headers of spec section 7 on every request,
 * unwraps the `{code, message, data}` envelope and returns `data`, or throws an ApiError that carries the
 * code and the flags the caller set. It never shows anything: the UI reacts to errors in one handler
 * (api-error-handler.ts), fed by the query cache for queries and mutations.
 */

/** Per-request switches of spec section 8. */
export interface RequestFlags {
  /** Suppress every toast for this request. */
  silent?: boolean;
  /** A request made without a login: a session-invalid code only jumps to login, without a toast. */
  notLogin?: boolean;
  /** Code 402 normally goes back to the site origin after a toast; this keeps the user where they are. */
  noGoHome?: boolean;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions extends RequestFlags {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type ApiErrorKind = 'api' | 'network' | 'timeout' | 'abort' | 'protocol';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** The envelope code; null when no envelope arrived. */
  readonly code: number | null;
  readonly httpStatus: number | null;
  readonly data: unknown;
  readonly flags: RequestFlags;
  readonly path: string;

  constructor(init: {
    kind: ApiErrorKind;
    code: number | null;
    message: string;
    httpStatus: number | null;
    data?: unknown;
    flags: RequestFlags;
    path: string;
    cause?: unknown;
  }) {
    super(init.message, { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.code = init.code;
    this.httpStatus = init.httpStatus;
    this.data = init.data;
    this.flags = init.flags;
    this.path = init.path;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

export function buildHeaders(hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    [HEADERS.ownerSwitch]: OWNER_SWITCH_VALUE,
    [HEADERS.keySerial]: getKeySerial(),
    [HEADERS.language]: getLanguage(),
  };
  const token = getAccessToken();
  if (token) headers[HEADERS.accessToken] = token;
  if (hasBody) headers['Content-Type'] = 'application/json';
  return headers;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

/** Codes the caller receives as data: the success codes and the pass-through codes (120033, 120034). */
export function isSuccessCode(code: number): boolean {
  return SUCCESS_CODES.includes(code) || entryForCode(code)?.handling === 'passThrough';
}

interface Envelope {
  code: number;
  message: string;
  data: unknown;
}

function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'number' && typeof v.message === 'string';
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', query, body, signal, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  const flags: RequestFlags = {
    silent: options.silent,
    notLogin: options.notLogin,
    noGoHome: options.noGoHome,
  };
  const sendsBody = method !== 'GET' && method !== 'DELETE';
  // A multipart form goes as it is; the browser writes its content type with the boundary.
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onOuterAbort = () => controller.abort();
  signal?.addEventListener('abort', onOuterAbort, { once: true });

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers: buildHeaders(sendsBody && !isForm),
      body: sendsBody ? (isForm ? (body as FormData) : JSON.stringify(body ?? {})) : undefined,
      signal: controller.signal,
      credentials: 'same-origin',
    });
  } catch (cause) {
    const kind: ApiErrorKind = timedOut ? 'timeout' : signal?.aborted ? 'abort' : 'network';
    throw new ApiError({ kind, code: null, message: kind, httpStatus: null, flags, path, cause });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onOuterAbort);
  }

  // An answer that is not our envelope (a proxy's error page, say) is a protocol failure.
  const protocolError = (cause?: unknown) =>
    new ApiError({
      kind: 'protocol',
      code: null,
      message: `HTTP ${response.status}`,
      httpStatus: response.status,
      flags,
      path,
      cause,
    });
  let payload: unknown;
  try {
    payload = await response.json();
  } catch (cause) {
    throw protocolError(cause);
  }
  if (!isEnvelope(payload)) throw protocolError();
  // Always the code, never the HTTP status, decides success.
  if (isSuccessCode(payload.code)) return payload.data as T;
  throw new ApiError({
    kind: 'api',
    code: payload.code,
    message: payload.message,
    httpStatus: response.status,
    data: payload.data,
    flags,
    path,
  });
}

export function apiGet<T>(
  path: string,
  query?: Record<string, QueryValue>,
  options: Omit<RequestOptions, 'method' | 'query' | 'body'> = {},
): Promise<T> {
  return apiRequest<T>(path, { ...options, method: 'GET', query });
}

export function apiPost<T>(
  path: string,
  body?: unknown,
  options: Omit<RequestOptions, 'method' | 'body'> = {},
): Promise<T> {
  return apiRequest<T>(path, { ...options, method: 'POST', body });
}

/**
 * Uploads one file as the multipart field `file`, through the same transport: headers, timeout, envelope
 * and errors as every other call.
 */
export function apiUpload<T>(
  path: string,
  query: Record<string, QueryValue>,
  file: Blob,
  filename: string,
  options: Omit<RequestOptions, 'method' | 'body' | 'query'> & {
    /** Text fields sent beside the file (never in the address, which servers log). */
    fields?: Record<string, string>;
  } = {},
): Promise<T> {
  const { fields, ...rest } = options;
  const form = new FormData();
  for (const [name, value] of Object.entries(fields ?? {})) form.append(name, value);
  form.append('file', file, filename);
  return apiRequest<T>(path, { ...rest, method: 'POST', query, body: form });
}
