import { entryForCode, LIMITS, messageFor, SESSION_INVALID_CODES, type Language } from '@openseal/core';
import type { ApiErrorKind, RequestFlags } from './api-client';

/**
 * Spec section 8 as a pure decision: given a failed request, what the UI must do. The handler in
 * api-error-handler.ts carries the decision out; keeping the rules here keeps them testable.
 */
export interface ErrorReaction {
  toast: { text: string; durationMs: number } | null;
  clearSession: boolean;
  /** Jump to /login?redirect=… after this many milliseconds (null: no jump). */
  goLoginAfterMs: number | null;
  /** Go to the site origin after this many milliseconds (402). */
  goHomeAfterMs: number | null;
  /** Open the "verify your real name" dialog (-999). */
  realNameDialog: boolean;
}

export interface FailedRequest {
  kind: ApiErrorKind;
  code: number | null;
  message: string;
  flags: RequestFlags;
}

const DEFAULT_TOAST_MS = 3_000;

const NONE: ErrorReaction = {
  toast: null,
  clearSession: false,
  goLoginAfterMs: null,
  goHomeAfterMs: null,
  realNameDialog: false,
};

/** The server's message, else the catalogue's text for the code, else a generic server error. */
export function messageOf(failure: FailedRequest, language: Language): string {
  if (failure.message && failure.kind === 'api') return failure.message;
  const entry = failure.code === null ? undefined : entryForCode(failure.code);
  if (entry) return language === 'en' ? entry.en : entry.zh;
  return messageFor('server.error', language);
}

export function decideErrorReaction(failure: FailedRequest, language: Language): ErrorReaction {
  const silent = failure.flags.silent === true;
  const toast = (text: string, durationMs = DEFAULT_TOAST_MS) => (silent ? null : { text, durationMs });

  switch (failure.kind) {
    case 'abort':
      return NONE;
    case 'timeout':
      return { ...NONE, toast: toast(messageFor('server.timeout', language)) };
    case 'network':
      return { ...NONE, toast: toast(messageFor('server.network', language)) };
    case 'protocol':
      return { ...NONE, toast: toast(messageFor('server.error', language)) };
    case 'api':
      break;
  }

  const code = failure.code ?? 0;
  const text = messageOf(failure, language);

  if (SESSION_INVALID_CODES.includes(code)) {
    if (failure.flags.notLogin) return { ...NONE, goLoginAfterMs: 0 };
    const shown = toast(text, LIMITS.expiryToastMs);
    return {
      ...NONE,
      toast: shown,
      clearSession: true,
      goLoginAfterMs: shown ? LIMITS.expiryToastMs : 0,
    };
  }

  switch (entryForCode(code)?.handling) {
    case 'special':
      return { ...NONE, realNameDialog: true };
    case 'goHome':
      return {
        ...NONE,
        toast: toast(text),
        goHomeAfterMs: failure.flags.noGoHome ? null : LIMITS.redirectAfter402Ms,
      };
    default:
      return { ...NONE, toast: toast(text) };
  }
}
