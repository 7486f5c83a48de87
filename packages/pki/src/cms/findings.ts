/**
 * Turns what the checks found into catalogued reasons (packages/core verify reasons), so every
 * verifier states the same outcome the same way.
 */
import { makeFinding, type VerifyFinding } from '@openseal/core';
import type { ChainResult } from './chain';
import type { IntegrityFailure } from './signer-info';

/** The algorithm a check's reason names ("unsupported signature algorithm 1.2.3" → "1.2.3"). */
function algorithmOf(reason: string): string {
  return reason.replace(/^.*?unsupported (?:signature |digest )?algorithm /, '') || reason;
}

/** The reason integrity is not established. */
export function integrityFinding(failure: IntegrityFailure | undefined, reason: string): VerifyFinding {
  switch (failure) {
    case 'hash':
      return makeFinding('integrity.hashMismatch');
    case 'unsupported':
      return makeFinding('algorithm.unsupported', { algorithm: algorithmOf(reason) });
    case 'no-signer':
      return makeFinding('signer.certificateMissing');
    case 'format':
      return makeFinding('format.cmsUnreadable', { reason });
    default:
      return makeFinding('integrity.signatureInvalid', { reason });
  }
}

/** Why a certification path does not confirm its leaf; nothing when it reaches a trust anchor. */
export function chainFindings(
  chain: Pick<ChainResult, 'status' | 'reason' | 'failure' | 'path'>,
): VerifyFinding[] {
  if (chain.status === 'trusted') return [];
  const leaf = chain.path[0];
  const last = chain.path[chain.path.length - 1];
  const reason = chain.reason ?? 'the path cannot be built';
  switch (chain.failure) {
    case 'signature':
      return [makeFinding('chain.broken', { reason })];
    case 'unsupported':
      return [makeFinding('algorithm.unsupported', { algorithm: algorithmOf(reason) })];
    case 'constraints':
      return [makeFinding('chain.constraints', { reason })];
    case 'self-signed':
      // A signer certificate that signed itself is the forged-seal case: name it as such.
      return chain.path.length <= 1
        ? [makeFinding('chain.selfSigned', { subject: leaf?.subject ?? '?' })]
        : [makeFinding('chain.untrusted', { issuer: last?.subject ?? '?' })];
    case 'no-issuer':
      return [makeFinding('chain.issuerMissing', { issuer: last?.issuer ?? '?' })];
    default:
      return [makeFinding('chain.untrusted', { issuer: last?.issuer ?? leaf?.issuer ?? '?' })];
  }
}
