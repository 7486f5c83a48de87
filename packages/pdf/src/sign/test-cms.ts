// TEST-ONLY helper. Makes a throw-away CA and signing certificate with the openssl CLI and builds a
// detached CMS SignedData from a digest alone (signed attributes: contentType, messageDigest,
// signingCertificateV2), so the signer can be tested without the pki package. Not exported.
import { execFileSync } from 'node:child_process';
import { createHash, sign as rsaSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as asn1js from 'asn1js';

export interface TestSigner {
  certDer: Uint8Array;
  caDer: Uint8Array;
  caPem: string;
  keyPem: string;
  sign: (digest: Uint8Array) => Promise<Uint8Array>;
}

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
};

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

export function makeTestSigner(dir: string): TestSigner {
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '30',
      '-subj',
      '/CN=OpenSeal Test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  openssl(
    [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'leaf.key',
      '-out',
      'leaf.csr',
      '-subj',
      '/CN=OpenSeal Test Signer/O=OpenSeal',
    ],
    dir,
  );
  const ext = join(dir, 'leaf.ext');
  execFileSync('sh', ['-c', `printf 'keyUsage=critical,digitalSignature,nonRepudiation\\n' > '${ext}'`]);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'leaf.pem',
      '-days',
      '30',
      '-extfile',
      'leaf.ext',
    ],
    dir,
  );
  openssl(['x509', '-in', 'leaf.pem', '-outform', 'DER', '-out', 'leaf.der'], dir);
  openssl(['x509', '-in', 'ca.pem', '-outform', 'DER', '-out', 'ca.der'], dir);
  const certDer = new Uint8Array(readFileSync(join(dir, 'leaf.der')));
  const caDer = new Uint8Array(readFileSync(join(dir, 'ca.der')));
  const keyPem = readFileSync(join(dir, 'leaf.key'), 'utf8');
  const caPem = readFileSync(join(dir, 'ca.pem'), 'utf8');
  return {
    certDer,
    caDer,
    keyPem,
    caPem,
    sign: async (digest) => buildCms(digest, certDer, keyPem, [caDer]),
  };
}

function toAb(b: Uint8Array): ArrayBuffer {
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

function attribute(oid: string, value: asn1js.BaseBlock): asn1js.Sequence {
  return new asn1js.Sequence({
    value: [new asn1js.ObjectIdentifier({ value: oid }), new asn1js.Set({ value: [value] })],
  });
}

function algorithm(oid: string, withNull = true): asn1js.Sequence {
  return new asn1js.Sequence({
    value: withNull
      ? [new asn1js.ObjectIdentifier({ value: oid }), new asn1js.Null()]
      : [new asn1js.ObjectIdentifier({ value: oid })],
  });
}

export function buildCms(
  digest: Uint8Array,
  certDer: Uint8Array,
  keyPem: string,
  extra: Uint8Array[] = [],
): Uint8Array {
  const cert = asn1js.fromBER(toAb(certDer)).result as asn1js.Sequence;
  const tbs = cert.valueBlock.value[0] as asn1js.Sequence;
  const tbsItems = tbs.valueBlock.value;
  const first = tbsItems[0]!.idBlock.tagClass === 3 ? 1 : 0;
  const serial = tbsItems[first]!;
  const issuer = tbsItems[first + 2]!;

  const certHash = createHash('sha256').update(certDer).digest();
  const attrs = [
    attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: OID.data })),
    attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: toAb(digest) })),
    attribute(
      OID.signingCertificateV2,
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({
            value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: toAb(certHash) })] })],
          }),
        ],
      }),
    ),
  ];
  // The signature covers the attributes DER-encoded as a SET OF (tag 0x31), not as the [0] in the CMS.
  const attrSet = new asn1js.Set({ value: attrs });
  const toSign = new Uint8Array(attrSet.toBER(false));
  const signature = rsaSign('sha256', toSign, keyPem);

  const signerInfo = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 1 }),
      new asn1js.Sequence({ value: [issuer, serial] }),
      algorithm(OID.sha256, false),
      new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: attrs }),
      algorithm(OID.sha256WithRsa),
      new asn1js.OctetString({ valueHex: toAb(signature) }),
    ],
  });
  const certs = [certDer, ...extra].map((d) => asn1js.fromBER(toAb(d)).result);
  const signedData = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 1 }),
      new asn1js.Set({ value: [algorithm(OID.sha256, false)] }),
      new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
      new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: certs }),
      new asn1js.Set({ value: [signerInfo] }),
    ],
  });
  const contentInfo = new asn1js.Sequence({
    value: [
      new asn1js.ObjectIdentifier({ value: OID.signedData }),
      new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [signedData] }),
    ],
  });
  return new Uint8Array(contentInfo.toBER(false));
}
