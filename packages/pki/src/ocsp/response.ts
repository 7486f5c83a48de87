import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { REASON_CODES, type RevocationReason } from '../crl/reasons';
import type { KeyHandle } from '../types';
import { bytesEqual, copyBytes, floorToSecond } from '../util/bytes';
import {
  findExtension,
  keyIdentifierOf,
  parseCertificate,
  spkiOf,
  subjectNameDer,
  issuerNameDer,
} from '../util/certificate';
import { OID } from '../util/oids';
import { signatureAlgorithmFor, signToBitString, verifySignature } from '../util/signature';
import { makeCertId, type OcspHashAlgorithm } from './cert-id';
import { nonceExtension } from './nonce';
import { OCSP_STATUS_CODES, type OcspErrorStatus } from './ocsp-error';

export type OcspCertStatus = 'good' | 'unknown' | { revokedAt: Date; reason: RevocationReason };

export interface OcspAnswer {
  serialHex: string;
  status: OcspCertStatus;
  thisUpdate: Date;
  nextUpdate?: Date;
  /** Must be the request's CertID hash algorithm for clients to match the answer; default SHA-1. */
  hashAlgorithm?: OcspHashAlgorithm;
}

export interface BuildOcspResponseInput {
  /** The issuing CA itself, or a delegated responder certificate (id-kp-OCSPSigning) it issued. */
  responder: { certificate: Uint8Array; key: KeyHandle };
  issuerCertificate: Uint8Array;
  answers: OcspAnswer[];
  /** Echoed from the request (RFC 8954). */
  nonce?: Uint8Array;
  producedAt?: Date;
  /** Default true: clients need a delegated responder's certificate to check it. */
  includeResponderCertificate?: boolean;
}

function contextPrimitive(tagNumber: number): asn1js.Primitive {
  return new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber } });
}

function certStatusOf(status: OcspCertStatus): asn1js.BaseBlock {
  if (status === 'good') return contextPrimitive(0);
  if (status === 'unknown') return contextPrimitive(2);
  const code = REASON_CODES[status.reason];
  if (code === undefined) throw new TypeError(`unknown revocation reason ${String(status.reason)}`);
  const value: asn1js.BaseBlock[] = [
    new asn1js.GeneralizedTime({ valueDate: floorToSecond(status.revokedAt) }),
  ];
  value.push(
    new asn1js.Constructed({
      idBlock: { tagClass: 3, tagNumber: 0 },
      value: [new asn1js.Enumerated({ value: code })],
    }),
  );
  return new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 1 }, value });
}

/** A delegated responder must be issued by the CA and carry id-kp-OCSPSigning (RFC 6960 §4.2.2.2). */
function assertAuthorised(responder: pkijs.Certificate, issuer: pkijs.Certificate): void {
  const sameAsIssuer =
    bytesEqual(subjectNameDer(responder), subjectNameDer(issuer)) &&
    bytesEqual(spkiOf(responder), spkiOf(issuer));
  if (sameAsIssuer) return;
  const eku = findExtension(responder.extensions, OID.extKeyUsage);
  const purposes = eku
    ? new pkijs.ExtKeyUsage({ schema: asn1js.fromBER(eku.extnValue.valueBlock.valueHexView).result })
        .keyPurposes
    : [];
  const issuedByIssuer =
    bytesEqual(issuerNameDer(responder), subjectNameDer(issuer)) &&
    verifySignature(
      copyBytes(responder.tbsView),
      responder.signatureAlgorithm,
      copyBytes(responder.signatureValue.valueBlock.valueHexView),
      spkiOf(issuer),
    );
  if (!issuedByIssuer || !purposes.includes(OID.kpOcspSigning)) {
    throw new TypeError('the responder is neither the issuing CA nor an OCSP signer it issued');
  }
}

/** A successful, signed (SHA-256) BasicOCSPResponse with responderID byKey, as DER OCSPResponse. */
export async function buildOcspResponse(input: BuildOcspResponseInput): Promise<Uint8Array> {
  const responderCert = parseCertificate(input.responder.certificate);
  const key = input.responder.key;
  if (!bytesEqual(spkiOf(responderCert), key.publicKeySpki)) {
    throw new TypeError("the responder key does not match the responder certificate's public key");
  }
  assertAuthorised(responderCert, parseCertificate(input.issuerCertificate));
  if (input.answers.length === 0) throw new TypeError('an OCSP response needs at least one answer');

  const responses = input.answers.map(
    (a) =>
      new pkijs.SingleResponse({
        certID: makeCertId(input.issuerCertificate, a.serialHex, a.hashAlgorithm ?? 'SHA-1'),
        certStatus: certStatusOf(a.status),
        thisUpdate: floorToSecond(a.thisUpdate),
        ...(a.nextUpdate ? { nextUpdate: floorToSecond(a.nextUpdate) } : {}),
      }),
  );
  const tbs = new pkijs.ResponseData({
    responderID: new asn1js.OctetString({ valueHex: keyIdentifierOf(responderCert.subjectPublicKeyInfo) }),
    producedAt: floorToSecond(input.producedAt ?? new Date()),
    responses,
    ...(input.nonce ? { responseExtensions: [nonceExtension(input.nonce)] } : {}),
  });
  tbs.tbsView = new Uint8Array(tbs.toSchema(true).toBER());
  const basic = new pkijs.BasicOCSPResponse({
    tbsResponseData: tbs,
    signatureAlgorithm: signatureAlgorithmFor(key.algorithm),
    signature: await signToBitString(tbs.tbsView, key),
    ...(input.includeResponderCertificate === false ? {} : { certs: [responderCert] }),
  });
  const response = new pkijs.OCSPResponse({
    responseStatus: new asn1js.Enumerated({ value: OCSP_STATUS_CODES.successful }),
    responseBytes: new pkijs.ResponseBytes({
      responseType: OID.ocspBasic,
      response: new asn1js.OctetString({ valueHex: basic.toSchema().toBER() }),
    }),
  });
  return new Uint8Array(response.toSchema().toBER());
}

/** An unsigned error OCSPResponse: just the status (RFC 6960 §4.2.1). */
export function ocspErrorResponse(status: OcspErrorStatus): Uint8Array {
  const code = OCSP_STATUS_CODES[status];
  if (code === undefined || code === 0) throw new TypeError(`not an OCSP error status: ${String(status)}`);
  return Uint8Array.of(0x30, 0x03, 0x0a, 0x01, code);
}
