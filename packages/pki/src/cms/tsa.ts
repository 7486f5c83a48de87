/**
 * RFC 3161 time-stamping: the authority side (parse a TimeStampReq, answer with a granted TimeStampResp or
 * a rejection) and the client side (build a request, read a response). Requests are parsed as strict DER;
 * anything malformed becomes a rejection with the matching PKIFailureInfo, never an exception to the caller
 * of answerTimeStampReq.
 */
import { randomBytes } from 'node:crypto';
import type { CmsSigner } from '../types';
import {
  DerError,
  bool,
  ctx,
  decodeInteger,
  derNull,
  expectTag,
  generalizedTime,
  namedBits,
  octets,
  oid,
  readChildren,
  readOid,
  readTlv,
  seq,
  smallInteger,
  tlv,
  unsignedInteger,
  utf8,
  type Tlv,
} from './der';
import { parseCertificate, type CertInfo } from './cert';
import { OID, digest, hashByOid, hashOid, hashSize, type HashName } from './oids';
import { buildSignedData } from './signed-data';

export type TsaFailInfo =
  | 'badAlg'
  | 'badRequest'
  | 'badDataFormat'
  | 'timeNotAvailable'
  | 'unacceptedPolicy'
  | 'unacceptedExtension'
  | 'addInfoNotAvailable'
  | 'systemFailure';

const FAIL_BITS: Record<TsaFailInfo, number> = {
  badAlg: 0,
  badRequest: 2,
  badDataFormat: 5,
  timeNotAvailable: 14,
  unacceptedPolicy: 15,
  unacceptedExtension: 16,
  addInfoNotAvailable: 17,
  systemFailure: 25,
};

export class TsaError extends Error {
  override name = 'TsaError';
  constructor(
    readonly failInfo: TsaFailInfo,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface TimeStampRequest {
  hashAlgorithm: HashName;
  hashedMessage: Uint8Array;
  /** INTEGER contents octets, echoed verbatim. */
  nonce?: Uint8Array;
  certReq: boolean;
  reqPolicy?: string;
  /** The MessageImprint DER as received; the token must carry it unchanged (RFC 3161 2.4.2). */
  messageImprint?: Uint8Array;
}

function parseRequestFields(der: Uint8Array): TimeStampRequest {
  const top = expectTag(readTlv(der), 0x30, 'TimeStampReq');
  if (top.raw.length !== der.length) throw new TsaError('badDataFormat', 'trailing data after the request');
  const fields = readChildren(top);
  if (decodeInteger(expectTag(fields[0], 0x02, 'version').value) !== 1n)
    throw new TsaError('badDataFormat', 'unsupported request version');
  const imprint = expectTag(fields[1], 0x30, 'messageImprint');
  const [algId, hashed] = readChildren(imprint);
  const algorithmOid = readOid(readChildren(expectTag(algId, 0x30, 'hashAlgorithm'))[0]);
  const hashAlgorithm = hashByOid(algorithmOid);
  // MD5 is broken and SHAKE256 is no imprint hash of RFC 3161: neither is stamped.
  if (!hashAlgorithm || hashAlgorithm === 'MD5' || hashAlgorithm === 'SHAKE256')
    throw new TsaError('badAlg', `unsupported hash algorithm ${algorithmOid}`);
  const hashedMessage = expectTag(hashed, 0x04, 'hashedMessage').value;
  if (hashedMessage.length !== hashSize(hashAlgorithm))
    throw new TsaError('badDataFormat', `hashedMessage is not a ${hashAlgorithm} value`);
  const request: TimeStampRequest = {
    hashAlgorithm,
    hashedMessage,
    certReq: false,
    messageImprint: imprint.raw,
  };
  for (const field of fields.slice(2) as Tlv[]) {
    if (field.tag === 0x06 && !request.reqPolicy && request.nonce === undefined)
      request.reqPolicy = readOid(field);
    else if (field.tag === 0x02 && request.nonce === undefined) request.nonce = field.value;
    else if (field.tag === 0x01) request.certReq = field.value[0] !== 0;
    else if (field.tag === 0xa0)
      throw new TsaError('unacceptedExtension', 'request extensions are not supported');
    else throw new TsaError('badDataFormat', `unexpected field with tag 0x${field.tag.toString(16)}`);
  }
  return request;
}

/** Parses a DER TimeStampReq; throws TsaError with the PKIFailureInfo to answer with. */
export function parseTimeStampReq(der: Uint8Array): TimeStampRequest {
  try {
    return parseRequestFields(der);
  } catch (error) {
    if (error instanceof TsaError) throw error;
    throw new TsaError('badDataFormat', `malformed request: ${(error as Error).message}`, { cause: error });
  }
}

export interface BuildTimeStampRespOptions {
  tsa: CmsSigner;
  request: TimeStampRequest;
  /** Unique per token (RFC 3161: up to 160 bits). */
  serialNumber: Uint8Array;
  genTime: Date;
  policy: string;
  accuracyMillis?: number;
}

const tsaCertificates = new WeakMap<Uint8Array, CertInfo>();

function tsaCertificate(der: Uint8Array): CertInfo {
  let cert = tsaCertificates.get(der);
  if (!cert) {
    cert = parseCertificate(der);
    // RFC 3161 2.3: the TSA certificate carries exactly id-kp-timeStamping, marked critical.
    if (!cert.extendedKeyUsage?.includes(OID.kpTimeStamping) || !cert.extendedKeyUsageCritical)
      throw new Error(`${cert.subject} lacks the critical id-kp-timeStamping extended key usage`);
    tsaCertificates.set(der, cert);
  }
  return cert;
}

function accuracy(millis: number | undefined): Uint8Array[] {
  if (!millis || millis <= 0) return [];
  const seconds = Math.floor(millis / 1000);
  const rest = Math.round(millis % 1000);
  const parts = [
    ...(seconds > 0 ? [smallInteger(seconds)] : []),
    ...(rest > 0 ? [tlv(0x80, smallInteger(rest).subarray(2))] : []),
  ];
  return [seq(...parts)];
}

function messageImprint(request: TimeStampRequest): Uint8Array {
  return (
    request.messageImprint ?? seq(seq(oid(hashOid(request.hashAlgorithm))), octets(request.hashedMessage))
  );
}

/** Builds the TimeStampToken (DER ContentInfo, attached TSTInfo) for a request. */
export async function buildTimeStampToken(opts: BuildTimeStampRespOptions): Promise<Uint8Array> {
  const { request } = opts;
  if (request.reqPolicy && request.reqPolicy !== opts.policy)
    throw new TsaError('unacceptedPolicy', `policy ${request.reqPolicy} is not offered`);
  const cert = tsaCertificate(opts.tsa.certificate);
  const tstInfo = seq(
    smallInteger(1),
    oid(opts.policy),
    messageImprint(request),
    unsignedInteger(opts.serialNumber),
    generalizedTime(opts.genTime),
    ...accuracy(opts.accuracyMillis),
    ...(request.nonce ? [tlv(0x02, request.nonce)] : []),
    ctx(0, ctx(4, cert.subjectDer)),
  );
  return buildSignedData({
    signer: opts.tsa,
    digest: digest('SHA-256', tstInfo),
    contentType: OID.tstInfo,
    content: tstInfo,
    includeCertificates: request.certReq,
  });
}

/** A granted TimeStampResp. */
export async function buildTimeStampResp(opts: BuildTimeStampRespOptions): Promise<Uint8Array> {
  const token = await buildTimeStampToken(opts);
  return seq(seq(smallInteger(0)), token);
}

/** A rejected TimeStampResp (status 2) with a PKIFailureInfo bit and optional text. */
export function timeStampRejection(failInfo: TsaFailInfo, text?: string): Uint8Array {
  return seq(seq(smallInteger(2), ...(text ? [seq(utf8(text))] : []), namedBits([FAIL_BITS[failInfo]])));
}

export type AnswerTimeStampOptions = Omit<BuildTimeStampRespOptions, 'request'>;

/** The whole TSA exchange: DER request in, DER response out; bad requests become rejections. */
export async function answerTimeStampReq(der: Uint8Array, opts: AnswerTimeStampOptions): Promise<Uint8Array> {
  try {
    return await buildTimeStampResp({ ...opts, request: parseTimeStampReq(der) });
  } catch (error) {
    if (error instanceof TsaError) return timeStampRejection(error.failInfo, error.message);
    throw error;
  }
}

export interface LocalTimestamperOptions extends Omit<AnswerTimeStampOptions, 'serialNumber' | 'genTime'> {
  serialNumber: () => Uint8Array | Promise<Uint8Array>;
  now?: () => Date;
}

/** A `timestamp` callback for buildSignedData backed by an in-process TSA (SHA-256 imprint, certificate included). */
export function makeLocalTimestamper(
  opts: LocalTimestamperOptions,
): (data: Uint8Array) => Promise<Uint8Array> {
  return async (data) =>
    buildTimeStampToken({
      tsa: opts.tsa,
      policy: opts.policy,
      accuracyMillis: opts.accuracyMillis,
      serialNumber: await opts.serialNumber(),
      genTime: (opts.now ?? (() => new Date()))(),
      request: { hashAlgorithm: 'SHA-256', hashedMessage: digest('SHA-256', data), certReq: true },
    });
}

// ---------------------------------------------------------------- client side

export interface BuildTimeStampReqOptions {
  hashAlgorithm?: HashName;
  /** true for a random 64-bit nonce, or the nonce's unsigned magnitude. */
  nonce?: boolean | Uint8Array;
  /** Ask for the TSA certificate in the token (default true). */
  certReq?: boolean;
  reqPolicy?: string;
}

export function buildTimeStampReq(digestValue: Uint8Array, opts: BuildTimeStampReqOptions = {}): Uint8Array {
  const hashAlgorithm = opts.hashAlgorithm ?? 'SHA-256';
  if (digestValue.length !== hashSize(hashAlgorithm))
    throw new Error(`digest is not a ${hashAlgorithm} value`);
  const nonce = opts.nonce === true ? randomBytes(8) : opts.nonce || undefined;
  return seq(
    smallInteger(1),
    seq(seq(oid(hashOid(hashAlgorithm)), derNull()), octets(digestValue)),
    ...(opts.reqPolicy ? [oid(opts.reqPolicy)] : []),
    ...(nonce ? [unsignedInteger(nonce)] : []),
    ...(opts.certReq === false ? [] : [bool(true)]),
  );
}

export interface TimeStampResponse {
  granted: boolean;
  /** PKIStatus: 0 granted, 1 grantedWithMods, 2 rejection, 3 waiting, 4 revocationWarning, 5 revocationNotification. */
  status?: number;
  statusText?: string;
  failInfo?: string;
  /** The TimeStampToken (DER ContentInfo) when granted. */
  token?: Uint8Array;
}

function failInfoName(bits: Uint8Array): string | undefined {
  const names: string[] = [];
  for (const [name, bit] of Object.entries(FAIL_BITS))
    if (((bits[1 + (bit >> 3)] ?? 0) & (0x80 >> (bit & 7))) !== 0) names.push(name);
  return names.length > 0 ? names.join(',') : undefined;
}

/** Reads a TimeStampResp; a malformed one reads as not granted with failInfo 'badDataFormat'. */
export function readTimeStampResp(der: Uint8Array): TimeStampResponse {
  try {
    const [statusInfo, token] = readChildren(expectTag(readTlv(der, 0, true), 0x30, 'TimeStampResp'), true);
    const fields = readChildren(expectTag(statusInfo, 0x30, 'PKIStatusInfo'));
    const status = Number(decodeInteger(expectTag(fields[0], 0x02, 'status').value));
    const response: TimeStampResponse = { granted: status === 0 || status === 1, status };
    for (const field of fields.slice(1)) {
      if (field.tag === 0x30)
        response.statusText = readChildren(field)
          .map((t) => new TextDecoder().decode(t.value))
          .join('; ');
      else if (field.tag === 0x03) response.failInfo = failInfoName(field.value);
    }
    if (token) response.token = token.raw;
    if (response.granted && !response.token)
      return { ...response, granted: false, statusText: 'granted without a token' };
    return response;
  } catch (error) {
    const message = error instanceof DerError ? error.message : String(error);
    return {
      granted: false,
      failInfo: 'badDataFormat',
      statusText: `malformed time-stamp response: ${message}`,
    };
  }
}
