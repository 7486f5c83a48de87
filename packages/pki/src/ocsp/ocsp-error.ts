/** OCSPResponseStatus values other than successful (RFC 6960 §4.2.1). */
export type OcspErrorStatus =
  'malformedRequest' | 'internalError' | 'tryLater' | 'sigRequired' | 'unauthorized';

export type OcspResponseStatus = 'successful' | OcspErrorStatus;

export const OCSP_STATUS_CODES: Record<OcspResponseStatus, number> = {
  successful: 0,
  malformedRequest: 1,
  internalError: 2,
  tryLater: 3,
  sigRequired: 5,
  unauthorized: 6,
};

/** A request the responder cannot answer; `status` is what to send back with `ocspErrorResponse`. */
export class OcspError extends Error {
  readonly status: OcspErrorStatus;

  constructor(status: OcspErrorStatus, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OcspError';
    this.status = status;
  }
}
