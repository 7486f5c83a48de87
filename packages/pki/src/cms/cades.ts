import type { CmsSigner } from '../types';
import { buildSignedData } from './signed-data';

export interface CadesDetachedOptions {
  /** SHA-256 of the signed bytes (for a PDF, its byte ranges). */
  digest: Uint8Array;
  signer: CmsSigner;
  /** Returns a TimeStampToken over the signature value (PAdES B-T). */
  timestamp?: (signatureValue: Uint8Array) => Promise<Uint8Array>;
}

/**
 * PAdES baseline CMS (ETSI EN 319 142-1 B-B/B-T): detached, signing-certificate-v2, and no signing-time
 * attribute, since PAdES carries the claimed signing time in the signature dictionary's /M.
 */
export function buildCadesDetached(opts: CadesDetachedOptions): Promise<Uint8Array> {
  return buildSignedData({ signer: opts.signer, digest: opts.digest, timestamp: opts.timestamp });
}
