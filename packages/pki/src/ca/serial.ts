import { randomBytes } from 'node:crypto';

/**
 * 16 random bytes as a positive DER INTEGER: top bit clear (else it would read as negative) and a
 * non-zero first byte (else DER would require dropping it). 127 bits of entropy, well above the
 * 64 bits CA/Browser Forum rules ask for, so serials are unpredictable and practically unique.
 */
export function newSerialNumber(): Uint8Array {
  for (;;) {
    const serial = new Uint8Array(randomBytes(16));
    serial[0] = (serial[0] ?? 0) & 0x7f;
    if (serial[0] !== 0) return serial;
  }
}
