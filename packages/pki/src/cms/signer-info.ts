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
import { OID, hashByOid, type HashName } from './oids';
import { resolveSignatureScheme, verifyDigestWithScheme, verifyWithScheme } from './algorithms';

export interface ContentBinding {
  /** Digest of the signed content with the given algorithm. */
  digest(algorithm: HashName): Promise<Uint8Array>;
  /** The content itself when at hand (attached content), for signatures without signed attributes. */
  data?: Uint8Array;
}

export interface SignerCheck {
  signer?: CertInfo;
  digestAlgorithm?: string;
  signatureAlgorithm?: string;
  integrity: 'valid' | 'invalid';
  integrityReason?: string;
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
  const digestAlgorithm = hashByOid(si.digestAlgorithm);
  const resolved = resolveSignatureScheme(si.signatureAlgorithm, si.signatureParams, digestAlgorithm);
  const result: SignerCheck = {
    signer,
    digestAlgorithm: digestAlgorithm ?? si.digestAlgorithm,
    signatureAlgorithm: 'scheme' in resolved ? resolved.scheme.label : si.signatureAlgorithm,
    integrity: 'invalid',
    signingCertificateRef: signer ? signingCertificateRef(si, signer) : 'absent',
    signingTime: readSigningTime(si),
  };
  const fail = (reason: string): SignerCheck => ({ ...result, integrityReason: reason });
  if (!digestAlgorithm) return fail(`unsupported digest algorithm ${si.digestAlgorithm}`);
  if ('unsupported' in resolved) return fail(resolved.unsupported);
  if (!signer) return fail('signer certificate not found');
  const { scheme } = resolved;
  let publicKey;
  try {
    publicKey = signer.publicKey();
  } catch (error) {
    return fail(`unusable signer public key: ${(error as Error).message}`);
  }
  let contentDigest: Uint8Array;
  try {
    contentDigest = await content.digest(digestAlgorithm);
  } catch (error) {
    return fail(`cannot compute the ${digestAlgorithm} digest of the content: ${(error as Error).message}`);
  }

  if (si.signedAttrs) {
    const attrs = si.signedAttrs.attributes;
    const contentTypes = findAttribute(attrs, OID.contentType);
    const digests = findAttribute(attrs, OID.messageDigest);
    if (contentTypes.length !== 1 || contentTypes[0]?.values.length !== 1)
      return fail('signed attributes must hold exactly one content-type');
    const typeValue = contentTypes[0].values[0];
    if (typeValue?.tag !== 0x06 || decodeOid(typeValue.value) !== eContentType)
      return fail('content-type attribute does not match the encapsulated content type');
    const digestValue =
      digests.length === 1 && digests[0]?.values.length === 1 ? digests[0].values[0] : undefined;
    if (!digestValue) return fail('signed attributes must hold exactly one message-digest');
    const messageDigest = octetStringValue(digestValue);
    if (!bytesEqual(messageDigest, contentDigest))
      return fail('message digest does not match the signed content');
    const check = verifyWithScheme(scheme, publicKey, si.signedAttrs.der, si.signature);
    return check.ok ? { ...result, integrity: 'valid' } : fail(`signed attributes: ${check.reason}`);
  }

  // No signed attributes: the signature covers the content itself.
  if (content.data) {
    const check = verifyWithScheme(scheme, publicKey, content.data, si.signature);
    return check.ok ? { ...result, integrity: 'valid' } : fail(check.reason ?? 'signature does not verify');
  }
  if (scheme.hash && scheme.hash !== digestAlgorithm) {
    try {
      contentDigest = await content.digest(scheme.hash);
    } catch (error) {
      return fail(`cannot compute the ${scheme.hash} digest of the content: ${(error as Error).message}`);
    }
  }
  const check = verifyDigestWithScheme(scheme, publicKey, contentDigest, si.signature);
  return check.ok ? { ...result, integrity: 'valid' } : fail(check.reason ?? 'signature does not verify');
}
