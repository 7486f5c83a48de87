export type PdfErrorCode =
  | 'not-a-pdf'
  | 'damaged'
  /** Encrypted with a security handler the package cannot write (public-key, or not the standard one). */
  | 'encrypted'
  /** Encrypted with a user password, and none was given. */
  | 'password-required'
  /** The password given is neither the user nor the owner password. */
  | 'wrong-password'
  /** The document's permissions (/P) forbid filling in forms, so signing it is not allowed. */
  | 'not-permitted'
  | 'too-complex'
  | 'unsupported'
  | 'timeout'
  /** A certification signature (DocMDP P=1) forbids any further change, signatures included. */
  | 'certified'
  | 'page-out-of-range';

/** The only error the pdf package throws on purpose; `code` tells callers what to show the user. */
export class PdfError extends Error {
  constructor(
    readonly code: PdfErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PdfError';
  }
}

export function isPdfError(e: unknown): e is PdfError {
  return e instanceof PdfError;
}
