import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { KeyHandle } from '../types';
import { bytesEqual, floorToSecond, fromHex } from '../util/bytes';
import { makeExtension, makeTime, parseCertificate, spkiOf, subjectKeyIdOf } from '../util/certificate';
import { integerBytes } from '../util/der';
import { OID } from '../util/oids';
import { signatureAlgorithmFor, signToBitString } from '../util/signature';
import { REASON_CODES, type RevocationReason } from './reasons';

export interface RevokedEntry {
  /** Lower-case hex of the DER INTEGER content bytes, as `IssuedCertificate.serialHex`. */
  serialHex: string;
  revokedAt: Date;
  reason: RevocationReason;
}

export interface BuildCrlInput {
  issuer: { certificate: Uint8Array; key: KeyHandle };
  thisUpdate: Date;
  nextUpdate: Date;
  /** Monotonically increasing per issuer (RFC 5280 §5.2.3); the caller keeps the counter. */
  crlNumber: bigint | number;
  revoked: RevokedEntry[];
}

/** A v2 CRL (DER) with CRL number and authority key identifier, signed by the issuer's key handle. */
export async function buildCrl(input: BuildCrlInput): Promise<Uint8Array> {
  const issuerCert = parseCertificate(input.issuer.certificate);
  const key = input.issuer.key;
  if (!bytesEqual(spkiOf(issuerCert), key.publicKeySpki)) {
    throw new TypeError("the CRL signing key does not match the issuer certificate's public key");
  }
  const thisUpdate = floorToSecond(input.thisUpdate);
  const nextUpdate = floorToSecond(input.nextUpdate);
  if (nextUpdate <= thisUpdate) throw new TypeError('nextUpdate must be later than thisUpdate');
  const crlNumber = BigInt(input.crlNumber);
  if (crlNumber < 0n || crlNumber >= 1n << 159n)
    throw new RangeError('crlNumber must be 0 ≤ n < 2^159 (20 octets)');

  const revokedCertificates = input.revoked.map((entry) => {
    const serial = fromHex(entry.serialHex);
    if (serial.length === 0) throw new TypeError('empty serial');
    const code = REASON_CODES[entry.reason];
    if (code === undefined) throw new TypeError(`unknown revocation reason ${String(entry.reason)}`);
    // RFC 5280 §5.3.1: omit reasonCode rather than send unspecified.
    const extensions =
      code === 0
        ? undefined
        : new pkijs.Extensions({
            extensions: [makeExtension(OID.crlReason, false, new asn1js.Enumerated({ value: code }))],
          });
    return new pkijs.RevokedCertificate({
      userCertificate: new asn1js.Integer({ valueHex: serial }),
      revocationDate: makeTime(floorToSecond(entry.revokedAt)),
      ...(extensions ? { crlEntryExtensions: extensions } : {}),
    });
  });

  const aki = new pkijs.AuthorityKeyIdentifier({
    keyIdentifier: new asn1js.OctetString({ valueHex: subjectKeyIdOf(issuerCert) }),
  });
  const crl = new pkijs.CertificateRevocationList({
    version: 1,
    signature: signatureAlgorithmFor(key.algorithm),
    issuer: issuerCert.subject,
    thisUpdate: makeTime(thisUpdate),
    nextUpdate: makeTime(nextUpdate),
    ...(revokedCertificates.length > 0 ? { revokedCertificates } : {}),
    crlExtensions: new pkijs.Extensions({
      extensions: [
        makeExtension(OID.authorityKeyIdentifier, false, aki.toSchema()),
        makeExtension(OID.crlNumber, false, new asn1js.Integer({ valueHex: integerBytes(crlNumber) })),
      ],
    }),
    signatureAlgorithm: signatureAlgorithmFor(key.algorithm),
  });
  // encodeTBS is protected on this class; the full encoding's first element is the same TBSCertList.
  const [tbsSchema] = (crl.toSchema(true) as asn1js.Sequence).valueBlock.value;
  if (!tbsSchema) throw new Error('pkijs produced an empty CRL structure');
  crl.tbsView = new Uint8Array(tbsSchema.toBER());
  crl.signatureValue = await signToBitString(crl.tbsView, key);
  return new Uint8Array(crl.toSchema().toBER());
}
