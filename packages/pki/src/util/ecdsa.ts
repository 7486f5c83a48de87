/** ECDSA signature encodings: PKCS#11 tokens answer raw r||s, X.509 and CMS want DER Ecdsa-Sig-Value. */

function derInteger(magnitude: Uint8Array): Uint8Array {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  const pad = (trimmed[0] ?? 0) & 0x80 ? 1 : 0;
  const out = new Uint8Array(2 + pad + trimmed.length);
  out[0] = 0x02;
  out[1] = pad + trimmed.length;
  out.set(trimmed, 2 + pad);
  return out;
}

export function ecdsaRawToDer(raw: Uint8Array): Uint8Array {
  if (raw.length === 0 || raw.length % 2 !== 0 || raw.length > 132) {
    throw new TypeError(`raw ECDSA signature has odd or excessive length ${raw.length}`);
  }
  const half = raw.length / 2;
  const r = derInteger(raw.subarray(0, half));
  const s = derInteger(raw.subarray(half));
  const bodyLength = r.length + s.length;
  // P-256 and P-384 bodies stay under 128 bytes; P-521 needs the long length form.
  const header = bodyLength < 0x80 ? [0x30, bodyLength] : [0x30, 0x81, bodyLength];
  const out = new Uint8Array(header.length + bodyLength);
  out.set(header, 0);
  out.set(r, header.length);
  out.set(s, header.length + r.length);
  return out;
}
