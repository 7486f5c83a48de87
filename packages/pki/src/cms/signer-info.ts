/**
 * The integrity of one SignerInfo: which certificate signed, whether the signed attributes bind the
 * content (contentType, messageDigest), whether the signature verifies, and the signing-certificate
 * reference. Shared by signature and time-stamp token verification.
 */
import { createHash } from 'node:crypto';
import { bytesEqual, decodeInteger, decodeOid, decodeTime, octetStringValue } from './der';
import { namesEqual, type CertInfo } from './cert';
import type { CmsAttributeValues, ParsedSignerInfo, SignerIdentifier } from './cms-parse';
import { matchSigningCertificate, type SigningCertificateRef } from './ess';
import type { VerifyFinding } from '@openseal/core';
import { OID, hashByOid, shakeLengthBits, type HashName } from './oids';
import { resolveSignatureScheme, verifyDigestWithScheme, verifyWithScheme } from './algorithms';
import { signerAlgorithmFindings } from './constraints';

export interface ContentBinding {
  /** Digest of the signed content with the given algorithm. */
  digest(algorithm: HashName): Promise<Uint8Array>;
  /** The content itself when at hand (attached content), for signatures without signed attributes. */
  data?: Uint8Array;
}

/**
 * Why integrity is not established: the structure is wrong ('format'), the content digest differs
 * ('hash'), the signature value does not verify ('signature'), an algorithm or key cannot be used
 * ('unsupported'), or the signer's certificate is not at hand ('no-signer').
 */
export type IntegrityFailure = 'format' | 'hash' | 'signature' | 'unsupported' | 'no-signer';

export interface SignerCheck {
  signer?: CertInfo;
  digestAlgorithm?: string;
  signatureAlgorithm?: string;
  integrity: 'valid' | 'invalid';
  integrityReason?: string;
  failure?: IntegrityFailure;
  /** Constraints the algorithms break (EdDSA digest, weak digest or signature). */
  algorithmFindings: VerifyFinding[];
  signingCertificateRef: SigningCertificateRef;
  signingTime?: Date;
}

export function findSignerCertificate(
  sid: SignerIdentifier,
  certificates: readonly CertInfo[],
): CertInfo | undefined {
  if ('subjectKeyId' in sid) {
    const ski = sid.subjectKeyId;
    return (
      certificates.find((c) => c.subjectKeyId && bytesEqual(c.subjectKeyId, ski)) ??
      // RFC 5280 4.2.1.2 method 1, for certificates without the extension.
      certificates.find((c) => bytesEqual(createHash('sha1').update(c.publicKeyBits).digest(), ski))
    );
  }
  const serial = decodeInteger(sid.serial);
  return certificates.find((c) => decodeInteger(c.serial) === serial && namesEqual(c.issuerDer, sid.issuer));
}

export function findAttribute(attrs: readonly CmsAttributeValues[] | undefined, type: string) {
  return attrs?.filter((a) => a.type === type) ?? [];
}

function signingCertificateRef(si: ParsedSignerInfo, cert: CertInfo): SigningCertificateRef {
  const v2 = findAttribute(si.signedAttrs?.attributes, OID.signingCertificateV2)[0]?.values[0];
  if (v2) return matchSigningCertificate(v2.raw, true, cert);
  const v1 = findAttribute(si.signedAttrs?.attributes, OID.signingCertificate)[0]?.values[0];
  return v1 ? matchSigningCertificate(v1.raw, false, cert) : 'absent';
}

function readSigningTime(si: ParsedSignerInfo): Date | undefined {
  const value = findAttribute(si.signedAttrs?.attributes, OID.signingTime)[0]?.values[0];
  try {
    return value ? decodeTime(value) : undefined;
  } catch {
    return undefined;
  }
}

/** Checks a SignerInfo against its content; never throws. */
export async function checkSignerInfo(
  si: ParsedSignerInfo,
  eContentType: string,
  certificates: readonly CertInfo[],
  content: ContentBinding,
): Promise<SignerCheck> {
  const signer = findSignerCertificate(si.sid, certificates);
  const digestAlgorithm = hashByOid(si.digestAlgorithm, si.digestParams);
  const resolved = resolveSignatureScheme(si.signatureAlgorithm, si.signatureParams, digestAlgorithm);
  const scheme = 'scheme' in resolved ? resolved.scheme : undefined;
  const result: SignerCheck = {
    signer,
    digestAlgorithm: digestAlgorithm ?? digestLabel(si.digestAlgorithm, si.digestParams),
    signatureAlgorithm: scheme ? scheme.label : si.signatureAlgorithm,
    integrity: 'invalid',
    signingCertificateRef: signer ? signingCertificateRef(si, signer) : 'absent',
    signingTime: readSigningTime(si),
    algorithmFindings: signerAlgorithmFindings(
      digestAlgorithm,
      digestAlgorithm ?? digestLabel(si.digestAlgorithm, si.digestParams),
      scheme,
    ),
  };
  const fail = (failure: IntegrityFailure, reason: string): SignerCheck => ({
    ...result,
    failure,
    integrityReason: reason,
  });
  const outcome = (
    check: { ok: boolean; reason?: string; unsupported?: boolean },
    prefix = '',
  ): SignerCheck =>
    check.ok
      ? { ...result, integrity: 'valid' }
      : fail(
          check.unsupported ? 'unsupported' : 'signature',
          prefix + (check.reason ?? 'signature does not verify'),
        );
  if (!digestAlgorithm)
    return fail(
      'unsupported',
      `unsupported digest algorithm ${digestLabel(si.digestAlgorithm, si.digestParams)}`,
    );
  if (!scheme) return fail('unsupported', (resolved as { unsupported: string }).unsupported);
  if (!signer) return fail('no-signer', 'signer certificate not found');
  let publicKey;
  try {
    publicKey = signer.publicKey();
  } catch (error) {
    return fail('unsupported', `unusable signer public key: ${(error as Error).message}`);
  }
  let contentDigest: Uint8Array;
  try {
    contentDigest = await content.digest(digestAlgorithm);
  } catch (error) {
    // The signed bytes cannot be read: nothing vouches for them.
    return fail(
      'format',
      `cannot compute the ${digestAlgorithm} digest of the content: ${(error as Error).message}`,
    );
  }

  if (si.signedAttrs) {
    const attrs = si.signedAttrs.attributes;
    const contentTypes = findAttribute(attrs, OID.contentType);
    const digests = findAttribute(attrs, OID.messageDigest);
    if (contentTypes.length !== 1 || contentTypes[0]?.values.length !== 1)
      return fail('format', 'signed attributes must hold exactly one content-type');
    const typeValue = contentTypes[0].values[0];
    if (typeValue?.tag !== 0x06 || decodeOid(typeValue.value) !== eContentType)
      return fail('format', 'content-type attribute does not match the encapsulated content type');
    const digestValue =
      digests.length === 1 && digests[0]?.values.length === 1 ? digests[0].values[0] : undefined;
    if (!digestValue) return fail('format', 'signed attributes must hold exactly one message-digest');
    const messageDigest = octetStringValue(digestValue);
    if (!bytesEqual(messageDigest, contentDigest))
      return fail('hash', 'message digest does not match the signed content');
    return outcome(
      verifyWithScheme(scheme, publicKey, si.signedAttrs.der, si.signature),
      'signed attributes: ',
    );
  }

  // No signed attributes: the signature covers the content itself.
  if (content.data) return outcome(verifyWithScheme(scheme, publicKey, content.data, si.signature));
  if (scheme.hash && scheme.hash !== digestAlgorithm) {
    try {
      contentDigest = await content.digest(scheme.hash);
    } catch (error) {
      return fail(
        'format',
        `cannot compute the ${scheme.hash} digest of the content: ${(error as Error).message}`,
      );
    }
  }
  return outcome(verifyDigestWithScheme(scheme, publicKey, contentDigest, si.signature));
}

/** A digest algorithm for people: its name, or SHAKE256 with its length, or the OID. */
function digestLabel(oid: string, params: Uint8Array | undefined): string {
  if (oid === OID.shake256Len) return `SHAKE256/${shakeLengthBits(params) ?? '?'}`;
  return hashByOid(oid) ?? oid;
}
