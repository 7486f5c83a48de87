import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeTestPki, ORG_SEAL_SUBJECT } from '../util/test-support';
import { seq, readChildren, readTlv, tlv } from './der';
import {
  CERT_CACHE_SIZE,
  certCacheSize,
  parseCertificateCached,
  tryParseCertificateCached,
  verifyIssuedByCached,
} from './cert-cache';
import { DerError } from './der';

describe('certificate cache', () => {
  it('parses a certificate once, keeps its own copy of the bytes, and remembers which key signed it', async () => {
    const pki = await makeTestPki('EC-P256');
    const leaf = await pki.issue('org-seal', ORG_SEAL_SUBJECT);
    // The certificate inside a large buffer (a PDF): the cached value must not hold on to the buffer.
    const big = new Uint8Array(1 << 20);
    big.set(leaf.der, 4096);
    const view = big.subarray(4096, 4096 + leaf.der.length);
    const first = parseCertificateCached(view);
    expect(parseCertificateCached(new Uint8Array(leaf.der))).toBe(first);
    expect(first.der.buffer.byteLength).toBeLessThan(big.byteLength);
    expect(Buffer.from(first.der).equals(Buffer.from(leaf.der))).toBe(true);

    const issuing = parseCertificateCached(pki.issuing.der);
    const root = parseCertificateCached(pki.root.der);
    const check = verifyIssuedByCached(first, issuing);
    expect(check.ok).toBe(true);
    expect(verifyIssuedByCached(first, issuing)).toBe(check);
    expect(verifyIssuedByCached(first, root).ok).toBe(false);
    expect(verifyIssuedByCached(issuing, root).ok).toBe(true);
  });

  it('stays bounded, and caches no failure', async () => {
    const pki = await makeTestPki('EC-P256');
    const [tbs, alg, sig] = readChildren(readTlv(pki.root.der));
    const fields = readChildren(tbs!).map((f) => f.raw);
    // Same certificate with another serial each time: distinct bytes, distinct entries.
    for (let i = 0; i < CERT_CACHE_SIZE + 50; i++) {
      const serial = tlv(0x02, Uint8Array.of(0x01, ...randomBytes(8)));
      const der = seq(seq(fields[0]!, serial, ...fields.slice(2)), alg!.raw, sig!.raw);
      expect(parseCertificateCached(der).serialHex).toBe(Buffer.from(serial.subarray(2)).toString('hex'));
    }
    expect(certCacheSize()).toBe(CERT_CACHE_SIZE);
    expect(() => parseCertificateCached(Uint8Array.of(0x30, 0x03, 0x02, 0x01, 0x01))).toThrow(DerError);
    expect(tryParseCertificateCached(randomBytes(64))).toBeUndefined();
    expect(certCacheSize()).toBe(CERT_CACHE_SIZE);
  });
});
