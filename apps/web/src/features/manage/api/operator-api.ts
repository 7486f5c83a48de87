import type { contracts } from '@openseal/core';
import type { z } from 'zod';
import { getLanguage } from '../../../lib/language';
import { getOperatorToken } from '../model/operator-session';

/**
 * The console's own transport to `/manage/api/v1`. It sends the operator token (never the user's headers)
 * and throws OperatorApiError, which the app-wide user error handler ignores: the console reacts to its
 * own session codes (13001-13003) by going back to the console login.
 */
export type OperatorLoginResponse = z.output<typeof contracts.operatorLoginResponse>;
export type OperatorMe = z.output<typeof contracts.operatorMeResponse>;
export type AuditLogPage = z.output<typeof contracts.auditLogPage>;
export type AuditLogEntry = z.output<typeof contracts.auditLogEntry>;
export type ReviewQueuePage = z.output<typeof contracts.reviewQueuePage>;
export type ReviewQueueName = z.output<typeof contracts.reviewQueueName>;
export type ReviewQueueStatus = z.output<typeof contracts.reviewQueueStatus>;
export type TrustAnchor = z.output<typeof contracts.trustAnchor>;
export type TrustAnchorList = z.output<typeof contracts.trustAnchorList>;
export type TrustAnchorAddRequest = z.input<typeof contracts.trustAnchorAddRequest>;
export type TrustAnchorAction = 'disable' | 'enable' | 'remove';

export class OperatorApiError extends Error {
  /** The envelope code; null when no envelope arrived. */
  readonly code: number | null;
  constructor(code: number | null, message: string) {
    super(message);
    this.name = 'OperatorApiError';
    this.code = code;
  }
}

export function isOperatorApiError(e: unknown): e is OperatorApiError {
  return e instanceof OperatorApiError;
}

const BASE = '/manage/api/v1';
/** contracts.OPERATOR_TOKEN_HEADER; spelled out so the bundle does not pull in the contract schemas. */
const OPERATOR_TOKEN_HEADER = 'x-operator-token';

async function call<T>(
  method: 'GET' | 'POST',
  path: string,
  opts: { query?: Record<string, string | number>; body?: unknown } = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'x-language': getLanguage() };
  const token = getOperatorToken();
  if (token) headers[OPERATOR_TOKEN_HEADER] = token;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(opts.query ?? {})) params.append(k, String(v));
  const qs = params.toString();
  let res: Response;
  try {
    res = await fetch(`${BASE}${path}${qs ? `?${qs}` : ''}`, {
      method,
      headers,
      body: opts.body !== undefined ? JSON.stringify(opts.body) : null,
    });
  } catch (e) {
    throw new OperatorApiError(null, e instanceof Error ? e.message : String(e));
  }
  let envelope: { code?: unknown; message?: unknown; data?: unknown };
  try {
    envelope = (await res.json()) as typeof envelope;
  } catch {
    throw new OperatorApiError(null, `HTTP ${res.status}`);
  }
  if (typeof envelope.code !== 'number') throw new OperatorApiError(null, `HTTP ${res.status}`);
  if (envelope.code !== 0) {
    const message = typeof envelope.message === 'string' ? envelope.message : `HTTP ${res.status}`;
    throw new OperatorApiError(envelope.code, message);
  }
  return envelope.data as T;
}

export function operatorLogin(username: string, password: string): Promise<OperatorLoginResponse> {
  return call('POST', '/login', { body: { username, password } });
}

export function operatorLogout(): Promise<unknown> {
  return call('POST', '/logout');
}

export function operatorMe(): Promise<OperatorMe> {
  return call('GET', '/me');
}

export function listQueue(
  queue: ReviewQueueName,
  q: { status: ReviewQueueStatus; page: number; size: number },
): Promise<ReviewQueuePage> {
  return call('GET', `/queues/${queue}`, { query: q });
}

export function approve(queue: ReviewQueueName, applicationId: string): Promise<unknown> {
  return call('POST', `/queues/${queue}/${encodeURIComponent(applicationId)}/approve`);
}

export function reject(queue: ReviewQueueName, applicationId: string, reason: string): Promise<unknown> {
  return call('POST', `/queues/${queue}/${encodeURIComponent(applicationId)}/reject`, { body: { reason } });
}

export function listAuditLogs(query: Record<string, string | number>): Promise<AuditLogPage> {
  return call('GET', '/audit-logs', { query });
}

/** A five-minute address of an applicant's material; the server records that the operator opened it. */
export function materialUrl(fileKey: string): Promise<{ url: string; expiresAt: string }> {
  return call('GET', `/materials/${encodeURIComponent(fileKey)}/url`);
}

/** The trust anchors the verifier uses: the operator-added ones (current) and the built-in ones. */
export function listTrustAnchors(): Promise<TrustAnchorList> {
  return call('GET', '/trust-anchors', { query: { status: 'current' } });
}

export function addTrustAnchor(body: TrustAnchorAddRequest): Promise<TrustAnchor> {
  return call('POST', '/trust-anchors', { body });
}

export function changeTrustAnchor(anchorId: string, action: TrustAnchorAction): Promise<TrustAnchor> {
  return call('POST', `/trust-anchors/${encodeURIComponent(anchorId)}/${action}`, { body: {} });
}
