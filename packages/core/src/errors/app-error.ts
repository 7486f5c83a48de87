import { entryForKey, type ErrorKey } from './catalogue';

/**
 * The one error type services throw. It carries a catalogued key; the HTTP layer maps it to status and
 * message. `params` fill placeholders in the message, `details` go to the client as `data`.
 */
export class AppError extends Error {
  readonly key: ErrorKey;
  readonly code: number;
  readonly httpStatus: number;
  readonly params: Record<string, string | number> | undefined;
  readonly details: unknown;

  constructor(
    key: ErrorKey,
    options: { params?: Record<string, string | number>; details?: unknown; cause?: unknown } = {},
  ) {
    super(key, { cause: options.cause });
    const entry = entryForKey(key);
    this.name = 'AppError';
    this.key = key;
    this.code = entry.code;
    this.httpStatus = entry.http;
    this.params = options.params;
    this.details = options.details;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
