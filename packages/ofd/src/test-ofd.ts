import * as asn1js from 'asn1js';
import { strToU8, zipSync } from 'fflate';

/** Test packages built in memory: one page of text, a path and an image, with the parts a test may drop. */
export interface TestOfdOptions {
  withOfdXml?: boolean;
  docRoot?: string | null;
  pages?: string[];
  /** Extra or replacing parts by path. */
  parts?: Record<string, string | Uint8Array>;
  omit?: string[];
  /** An electronic seal on the first page: its picture (a PNG) where `boundary` puts it. */
  seal?: { picture: Uint8Array; boundary: string; provider?: string };
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
  if (options.seal) {
    parts['Doc_0/Signs/Signatures.xml'] =
      `<?xml version="1.0" encoding="UTF-8"?><ofd:Signatures ${NS}><ofd:MaxSignId>1</ofd:MaxSignId><ofd:Signature ID="1" Type="Seal" BaseLoc="Sign_0/Signature.xml"/></ofd:Signatures>`;
    parts['Doc_0/Signs/Sign_0/Signature.xml'] =
      `<?xml version="1.0" encoding="UTF-8"?><ofd:Signature ${NS}><ofd:SignedInfo><ofd:Provider ProviderName="${options.seal.provider ?? 'test-provider'}"/><ofd:SignatureMethod>1.2.156.10197.1.501</ofd:SignatureMethod><ofd:StampAnnot ID="s1" PageRef="100" Boundary="${options.seal.boundary}"/></ofd:SignedInfo><ofd:SignedValue>SignedValue.dat</ofd:SignedValue></ofd:Signature>`;
    parts['Doc_0/Signs/Sign_0/SignedValue.dat'] = sealDer(options.seal.picture);
  }
  pages.forEach((p, i) => (parts[`Doc_0/Pages/Page_${i}/Content.xml`] = p));
  Object.assign(parts, options.parts ?? {});
  if (options.withOfdXml === false) delete parts['OFD.xml'];
  for (const o of options.omit ?? []) delete parts[o];
  return zipSync(
    Object.fromEntries(
      Object.entries(parts).map(([k, v]) => [k, typeof v === 'string' ? strToU8(v) : v] as const),
    ),
  );
}
