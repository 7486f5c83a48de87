import { constants, createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  resolveSignatureScheme,
  verifyDigestWithScheme,
  verifyWithScheme,
  type SignatureScheme,
} from './algorithms';
import { decodeOid, decodeTime, generalizedTime, namedBits, oid, readTlv } from './der';

const message = new TextEncoder().encode('prehashed verification');
const hash = (alg: string): Uint8Array => new Uint8Array(createHash(alg).update(message).digest());

describe('signatures over a digest agree with node:crypto signatures over data', () => {
  const curves: Array<[string, string, SignatureScheme]> = [
    ['prime256v1', 'sha256', { kind: 'ecdsa', hash: 'SHA-256', label: '' }],
    ['secp384r1', 'sha384', { kind: 'ecdsa', hash: 'SHA-384', label: '' }],
    ['secp521r1', 'sha512', { kind: 'ecdsa', hash: 'SHA-512', label: '' }],
    ['brainpoolP256r1', 'sha256', { kind: 'ecdsa-plain', hash: 'SHA-256', label: '' }],
    ['brainpoolP384r1', 'sha384', { kind: 'ecdsa', hash: 'SHA-384', label: '' }],
    ['brainpoolP512r1', 'sha512', { kind: 'ecdsa-plain', hash: 'SHA-512', label: '' }],
    // A digest longer than the group order is truncated (FIPS 186-4 6.4).
    ['prime256v1', 'sha512', { kind: 'ecdsa', hash: 'SHA-512', label: '' }],
  ];
  for (const [curve, alg, scheme] of curves) {
    it(`ECDSA ${curve} with ${alg} (${scheme.kind})`, () => {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: curve });
      const dsaEncoding = scheme.kind === 'ecdsa' ? 'der' : 'ieee-p1363';
      const sig = new Uint8Array(sign(alg, message, { key: privateKey, dsaEncoding }));
      expect(verifyDigestWithScheme(scheme, publicKey, hash(alg), sig).ok).toBe(true);
      expect(verifyWithScheme(scheme, publicKey, message, sig).ok).toBe(true);
      const other = hash(alg).map((b, i) => (i === 0 ? b ^ 1 : b));
      expect(verifyDigestWithScheme(scheme, publicKey, other, sig).ok).toBe(false);
    });
  }

  it('RSA PKCS#1 v1.5 and RSA-PSS', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const v15 = new Uint8Array(sign('sha384', message, privateKey));
    expect(
      verifyDigestWithScheme(
        { kind: 'rsa-pkcs1', hash: 'SHA-384', label: '' },
        publicKey,
        hash('sha384'),
        v15,
      ).ok,
    ).toBe(true);
    expect(
      verifyDigestWithScheme(
        { kind: 'rsa-pkcs1', hash: 'SHA-384', label: '' },
        publicKey,
        hash('sha256'),
        v15,
      ).ok,
    ).toBe(false);
    const pss = new Uint8Array(
      sign('sha256', message, { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }),
    );
    const scheme: SignatureScheme = { kind: 'rsa-pss', hash: 'SHA-256', saltLength: 32, label: '' };
    expect(verifyDigestWithScheme(scheme, publicKey, hash('sha256'), pss).ok).toBe(true);
    expect(verifyDigestWithScheme({ ...scheme, saltLength: 20 }, publicKey, hash('sha256'), pss).ok).toBe(
      false,
    );
  });

  it('a scheme for another key type fails with a reason instead of throwing', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const r = verifyWithScheme(
      { kind: 'rsa-pkcs1', hash: 'SHA-256', label: 'RSA' },
      publicKey,
      message,
      new Uint8Array(256),
    );
    expect(r).toMatchObject({ ok: false, reason: expect.stringContaining('ec key') });
  });
});

describe('algorithm identifiers', () => {
  it('resolves the identifiers seen in the wild and refuses the rest', () => {
    expect(resolveSignatureScheme('1.2.840.113549.1.1.1', undefined, 'SHA-512')).toMatchObject({
      scheme: { kind: 'rsa-pkcs1', hash: 'SHA-512' },
    });
    expect(resolveSignatureScheme('1.2.840.10045.2.1', undefined, 'SHA-256')).toMatchObject({
      scheme: { kind: 'ecdsa' },
    });
    expect(resolveSignatureScheme('0.4.0.127.0.7.1.1.4.1.4', undefined, undefined)).toMatchObject({
      scheme: { kind: 'ecdsa-plain', hash: 'SHA-384' },
    });
    expect(resolveSignatureScheme('1.2.840.113549.1.1.10', undefined, 'SHA-256')).toMatchObject({
      scheme: { kind: 'rsa-pss', hash: 'SHA-1', saltLength: 20 },
    });
    expect(resolveSignatureScheme('1.2.840.10045.3.1.7', undefined, 'SHA-256')).toEqual({
      unsupported: 'unsupported signature algorithm 1.2.840.10045.3.1.7',
    });
    expect(resolveSignatureScheme('1.2.840.10040.4.3', undefined, 'SHA-1')).toHaveProperty('unsupported');
  });
});

describe('DER helpers', () => {
  it('round-trips OIDs with large arcs', () => {
    for (const id of ['1.2.840.113549.1.9.16.2.47', '2.999.1', '0.4.0.127.0.7.1.1.4.1.3'])
      expect(decodeOid(readTlv(oid(id)).value)).toBe(id);
  });

  it('writes GeneralizedTime without trailing fraction zeros and reads it back', () => {
    const t = generalizedTime(new Date('2031-05-06T07:08:09.120Z'));
    expect(new TextDecoder().decode(readTlv(t).value)).toBe('20310506070809.12Z');
    expect(decodeTime(readTlv(t)).toISOString()).toBe('2031-05-06T07:08:09.120Z');
    expect(new TextDecoder().decode(readTlv(generalizedTime(new Date(0))).value)).toBe('19700101000000Z');
  });

  it('encodes named bit lists minimally', () => {
    expect(Buffer.from(namedBits([0])).toString('hex')).toBe('03020780');
    expect(Buffer.from(namedBits([2])).toString('hex')).toBe('03020520');
    expect(Buffer.from(namedBits([15])).toString('hex')).toBe('0303000001');
  });
});
