import { createHash, timingSafeEqual } from 'node:crypto';

const HEX = /^(?:[0-9a-f]{2})*$/;

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Lowercase hex only: a hash has exactly one spelling, so two spellings never name the same leaf. */
export function fromHex(hex: string): Uint8Array {
  if (typeof hex !== 'string' || !HEX.test(hex)) throw new TypeError('not lowercase hex');
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

export function isHash(hex: unknown): hex is string {
  return typeof hex === 'string' && /^[0-9a-f]{64}$/.test(hex);
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Strict base64: Buffer.from would skip unknown characters and accept what a human never meant. */
export function fromBase64(text: string): Uint8Array {
  if (typeof text !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0)
    throw new TypeError('not base64');
  return new Uint8Array(Buffer.from(text, 'base64'));
}

export function sha256(...parts: Uint8Array[]): Uint8Array {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
