import { describe, expect, it } from 'vitest';
import { certificateTextOf, formatFingerprint } from './trust-anchor-input';

describe('trust anchor input', () => {
  it('sends PEM files as text and DER files as base64', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    expect(certificateTextOf(new TextEncoder().encode(pem))).toBe(pem);
    expect(certificateTextOf(new TextEncoder().encode(`\uFEFF  ${pem}`))).toContain(
      '-----BEGIN CERTIFICATE-----',
    );
    const der = Uint8Array.of(0x30, 0x82, 0x01, 0x0a, 0xff, 0x00);
    expect(certificateTextOf(der)).toBe(Buffer.from(der).toString('base64'));
    const large = new Uint8Array(70_000).map((_, i) => i % 251);
    expect(Buffer.from(certificateTextOf(large), 'base64')).toEqual(Buffer.from(large));
  });

  it('shows a fingerprint in colon-separated pairs', () => {
    expect(formatFingerprint('ab01ff')).toBe('AB:01:FF');
  });
});
