/** Byte helpers shared by the PKI modules. */

export function toHex(bytes: Uint8Array | ArrayBuffer): string {
  return Buffer.from(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes).toString('hex');
}

export function fromHex(hex: string): Uint8Array {
  const clean = hex.replace(/[\s:]/g, '');
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean))
    throw new TypeError(`not a hex string: ${hex}`);
  return new Uint8Array(Buffer.from(clean, 'hex'));
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A copy that owns its own buffer: asn1js views may point into a larger parse buffer. */
export function copyBytes(view: Uint8Array | ArrayBuffer): Uint8Array {
  return view instanceof ArrayBuffer ? new Uint8Array(view.slice(0)) : new Uint8Array(view);
}

/** Dates in X.509 and OCSP carry whole seconds; fractions would make GeneralizedTime non-DER. */
export function floorToSecond(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
