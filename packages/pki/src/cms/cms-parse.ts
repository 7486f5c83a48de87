/**
 * Reads a ContentInfo(SignedData) as producers actually write it: BER indefinite lengths and constructed
 * OCTET STRINGs in the outer layers, zero padding after the end (PDF /Contents), raw slices kept for
 * everything that is signed.
 */
import {
  DerError,
  assertMinimalInteger,
  decodeInteger,
  expectTag,
  octetStringValue,
  readChildren,
  readOid,
  readTlv,
  tlv,
  type Tlv,
} from './der';
import { parseCertificateCached } from './cert-cache';
import { OID } from './oids';

export interface CmsAttributeValues {
  type: string;
  values: Tlv[];
}

export type SignerIdentifier = { issuer: Uint8Array; serial: Uint8Array } | { subjectKeyId: Uint8Array };

export interface ParsedSignerInfo {
  version: number;
  sid: SignerIdentifier;
  digestAlgorithm: string;
  /** DER of the digest algorithm's parameters (id-shake256-len carries the output length). */
  digestParams?: Uint8Array;
  /** DER of the signed attributes as a SET (what the signature covers) and the attributes themselves. */
  signedAttrs?: { der: Uint8Array; attributes: CmsAttributeValues[] };
  signatureAlgorithm: string;
  signatureParams?: Uint8Array;
  signature: Uint8Array;
  unsignedAttrs: CmsAttributeValues[];
}

export interface ParsedSignedData {
  version: number;
  digestAlgorithms: string[];
  eContentType: string;
  eContent?: Uint8Array;
  certificates: Uint8Array[];
  crls: Uint8Array[];
  ocspResponses: Uint8Array[];
  signerInfos: ParsedSignerInfo[];
}

function readAttributes(container: Tlv): CmsAttributeValues[] {
  return readChildren(container, true).map((attr) => {
    const [type, values] = readChildren(expectTag(attr, 0x30, 'Attribute'), true);
    return { type: readOid(type), values: readChildren(expectTag(values, 0x31, 'AttributeValues'), true) };
  });
}

function readAlgorithm(t: Tlv | undefined, what: string): { oid: string; params?: Uint8Array } {
  const [id, params] = readChildren(expectTag(t, 0x30, what), true);
  return { oid: readOid(id, what), params: params?.raw };
}

function readSignerInfo(t: Tlv): ParsedSignerInfo {
  const fields = readChildren(expectTag(t, 0x30, 'SignerInfo'), true);
  let i = 0;
  const version = Number(decodeInteger(expectTag(fields[i++], 0x02, 'SignerInfo version').value));
  const sidTlv = fields[i++];
  let sid: SignerIdentifier;
  if (sidTlv?.tag === 0x30) {
    const [issuer, serial] = readChildren(sidTlv, true);
    sid = {
      issuer: expectTag(issuer, 0x30, 'sid issuer').raw,
      serial: assertMinimalInteger(expectTag(serial, 0x02, 'sid serialNumber').value),
    };
  } else if (sidTlv?.tag === 0x80 || sidTlv?.tag === 0xa0) {
    sid = {
      subjectKeyId: sidTlv.tag === 0x80 ? sidTlv.value : octetStringValue(readTlv(sidTlv.value, 0, true)),
    };
  } else throw new DerError('SignerInfo: unknown signer identifier');
  const digestAlg = readAlgorithm(fields[i++], 'digestAlgorithm');
  let signedAttrs: ParsedSignerInfo['signedAttrs'];
  if (fields[i]?.tag === 0xa0) {
    const container = fields[i++] as Tlv;
    const children = readChildren(container, true);
    // The signature covers the DER SET; an indefinite-length [0] is re-wrapped with a definite length.
    const der =
      container.raw[1] === 0x80 ? tlv(0x31, ...children.map((c) => c.raw)) : Uint8Array.from(container.raw);
    der[0] = 0x31;
    signedAttrs = { der, attributes: readAttributes(container) };
  }
  const signatureAlgorithm = readAlgorithm(fields[i++], 'signatureAlgorithm');
  const signatureTlv = fields[i++];
  if (!signatureTlv) throw new DerError('SignerInfo: missing signature');
  const signature = octetStringValue(signatureTlv);
  const unsignedAttrs = fields[i]?.tag === 0xa1 ? readAttributes(fields[i] as Tlv) : [];
  return {
    version,
    sid,
    digestAlgorithm: digestAlg.oid,
    digestParams: digestAlg.params,
    signedAttrs,
    signatureAlgorithm: signatureAlgorithm.oid,
    signatureParams: signatureAlgorithm.params,
    signature,
    unsignedAttrs,
  };
}

/** Parses DER/BER ContentInfo(SignedData); throws DerError when it is not one. */
export function parseCms(input: Uint8Array): ParsedSignedData {
  const top = expectTag(readTlv(input, 0, true), 0x30, 'ContentInfo');
  if (input.subarray(top.raw.length).some((b) => b !== 0))
    throw new DerError('data after the end of the CMS');
  const [typeTlv, wrapped] = readChildren(top, true);
  const contentType = readOid(typeTlv, 'contentType');
  if (contentType !== OID.signedData) throw new DerError(`content type ${contentType} is not signedData`);
  const sd = readTlv(expectTag(wrapped, 0xa0, 'content').value, 0, true);
  const fields = readChildren(expectTag(sd, 0x30, 'SignedData'), true);
  const version = Number(decodeInteger(expectTag(fields[0], 0x02, 'SignedData version').value));
  const digestAlgorithms = readChildren(expectTag(fields[1], 0x31, 'digestAlgorithms'), true).map(
    (a) => readAlgorithm(a, 'digestAlgorithm').oid,
  );
  const [eTypeTlv, eWrapped] = readChildren(expectTag(fields[2], 0x30, 'encapContentInfo'), true);
  const eContentType = readOid(eTypeTlv, 'eContentType');
  const eContent = eWrapped
    ? octetStringValue(readTlv(expectTag(eWrapped, 0xa0, 'eContent').value, 0, true))
    : undefined;
  const parsed: ParsedSignedData = {
    version,
    digestAlgorithms,
    eContentType,
    eContent,
    certificates: [],
    crls: [],
    ocspResponses: [],
    signerInfos: [],
  };
  for (const field of fields.slice(3)) {
    if (field.tag === 0xa0) {
      for (const cert of readChildren(field, true)) {
        if (cert.tag !== 0x30) continue; // attribute and other certificate formats
        try {
          parseCertificateCached(cert.raw);
        } catch (error) {
          throw new DerError(`badly encoded certificate: ${(error as Error).message}`, { cause: error });
        }
        parsed.certificates.push(cert.raw);
      }
    } else if (field.tag === 0xa1) {
      for (const info of readChildren(field, true)) {
        if (info.tag === 0x30) parsed.crls.push(info.raw);
        else if (info.tag === 0xa1) {
          const [format, value] = readChildren(info, true);
          if (readOid(format) === OID.ocspResponseRevInfo && value) parsed.ocspResponses.push(value.raw);
        }
      }
    } else if (field.tag === 0x31) {
      parsed.signerInfos = readChildren(field, true).map(readSignerInfo);
    } else throw new DerError(`SignedData: unexpected field with tag 0x${field.tag.toString(16)}`);
  }
  if (parsed.signerInfos.length === 0) throw new DerError('SignedData without a SignerInfo');
  return parsed;
}
