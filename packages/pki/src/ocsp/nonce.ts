import * as asn1js from 'asn1js';
import type * as pkijs from 'pkijs';
import { copyBytes } from '../util/bytes';
import { makeExtension } from '../util/certificate';
import { OID } from '../util/oids';

/**
 * RFC 8954: the nonce extension value is an OCTET STRING holding the nonce. Some old clients put
 * the raw bytes directly in extnValue; those are returned as they are.
 */
export function readNonce(extensions: pkijs.Extension[] | undefined): Uint8Array | undefined {
  const ext = extensions?.find((e) => e.extnID === OID.ocspNonce);
  if (!ext) return undefined;
  const raw = ext.extnValue.valueBlock.valueHexView;
  const inner = asn1js.fromBER(raw);
  if (
    inner.offset === raw.byteLength &&
    inner.result instanceof asn1js.OctetString &&
    !inner.result.idBlock.isConstructed
  ) {
    return copyBytes(inner.result.valueBlock.valueHexView);
  }
  return copyBytes(raw);
}

export function nonceExtension(nonce: Uint8Array): pkijs.Extension {
  return makeExtension(OID.ocspNonce, false, new asn1js.OctetString({ valueHex: nonce }));
}
