import * as asn1js from 'asn1js';

/** Parses exactly one DER/BER element; trailing bytes or a parse error throw with `what` in the message. */
export function parseDer(bytes: Uint8Array, what: string): asn1js.AsnType {
  const parsed = asn1js.fromBER(bytes);
  if (parsed.offset === -1) throw new TypeError(`${what}: not valid DER (${parsed.result.error})`);
  if (parsed.offset !== bytes.byteLength)
    throw new TypeError(`${what}: trailing bytes after the DER element`);
  return parsed.result;
}

/** Minimal two's-complement big-endian encoding of a non-negative integer, as DER INTEGER content. */
export function integerBytes(value: bigint | number): Uint8Array {
  const n = BigInt(value);
  if (n < 0n) throw new RangeError('negative integers are not used here');
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  if (Number.parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

export function bigintFromIntegerBytes(bytes: Uint8Array): bigint {
  if (bytes.byteLength === 0) return 0n;
  const magnitude = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  return (bytes[0] ?? 0) & 0x80 ? magnitude - (1n << BigInt(bytes.byteLength * 8)) : magnitude;
}
