import { createHash, generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import * as asn1js from 'asn1js';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { expandDeltas, OfdError, pathData, readOfd } from './index';
import { findSealPicture } from './seal-picture';
import { buildOfd, NS, page, RED_PIXEL, sealDer, signerFor, testCa, testSigner, withPart } from './test-ofd';

const CORPUS = join(import.meta.dirname, '../../../../shared/corpus/ofd');
/** The third-party corpus sits beside the repository checkout; it is absent on a fresh clone. */
const HAS_CORPUS = existsSync(CORPUS);
if (!HAS_CORPUS) console.warn('third-party OFD corpus not found: corpus tests skipped');
const corpus = (name: string) => readFileSync(join(CORPUS, `ofdrw__${name}.ofd`));

/** The SVG is well-formed XML with an svg root (a browser shows nothing otherwise). */
function parseSvg(svg: string) {
  let failure: string | null = null;
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') failure ??= message;
    },
  }).parseFromString(svg, 'image/svg+xml');
  expect(failure).toBeNull();
  expect(doc.documentElement?.nodeName).toBe('svg');
  return doc;
}

function reason(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof OfdError) return err.reason;
    throw err;
  }
  throw new Error('no error');
}

describe('notation', () => {
  it('expands the g abbreviation of DeltaX and DeltaY', () => {
    expect(expandDeltas('g 3 1.5 2')).toEqual([1.5, 1.5, 1.5, 2]);
    expect(expandDeltas('g 2 3.175 1.59 g 2 0')).toEqual([3.175, 3.175, 1.59, 0, 0]);
    expect(expandDeltas('1 2 x 3')).toEqual([1, 2, 3]);
    expect(expandDeltas(undefined)).toEqual([]);
  });

  it('turns OFD path data into SVG path data', () => {
    expect(pathData('S 0 0 L 10 0 B 1 2 3 4 5 6 Q 1 1 2 2 A 5 5 0 0 1 10 10 C')).toBe(
      'M0 0 L10 0 C1 2 3 4 5 6 Q1 1 2 2 A5 5 0 0 1 10 10 Z',
    );
    expect(pathData('M 0 0 L 10')).toBe('M0 0');
    expect(pathData('')).toBe('');
  });
});

describe('reading packages built here', () => {
  it('reads the structure and draws text, paths and images where the page puts them', () => {
    const doc = readOfd(buildOfd());
    expect(doc.meta).toMatchObject({ version: '1.1', docId: 'test', title: '测试' });
    expect(doc.pages).toEqual([
      { index: 0, id: '100', box: { x: 0, y: 0, w: 210, h: 297 }, widthMm: 210, heightMm: 297 },
    ]);
    expect(doc.warnings).toEqual([]);
    const svg = doc.renderPageSvg(0);
    parseSvg(svg);
    expect(svg).toContain('width="210mm" height="297mm" viewBox="0 0 210 297"');
    // The text at its boundary, each character at its own position, in its colour and font.
    expect(svg).toContain('<g transform="translate(20 20)">');
    expect(svg).toMatch(/<text x="0 5 10" y="5 5 5"[^>]*>合同书<\/text>/);
    expect(svg).toContain('fill="rgb(0,0,255)"');
    expect(svg).toContain("'宋体'");
    expect(svg).toContain('d="M0 0.5 L100 0.5" fill="none" stroke="rgb(255,0,0)" stroke-width="0.5"');
    expect(svg).toContain('<g transform="matrix(10 0 0 10 0 0)"><image x="0" y="0" width="1" height="1"');
    expect(svg).toContain('href="data:image/png;base64,iVBORw0KGgo');
  });

  it('takes the page area of the page over the document default, and draws each page of several', () => {
    const doc = readOfd(
      buildOfd({
        pages: [page('', '<ofd:Area><ofd:PhysicalBox>0 0 297 210</ofd:PhysicalBox></ofd:Area>'), page('')],
      }),
    );
    expect(doc.pages.map((p) => [p.widthMm, p.heightMm])).toEqual([
      [297, 210],
      [210, 297],
    ]);
    expect(doc.renderPageSvg(1)).toContain('viewBox="0 0 210 297"');
    expect(() => doc.renderPageSvg(2)).toThrow(RangeError);
  });

  it('escapes text, so a document cannot put markup into the drawing', () => {
    const doc = readOfd(
      buildOfd({
        pages: [
          page(
            '<ofd:TextObject ID="4" Boundary="0 0 50 10" Font="3" Size="3"><ofd:TextCode X="0" Y="3">&lt;script&gt;alert(1)&lt;/script&gt; &amp; "x"</ofd:TextCode></ofd:TextObject>',
          ),
        ],
      }),
    );
    const svg = doc.renderPageSvg(0);
    parseSvg(svg);
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;');
  });

  it('applies draw parameters of the layer, gray and CMYK colours, and leaves invisible objects out', () => {
    const res = `<?xml version="1.0" encoding="UTF-8"?><ofd:Res ${NS} BaseLoc="Res"><ofd:ColorSpaces><ofd:ColorSpace ID="8" Type="GRAY"/><ofd:ColorSpace ID="9" Type="CMYK"/></ofd:ColorSpaces><ofd:DrawParams><ofd:DrawParam ID="10" LineWidth="2" Cap="Round"><ofd:StrokeColor Value="0 128 0"/></ofd:DrawParam></ofd:DrawParams><ofd:Fonts><ofd:Font ID="3" FontName="楷体"/></ofd:Fonts></ofd:Res>`;
    const content = `<?xml version="1.0" encoding="UTF-8"?><ofd:Page ${NS}><ofd:Content><ofd:Layer ID="2" DrawParam="10">
      <ofd:PathObject ID="4" Boundary="0 0 10 10"><ofd:AbbreviatedData>M 0 0 L 10 10</ofd:AbbreviatedData></ofd:PathObject>
      <ofd:PathObject ID="5" Boundary="0 0 10 10" Fill="true" Stroke="false" Rule="Even-Odd"><ofd:FillColor Value="128" ColorSpace="8"/><ofd:AbbreviatedData>M 0 0 L 10 0 L 10 10 C</ofd:AbbreviatedData></ofd:PathObject>
      <ofd:PathObject ID="6" Boundary="0 0 10 10" Fill="true" Stroke="false"><ofd:FillColor Value="0 255 255 0" ColorSpace="9" Alpha="128"/><ofd:AbbreviatedData>M 0 0 L 1 1</ofd:AbbreviatedData></ofd:PathObject>
      <ofd:PathObject ID="7" Boundary="0 0 10 10" Visible="false"><ofd:AbbreviatedData>M 0 0 L 5 5</ofd:AbbreviatedData></ofd:PathObject>
    </ofd:Layer></ofd:Content></ofd:Page>`;
    const svg = readOfd(
      buildOfd({ parts: { 'Doc_0/PublicRes.xml': res, 'Doc_0/Pages/Page_0/Content.xml': content } }),
    ).renderPageSvg(0);
    parseSvg(svg);
    expect(svg).toContain(
      'd="M0 0 L10 10" fill="none" stroke="rgb(0,128,0)" stroke-width="2" stroke-linecap="round"',
    );
    expect(svg).toContain('fill="rgb(128,128,128)" fill-rule="evenodd"');
    expect(svg).toContain('fill="rgb(255,0,0)" fill-opacity="0.502"');
    expect(svg).not.toContain('L5 5');
  });

  it('refuses what is not an OFD, or whose structure is broken, with a reason', () => {
    expect(reason(() => readOfd(strToU8('%PDF-1.7 not a zip')))).toBe('notZip');
    expect(reason(() => readOfd(Uint8Array.of(0x50, 0x4b, 3, 4, 1, 2, 3)))).toBe('notZip');
    expect(reason(() => readOfd(buildOfd({ withOfdXml: false })))).toBe('noOfdXml');
    expect(reason(() => readOfd(buildOfd({ docRoot: null })))).toBe('noDocument');
    expect(reason(() => readOfd(buildOfd({ omit: ['Doc_0/Document.xml'] })))).toBe('noDocument');
    expect(reason(() => readOfd(buildOfd({ pages: [] })))).toBe('noPages');
    expect(reason(() => readOfd(buildOfd({ omit: ['Doc_0/Pages/Page_0/Content.xml'] })))).toBe('missingPart');
    expect(reason(() => readOfd(buildOfd({ parts: { 'OFD.xml': '<ofd:OFD><unclosed>' } })))).toBe('badXml');
    expect(
      reason(() => readOfd(buildOfd({ parts: { 'Doc_0/Pages/Page_0/Content.xml': `<ofd:Res ${NS}/>` } }))),
    ).toBe('badPage');
  });

  it('bounds what a package may unpack (a zip bomb stops at the limit)', () => {
    const bomb = zipSync({ 'OFD.xml': new Uint8Array(2 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(20_000);
    expect(reason(() => readOfd(bomb, { maxEntryBytes: 1024 * 1024 }))).toBe('tooLarge');
    expect(reason(() => readOfd(buildOfd(), { maxEntries: 3 }))).toBe('tooLarge');
    expect(reason(() => readOfd(buildOfd(), { maxTotalBytes: 500 }))).toBe('tooLarge');
  });

  it('finds the seal picture of a signed value, and draws it where its stamp sits', () => {
    expect(findSealPicture(sealDer(RED_PIXEL))).toEqual({
      type: 'png',
      data: RED_PIXEL,
      widthMm: 40,
      heightMm: 40,
    });
    expect(findSealPicture(Uint8Array.of(1, 2, 3))).toBeUndefined();
    const doc = readOfd(buildOfd({ seal: { picture: RED_PIXEL, boundary: '150 240 40 40' } }));
    expect(doc.signatures).toEqual([
      expect.objectContaining({
        id: '1',
        type: 'Seal',
        provider: 'test-provider',
        stamps: [{ pageIndex: 0, boundary: { x: 150, y: 240, w: 40, h: 40 }, clip: undefined }],
        picture: expect.objectContaining({ type: 'png' }),
      }),
    ]);
    const svg = doc.renderPageSvg(0);
    parseSvg(svg);
    expect(svg).toMatch(
      /<g transform="translate\(150 240\)" data-signature="1"><image x="0" y="0" width="40" height="40"/,
    );
  });

  it('inflates an image only to draw it: a damaged image entry leaves the structure and the text intact', () => {
    const bytes = buildOfd();
    // The local header of the image entry: 30 bytes, the name, the extra field, then its deflate data.
    const name = new TextEncoder().encode('Doc_0/Res/red.png');
    let at = -1;
    for (let i = 0; i + 30 + name.length <= bytes.length && at < 0; i++)
      if (bytes[i] === 0x50 && bytes[i + 1] === 0x4b && bytes[i + 2] === 3 && bytes[i + 3] === 4)
        if (name.every((b, k) => bytes[i + 30 + k] === b)) at = i;
    expect(at).toBeGreaterThanOrEqual(0);
    const extra = bytes[at + 28]! | (bytes[at + 29]! << 8);
    bytes.fill(0xff, at + 30 + name.length + extra, at + 30 + name.length + extra + 8);
    const doc = readOfd(bytes);
    const svg = doc.renderPageSvg(0);
    expect(svg).toContain('合同书');
    expect(svg).not.toContain('<image');
  });

  it('draws a resource file the document names but lacks as nothing, and says so', () => {
    const doc = readOfd(buildOfd({ omit: ['Doc_0/DocumentRes.xml'] }));
    expect(doc.warnings).toEqual(['missing resource file Doc_0/DocumentRes.xml']);
    const svg = doc.renderPageSvg(0);
    expect(svg).toContain('合同书');
    expect(svg).not.toContain('<image');
  });
});

describe('verifying signatures (GB/T 38540 v4, SM2 with SM3)', () => {
  const ca = testCa('测试电子认证服务机构');
  const signer = testSigner('杭州测试科技有限公司', { issuer: ca });
  const signed = buildOfd({
    seal: {
      picture: RED_PIXEL,
      boundary: '120 200 40 40',
      signer,
      sealName: '杭州测试科技有限公司合同专用章',
    },
  });
  const SIGNATURE = 'Doc_0/Signs/Sign_0/Signature.xml';
  const VALUE = 'Doc_0/Signs/Sign_0/SignedValue.dat';
  const CONTENT = 'Doc_0/Pages/Page_0/Content.xml';
  const verify = (bytes: Uint8Array) => readOfd(bytes).verifySignatures({ trustAnchors: [ca.certificate] });
  const text = (bytes: Uint8Array, path: string) => new TextDecoder().decode(unzipSync(bytes)[path]);

  it('finds a signed package valid: every part, the data hash, the signature and who made it', async () => {
    const [check, ...more] = await verify(signed);
    expect(more).toEqual([]);
    expect(check).toMatchObject({
      id: '1',
      type: 'Seal',
      format: 'sesV4',
      verdict: 'valid',
      reason: 'signerConfirmed',
      problems: [],
      algorithm: '1.2.156.10197.1.501',
      sealName: '杭州测试科技有限公司合同专用章',
      signedAt: '2026-01-02T03:04:05.000Z',
      signer: { subject: '杭州测试科技有限公司', issuer: '测试电子认证服务机构', serialNumber: '1234' },
      certificateValidAtSigning: true,
      chain: 'trusted',
    });
    expect(check!.chainPath.map((c) => c.subject)).toEqual(['杭州测试科技有限公司', '测试电子认证服务机构']);
    expect(check!.references.map((r) => r.file)).toEqual([
      'OFD.xml',
      'Doc_0/Document.xml',
      'Doc_0/PublicRes.xml',
      'Doc_0/DocumentRes.xml',
      'Doc_0/Res/red.png',
      CONTENT,
    ]);
    expect(check!.references.every((r) => r.status === 'ok')).toBe(true);
  });

  it('finds a page changed after signing invalid, naming the part', async () => {
    const changed = withPart(signed, CONTENT, text(signed, CONTENT).replace('合同书', '合同本'));
    const [check] = await verify(changed);
    expect(check).toMatchObject({ verdict: 'invalid', problems: ['referenceChanged'] });
    expect(check!.references.filter((r) => r.status !== 'ok')).toEqual([
      { file: CONTENT, status: 'changed' },
    ]);
    // An image swapped, or taken out.
    expect((await verify(withPart(signed, 'Doc_0/Res/red.png', sealDer(RED_PIXEL))))[0]!.problems).toEqual([
      'referenceChanged',
    ]);
    const [gone] = await verify(withPart(signed, 'Doc_0/Res/red.png', undefined));
    expect(gone).toMatchObject({ verdict: 'invalid', problems: ['referenceMissing'] });
  });

  it('finds the references rewritten to match a changed page invalid: the signed value names the old list', async () => {
    const newContent = text(signed, CONTENT).replace('合同书', '合同本');
    const digest = readOfd(
      buildOfd({
        parts: { [CONTENT]: newContent },
        seal: { picture: RED_PIXEL, boundary: '1 1 1 1', signer },
      }),
    ).signatures[0]!.references.items.find((r) => r.file === CONTENT)!.checkValue;
    const old = readOfd(signed).signatures[0]!.references.items.find((r) => r.file === CONTENT)!.checkValue;
    let forged = withPart(signed, CONTENT, newContent);
    forged = withPart(forged, SIGNATURE, text(signed, SIGNATURE).replace(old, digest));
    const [check] = await verify(forged);
    expect(check!.references.every((r) => r.status === 'ok')).toBe(true);
    expect(check).toMatchObject({ verdict: 'invalid', problems: ['dataHashMismatch'] });
  });

  it('finds a signed value signed by another key than its certificate’s invalid', async () => {
    const other = testSigner('杭州测试科技有限公司', { issuer: ca });
    const impostor = buildOfd({
      seal: {
        picture: RED_PIXEL,
        boundary: '120 200 40 40',
        signer: { ...other, certificate: signer.certificate },
      },
    });
    const [check] = await verify(impostor);
    expect(check).toMatchObject({ verdict: 'invalid', problems: ['signatureInvalid'] });
    // And one bit of the signature flipped.
    const value = unzipSync(signed)[VALUE]!.slice();
    value[value.length - 5]! ^= 1;
    expect((await verify(withPart(signed, VALUE, value)))[0]!.problems).toEqual(['signatureInvalid']);
  });

  it('checks a value signed with RSA and SHA-256 as well', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rsa = signerFor(
      'RSA 签章人',
      {
        algorithm: '1.2.840.113549.1.1.11',
        spki: new Uint8Array(publicKey.export({ type: 'spki', format: 'der' })),
        sign: (data) => new Uint8Array(nodeSign('sha256', data, privateKey)),
        hash: (data) => new Uint8Array(createHash('sha256').update(data).digest()),
      },
      { issuer: ca },
    );
    const ofd = buildOfd({ seal: { picture: RED_PIXEL, boundary: '1 1 40 40', signer: rsa } });
    const [check] = await verify(ofd);
    expect(check).toMatchObject({
      verdict: 'valid',
      algorithm: '1.2.840.113549.1.1.11',
      signer: { subject: 'RSA 签章人' },
    });
    const value = unzipSync(ofd)[VALUE]!.slice();
    value[value.length - 5]! ^= 1;
    expect((await verify(withPart(ofd, VALUE, value)))[0]!.problems).toEqual(['signatureInvalid']);
  });

  it('says why a signer cannot be confirmed (indeterminate): a bare value without a certificate', async () => {
    const bare = new asn1js.Sequence({
      value: [new asn1js.Integer({ value: 7 }), new asn1js.Integer({ value: 9 })],
    }).toBER();
    const [b] = await verify(withPart(signed, VALUE, new Uint8Array(bare)));
    expect(b).toMatchObject({
      format: 'bare',
      verdict: 'indeterminate',
      reason: 'noCertificate',
      problems: ['noCertificate'],
      chain: 'notChecked',
    });
  });

  it('finds a seal whose signed value is missing, unreadable or covers nothing invalid (format failure)', async () => {
    // The picture-only value of an unsigned test seal, with no references either.
    const [u] = await verify(buildOfd({ seal: { picture: RED_PIXEL, boundary: '1 1 40 40' } }));
    expect(u).toMatchObject({ verdict: 'invalid', reason: 'noReferences' });
    expect(u!.problems).toEqual(['noReferences', 'signedValueUnreadable']);
    const [g] = await verify(withPart(signed, VALUE, strToU8('garbage')));
    expect(g).toMatchObject({ verdict: 'invalid', problems: ['signedValueUnreadable'] });
    const [m] = await verify(withPart(signed, VALUE, undefined));
    expect(m).toMatchObject({ verdict: 'invalid', problems: ['signedValueMissing'] });
    expect(await verify(buildOfd())).toEqual([]);
  });
});

describe.skipIf(!HAS_CORPUS)('third-party packages (shared corpus, made by ofdrw and others)', () => {
  it('reads every corpus package and draws every page as well-formed SVG', () => {
    const expected: Record<string, number> = {
      helloworld: 1,
      DigitalSign: 1,
      SESV4SignDoc: 1,
      h: 5,
      'invoice-sample_fapiao-shili': 1,
      zsbk: 2,
    };
    for (const [name, pages] of Object.entries(expected)) {
      const doc = readOfd(corpus(name));
      expect(doc.pages, name).toHaveLength(pages);
      for (let i = 0; i < pages; i++) parseSvg(doc.renderPageSvg(i));
    }
  });

  it('places the text of the hello-world page with its deltas', () => {
    const svg = readOfd(corpus('helloworld')).renderPageSvg(0);
    expect(svg).toContain('<g transform="translate(31.7 25.4)">');
    expect(svg).toMatch(/<text x="0 3 6 9 12 13.5 15/);
    expect(svg).toContain('你好呀，OFD Reader&amp;Writer！');
  });

  it('finds each signature with its stamps and seal picture, riding seams clipped per page', () => {
    const h = readOfd(corpus('h'));
    expect(h.signatures.map((s) => [s.type, s.stamps.length, s.picture?.type])).toEqual([
      ['Seal', 5, 'png'],
      ['Seal', 1, 'png'],
    ]);
    const seam = h.signatures[0]!;
    expect(seam.method).toBe('1.2.156.10197.1.501');
    expect(seam.stamps.map((s) => s.pageIndex)).toEqual([0, 1, 2, 3, 4]);
    expect(seam.stamps[1]).toEqual({
      pageIndex: 1,
      boundary: { x: 194, y: 128.5, w: 40, h: 40 },
      clip: { x: 8, y: 0, w: 8, h: 40 },
    });
    const page2 = h.renderPageSvg(1);
    expect(page2).toContain('<rect x="8" y="0" width="8" height="40"/>');
    expect(page2).toMatch(
      /translate\(194 128.5\)" data-signature="[^"]+"><image [^>]*clip-path="url\(#stamp\d+\)"/,
    );
    // The whole seal on page 1, where both signatures have a stamp.
    expect(h.renderPageSvg(0).match(/data-signature=/g)).toHaveLength(2);
    expect(h.renderPageSvg(0, { stamps: false })).not.toContain('data-signature');

    const digital = readOfd(corpus('DigitalSign'));
    expect(digital.signatures).toHaveLength(1);
    expect(digital.signatures[0]).toMatchObject({ type: 'Sign', stamps: [] });
    expect(digital.signatures[0]!.picture).toBeUndefined();
  });

  it('draws an invoice: its template, the QR image, and the seal whose picture is an OFD of its own', () => {
    const doc = readOfd(corpus('invoice-sample_fapiao-shili'));
    expect(doc.pages[0]).toMatchObject({ widthMm: 210, heightMm: 140 });
    const [sig] = doc.signatures;
    expect(sig).toMatchObject({ provider: 'gomain_eseal', company: 'BW', picture: { type: 'ofd' } });
    const svg = doc.renderPageSvg(0);
    expect(svg).toContain('科游迈利有限公司');
    expect(svg).toContain('data:image/png;base64,');
    // The template's brown rules come first, under the page's own text.
    expect(svg.indexOf('rgb(156,82,35)')).toBeLessThan(svg.indexOf('科游迈利有限公司'));
    expect(svg).toMatch(
      /translate\(90 8\)" data-signature="[^"]+"><image [^>]*href="data:image\/svg\+xml;base64,/,
    );
  });

  it('embeds the fonts a page uses once, as @font-face', () => {
    const svg = readOfd(corpus('zsbk')).renderPageSvg(0);
    const faces = svg.match(/@font-face\{font-family:'ofd-font-(\d+)'/g) ?? [];
    expect(faces.length).toBeGreaterThan(0);
    expect(new Set(faces).size).toBe(faces.length);
    expect(svg).toContain('src:url(data:font/ttf;base64,');
  });

  it('checks the signatures other tools made: an intact test seal is indeterminate, never valid', async () => {
    // An anchor that is not theirs: the platform's trust, as far as these files are concerned.
    const trustAnchors = [testCa('本平台根证书').certificate];
    const summary = async (name: string, now?: Date) =>
      (await readOfd(corpus(name)).verifySignatures({ trustAnchors, now })).map((c) => ({
        verdict: c.verdict,
        problems: c.problems,
        changed: c.references.filter((r) => r.status !== 'ok').map((r) => `${r.file} ${r.status}`),
      }));
    // ofdrw's test seal is intact, but its signer's certificate chains to no anchor of ours (and has
    // expired, and the value states a signing time outside it).
    expect(await summary('SESV4SignDoc')).toEqual([
      {
        verdict: 'indeterminate',
        problems: ['issuerUnknown', 'signingTimeOutsideValidity', 'certificateExpired'],
        changed: [],
      },
    ]);
    const [v4] = await readOfd(corpus('SESV4SignDoc')).verifySignatures({ trustAnchors });
    expect(v4).toMatchObject({
      reason: 'issuerUnknown',
      chain: 'untrusted',
      sealName: 'OFD R&W 测试用印章',
      signer: { subject: 'Test Certificate', issuer: 'OFD Reader and WriterROOT Certificate' },
    });
    // Without any anchor the first reason is that none was given.
    const [bare] = await readOfd(corpus('SESV4SignDoc')).verifySignatures();
    expect(bare).toMatchObject({ verdict: 'indeterminate', reason: 'noTrustAnchors' });
    // Two signatures; the first covered the signature list, which the second one extended. Checked in
    // 2021, while the certificate was valid, only the unknown issuer remains.
    const later = ['Doc_0/Signs/Signatures.xml laterSignatures'];
    expect(await summary('h', new Date('2021-01-01T00:00:00Z'))).toEqual([
      { verdict: 'indeterminate', problems: ['issuerUnknown'], changed: later },
      { verdict: 'indeterminate', problems: ['issuerUnknown'], changed: [] },
    ]);
    // A bare SM2 value without a certificate: its parts are intact, its signer cannot be known.
    expect(await summary('DigitalSign')).toEqual([
      { verdict: 'indeterminate', problems: ['noCertificate'], changed: [] },
    ]);
    // These samples were edited after they were sealed (their signed values themselves are intact).
    expect(await summary('invoice-sample_fapiao-shili')).toEqual([
      { verdict: 'invalid', problems: ['referenceChanged'], changed: ['Doc_0/Document.xml changed'] },
    ]);
    const pages = ['Doc_0/Pages/Page_1/Content.xml changed', 'Doc_0/Pages/Page_0/Content.xml changed'];
    expect(await summary('zsbk')).toEqual([
      { verdict: 'invalid', problems: ['referenceChanged'], changed: pages },
      { verdict: 'invalid', problems: ['referenceChanged'], changed: pages },
    ]);
  }, 30_000); // hashing every part of the larger samples with SM3 in JavaScript takes seconds on a busy machine
});
