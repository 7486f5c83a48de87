/**
 * What the UKey pages say when the local agent or the server refuses (spec section 8, UKey messages):
 * one pure mapping from an error to a headline key, the catalogued text and what the user can do next.
 * The agent and the server answer the catalogue's message in the page's language already; the headline
 * and the hint are the page's own words (`ukeyMng.problem.*`).
 */

/** The error as the pages see it: from the agent client or the API client (both carry these fields). */
export interface UkeyErrorLike {
  /** `unreachable`/`timeout`: no answer from the agent; `api`: an answer with a code. */
  kind: string;
  code: number | null;
  message: string;
  data?: unknown;
}

export type UkeyProblemKind =
  | 'agentUnreachable'
  | 'agentTimeout'
  | 'driverMissing'
  | 'notInserted'
  | 'wrongSerial'
  | 'multiple'
  | 'pinWrong'
  | 'locked'
  | 'unavailable'
  | 'holderMismatch'
  | 'pinFormat'
  | 'other';

export interface UkeyProblem {
  kind: UkeyProblemKind;
  /** i18n key of the headline, `ukeyMng.problem.<kind>`. */
  titleKey: string;
  /** i18n key of what to do, `ukeyMng.problemHint.<kind>`. */
  hintKey: string;
  /** The catalogue's message as the agent or server answered it; null when nothing answered. */
  detail: string | null;
  /** The PIN attempts left, for a wrong PIN. */
  attemptsLeft: number | null;
  /** Whether the user needs the component service (download and run it, or point to it). */
  needsAgent: boolean;
  /** Whether choosing or reinserting a key may help (the pages offer "detect again"). */
  canRedetect: boolean;
}

const BY_CODE: Record<number, UkeyProblemKind> = {
  7002: 'wrongSerial',
  7003: 'multiple',
  7004: 'pinWrong',
  7005: 'locked',
  7006: 'unavailable',
  7007: 'holderMismatch',
  7025: 'pinFormat',
};

function dataField(data: unknown, field: string): unknown {
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[field] : undefined;
}

function problem(
  kind: UkeyProblemKind,
  detail: string | null,
  attemptsLeft: number | null = null,
): UkeyProblem {
  return {
    kind,
    titleKey: `ukeyMng.problem.${kind}`,
    hintKey: `ukeyMng.problemHint.${kind}`,
    detail,
    attemptsLeft,
    needsAgent: kind === 'agentUnreachable' || kind === 'agentTimeout' || kind === 'driverMissing',
    canRedetect:
      kind === 'agentUnreachable' ||
      kind === 'agentTimeout' ||
      kind === 'driverMissing' ||
      kind === 'notInserted' ||
      kind === 'wrongSerial' ||
      kind === 'multiple',
  };
}

/** The problem an agent or server error stands for. */
export function describeUkeyError(error: UkeyErrorLike): UkeyProblem {
  if (error.kind === 'unreachable') return problem('agentUnreachable', null);
  if (error.kind === 'timeout') return problem('agentTimeout', null);
  if (error.code === 7001)
    return problem(
      dataField(error.data, 'reason') === 'driverMissing' ? 'driverMissing' : 'notInserted',
      error.message,
    );
  const kind = error.code !== null ? BY_CODE[error.code] : undefined;
  if (kind === 'pinWrong') {
    const left = dataField(error.data, 'attemptsLeft');
    return problem('pinWrong', error.message, typeof left === 'number' ? left : null);
  }
  return problem(kind ?? 'other', error.message);
}

/**
 * What key detection found: no key (the catalogued "not inserted" text is given by the caller, since no
 * error carried it), one key, several — which the user must narrow to one — or, when a specific key is
 * wanted (a renewal uses the key it renews), only other keys: the "wrong serial" of spec section 8.
 */
export type Detection<K extends { serial: string }> =
  | { state: 'none' }
  | { state: 'one'; key: K }
  | { state: 'several'; keys: K[] }
  | { state: 'wrong'; expected: string; keys: K[] };

export function detectionOf<K extends { serial: string }>(
  keys: K[],
  wantedSerial?: string | null,
): Detection<K> {
  if (keys.length === 0) return { state: 'none' };
  if (wantedSerial) {
    const wanted = keys.find((k) => k.serial === wantedSerial);
    return wanted ? { state: 'one', key: wanted } : { state: 'wrong', expected: wantedSerial, keys };
  }
  if (keys.length === 1) return { state: 'one', key: keys[0]! };
  return { state: 'several', keys };
}

/** Whether a detected key may be chosen: not locked, and the wanted one when a specific key is wanted. */
export function keyChoosable(
  key: { serial: string; locked: boolean },
  wantedSerial?: string | null,
): boolean {
  return !key.locked && (!wantedSerial || key.serial === wantedSerial);
}

/** A PIN the agent would take: 4 to 16 characters (the token decides whether it is right). */
export function pinError(
  pin: string | undefined,
  limits: { pinMin: number; pinMax: number },
): 'required' | 'length' | null {
  const value = pin ?? '';
  if (value.length === 0) return 'required';
  if (value.length < limits.pinMin || value.length > limits.pinMax) return 'length';
  return null;
}

/** A safe agent address: a loopback http(s) origin. */
export function normaliseAgentUrl(raw: string): string | null {
  try {
    const url = new URL(raw.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return null;
    if (url.pathname !== '/' || url.search || url.hash) return null;
    return url.origin;
  } catch {
    return null;
  }
}
