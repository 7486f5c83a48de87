import type * as asn1js from 'asn1js';

/** The text of a DER string of any kind (IA5, UTF8, Printable, …), as UTF-8 when it holds raw bytes. */
export function textOf(node: asn1js.AsnType): string {
  const block = (node as unknown as { valueBlock: { value?: unknown; valueHexView?: Uint8Array } })
    .valueBlock;
  if (typeof block.value === 'string') return block.value;
  return block.valueHexView ? new TextDecoder().decode(block.valueHexView) : '';
}

/** The bytes of an OCTET STRING, joined when it is constructed of parts. */
export function octets(node: asn1js.OctetString): Uint8Array {
  if (!node.valueBlock.isConstructed) return new Uint8Array(node.valueBlock.valueHexView);
  const parts = node.valueBlock.value.map((p) => octets(p as asn1js.OctetString));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The bytes of a BIT STRING (whole bytes, as signatures, hashes and keys are). */
export function bits(node: asn1js.BitString): Uint8Array {
  return new Uint8Array(node.valueBlock.valueHexView);
}
