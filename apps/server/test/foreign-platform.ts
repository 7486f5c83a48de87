/**
 * Another platform's PKI, made in the test: a root CA, an issuing CA under it and an organisation seal
 * certificate, with real keys, and PDFs signed by that seal (PAdES, CAdES detached). This platform does
 * not trust it until an operator adds the root as a trust anchor. Shared by the server and browser tests.
 */
import { randomBytes } from 'node:crypto';
import { signPdf } from '@openseal/pdf';
import {
  buildCadesDetached,
  issueCertificate,
  MemoryKeyRecordStore,
  SoftwareKeyStore,
  toPem,
  type KeyHandle,
} from '@openseal/pki';
import { tinyPdf } from './upload-fixtures';

export interface ForeignCertificate {
  der: Uint8Array;
  pem: string;
  key: KeyHandle;
}

export interface ForeignPlatform {
  root: ForeignCertificate;
  issuing: ForeignCertificate;
  seal: ForeignCertificate;
  /** A PDF signed by the foreign seal (its CMS carries the seal and issuing CA certificates). */
  signedPdf(text?: string): Promise<Buffer>;
  /** A CA certificate of the same platform whose validity ended a year ago. */
  expiredCa(): Promise<ForeignCertificate>;
}

const YEAR = 365 * 86_400_000;

export async function makeForeignPlatform(name = '异地电子认证服务平台'): Promise<ForeignPlatform> {
  const store = new SoftwareKeyStore({ kek: randomBytes(32), records: new MemoryKeyRecordStore() });
  const wrap = (c: { der: Uint8Array }, key: KeyHandle): ForeignCertificate => ({
    der: c.der,
    pem: toPem(c.der),
    key,
  });
  const rootKey = await store.generate('EC-P256', 'foreign-root');
  const root = wrap(
    await issueCertificate({
      profile: 'root-ca',
      subject: { commonName: `${name} Root CA`, organization: name, country: 'CN' },
      publicKeySpki: rootKey.publicKeySpki,
      issuer: { selfSigned: rootKey },
    }),
    rootKey,
  );
  const issuingKey = await store.generate('EC-P256', 'foreign-issuing');
  const issuing = wrap(
    await issueCertificate({
      profile: 'issuing-ca',
      subject: { commonName: `${name} Issuing CA`, organization: name, country: 'CN' },
      publicKeySpki: issuingKey.publicKeySpki,
      issuer: { certificate: root.der, key: rootKey },
    }),
    issuingKey,
  );
  const sealKey = await store.generate('EC-P256', 'foreign-seal');
  const seal = wrap(
    await issueCertificate({
      profile: 'org-seal',
      subject: {
        commonName: '杭州示例科技有限公司合同专用章',
        organization: '杭州示例科技有限公司',
        organizationIdentifier: '91330106MA27Y5XK0X',
      },
      publicKeySpki: sealKey.publicKeySpki,
      issuer: { certificate: issuing.der, key: issuingKey },
    }),
    sealKey,
  );

  return {
    root,
    issuing,
    seal,
    async signedPdf(text = 'Contract between platforms') {
      const signer = { certificate: seal.der, chain: [issuing.der], key: seal.key };
      const signed = await signPdf(tinyPdf(text), {
        sign: (digest) => buildCadesDetached({ digest, signer }),
        signingTime: new Date(),
        name: '杭州示例科技有限公司合同专用章',
      });
      return Buffer.from(signed.bytes!);
    },
    async expiredCa() {
      const key = await store.generate('EC-P256', 'foreign-old-root');
      const now = Date.now();
      return wrap(
        await issueCertificate({
          profile: 'root-ca',
          subject: { commonName: `${name} Old Root CA`, organization: name, country: 'CN' },
          publicKeySpki: key.publicKeySpki,
          issuer: { selfSigned: key },
          notBefore: new Date(now - 3 * YEAR),
          notAfter: new Date(now - YEAR),
        }),
        key,
      );
    },
  };
}
