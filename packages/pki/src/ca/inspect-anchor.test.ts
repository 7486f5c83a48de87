import { describe, expect, it } from 'vitest';
import { fromPem } from '../util/pem';
import { has, makeTestPki, ORG_SEAL_SUBJECT, run, tempDir } from '../util/test-support';
import { inspectAnchorCertificate } from './inspect-anchor';

describe('inspecting a certificate offered as a trust anchor', () => {
  it('reads our root and issuing CA as CAs, the root self-issued with a good self-signature', async () => {
    const pki = await makeTestPki('EC-P256');
    const root = inspectAnchorCertificate(pki.root.der)!;
    expect(root).toMatchObject({ isCa: true, mayCertSign: true, selfIssued: true, selfSignature: 'valid' });
    expect(root.summary.keyAlgorithm).toBe('EC-P256');
    expect(root.validAt(new Date())).toBe(true);
    expect(inspectAnchorCertificate(pki.issuing.der)).toMatchObject({
      isCa: true,
      selfIssued: false,
      selfSignature: 'notSelfIssued',
    });
    const leaf = await pki.issue('org-seal', ORG_SEAL_SUBJECT);
    expect(inspectAnchorCertificate(leaf.der)).toMatchObject({ isCa: false, mayCertSign: false });
  });

  it('refuses to read garbage, a truncated certificate, or one with bytes after it', async () => {
    const pki = await makeTestPki('EC-P256');
    expect(inspectAnchorCertificate(new TextEncoder().encode('not a certificate'))).toBeUndefined();
    expect(inspectAnchorCertificate(pki.root.der.subarray(0, 100))).toBeUndefined();
    const trailing = new Uint8Array([...pki.root.der, 0, 0]);
    expect(inspectAnchorCertificate(trailing)).toBeUndefined();
    const altered = pki.root.der.slice();
    altered[altered.length - 3]! ^= 1;
    expect(inspectAnchorCertificate(altered)?.selfSignature).toBe('invalid');
  });

  it.skipIf(!has('openssl'))(
    'agrees with openssl on CA flags, and names an SM2 key it cannot check',
    () => {
      const dir = tempDir();
      try {
        const req = (name: string, ...ext: string[]) => {
          const made = run(
            'openssl',
            [
              ...[
                'req',
                '-x509',
                '-key',
                `${name}.key`,
                '-subj',
                `/CN=${name}`,
                '-days',
                '30',
                '-out',
                `${name}.pem`,
              ],
              ...ext.flatMap((e) => ['-addext', e]),
            ],
            dir.path,
          );
          expect(made.status, made.stderr).toBe(0);
          return fromPem(run('openssl', ['x509', '-in', `${name}.pem`], dir.path).stdout)[0]!;
        };
        const genKey = (name: string, curve: string) =>
          expect(
            run(
              'openssl',
              [
                'genpkey',
                '-algorithm',
                'EC',
                '-pkeyopt',
                `ec_paramgen_curve:${curve}`,
                '-out',
                `${name}.key`,
              ],
              dir.path,
            ).status,
          ).toBe(0);
        genKey('ca', 'P-256');
        expect(
          inspectAnchorCertificate(
            req('ca', 'basicConstraints=critical,CA:TRUE', 'keyUsage=critical,keyCertSign,cRLSign'),
          ),
        ).toMatchObject({ isCa: true, mayCertSign: true, selfSignature: 'valid' });
        genKey('nosign', 'P-256');
        expect(
          inspectAnchorCertificate(
            req('nosign', 'basicConstraints=critical,CA:TRUE', 'keyUsage=critical,digitalSignature'),
          ),
        ).toMatchObject({ isCa: true, mayCertSign: false });
        genKey('endentity', 'P-256');
        expect(
          inspectAnchorCertificate(req('endentity', 'basicConstraints=critical,CA:FALSE')),
        ).toMatchObject({
          isCa: false,
        });
        genKey('sm2', 'SM2');
        const sm2 = inspectAnchorCertificate(
          req('sm2', 'basicConstraints=critical,CA:TRUE', 'keyUsage=critical,keyCertSign'),
        )!;
        expect(sm2).toMatchObject({ isCa: true, mayCertSign: true, selfSignature: 'unsupported' });
        expect(sm2.summary.keyAlgorithm).toBe('SM2');
      } finally {
        dir.remove();
      }
    },
    30_000,
  );
});
