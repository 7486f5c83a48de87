/** RFC 5280 §5.3.1 CRLReason values we issue (removeFromCRL and aACompromise are not used here). */
export type RevocationReason =
  | 'unspecified'
  | 'keyCompromise'
  | 'cACompromise'
  | 'affiliationChanged'
  | 'superseded'
  | 'cessationOfOperation'
  | 'certificateHold'
  | 'privilegeWithdrawn';

export const REASON_CODES: Record<RevocationReason, number> = {
  unspecified: 0,
  keyCompromise: 1,
  cACompromise: 2,
  affiliationChanged: 3,
  superseded: 4,
  cessationOfOperation: 5,
  certificateHold: 6,
  privilegeWithdrawn: 9,
};

/** Names for every code a third-party CRL or OCSP response may carry. */
export type AnyRevocationReason = RevocationReason | 'removeFromCRL' | 'aACompromise';

const NAMES: Record<number, AnyRevocationReason> = {
  ...Object.fromEntries(Object.entries(REASON_CODES).map(([name, code]) => [code, name as RevocationReason])),
  8: 'removeFromCRL',
  10: 'aACompromise',
};

export function reasonFromCode(code: number): AnyRevocationReason | undefined {
  return NAMES[code];
}

export function isRevocationReason(value: string): value is RevocationReason {
  return Object.hasOwn(REASON_CODES, value);
}
