export type KeyStoreErrorCode =
  | 'invalid-kek'
  | 'kek-mismatch'
  | 'record-corrupt'
  | 'key-not-found'
  | 'unsupported-algorithm'
  | 'module-not-found'
  | 'token-not-found'
  | 'login-failed'
  | 'not-open'
  | 'pkcs11-error';

/** Failures of a key store; `code` is stable for callers to branch on, the message is for people. */
export class KeyStoreError extends Error {
  readonly code: KeyStoreErrorCode;

  constructor(code: KeyStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeyStoreError';
    this.code = code;
  }
}
