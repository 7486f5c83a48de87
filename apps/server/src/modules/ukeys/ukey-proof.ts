/**
 * Proof of possession and certificate reading for UKeys: the server hands out a one-time challenge, the
 * key signs SHA-256 of its text (ECDSA P-256 as DER, or RSA PKCS#1 v1.5), and the server checks the
 * signature against the certificate's public key.
 */
import { createPublicKey, randomBytes, verify, X509Certificate, type KeyObject } from 'node:crypto';
import { AppError } from '@openseal/core';
import { describeCertificate, type CertificateSummary } from '@openseal/pki';

export function challengeText(q: { challengeId: string; ukeySn: string; organizationId: string }): string {
  // Names its purpose and binds the key and organisation, so a signature made for it means nothing elsewhere.
  return [
    'OpenSeal UKey proof of possession',
    `challenge: ${q.challengeId}`,
    `ukey: ${q.ukeySn}`,
    `organization: ${q.organizationId}`,
    `nonce: ${randomBytes(32).toString('base64url')}`,
  ].join('\n');
}

export function verifyProof(challenge: string, signatureBase64: string, publicKey: KeyObject): void {
  const signature = Buffer.from(signatureBase64.replace(/\s+/g, ''), 'base64');
  let good: boolean;
  try {
    good = signature.length > 0 && verify('sha256', Buffer.from(challenge, 'utf8'), publicKey, signature);
  } catch {
    // A signature that is not even DER, or of the wrong kind of key, is simply not a valid signature.
    good = false;
  }
  if (!good) throw new AppError('ukey.signatureInvalid');
}

export interface ReadCertificate {
  der: Uint8Array;
  summary: CertificateSummary;
  publicKey: KeyObject;
}

/** A certificate as the agent read it from the key: base64 DER or PEM. */
export function readCertificate(text: string): ReadCertificate {
  try {
    const pem = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(text);
    const der = new Uint8Array(Buffer.from((pem ? pem[1]! : text).replace(/\s+/g, ''), 'base64'));
    return fromDer(der);
  } catch (cause) {
    throw new AppError('ukey.certInvalid', { cause });
  }
}

export function fromDer(der: Uint8Array): ReadCertificate {
  const summary = describeCertificate(der);
  const publicKey = new X509Certificate(der).publicKey;
  return { der, summary, publicKey };
}

/** A public key a token generated: EC P-256 or RSA of 2048 bits or more. */
export function readSpki(base64: string): { spki: Uint8Array; publicKey: KeyObject } {
  try {
    const spki = new Uint8Array(Buffer.from(base64.replace(/\s+/g, ''), 'base64'));
    const publicKey = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
    const d = publicKey.asymmetricKeyDetails ?? {};
    const fits =
      (publicKey.asymmetricKeyType === 'ec' && d.namedCurve === 'prime256v1') ||
      (publicKey.asymmetricKeyType === 'rsa' && (d.modulusLength ?? 0) >= 2048);
    if (!fits) throw new Error('unsupported key');
    return { spki, publicKey };
  } catch (cause) {
    throw new AppError('request.invalid', { details: { publicKeySpki: 'EC P-256 or RSA-2048 SPKI' }, cause });
  }
}
