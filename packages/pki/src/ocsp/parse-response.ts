import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { reasonFromCode, type AnyRevocationReason } from '../crl/reasons';
import { bytesEqual, copyBytes } from '../util/bytes';
import {
  findExtension,
  issuerNameDer,
  keyIdentifierOf,
  parseCertificate,
  spkiOf,
  subjectNameDer,
} from '../util/certificate';
import { parseDer } from '../util/der';
import { formatName } from '../util/name';
import { OID } from '../util/oids';
import { verifySignature } from '../util/signature';
import { certIdFromPkijs, type OcspCertId } from './cert-id';
import { readNonce } from './nonce';
import { OCSP_STATUS_CODES, type OcspResponseStatus } from './ocsp-error';

export interface OcspResponseEntry extends OcspCertId {
  status: 'good' | 'revoked' | 'unknown';
  revokedAt?: Date;
  reason?: AnyRevocationReason;
  thisUpdate: Date;
  nextUpdate?: Date;
}

export interface ParsedOcspResponse {
  status: OcspResponseStatus;
  /** The fields below are set only for a successful basic response. */
  producedAt?: Date;
  responderKeyHash?: Uint8Array;
  responderName?: string;
  responses: OcspResponseEntry[];
  /** Of the first single response, the one a one-certificate query is about. */
  thisUpdate?: Date;
  nextUpdate?: Date;
  nonce?: Uint8Array;
  responderCertificates: Uint8Array[];
  find(serialHex: string): OcspResponseEntry | undefined;
  /** True when `cert` is the responder named by responderID and its key verifies the signature. */
  verify(cert: Uint8Array): boolean;
  /**
   * RFC 6960 §4.2.2.2: the certificate that signed for `issuerCert` — the issuer itself, or an
   * included responder certificate issued by it with id-kp-OCSPSigning, valid at producedAt.
   */
  findAuthorizedSigner(issuerCert: Uint8Array): Uint8Array | undefined;
}

const STATUS_NAMES = Object.fromEntries(Object.entries(OCSP_STATUS_CODES).map(([k, v]) => [v, k])) as Record<
  number,
  OcspResponseStatus
>;

function singleFrom(single: pkijs.SingleResponse): OcspResponseEntry {
  const out: OcspResponseEntry = {
    ...certIdFromPkijs(single.certID),
    status: 'unknown',
    thisUpdate: single.thisUpdate,
  };
  if (single.nextUpdate) out.nextUpdate = single.nextUpdate;
  const cs = single.certStatus as asn1js.BaseBlock;
  if (cs.idBlock.tagClass === 3 && cs.idBlock.tagNumber === 0) out.status = 'good';
  else if (cs.idBlock.tagClass === 3 && cs.idBlock.tagNumber === 1) {
    out.status = 'revoked';
    const [time, reason] = (cs as asn1js.Constructed).valueBlock.value;
    if (time instanceof asn1js.GeneralizedTime) out.revokedAt = time.toDate();
    const code = reason instanceof asn1js.Constructed ? reason.valueBlock.value[0] : undefined;
    out.reason =
      code instanceof asn1js.Enumerated
        ? (reasonFromCode(code.valueBlock.valueDec) ?? 'unspecified')
        : 'unspecified';
  }
  return out;
}

function hasOcspSigning(cert: pkijs.Certificate): boolean {
  const eku = findExtension(cert.extensions, OID.extKeyUsage);
  if (!eku) return false;
  const parsed = new pkijs.ExtKeyUsage({
    schema: asn1js.fromBER(eku.extnValue.valueBlock.valueHexView).result,
  });
  return parsed.keyPurposes.includes(OID.kpOcspSigning);
}

/** Parses a DER OCSPResponse (any responder's). Throws TypeError when it is not one. */
export function parseOcspResponse(der: Uint8Array): ParsedOcspResponse {
  let response: pkijs.OCSPResponse;
  try {
    response = new pkijs.OCSPResponse({ schema: parseDer(der, 'OCSP response') });
  } catch (cause) {
    throw new TypeError('not an OCSP response', { cause });
  }
  const status = STATUS_NAMES[response.responseStatus.valueBlock.valueDec];
  if (!status)
    throw new TypeError(`unknown OCSP response status ${response.responseStatus.valueBlock.valueDec}`);
  const empty: ParsedOcspResponse = {
    status,
    responses: [],
    responderCertificates: [],
    find: () => undefined,
    verify: () => false,
    findAuthorizedSigner: () => undefined,
  };
  if (status !== 'successful') return empty;
  if (!response.responseBytes || response.responseBytes.responseType !== OID.ocspBasic) {
    throw new TypeError('successful OCSP response without a basic response');
  }
  let basic: pkijs.BasicOCSPResponse;
  try {
    basic = new pkijs.BasicOCSPResponse({
      schema: parseDer(response.responseBytes.response.valueBlock.valueHexView, 'BasicOCSPResponse'),
    });
  } catch (cause) {
    throw new TypeError('malformed BasicOCSPResponse', { cause });
  }
  const data = basic.tbsResponseData;
  const tbs = copyBytes(data.tbsView);
  const signature = copyBytes(basic.signature.valueBlock.valueHexView);
  const responses = data.responses.map(singleFrom);
  const certificates = (basic.certs ?? []).map((c) => new Uint8Array(c.toSchema().toBER()));
  const byKey =
    data.responderID instanceof asn1js.OctetString
      ? copyBytes(data.responderID.valueBlock.valueHexView)
      : undefined;
  const byName = data.responderID instanceof pkijs.RelativeDistinguishedNames ? data.responderID : undefined;
  const producedAt = data.producedAt;

  const isResponder = (cert: pkijs.Certificate): boolean => {
    if (byKey) return bytesEqual(keyIdentifierOf(cert.subjectPublicKeyInfo), byKey);
    if (byName) return bytesEqual(subjectNameDer(cert), new Uint8Array(byName.toSchema().toBER()));
    return false;
  };
  const verifyParsed = (cert: pkijs.Certificate): boolean =>
    isResponder(cert) && verifySignature(tbs, basic.signatureAlgorithm, signature, spkiOf(cert));
  const tryParse = (certDer: Uint8Array): pkijs.Certificate | undefined => {
    try {
      return parseCertificate(certDer);
    } catch {
      return undefined;
    }
  };

  const result: ParsedOcspResponse = {
    ...empty,
    producedAt,
    responses,
    responderCertificates: certificates,
    find: (serialHex) => responses.find((r) => r.serialHex === serialHex.toLowerCase()),
    verify(certDer) {
      const cert = tryParse(certDer);
      return cert ? verifyParsed(cert) : false;
    },
    findAuthorizedSigner(issuerDer) {
      const issuer = tryParse(issuerDer);
      if (!issuer) return undefined;
      if (verifyParsed(issuer)) return issuerDer;
      for (const candidateDer of certificates) {
        const candidate = tryParse(candidateDer);
        if (!candidate || !verifyParsed(candidate) || !hasOcspSigning(candidate)) continue;
        if (!bytesEqual(issuerNameDer(candidate), subjectNameDer(issuer))) continue;
        if (producedAt < candidate.notBefore.value || producedAt > candidate.notAfter.value) continue;
        const candidateTbs = copyBytes(candidate.tbsView);
        const candidateSig = copyBytes(candidate.signatureValue.valueBlock.valueHexView);
        if (verifySignature(candidateTbs, candidate.signatureAlgorithm, candidateSig, spkiOf(issuer)))
          return candidateDer;
      }
      return undefined;
    },
  };
  if (byKey) result.responderKeyHash = byKey;
  if (byName) result.responderName = formatName(byName);
  if (responses[0]) {
    result.thisUpdate = responses[0].thisUpdate;
    if (responses[0].nextUpdate) result.nextUpdate = responses[0].nextUpdate;
  }
  const nonce = readNonce(data.responseExtensions);
  if (nonce) result.nonce = nonce;
  return result;
}
