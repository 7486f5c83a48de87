import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { KeyHandle } from '../types';
import { bytesEqual, floorToSecond, toHex } from '../util/bytes';
import {
  isCaCertificate,
  keyIdentifierOf,
  makeTime,
  parseCertificate,
  parseSpki,
  spkiOf,
  subjectKeyIdOf,
} from '../util/certificate';
import { signatureAlgorithmFor, signToBitString } from '../util/signature';
import { buildExtensions, type CertificateUrls } from './extensions';
import { PROFILES, type CertificateProfile } from './profiles';
import { newSerialNumber } from './serial';
import { buildName, checkSubjectForProfile, type SubjectSpec } from './subject';

export type CertificateIssuer = { certificate: Uint8Array; key: KeyHandle } | { selfSigned: KeyHandle };

export interface IssueRequest {
  profile: CertificateProfile;
  subject: SubjectSpec;
  /** DER SubjectPublicKeyInfo of the subject's key. */
  publicKeySpki: Uint8Array;
  issuer: CertificateIssuer;
  notBefore?: Date;
  /** Defaults to the profile's validity; never later than the issuer's own notAfter. */
  notAfter?: Date;
  /** DER INTEGER content bytes; defaults to `newSerialNumber()`. */
  serial?: Uint8Array;
  urls?: CertificateUrls;
}

export interface IssuedCertificate {
  der: Uint8Array;
  /** Lower-case hex of exactly the DER INTEGER content bytes of the serial. */
  serialHex: string;
  notBefore: Date;
  notAfter: Date;
}

function addYears(date: Date, years: number): Date {
  const out = new Date(date);
  out.setUTCFullYear(out.getUTCFullYear() + years);
  return out;
}

/** Builds the TBSCertificate for the profile, signs it with the issuer's key handle and returns DER. */
export async function issueCertificate(req: IssueRequest): Promise<IssuedCertificate> {
  const rules = PROFILES[req.profile];
  if (!rules) throw new TypeError(`unknown certificate profile ${String(req.profile)}`);
  checkSubjectForProfile(req.profile, req.subject);
  const selfSigned = 'selfSigned' in req.issuer;
  if (selfSigned !== rules.selfSigned) {
    throw new TypeError(
      rules.selfSigned ? `${req.profile} must be self-signed` : `${req.profile} needs an issuing CA`,
    );
  }

  const subjectSpki = parseSpki(req.publicKeySpki);
  const subject = buildName(req.subject);
  const subjectKeyId = keyIdentifierOf(subjectSpki);
  let signer: KeyHandle;
  let issuerName: pkijs.RelativeDistinguishedNames;
  let authorityKeyId: Uint8Array;
  let issuerNotAfter: Date | undefined;
  if ('selfSigned' in req.issuer) {
    signer = req.issuer.selfSigned;
    if (!bytesEqual(signer.publicKeySpki, req.publicKeySpki)) {
      throw new TypeError('a self-signed certificate must certify the signing key itself');
    }
    issuerName = subject;
    authorityKeyId = subjectKeyId;
  } else {
    signer = req.issuer.key;
    const issuerCert = parseCertificate(req.issuer.certificate);
    if (!isCaCertificate(issuerCert)) throw new TypeError('the issuer certificate is not a CA certificate');
    if (!bytesEqual(spkiOf(issuerCert), signer.publicKeySpki)) {
      throw new TypeError("the issuer key does not match the issuer certificate's public key");
    }
    issuerName = issuerCert.subject;
    authorityKeyId = subjectKeyIdOf(issuerCert);
    issuerNotAfter = issuerCert.notAfter.value;
  }

  const notBefore = floorToSecond(req.notBefore ?? new Date());
  let notAfter = floorToSecond(req.notAfter ?? addYears(notBefore, rules.validityYears));
  // A certificate cannot outlive its issuer in any path a relying party builds.
  if (issuerNotAfter && notAfter > issuerNotAfter) notAfter = floorToSecond(issuerNotAfter);
  if (notAfter <= notBefore) throw new TypeError('notAfter must be later than notBefore');

  const serial = req.serial ?? newSerialNumber();
  if (serial.length === 0 || serial.length > 20 || ((serial[0] ?? 0) & 0x80) !== 0) {
    throw new TypeError('serial must be 1-20 bytes and positive (RFC 5280 §4.1.2.2)');
  }

  const algorithm = signatureAlgorithmFor(signer.algorithm);
  const cert = new pkijs.Certificate({
    version: 2,
    serialNumber: new asn1js.Integer({ valueHex: serial }),
    signature: algorithm,
    issuer: issuerName,
    subject,
    notBefore: makeTime(notBefore),
    notAfter: makeTime(notAfter),
    subjectPublicKeyInfo: subjectSpki,
    extensions: buildExtensions({ rules, subjectKeyId, authorityKeyId, urls: req.urls ?? {} }),
    signatureAlgorithm: signatureAlgorithmFor(signer.algorithm),
  });
  cert.tbsView = new Uint8Array(cert.encodeTBS().toBER());
  cert.signatureValue = await signToBitString(cert.tbsView, signer);
  const der = new Uint8Array(cert.toSchema().toBER());
  return { der, serialHex: toHex(serial), notBefore, notAfter };
}
