/**
 * CMS SignedData (RFC 5652) assembled directly as DER. Building it through an object model costs far more
 * than the signature itself; here the signer's certificate is parsed once and everything else is byte
 * concatenation around a single KeyHandle.sign() over the signed attributes.
 */
import type { CmsSigner, KeyHandle } from '../types';
import {
  bytesEqual,
  ctx,
  derNull,
  octets,
  oid,
  seq,
  setOf,
  signingTimeValue,
  smallInteger,
  tlv,
} from './der';
import { parseCertificate, type CertInfo } from './cert';
import { signingCertificateV2 } from './ess';
import { OID, digest as hashBytes } from './oids';

/** An attribute as callers supply it: type OID and DER-encoded values. */
export interface CmsAttribute {
  type: string;
  values: ArrayBuffer[];
}

export interface BuildSignedDataOptions {
  signer: CmsSigner;
  /** SHA-256 of the content. */
  digest: Uint8Array;
  /** eContentType OID; id-data by default. */
  contentType?: string;
  /** Attached eContent; omit for a detached signature. */
  content?: Uint8Array;
  /** Adds a signing-time attribute only when given. */
  signingTime?: Date;
  extraSignedAttributes?: CmsAttribute[];
  /** Returns a TimeStampToken (DER ContentInfo) over the signature value; stored as signature-time-stamp. */
  timestamp?: (signatureValue: Uint8Array) => Promise<Uint8Array>;
  unsignedAttributes?: CmsAttribute[];
  /** Embed the signer certificate and chain (default true; an RFC 3161 TSA omits them unless certReq). */
  includeCertificates?: boolean;
}

interface PreparedSigner {
  cert: CertInfo;
  sid: Uint8Array;
  essAttribute: Uint8Array;
}

const prepared = new WeakMap<Uint8Array, PreparedSigner>();

const attribute = (type: string, ...values: Uint8Array[]): Uint8Array => seq(oid(type), setOf(values));

function prepareSigner(certificate: Uint8Array): PreparedSigner {
  let entry = prepared.get(certificate);
  if (!entry) {
    const cert = parseCertificate(certificate);
    entry = {
      cert,
      sid: seq(cert.issuerDer, tlv(0x02, cert.serial)),
      essAttribute: attribute(OID.signingCertificateV2, signingCertificateV2(cert)),
    };
    prepared.set(certificate, entry);
  }
  return entry;
}

function signatureAlgorithm(key: KeyHandle): Uint8Array {
  if (key.algorithm.startsWith('EC')) return seq(oid(OID.ecdsaWithSha256));
  if (key.algorithm.startsWith('RSA')) return seq(oid(OID.sha256WithRsa), derNull());
  throw new Error(`unsupported key algorithm ${String(key.algorithm)}`);
}

const SHA256_ALGORITHM = seq(oid(OID.sha256));
const verifiedKeys = new WeakMap<KeyHandle, Uint8Array>();

function assertKeyMatches(key: KeyHandle, cert: CertInfo): void {
  if (verifiedKeys.get(key) === cert.der) return;
  if (!bytesEqual(key.publicKeySpki, cert.spki))
    throw new Error(`key ${key.id} does not match the signer certificate ${cert.subject}`);
  verifiedKeys.set(key, cert.der);
}

const toBytes = (values: ArrayBuffer[]): Uint8Array[] => values.map((v) => new Uint8Array(v));

/** Builds a DER ContentInfo(SignedData) with one SignerInfo (issuerAndSerialNumber, SHA-256). */
export async function buildSignedData(opts: BuildSignedDataOptions): Promise<Uint8Array> {
  const { signer } = opts;
  if (opts.digest.length !== 32) throw new Error('digest must be a SHA-256 value (32 bytes)');
  if (opts.content && !bytesEqual(hashBytes('SHA-256', opts.content), opts.digest))
    throw new Error('digest is not the SHA-256 of the attached content');
  const { cert, sid, essAttribute } = prepareSigner(signer.certificate);
  assertKeyMatches(signer.key, cert);
  const contentType = opts.contentType ?? OID.data;

  const signedAttributes = [
    attribute(OID.contentType, oid(contentType)),
    attribute(OID.messageDigest, octets(opts.digest)),
    essAttribute,
  ];
  if (opts.signingTime) signedAttributes.push(attribute(OID.signingTime, signingTimeValue(opts.signingTime)));
  for (const a of opts.extraSignedAttributes ?? [])
    signedAttributes.push(attribute(a.type, ...toBytes(a.values)));
  // The signature covers the attributes encoded as a SET (0x31); the SignerInfo carries them as [0] IMPLICIT.
  const signedSet = setOf(signedAttributes);
  const signature = await signer.key.sign(signedSet);
  const signedImplicit = Uint8Array.from(signedSet);
  signedImplicit[0] = 0xa0;

  const unsigned: Uint8Array[] = [];
  if (opts.timestamp) unsigned.push(attribute(OID.signatureTimeStampToken, await opts.timestamp(signature)));
  for (const a of opts.unsignedAttributes ?? []) unsigned.push(attribute(a.type, ...toBytes(a.values)));

  const signerInfo = seq(
    smallInteger(1),
    sid,
    SHA256_ALGORITHM,
    signedImplicit,
    signatureAlgorithm(signer.key),
    octets(signature),
    ...(unsigned.length > 0 ? [setOf(unsigned, 0xa1)] : []),
  );
  const encapContentInfo = opts.content
    ? seq(oid(contentType), ctx(0, octets(opts.content)))
    : seq(oid(contentType));
  const embedded = [cert.der];
  for (const c of signer.chain ?? []) if (!embedded.some((e) => bytesEqual(e, c))) embedded.push(c);
  const certificates = opts.includeCertificates === false ? [] : [setOf(embedded, 0xa0)];
  // RFC 5652 5.1: version 3 when eContentType is not id-data (e.g. TSTInfo), else 1.
  const signedData = seq(
    smallInteger(contentType === OID.data ? 1 : 3),
    setOf([SHA256_ALGORITHM]),
    encapContentInfo,
    ...certificates,
    setOf([signerInfo]),
  );
  return seq(oid(OID.signedData), ctx(0, signedData));
}
