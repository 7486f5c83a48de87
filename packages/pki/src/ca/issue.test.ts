import { describe, expect, it } from 'vitest';
import type { KeyAlgorithm } from '../types';
import { fromPem, toPem } from '../util/pem';
import { has, makeTestPki, ORG_SEAL_SUBJECT, run, TEST_URLS, tempDir } from '../util/test-support';
import { describeCertificate } from './describe';
import { issueCertificate } from './issue';
import { newSerialNumber } from './serial';

const hasOpenssl = has('openssl');
if (!hasOpenssl) console.warn('openssl not installed: certificate checks against openssl skipped');

describe.each<KeyAlgorithm>(['EC-P256', 'RSA-2048'])('certificate authority with %s', (algorithm) => {
  it.skipIf(!hasOpenssl)(
    'root → issuing → org-seal verifies with openssl and keeps Chinese names',
    async () => {
      const pki = await makeTestPki(algorithm);
      const leaf = await pki.issue('org-seal', ORG_SEAL_SUBJECT);
      const dir = tempDir();
      try {
        dir.write('root.pem', pki.root.pem);
        dir.write('issuing.pem', pki.issuing.pem);
        dir.write('leaf.pem', leaf.pem);
        const verify = run(
          'openssl',
          ['verify', '-x509_strict', '-CAfile', 'root.pem', '-untrusted', 'issuing.pem', 'leaf.pem'],
          dir.path,
        );
        expect(verify.stderr).toBe('');
        expect(verify.stdout.trim()).toBe('leaf.pem: OK');

        const subject = run(
          'openssl',
          ['x509', '-in', 'leaf.pem', '-noout', '-subject', '-nameopt', 'utf8,sep_comma_plus'],
          dir.path,
        );
        expect(subject.stdout).toContain('CN=合同专用章');
        expect(subject.stdout).toContain('O=北京示例科技有限公司');
        expect(subject.stdout).toContain('organizationIdentifier=91110000600037341L');
        expect(subject.stdout).toContain('C=CN');

        const text = run('openssl', ['x509', '-in', 'leaf.pem', '-noout', '-text'], dir.path).stdout;
        expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:FALSE/);
        expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Non Repudiation\n/);
        expect(text).not.toContain('Extended Key Usage');
        expect(text).toContain(`URI:${TEST_URLS.crl}`);
        expect(text).toContain(`OCSP - URI:${TEST_URLS.ocsp}`);
        expect(text).toContain(`CA Issuers - URI:${TEST_URLS.caIssuers}`);
        expect(text).toContain('Policy: 2.25.234770949406353382624719008145168115034.1.1');
        expect(text).toContain('X509v3 Subject Key Identifier');
        expect(text).toContain('X509v3 Authority Key Identifier');
        expect(text).toContain(algorithm === 'EC-P256' ? 'ecdsa-with-SHA256' : 'sha256WithRSAEncryption');

        // DER is canonical: openssl re-encoding gives back the same bytes.
        const reencoded = run('openssl', ['x509', '-in', 'leaf.pem', '-outform', 'PEM'], dir.path).stdout;
        expect(Buffer.from(fromPem(reencoded)[0]!).equals(Buffer.from(leaf.der))).toBe(true);
      } finally {
        dir.remove();
      }
    },
    60_000,
  );

  it.skipIf(!hasOpenssl)(
    'CA, TSA and OCSP-signer profiles carry their extensions',
    async () => {
      const pki = await makeTestPki(algorithm);
      const tsa = await pki.issue('tsa', { commonName: 'OpenSeal TSA', organization: 'OpenSeal Test' });
      const ocsp = await pki.issue('ocsp-signer', {
        commonName: 'OpenSeal OCSP',
        organization: 'OpenSeal Test',
      });
      const dir = tempDir();
      try {
        const text = (name: string, pem: string) => {
          dir.write(name, pem);
          return run('openssl', ['x509', '-in', name, '-noout', '-text'], dir.path).stdout;
        };
        const root = text('root.pem', pki.root.pem);
        expect(root).toMatch(/Basic Constraints: critical\s+CA:TRUE\n/);
        expect(root).toMatch(/Key Usage: critical\s+Certificate Sign, CRL Sign/);
        expect(root).not.toContain('CRL Distribution');
        expect(root).not.toContain('Authority Information Access');
        const issuing = text('issuing.pem', pki.issuing.pem);
        expect(issuing).toMatch(/Basic Constraints: critical\s+CA:TRUE, pathlen:0/);
        expect(issuing).toContain('Policy: X509v3 Any Policy');

        const tsaText = text('tsa.pem', tsa.pem);
        expect(tsaText).toMatch(/X509v3 Extended Key Usage: critical\s+Time Stamping\n/);
        expect(tsaText).toMatch(/Key Usage: critical\s+Digital Signature\n/);
        const purpose = run(
          'openssl',
          [
            'verify',
            '-purpose',
            'timestampsign',
            '-CAfile',
            'root.pem',
            '-untrusted',
            'issuing.pem',
            'tsa.pem',
          ],
          dir.path,
        );
        expect(purpose.stdout.trim()).toBe('tsa.pem: OK');

        const ocspText = text('ocsp.pem', ocsp.pem);
        expect(ocspText).toMatch(/X509v3 Extended Key Usage:\s+OCSP Signing\n/);
        expect(ocspText).toContain('OCSP No Check');
      } finally {
        dir.remove();
      }
    },
    60_000,
  );
});

describe('issueCertificate rules', () => {
  it('defaults: end-entity one year, issuing CA ten, root twenty; never past the issuer', async () => {
    const pki = await makeTestPki('EC-P256');
    const root = describeCertificate(pki.root.der);
    const issuing = describeCertificate(pki.issuing.der);
    const years = (s: { notBefore: Date; notAfter: Date }) =>
      s.notAfter.getUTCFullYear() - s.notBefore.getUTCFullYear();
    expect(years(root)).toBe(20);
    expect(years(issuing)).toBe(10);
    const leafKey = await pki.store.generate('EC-P256', 'leaf');
    const notBefore = new Date('2030-03-04T05:06:07.890Z');
    const leaf = await issueCertificate({
      profile: 'person',
      subject: { commonName: '张三', serialNumber: 'a3f1c2' },
      publicKeySpki: leafKey.publicKeySpki,
      issuer: { certificate: pki.issuing.der, key: pki.issuing.key },
      notBefore,
    });
    expect(leaf.notBefore.toISOString()).toBe('2030-03-04T05:06:07.000Z');
    expect(leaf.notAfter.toISOString()).toBe('2031-03-04T05:06:07.000Z');
    const late = await issueCertificate({
      profile: 'person',
      subject: { commonName: '张三', serialNumber: 'a3f1c2' },
      publicKeySpki: leafKey.publicKeySpki,
      issuer: { certificate: pki.issuing.der, key: pki.issuing.key },
      notAfter: new Date(issuing.notAfter.getTime() + 86_400_000),
    });
    expect(late.notAfter.getTime()).toBe(issuing.notAfter.getTime());
  }, 60_000);

  it('describeCertificate summarises what was issued', async () => {
    const pki = await makeTestPki('RSA-2048');
    const leaf = await pki.issue('org-seal', ORG_SEAL_SUBJECT);
    const s = describeCertificate(leaf.der);
    expect(s.subject).toBe(
      'CN=合同专用章,organizationIdentifier=91110000600037341L,O=北京示例科技有限公司,C=CN',
    );
    expect(s.issuer).toBe('CN=OpenSeal Test Issuing CA,O=OpenSeal Test,C=CN');
    expect(s.commonName).toBe('合同专用章');
    expect(s.organization).toBe('北京示例科技有限公司');
    expect(s.organizationIdentifier).toBe('91110000600037341L');
    expect(s.serialHex).toBe(leaf.serialHex);
    expect(s.serialHex).toMatch(/^[0-7][0-9a-f]{31}$/);
    expect(s.keyAlgorithm).toBe('RSA-2048');
    expect(s.isCa).toBe(false);
    expect(describeCertificate(pki.issuing.der).isCa).toBe(true);
    expect(s.fingerprintSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(s.crlUrls).toEqual([TEST_URLS.crl]);
    expect(s.ocspUrls).toEqual([TEST_URLS.ocsp]);
    expect(s.caIssuersUrls).toEqual([TEST_URLS.caIssuers]);
  }, 60_000);

  it('refuses a key that does not match the issuer certificate, a leaf without issuer, missing seal fields', async () => {
    const pki = await makeTestPki('EC-P256');
    const other = await pki.store.generate('EC-P256', 'other');
    const base = { subject: ORG_SEAL_SUBJECT, publicKeySpki: other.publicKeySpki } as const;
    await expect(
      issueCertificate({
        ...base,
        profile: 'org-seal',
        issuer: { certificate: pki.issuing.der, key: other },
      }),
    ).rejects.toThrow(/does not match/);
    await expect(
      issueCertificate({ ...base, profile: 'org-seal', issuer: { selfSigned: other } }),
    ).rejects.toThrow(/needs an issuing CA/);
    await expect(
      issueCertificate({
        ...base,
        profile: 'org-seal',
        subject: { commonName: 'x', organization: 'y' },
        issuer: { certificate: pki.issuing.der, key: pki.issuing.key },
      }),
    ).rejects.toThrow(/organizationIdentifier/);
    // A leaf cannot issue.
    const leaf = await pki.issue('person', { commonName: 'p', serialNumber: 'abc' });
    await expect(
      issueCertificate({ ...base, profile: 'org-seal', issuer: { certificate: leaf.der, key: leaf.key } }),
    ).rejects.toThrow(/not a CA/);
  }, 60_000);

  it('serials are positive, 16 bytes, and distinct over 1000 draws', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const s = newSerialNumber();
      expect(s.length).toBe(16);
      expect(s[0]! & 0x80).toBe(0);
      expect(s[0]).not.toBe(0);
      seen.add(Buffer.from(s).toString('hex'));
    }
    expect(seen.size).toBe(1000);
  });

  it('toPem / fromPem round-trip several blocks and filter by label', () => {
    const a = new Uint8Array([1, 2, 3]);
    const b = new Uint8Array(200).fill(7);
    const text = `junk\n${toPem(a)}${toPem(b, 'X509 CRL')}`;
    expect(fromPem(text).map((d) => [...d])).toEqual([[...a], [...b]]);
    expect(fromPem(text, 'X509 CRL')).toHaveLength(1);
    expect(
      toPem(b)
        .split('\n')
        .every((l) => l.length <= 64),
    ).toBe(true);
  });
});
