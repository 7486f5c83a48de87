import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { bytesEqual, copyBytes, toHex } from '../util/bytes';
import { findExtension, parseCertificate, spkiOf, subjectNameDer } from '../util/certificate';
import { bigintFromIntegerBytes, parseDer } from '../util/der';
import { formatName } from '../util/name';
import { OID } from '../util/oids';
import { verifySignature } from '../util/signature';
import { reasonFromCode, type AnyRevocationReason } from './reasons';

export interface CrlEntry {
  serialHex: string;
  revokedAt: Date;
  /** `unspecified` when the entry carries no reason code. */
  reason: AnyRevocationReason;
}

export interface ParsedCrl {
  /** RFC 4514 issuer name. */
  issuer: string;
  /** Exact DER of the issuer Name, for byte comparison with a certificate's issuer. */
  issuerNameDer: Uint8Array;
  thisUpdate: Date;
  nextUpdate?: Date;
  crlNumber?: bigint;
  /** Set when this is a delta CRL (its base CRL number). */
  deltaBase?: bigint;
  revoked: CrlEntry[];
  /** OIDs of critical CRL extensions this parser does not interpret (a verifier should then reject). */
  unknownCriticalExtensions: string[];
  /** The entry for a serial, if revoked. */
  find(serialHex: string): CrlEntry | undefined;
  /** True when `issuerCert`'s subject is the CRL issuer and its key verifies the signature. */
  verify(issuerCert: Uint8Array): boolean;
}

const UNDERSTOOD = new Set<string>([
  OID.crlNumber,
  OID.authorityKeyIdentifier,
  OID.issuingDistributionPoint,
  OID.deltaCrlIndicator,
]);

function extensionInteger(ext: pkijs.Extension | undefined): bigint | undefined {
  if (!ext) return undefined;
  const inner = asn1js.fromBER(ext.extnValue.valueBlock.valueHexView).result;
  return inner instanceof asn1js.Integer ? bigintFromIntegerBytes(inner.valueBlock.valueHexView) : undefined;
}

function entryReason(entry: pkijs.RevokedCertificate): AnyRevocationReason {
  const ext = findExtension(entry.crlEntryExtensions?.extensions, OID.crlReason);
  if (!ext) return 'unspecified';
  const inner = asn1js.fromBER(ext.extnValue.valueBlock.valueHexView).result;
  if (!(inner instanceof asn1js.Enumerated)) return 'unspecified';
  return reasonFromCode(inner.valueBlock.valueDec) ?? 'unspecified';
}

/** Parses a DER CRL (ours or a third party's). Throws TypeError on anything that is not a CRL. */
export function parseCrl(der: Uint8Array): ParsedCrl {
  let crl: pkijs.CertificateRevocationList;
  try {
    crl = new pkijs.CertificateRevocationList({ schema: parseDer(der, 'CRL') });
  } catch (cause) {
    throw new TypeError('not an X.509 CRL', { cause });
  }
  const extensions = crl.crlExtensions?.extensions;
  const revoked: CrlEntry[] = (crl.revokedCertificates ?? []).map((entry) => ({
    serialHex: toHex(entry.userCertificate.valueBlock.valueHexView),
    revokedAt: entry.revocationDate.value,
    reason: entryReason(entry),
  }));
  const bySerial = new Map(revoked.map((e) => [e.serialHex, e]));
  const issuerNameDer = new Uint8Array(crl.issuer.toSchema().toBER());
  const tbs = copyBytes(crl.tbsView);
  const signature = copyBytes(crl.signatureValue.valueBlock.valueHexView);
  const result: ParsedCrl = {
    issuer: formatName(crl.issuer),
    issuerNameDer,
    thisUpdate: crl.thisUpdate.value,
    revoked,
    unknownCriticalExtensions: (extensions ?? [])
      .filter((e) => e.critical && !UNDERSTOOD.has(e.extnID))
      .map((e) => e.extnID),
    find: (serialHex) => bySerial.get(serialHex.toLowerCase()),
    verify(issuerCert) {
      let cert: pkijs.Certificate;
      try {
        cert = parseCertificate(issuerCert);
      } catch {
        return false;
      }
      if (!bytesEqual(subjectNameDer(cert), issuerNameDer)) return false;
      // The outer and inner algorithm identifiers must agree (RFC 5280 §5.1.1.2).
      if (
        !bytesEqual(
          new Uint8Array(crl.signature.toSchema().toBER()),
          new Uint8Array(crl.signatureAlgorithm.toSchema().toBER()),
        )
      ) {
        return false;
      }
      return verifySignature(tbs, crl.signatureAlgorithm, signature, spkiOf(cert));
    },
  };
  if (crl.nextUpdate) result.nextUpdate = crl.nextUpdate.value;
  const crlNumber = extensionInteger(findExtension(extensions, OID.crlNumber));
  if (crlNumber !== undefined) result.crlNumber = crlNumber;
  const deltaBase = extensionInteger(findExtension(extensions, OID.deltaCrlIndicator));
  if (deltaBase !== undefined) result.deltaBase = deltaBase;
  return result;
}
