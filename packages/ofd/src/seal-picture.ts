import * as asn1js from 'asn1js';
import { octets, textOf } from './asn1';

/** The picture of an electronic seal (GB/T 38540 / GM/T 0031 `ES_PictrueInfo`), as stored in the seal. */
export interface SealPicture {
  /** As the seal names it, lower case: png, jpg, gif, bmp, svg, ofd, … */
  type: string;
  data: Uint8Array;
  /** The seal's printed size in millimetres, when the seal gives it. */
  widthMm?: number;
  heightMm?: number;
}

const STRING_TAGS = new Set([22 /* IA5String */, 12 /* UTF8String */, 19 /* PrintableString */, 26]);

/**
 * Finds the seal picture in a DER structure: a signed value (SES_Signature v1 or v4) or a seal file
 * (SESeal). Both versions keep it as `SEQUENCE { type IA5String, data OCTET STRING, width INTEGER,
 * height INTEGER }` inside the seal info, so the search looks for that shape instead of walking one
 * version's schema; undefined when the bytes are not DER or hold no picture.
 */
export function findSealPicture(der: Uint8Array): SealPicture | undefined {
  let parsed: ReturnType<typeof asn1js.fromBER>;
  try {
    parsed = asn1js.fromBER(der);
  } catch {
    return undefined;
  }
  if (parsed.offset === -1) return undefined;
  return search(parsed.result, 0);
}

function search(node: asn1js.AsnType, depth: number): SealPicture | undefined {
  if (depth > 12 || !(node instanceof asn1js.Sequence)) return undefined;
  const items = node.valueBlock.value;
  const [type, data, width, height] = items;
  if (
    type &&
    data instanceof asn1js.OctetString &&
    type.idBlock.tagClass === 1 &&
    STRING_TAGS.has(type.idBlock.tagNumber)
  ) {
    const name = textOf(type).trim().toLowerCase();
    if (/^[a-z0-9+.-]{2,10}$/.test(name)) {
      const bytes = octets(data);
      if (bytes.length > 0)
        return {
          type: name,
          data: bytes,
          widthMm: width instanceof asn1js.Integer ? width.valueBlock.valueDec : undefined,
          heightMm: height instanceof asn1js.Integer ? height.valueBlock.valueDec : undefined,
        };
    }
  }
  for (const item of items) {
    const found = search(item, depth + 1);
    if (found) return found;
  }
  return undefined;
}
