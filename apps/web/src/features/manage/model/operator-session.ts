import { readStorage, writeStorage } from '../../../lib/storage';

/**
 * The operator console's own session: its token lives under a key of its own, apart from the user's
 * `accessToken`, so signing in to one never signs in to, or out of, the other.
 */
export const OPERATOR_TOKEN_KEY = 'operatorToken';
export const OPERATOR_NAME_KEY = 'operatorName';

export const MANAGE_LOGIN_PATH = '/manage/login';
export const MANAGE_HOME_PATH = '/manage';

/** Codes that end the console session (missing, invalid, expired token): back to the console login. */
export const OPERATOR_SESSION_CODES: readonly number[] = [13001, 13002, 13003];

export function isOperatorSessionEnd(code: number | null): boolean {
  return code !== null && OPERATOR_SESSION_CODES.includes(code);
}

export function getOperatorToken(): string | null {
  return readStorage(OPERATOR_TOKEN_KEY);
}

export function getOperatorName(): string | null {
  return readStorage(OPERATOR_NAME_KEY);
}

export function storeOperatorSession(token: string, name: string): void {
  writeStorage(OPERATOR_TOKEN_KEY, token);
  writeStorage(OPERATOR_NAME_KEY, name);
}

export function clearOperatorSession(): void {
  writeStorage(OPERATOR_TOKEN_KEY, null);
  writeStorage(OPERATOR_NAME_KEY, null);
}

/** Audit filters from the form to the query: empty fields are left out, the date range becomes ISO bounds. */
export interface AuditFilterInput {
  actor?: string | undefined;
  action?: string | undefined;
  /** Inclusive first day and last day, as local dates (YYYY-MM-DD). */
  fromDay?: string | undefined;
  toDay?: string | undefined;
}

export function auditQueryOf(
  f: AuditFilterInput,
  page: number,
  size: number,
): Record<string, string | number> {
  const q: Record<string, string | number> = { page, size };
  const actor = f.actor?.trim();
  const action = f.action?.trim();
  if (actor) q.actor = actor;
  if (action) q.action = action;
  if (f.fromDay) q.from = new Date(`${f.fromDay}T00:00:00`).toISOString();
  if (f.toDay) {
    // The server's upper bound is exclusive: the day after the last day chosen.
    const end = new Date(`${f.toDay}T00:00:00`);
    end.setDate(end.getDate() + 1);
    q.to = end.toISOString();
  }
  return q;
}
