import { contracts } from '@openseal/core';
import { getLanguage } from '../../../lib/language';
import { readStorage, writeStorage } from '../../../lib/storage';

/**
 * The browser's calls to the local UKey agent (`apps/ukey-agent`): JSON over loopback HTTP, answered as
 * `{code, message, data}` with the platform's catalogue codes (7001-7007 are the UKey errors of spec
 * section 8) and messages in the language sent. The agent's address is a plugin setting kept in this
 * browser; it defaults to the agent's default port on 127.0.0.1.
 */
export const AGENT_URL_STORAGE_KEY = 'ukeyAgentUrl';
export const DEFAULT_AGENT_URL = `http://127.0.0.1:${contracts.UKEY_AGENT_DEFAULT_PORT}`;

export function agentUrl(): string {
  const stored = readStorage(AGENT_URL_STORAGE_KEY)?.trim();
  return stored ? stored.replace(/\/+$/, '') : DEFAULT_AGENT_URL;
}

/** Keeps another agent address (a loopback http URL), or forgets it with null/''. */
export function setAgentUrl(url: string | null): void {
  const value = url?.trim().replace(/\/+$/, '') ?? '';
  writeStorage(AGENT_URL_STORAGE_KEY, value === '' || value === DEFAULT_AGENT_URL ? null : value);
}

/**
 * `unreachable`: nothing answered (not running, or it refused this site's origin, which a browser cannot
 * tell apart); `api`: the agent answered with an error code.
 */
export type AgentErrorKind = 'unreachable' | 'timeout' | 'api';

export class AgentError extends Error {
  readonly kind: AgentErrorKind;
  readonly code: number | null;
  readonly data: unknown;
  readonly url: string;

  constructor(init: {
    kind: AgentErrorKind;
    code: number | null;
    message: string;
    data?: unknown;
    url: string;
  }) {
    super(init.message);
    this.name = 'AgentError';
    this.kind = init.kind;
    this.code = init.code;
    this.data = init.data ?? null;
    this.url = init.url;
  }
}

export function isAgentError(error: unknown): error is AgentError {
  return error instanceof AgentError;
}

export interface AgentStatus {
  name: string;
  version: string;
  module: string | null;
  pinMaxTries: number;
}

export interface AgentKey {
  serial: string;
  label: string;
  manufacturer: string;
  model: string;
  hasSealCertificate: boolean;
  locked: boolean;
  attemptsLeft: number;
}

export interface AgentCertificate {
  keyId: string;
  label: string;
  isSealCertificate: boolean;
  der: string;
  pem: string;
  summary: {
    subject: string;
    issuer: string;
    organization: string | null;
    uscc: string | null;
    serial: string;
    notBefore: string;
    notAfter: string;
    keyAlgorithm: string;
  } | null;
}

export interface ExpectedHolder {
  organizeName?: string;
  uscc?: string;
}

const QUICK_MS = 15_000;
/** PIN-taking calls may wait on the token (key generation above all). */
const TOKEN_MS = 90_000;

async function call<T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  timeoutMs = QUICK_MS,
): Promise<T> {
  const base = agentUrl();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        'x-language': getLanguage(),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
      cache: 'no-store',
    });
  } catch {
    throw new AgentError({
      kind: controller.signal.aborted ? 'timeout' : 'unreachable',
      code: null,
      message: 'unreachable',
      url: base,
    });
  } finally {
    clearTimeout(timer);
  }
  let payload: { code?: unknown; message?: unknown; data?: unknown };
  try {
    payload = (await response.json()) as typeof payload;
  } catch {
    throw new AgentError({ kind: 'unreachable', code: null, message: `HTTP ${response.status}`, url: base });
  }
  if (typeof payload.code !== 'number')
    throw new AgentError({ kind: 'unreachable', code: null, message: `HTTP ${response.status}`, url: base });
  if (payload.code !== 0)
    throw new AgentError({
      kind: 'api',
      code: payload.code,
      message: typeof payload.message === 'string' ? payload.message : String(payload.code),
      data: payload.data,
      url: base,
    });
  return payload.data as T;
}

export const ukeyAgent = {
  status: () => call<AgentStatus>('GET', '/v1/status'),
  keys: () => call<{ keys: AgentKey[] }>('GET', '/v1/keys').then((r) => r.keys),
  readCertificates: (serial: string, expectedHolder?: ExpectedHolder) =>
    call<{ certificates: AgentCertificate[]; sealImages: unknown[] }>('POST', '/v1/certificates/read', {
      serial,
      ...(expectedHolder ? { expectedHolder } : {}),
    }),
  verifyPin: (serial: string, pin: string) =>
    call<{ verified: boolean; attemptsLeft: number }>('POST', '/v1/pin/verify', { serial, pin }, TOKEN_MS),
  generateKeyPair: (serial: string, pin: string) =>
    call<{ keyId: string; algorithm: string; publicKeySpki: string }>(
      'POST',
      '/v1/keypair/generate',
      { serial, pin, algorithm: 'EC-P256' },
      TOKEN_MS,
    ),
  writeCertificate: (
    serial: string,
    pin: string,
    certificate: string,
    sealImages: { sealCode: string; imagePng: string }[],
    expectedHolder?: ExpectedHolder,
  ) =>
    call<{ keyId: string; certSerial: string }>(
      'POST',
      '/v1/certificates/write',
      { serial, pin, certificate, sealImages, ...(expectedHolder ? { expectedHolder } : {}) },
      TOKEN_MS,
    ),
  /** Signs the exact text (the agent hashes it with SHA-256). */
  signText: (serial: string, pin: string, text: string, expectedHolder?: ExpectedHolder) =>
    call<{ signature: string; certSerial: string; keyId: string }>(
      'POST',
      '/v1/sign',
      {
        serial,
        pin,
        data: utf8ToBase64(text),
        ...(expectedHolder ? { expectedHolder } : {}),
      },
      TOKEN_MS,
    ),
};

export function utf8ToBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
