/**
 * Cryptographic constraints a signature must meet besides verifying: the digest EdDSA prescribes
 * (RFC 8419, ISO 32002), and no weak algorithms (MD5 or SHA-1 digests and signatures, RSA keys under
 * 2048 bits, ETSI TS 119 312). A signature that breaks one is intact but not trustworthy: indeterminate.
 */
import { makeFinding, type VerifyFinding } from '@openseal/core';
import { EDDSA_DIGEST, resolveSignatureScheme, type SignatureScheme } from './algorithms';
import type { CertInfo } from './cert';
import { WEAK_HASHES, type HashName } from './oids';

export const MIN_RSA_BITS = 2048;

/** The modulus length of an RSA certificate key; undefined for other keys or an unreadable one. */
export function rsaModulusBits(cert: CertInfo): number | undefined {
  try {
    const key = cert.publicKey();
    if (key.asymmetricKeyType !== 'rsa' && key.asymmetricKeyType !== 'rsa-pss') return undefined;
    return key.asymmetricKeyDetails?.modulusLength;
  } catch {
    return undefined;
  }
}

/** What the signer's digest and signature algorithms break. `digest` undefined: not a known digest. */
export function signerAlgorithmFindings(
  digest: HashName | undefined,
  digestLabel: string,
  scheme: SignatureScheme | undefined,
): VerifyFinding[] {
  const out: VerifyFinding[] = [];
  if (scheme?.kind === 'eddsa' && scheme.curve) {
    const required = EDDSA_DIGEST[scheme.curve];
    if (digest !== required)
      out.push(
        makeFinding('algorithm.eddsaDigest', { signature: scheme.curve, digest: digestLabel, required }),
      );
  }
  const weak = [digest, scheme?.hash].find((h): h is HashName => h !== undefined && WEAK_HASHES.has(h));
  if (weak) out.push(makeFinding('algorithm.weak', { algorithm: weak }));
  return out;
}

/**
 * Weak links of a certification path (leaf first): keys under 2048 bits, and certificates signed with
 * MD5 or SHA-1. The self-signature of a trust anchor proves nothing and is not judged.
 */
export function pathAlgorithmFindings(
  path: readonly CertInfo[],
  isAnchor: (c: CertInfo) => boolean,
): VerifyFinding[] {
  const out: VerifyFinding[] = [];
  for (const cert of path) {
    const bits = rsaModulusBits(cert);
    if (bits !== undefined && bits < MIN_RSA_BITS)
      out.push(makeFinding('algorithm.weakKey', { bits, subject: cert.subject }));
    if (isAnchor(cert)) continue;
    const resolved = resolveSignatureScheme(cert.signatureAlgorithm, cert.signatureParams, undefined);
    const hash = 'scheme' in resolved ? resolved.scheme.hash : undefined;
    if (hash && WEAK_HASHES.has(hash))
      out.push(makeFinding('algorithm.weakCertificate', { algorithm: hash, subject: cert.subject }));
  }
  return out;
}
