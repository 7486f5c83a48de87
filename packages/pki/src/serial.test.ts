import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeCertificate } from './ca/describe';
import { DerError, readChildren, readTlv, seq, tlv } from './cms/der';
import { certificateFingerprint, readCertificateIdentity, readCertificateSerial } from './serial';
import { makeTestPki, ORG_SEAL_SUBJECT } from './util/test-support';

/** The certificate with its TBS fields replaced by `edit`'s (the signature no longer matches: unread here). */
function rebuild(der: Uint8Array, edit: (fields: Uint8Array[]) => Uint8Array[]): Uint8Array {
  const [tbs, alg, sig] = readChildren(readTlv(der));
  const fields = readChildren(tbs!).map((f) => f.raw);
  return seq(seq(...edit(fields)), alg!.raw, sig!.raw);
}

describe('certificate identity without a full parse', () => {
  it('reads what describeCertificate reads, for every certificate of a hierarchy', async () => {
    for (const algorithm of ['EC-P256', 'RSA-2048'] as const) {
      const pki = await makeTestPki(algorithm);
      const leaf = await pki.issue('org-seal', ORG_SEAL_SUBJECT);
      for (const der of [pki.root.der, pki.issuing.der, leaf.der]) {
        const summary = describeCertificate(der);
        const id = readCertificateIdentity(der);
        expect(id.serialHex).toBe(summary.serialHex);
        expect(readCertificateSerial(der)).toBe(summary.serialHex);
        expect(certificateFingerprint(der)).toBe(summary.fingerprintSha256);
        expect(Buffer.from(id.der).equals(Buffer.from(der))).toBe(true);
      }
      expect(readCertificateSerial(leaf.der)).toBe(leaf.serialHex);
      // The issuer Name of the leaf is, byte for byte, the subject Name of the issuing CA.
      const issuing = readCertificateIdentity(pki.issuing.der);
      expect(Buffer.from(readCertificateIdentity(leaf.der).issuer)).toEqual(Buffer.from(issuing.subject));
    }
  }, 60_000);

  it('reads a version 1 certificate, a serial with a sign octet, and ignores bytes after the certificate', async () => {
    const pki = await makeTestPki('EC-P256');
    const v1 = rebuild(pki.root.der, (f) => f.slice(1, 7));
    expect(readCertificateSerial(v1)).toBe(pki.root.serialHex);
    const signed = rebuild(pki.root.der, (f) => [
      f[0]!,
      tlv(0x02, Uint8Array.of(0x00, 0x80, 0x01)),
      ...f.slice(2),
    ]);
    expect(readCertificateSerial(signed)).toBe('008001');
    expect(readCertificateSerial(signed)).toBe(describeCertificate(signed).serialHex);
    const padded = new Uint8Array([...pki.root.der, 0, 0, 0, 0]);
    expect(certificateFingerprint(padded)).toBe(createHash('sha256').update(pki.root.der).digest('hex'));
  });

  it('refuses what is not a certificate with a DerError', () => {
    for (const bad of [
      new Uint8Array(0),
      Uint8Array.of(0x30),
      Uint8Array.of(0x30, 0x00),
      Uint8Array.of(0x30, 0x02, 0x30, 0x00),
      Uint8Array.of(0x04, 0x01, 0x00),
      Uint8Array.of(0x30, 0x84, 0xff, 0xff, 0xff, 0xff),
      Uint8Array.of(0x30, 0x80, 0x00, 0x00),
    ])
      expect(() => readCertificateIdentity(bad), Buffer.from(bad).toString('hex')).toThrow(DerError);
  });

  it('answers or throws a DerError, quickly, for random and mutated bytes', async () => {
    const pki = await makeTestPki('EC-P256');
    const leaf = await pki.issue('org-seal', ORG_SEAL_SUBJECT);
    const inputs: Uint8Array[] = [];
    for (let i = 0; i < 2000; i++) inputs.push(randomBytes(1 + (i % 700)));
    for (let i = 0; i < 5000; i++) {
      const m = new Uint8Array(leaf.der);
      // 1–4 random octets changed, mostly in the header area the walk reads.
      for (let k = 0; k <= i % 4; k++) {
        const at = (randomBytes(2).readUInt16BE() % (i % 2 ? 64 : m.length)) >>> 0;
        m[at] = randomBytes(1)[0]!;
      }
      inputs.push(i % 5 === 0 ? m.subarray(0, randomBytes(2).readUInt16BE() % m.length) : m);
    }
    const t0 = performance.now();
    let read = 0;
    for (const input of inputs) {
      try {
        const id = readCertificateIdentity(input);
        expect(id.serialHex).toMatch(/^[0-9a-f]+$/);
        read++;
      } catch (err) {
        expect(err).toBeInstanceOf(DerError);
      }
    }
    // Mutations outside the walked fields leave most certificates readable.
    expect(read).toBeGreaterThan(100);
    expect(performance.now() - t0).toBeLessThan(2000);
  }, 30_000);
});
