import type * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { parseDer } from '../util/der';
import { certIdFromPkijs, makeCertId, type OcspCertId, type OcspHashAlgorithm } from './cert-id';
import { nonceExtension, readNonce } from './nonce';
import { OcspError } from './ocsp-error';

export interface ParsedOcspRequest {
  requests: OcspCertId[];
  nonce?: Uint8Array;
}

/** Parses a DER OCSPRequest; anything unparseable or empty throws OcspError('malformedRequest'). */
export function parseOcspRequest(der: Uint8Array): ParsedOcspRequest {
  let request: pkijs.OCSPRequest;
  try {
    request = new pkijs.OCSPRequest({ schema: parseDer(der, 'OCSP request') });
  } catch (cause) {
    throw new OcspError('malformedRequest', 'not a DER OCSP request', { cause });
  }
  const list = request.tbsRequest.requestList;
  if (list.length === 0) throw new OcspError('malformedRequest', 'OCSP request lists no certificates');
  let requests: OcspCertId[];
  try {
    requests = list.map((r) => certIdFromPkijs(r.reqCert));
  } catch (cause) {
    throw new OcspError('malformedRequest', 'OCSP request has an unreadable CertID', { cause });
  }
  const nonce = readNonce(request.tbsRequest.requestExtensions);
  return nonce ? { requests, nonce } : { requests };
}

export interface BuildOcspRequestInput {
  issuerCertificate: Uint8Array;
  serialHex: string | string[];
  hashAlgorithm?: OcspHashAlgorithm;
  nonce?: Uint8Array;
}

/** An unsigned DER OCSPRequest, for the verifier's own queries (transport is the caller's). */
export function buildOcspRequest(input: BuildOcspRequestInput): Uint8Array {
  const serials = Array.isArray(input.serialHex) ? input.serialHex : [input.serialHex];
  const request = new pkijs.OCSPRequest({
    tbsRequest: new pkijs.TBSRequest({
      requestList: serials.map(
        (s) =>
          new pkijs.Request({
            reqCert: makeCertId(input.issuerCertificate, s, input.hashAlgorithm ?? 'SHA-1'),
          }),
      ),
      ...(input.nonce ? { requestExtensions: [nonceExtension(input.nonce)] } : {}),
    }),
  });
  return new Uint8Array((request.toSchema(true) as asn1js.Sequence).toBER());
}
