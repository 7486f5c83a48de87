import * as asn1js from 'asn1js';
import { strToU8, unzipSync, zipSync } from 'fflate';
import smCrypto from 'sm-crypto';
import { fromHex as hex, toBase64 } from './bytes';

/** Test packages built in memory: one page of text, a path and an image, with the parts a test may drop. */
export interface TestOfdOptions {
  withOfdXml?: boolean;
  docRoot?: string | null;
  pages?: string[];
  /** Extra or replacing parts by path. */
  parts?: Record<string, string | Uint8Array>;
  omit?: string[];
  /**
   * An electronic seal on the first page: its picture (a PNG) where `boundary` puts it. With a `signer`
   * the signature is a real one (GB/T 38540 v4, by the signer's algorithm) over every other part of the package;
   * without, its signed value only holds the picture.
   */
  seal?: {
    picture: Uint8Array;
    boundary: string;
    provider?: string;
    signer?: TestSigner;
    sealName?: string;
    /** The signing time the signed value states. */
    at?: Date;
  };
}

const SM2_WITH_SM3 = '1.2.156.10197.1.501';

/** A key and a self-issued certificate for it, to sign test packages with. */
export interface TestSigner {
  name: string;
  certificate: Uint8Array;
  /** The OID of the signature algorithm (SM2 with SM3 by default). */
  algorithm: string;
  sign(data: Uint8Array): Uint8Array;
  /** The hash that goes with the algorithm, of the Signature.xml a value is made for. */
  hash(data: Uint8Array): Uint8Array;
}

const dn = (cn: string) =>
  new asn1js.Sequence({
    value: [
      new asn1js.Set({
        value: [
          new asn1js.Sequence({
            value: [new asn1js.ObjectIdentifier({ value: '2.5.4.3' }), new asn1js.Utf8String({ value: cn })],
          }),
        ],
      }),
    ],
  });

/** Who issues a test certificate: its name, its key's algorithm and a way to sign with that key. */
export interface TestIssuer {
  name: string;
  algorithm: string;
  sign(data: Uint8Array): Uint8Array;
}

export interface TestCertificateOptions {
  /** The issuer; the key issues its own certificate when absent. */
  issuer?: TestIssuer;
  /** A CA certificate (basicConstraints cA, keyUsage keyCertSign and cRLSign) rather than a signer's. */
  ca?: boolean;
  notBefore?: Date;
  notAfter?: Date;
  serial?: number;
}

function extension(oid: string, critical: boolean, value: asn1js.AsnType) {
  return new asn1js.Sequence({
    value: [
      new asn1js.ObjectIdentifier({ value: oid }),
      ...(critical ? [new asn1js.Boolean({ value: true })] : []),
      new asn1js.OctetString({ valueHex: value.toBER() }),
    ],
  });
}

/**
 * A signer from any key: `spki` is its public key as DER SubjectPublicKeyInfo, `sign` signs with the
 * private key by `algorithm`; the certificate is issued by `options.issuer`, or by the key to itself.
 */
export function signerFor(
  name: string,
  key: Pick<TestSigner, 'algorithm' | 'sign' | 'hash'> & { spki: Uint8Array },
  options: TestCertificateOptions = {},
): TestSigner {
  const issuer = options.issuer ?? { name, algorithm: key.algorithm, sign: key.sign };
  const alg = () =>
    new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: issuer.algorithm })] });
  const extensions = options.ca
    ? [
        extension('2.5.29.19', true, new asn1js.Sequence({ value: [new asn1js.Boolean({ value: true })] })),
        // keyCertSign and cRLSign: bits 5 and 6.
        extension('2.5.29.15', true, new asn1js.BitString({ valueHex: Uint8Array.of(0x06), unusedBits: 1 })),
      ]
    : options.issuer
      ? // digitalSignature and nonRepudiation: bits 0 and 1.
        [extension('2.5.29.15', true, new asn1js.BitString({ valueHex: Uint8Array.of(0xc0), unusedBits: 6 }))]
      : [];
  const tbs = new asn1js.Sequence({
    value: [
      new asn1js.Constructed({
        idBlock: { tagClass: 3, tagNumber: 0 },
        value: [new asn1js.Integer({ value: 2 })],
      }),
      new asn1js.Integer({ value: options.serial ?? 0x1234 }),
      alg(),
      dn(issuer.name),
      new asn1js.Sequence({
        value: [
          new asn1js.UTCTime({ valueDate: options.notBefore ?? new Date(Date.UTC(2024, 0, 1)) }),
          new asn1js.UTCTime({ valueDate: options.notAfter ?? new Date(Date.UTC(2044, 0, 1)) }),
        ],
      }),
      dn(name),
      asn1js.fromBER(key.spki).result,
      ...(extensions.length
        ? [
            new asn1js.Constructed({
              idBlock: { tagClass: 3, tagNumber: 3 },
              value: [new asn1js.Sequence({ value: extensions })],
            }),
          ]
        : []),
    ],
  });
  const signature = issuer.sign(new Uint8Array(tbs.toBER()));
  const certificate = new Uint8Array(
    new asn1js.Sequence({ value: [tbs, alg(), new asn1js.BitString({ valueHex: signature })] }).toBER(),
  );
  return { name, certificate, algorithm: key.algorithm, sign: key.sign, hash: key.hash };
}

/** An SM2 signer with a fresh key; its certificate is self-issued unless `options.issuer` issues it. */
export function testSigner(name = '测试签章人', options: TestCertificateOptions = {}): TestSigner {
  const { privateKey, publicKey } = smCrypto.sm2.generateKeyPairHex();
  const spki = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [
          new asn1js.ObjectIdentifier({ value: '1.2.840.10045.2.1' }),
          new asn1js.ObjectIdentifier({ value: '1.2.156.10197.1.301' }),
        ],
      }),
      new asn1js.BitString({ valueHex: hex(publicKey) }),
    ],
  });
  return signerFor(
    name,
    {
      algorithm: SM2_WITH_SM3,
      spki: new Uint8Array(spki.toBER()),
      sign: (data) =>
        hex(smCrypto.sm2.doSignature(Array.from(data), privateKey, { der: true, hash: true, publicKey })),
      hash: (data) => hex(smCrypto.sm3(data)),
    },
    options,
  );
}

/** An SM2 certification authority with a fresh key: a root, or an intermediate under `options.issuer`. */
export function testCa(name = '测试电子认证服务机构', options: TestCertificateOptions = {}): TestSigner {
  return testSigner(name, { ...options, ca: true });
}

/**
 * A GB/T 38540 v4 signed value: the seal (its name and picture), the time, the hash of the Signature.xml
 * it belongs to, signed by `signer`, whose certificate it carries.
 */
export function signedSealDer(
  signatureXml: Uint8Array,
  signer: TestSigner,
  seal: { picture: Uint8Array; name: string; at?: Date },
): Uint8Array {
  const at = seal.at ?? new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
  const esealInfo = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [
          new asn1js.IA5String({ value: 'ES' }),
          new asn1js.Integer({ value: 4 }),
          new asn1js.IA5String({ value: 'test' }),
        ],
      }),
      new asn1js.IA5String({ value: 'TEST-SEAL-0001' }),
      new asn1js.Sequence({
        value: [
          new asn1js.Integer({ value: 1 }),
          new asn1js.Utf8String({ value: seal.name }),
          new asn1js.Integer({ value: 1 }),
          new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: signer.certificate })] }),
          new asn1js.GeneralizedTime({ valueDate: at }),
          new asn1js.GeneralizedTime({ valueDate: at }),
          new asn1js.GeneralizedTime({ valueDate: new Date(at.getTime() + 365 * 86_400_000) }),
        ],
      }),
      new asn1js.Sequence({
        value: [
          new asn1js.IA5String({ value: 'PNG' }),
          new asn1js.OctetString({ valueHex: seal.picture }),
          new asn1js.Integer({ value: 40 }),
          new asn1js.Integer({ value: 40 }),
        ],
      }),
    ],
  });
  const esealInfoDer = new Uint8Array(esealInfo.toBER());
  const eseal = new asn1js.Sequence({
    value: [
      esealInfo,
      new asn1js.OctetString({ valueHex: signer.certificate }),
      new asn1js.ObjectIdentifier({ value: signer.algorithm }),
      new asn1js.BitString({ valueHex: signer.sign(esealInfoDer) }),
    ],
  });
  const toSign = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 4 }),
      eseal,
      new asn1js.GeneralizedTime({ valueDate: at }),
      new asn1js.BitString({ valueHex: signer.hash(signatureXml) }),
      new asn1js.IA5String({ value: '/Doc_0/Signs/Sign_0/Signature.xml' }),
    ],
  });
  return new Uint8Array(
    new asn1js.Sequence({
      value: [
        toSign,
        new asn1js.OctetString({ valueHex: signer.certificate }),
        new asn1js.ObjectIdentifier({ value: signer.algorithm }),
        new asn1js.BitString({ valueHex: signer.sign(new Uint8Array(toSign.toBER())) }),
      ],
    }).toBER(),
  );
}

/** A package with one part replaced (or, with `undefined`, removed), everything else byte for byte. */
export function withPart(
  ofd: Uint8Array,
  path: string,
  content: string | Uint8Array | undefined,
): Uint8Array {
  const files: Record<string, Uint8Array> = unzipSync(ofd);
  if (content === undefined) delete files[path];
  else files[path] = typeof content === 'string' ? strToU8(content) : content;
  return zipSync(files);
}

/**
 * A signed value shaped as GB/T 38540 keeps the seal picture (`ES_PictrueInfo`): only the part a viewer
 * reads; its signature is not a real one.
 */
export function sealDer(picture: Uint8Array, type = 'PNG', mm = 40): Uint8Array {
  const pictureInfo = new asn1js.Sequence({
    value: [
      new asn1js.IA5String({ value: type }),
      new asn1js.OctetString({ valueHex: picture }),
      new asn1js.Integer({ value: mm }),
      new asn1js.Integer({ value: mm }),
    ],
  });
  const sealInfo = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [new asn1js.IA5String({ value: 'ES' }), new asn1js.Integer({ value: 4 })],
      }),
      new asn1js.IA5String({ value: 'test-seal' }),
      pictureInfo,
    ],
  });
  const tbs = new asn1js.Sequence({ value: [new asn1js.Integer({ value: 4 }), sealInfo] });
  return new Uint8Array(
    new asn1js.Sequence({ value: [tbs, new asn1js.BitString({ valueHex: new Uint8Array(8) })] }).toBER(),
  );
}

export const NS = 'xmlns:ofd="http://www.ofdspec.org/2016"';

/** A 1×1 red PNG. */
export const RED_PIXEL = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

export function page(content: string, area = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?><ofd:Page ${NS}>${area}<ofd:Content><ofd:Layer ID="2">${content}</ofd:Layer></ofd:Content></ofd:Page>`;
}

export function buildOfd(options: TestOfdOptions = {}): Uint8Array {
  const pages = options.pages ?? [
    page(
      '<ofd:TextObject ID="4" Boundary="20 20 100 10" Font="3" Size="5"><ofd:FillColor Value="0 0 255"/><ofd:TextCode X="0" Y="5" DeltaX="g 3 5">合同书</ofd:TextCode></ofd:TextObject>' +
        '<ofd:PathObject ID="5" Boundary="20 40 100 1" LineWidth="0.5"><ofd:StrokeColor Value="255 0 0"/><ofd:AbbreviatedData>M 0 0.5 L 100 0.5</ofd:AbbreviatedData></ofd:PathObject>' +
        '<ofd:ImageObject ID="6" Boundary="20 50 10 10" CTM="10 0 0 10 0 0" ResourceID="7"/>',
    ),
  ];
  const docRoot = options.docRoot === undefined ? 'Doc_0/Document.xml' : options.docRoot;
  const signatures = options.seal ? '<ofd:Signatures>Doc_0/Signs/Signatures.xml</ofd:Signatures>' : '';
  const parts: Record<string, string | Uint8Array> = {
    'OFD.xml': `<?xml version="1.0" encoding="UTF-8"?><ofd:OFD ${NS} Version="1.1" DocType="OFD"><ofd:DocBody><ofd:DocInfo><ofd:DocID>test</ofd:DocID><ofd:Title>测试</ofd:Title></ofd:DocInfo>${docRoot ? `<ofd:DocRoot>${docRoot}</ofd:DocRoot>` : ''}${signatures}</ofd:DocBody></ofd:OFD>`,
    'Doc_0/Document.xml': `<?xml version="1.0" encoding="UTF-8"?><ofd:Document ${NS}><ofd:CommonData><ofd:PageArea><ofd:PhysicalBox>0 0 210 297</ofd:PhysicalBox></ofd:PageArea><ofd:PublicRes>PublicRes.xml</ofd:PublicRes><ofd:DocumentRes>DocumentRes.xml</ofd:DocumentRes></ofd:CommonData><ofd:Pages>${pages.map((_, i) => `<ofd:Page ID="${100 + i}" BaseLoc="Pages/Page_${i}/Content.xml"/>`).join('')}</ofd:Pages></ofd:Document>`,
    'Doc_0/PublicRes.xml': `<?xml version="1.0" encoding="UTF-8"?><ofd:Res ${NS} BaseLoc="Res"><ofd:Fonts><ofd:Font ID="3" FontName="宋体" FamilyName="宋体"/></ofd:Fonts></ofd:Res>`,
    'Doc_0/DocumentRes.xml': `<?xml version="1.0" encoding="UTF-8"?><ofd:Res ${NS} BaseLoc="Res"><ofd:MultiMedias><ofd:MultiMedia ID="7" Type="Image"><ofd:MediaFile>red.png</ofd:MediaFile></ofd:MultiMedia></ofd:MultiMedias></ofd:Res>`,
    'Doc_0/Res/red.png': RED_PIXEL,
  };
  pages.forEach((p, i) => (parts[`Doc_0/Pages/Page_${i}/Content.xml`] = p));
  Object.assign(parts, options.parts ?? {});
  if (options.withOfdXml === false) delete parts['OFD.xml'];
  for (const o of options.omit ?? []) delete parts[o];
  const seal = options.seal;
  if (seal) {
    parts['Doc_0/Signs/Signatures.xml'] =
      `<?xml version="1.0" encoding="UTF-8"?><ofd:Signatures ${NS}><ofd:MaxSignId>1</ofd:MaxSignId><ofd:Signature ID="1" Type="Seal" BaseLoc="Sign_0/Signature.xml"/></ofd:Signatures>`;
    // A real signature covers every part there is so far, each by its SM3 digest.
    const references = seal.signer
      ? `<ofd:References CheckMethod="SM3">${Object.entries(parts)
          .filter(([path]) => !path.startsWith('Doc_0/Signs/'))
          .map(
            ([path, v]) =>
              `<ofd:Reference FileRef="/${path}"><ofd:CheckValue>${toBase64(hex(smCrypto.sm3(typeof v === 'string' ? strToU8(v) : v)))}</ofd:CheckValue></ofd:Reference>`,
          )
          .join('')}</ofd:References>`
      : '';
    const signatureXml = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><ofd:Signature ${NS}><ofd:SignedInfo><ofd:Provider ProviderName="${seal.provider ?? 'test-provider'}"/><ofd:SignatureMethod>1.2.156.10197.1.501</ofd:SignatureMethod><ofd:SignatureDateTime>2026-01-02 11:04:05</ofd:SignatureDateTime>${references}<ofd:StampAnnot ID="s1" PageRef="100" Boundary="${seal.boundary}"/></ofd:SignedInfo><ofd:SignedValue>SignedValue.dat</ofd:SignedValue></ofd:Signature>`,
    );
    parts['Doc_0/Signs/Sign_0/Signature.xml'] = signatureXml;
    parts['Doc_0/Signs/Sign_0/SignedValue.dat'] = seal.signer
      ? signedSealDer(signatureXml, seal.signer, {
          picture: seal.picture,
          name: seal.sealName ?? '测试合同专用章',
          at: seal.at,
        })
      : sealDer(seal.picture);
  }
  return zipSync(
    Object.fromEntries(
      Object.entries(parts).map(([k, v]) => [k, typeof v === 'string' ? strToU8(v) : v] as const),
    ),
  );
}
