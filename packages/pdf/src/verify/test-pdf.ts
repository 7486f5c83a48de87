/**
 * A tiny PDF writer for verifier tests: hand-made documents with incremental updates, signed with a
 * throw-away certificate, so that each change-after-signing rule can be exercised on a file whose
 * every byte is known. Not used by the product.
 */
import 'reflect-metadata';
import { createHash, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import * as x509 from '@peculiar/x509';
import { buildCrl, buildTimeStampToken, type KeyHandle } from '@openseal/pki';
import { PdfDict, PdfName, PdfRef, PdfString } from '../objects';
import { openPdf } from '../reader';
import { IncrementalUpdate } from '../writer';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

export interface TestObject {
  /** The dictionary (or any object) text; for a stream, /Length is added. */
  body: string;
  stream?: string | Uint8Array;
}

interface PageModel {
  num: number;
  contents: number;
  annots: number[];
}

const enc = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'latin1'));

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function serialize(num: number, obj: TestObject): Uint8Array {
  if (obj.stream === undefined) return enc(`${num} 0 obj\n${obj.body}\nendobj\n`);
  const data = typeof obj.stream === 'string' ? enc(obj.stream) : obj.stream;
  const body = obj.body.replace(/>>\s*$/, ` /Length ${data.length} >>`);
  return concat([enc(`${num} 0 obj\n${body}\nstream\n`), data, enc('\nendstream\nendobj\n')]);
}

export function pdfDate(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return (
    `D:${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}` +
    `${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}Z`
  );
}

/**
 * A document model that writes itself revision by revision: the first commit writes a full file with
 * a classic xref table, later commits append an incremental update holding only staged objects.
 */
export class TestPdf {
  readonly catalog = 1;
  readonly pagesNum = 2;
  readonly font = 3;
  pages: PageModel[] = [];
  acroForm: number | undefined;
  fields: number[] = [];
  catalogEntries = new Map<string, string>();
  /** Extra AcroForm entries (e.g. /SigFlags). */
  acroFormEntries = new Map<string, string>();
  /** Extra page resources by page index, e.g. `/XObject << /Fm1 9 0 R >>`. */
  pageResources = new Map<number, string>();
  bytes: Uint8Array = new Uint8Array(0);
  revisions = 0;

  private readonly objects = new Map<number, TestObject>();
  private readonly staged = new Map<number, TestObject | null>();
  private nextNum = 4;
  private lastXref = -1;

  constructor(options: { pages?: number; pageText?: string } = {}) {
    this.set(this.font, { body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>' });
    for (let i = 0; i < (options.pages ?? 1); i++) this.addPage(options.pageText ?? `Page ${i + 1}`);
    this.stageCatalog();
  }

  alloc(): number {
    return this.nextNum++;
  }

  get(num: number): TestObject {
    const obj = this.staged.get(num) ?? this.objects.get(num);
    if (!obj) throw new Error(`no object ${num}`);
    return obj;
  }

  set(num: number, obj: TestObject | string): void {
    this.staged.set(num, typeof obj === 'string' ? { body: obj } : obj);
    if (num >= this.nextNum) this.nextNum = num + 1;
  }

  free(num: number): void {
    this.staged.set(num, null);
  }

  /** Records what a commit's object became after its bytes were patched (a signature's /Contents). */
  patched(num: number, body: string): void {
    this.objects.set(num, { body });
  }

  /** Stages an object unchanged: a writer that re-states what it did not modify. */
  restate(num: number): void {
    this.staged.set(num, this.get(num));
  }

  addPage(text: string): number {
    const contents = this.alloc();
    const num = this.alloc();
    this.set(contents, { body: '<< >>', stream: `BT /F1 24 Tf 72 720 Td (${text}) Tj ET` });
    this.pages.push({ num, contents, annots: [] });
    this.stagePage(this.pages.length - 1);
    this.stagePages();
    return num;
  }

  removePage(index: number): void {
    this.pages.splice(index, 1);
    this.stagePages();
  }

  setPageText(index: number, text: string, extra = ''): void {
    const page = this.page(index);
    this.set(page.contents, { body: '<< >>', stream: `BT /F1 24 Tf 72 720 Td (${text}) Tj ET${extra}` });
  }

  /** Adds page resources (e.g. `/XObject << /Fm1 9 0 R >>`) to a page. */
  setPageResources(index: number, resources: string): void {
    this.pageResources.set(index, resources);
    this.stagePage(index);
  }

  /** Adds an annotation dictionary (written as given) to a page; returns its object number. */
  addAnnotation(pageIndex: number, body: string): number {
    const num = this.alloc();
    this.set(num, body);
    this.addAnnot(pageIndex, num);
    return num;
  }

  page(index: number): PageModel {
    const page = this.pages[index];
    if (!page) throw new Error(`no page ${index}`);
    return page;
  }

  addAnnot(pageIndex: number, num: number): void {
    this.page(pageIndex).annots.push(num);
    this.stagePage(pageIndex);
  }

  removeAnnot(pageIndex: number, num: number): void {
    const page = this.page(pageIndex);
    page.annots = page.annots.filter((n) => n !== num);
    this.stagePage(pageIndex);
  }

  addField(num: number): void {
    if (this.acroForm === undefined) {
      this.acroForm = this.alloc();
      this.setCatalogEntry('AcroForm', `${this.acroForm} 0 R`);
    }
    this.fields.push(num);
    this.stageAcroForm();
  }

  removeField(num: number): void {
    this.fields = this.fields.filter((n) => n !== num);
    this.stageAcroForm();
  }

  setAcroFormEntry(key: string, value: string | undefined): void {
    if (value === undefined) this.acroFormEntries.delete(key);
    else this.acroFormEntries.set(key, value);
    this.stageAcroForm();
  }

  setCatalogEntry(key: string, value: string | undefined): void {
    if (value === undefined) this.catalogEntries.delete(key);
    else this.catalogEntries.set(key, value);
    this.stageCatalog();
  }

  /** Adds a text field with a widget on a page; returns the field (merged with its widget). */
  addTextField(pageIndex: number, name: string, value?: string): number {
    const num = this.alloc();
    const page = this.page(pageIndex);
    const v = value === undefined ? '' : ` /V (${value})`;
    this.set(
      num,
      `<< /Type /Annot /Subtype /Widget /FT /Tx /T (${name})${v} /Rect [72 600 300 630] /P ${page.num} 0 R /F 4 >>`,
    );
    this.addAnnot(pageIndex, num);
    this.addField(num);
    return num;
  }

  /** Adds a sticky note; returns its object number. */
  addNote(pageIndex: number, text: string): number {
    const num = this.alloc();
    this.set(num, `<< /Type /Annot /Subtype /Text /Rect [400 700 420 720] /Contents (${text}) >>`);
    this.addAnnot(pageIndex, num);
    return num;
  }

  /** Writes staged objects as a new revision and returns the whole file. */
  commit(): Uint8Array {
    const first = this.revisions === 0;
    const parts: Uint8Array[] = [];
    let at = this.bytes.length;
    const push = (b: Uint8Array) => {
      parts.push(b);
      at += b.length;
    };
    if (first) push(enc('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n'));
    const offsets = new Map<number, number | null>();
    for (const [num, obj] of [...this.staged].sort((a, b) => a[0] - b[0])) {
      if (obj === null) {
        offsets.set(num, null);
        this.objects.delete(num);
        continue;
      }
      offsets.set(num, at);
      push(serialize(num, obj));
      this.objects.set(num, obj);
    }
    this.staged.clear();
    const xrefAt = at;
    const nums = [...offsets.keys()].sort((a, b) => a - b);
    let table = 'xref\n';
    if (first) {
      table += `0 ${this.nextNum}\n0000000000 65535 f\r\n`;
      for (let n = 1; n < this.nextNum; n++) {
        const off = offsets.get(n);
        table += off == null ? '0000000000 00001 f\r\n' : `${String(off).padStart(10, '0')} 00000 n\r\n`;
      }
    } else {
      // One subsection per run of consecutive numbers, as writers do.
      let i = 0;
      while (i < nums.length) {
        let j = i;
        while (j + 1 < nums.length && nums[j + 1] === (nums[j] as number) + 1) j++;
        table += `${nums[i]} ${j - i + 1}\n`;
        for (let k = i; k <= j; k++) {
          const off = offsets.get(nums[k] as number);
          table += off == null ? '0000000000 00001 f\r\n' : `${String(off).padStart(10, '0')} 00000 n\r\n`;
        }
        i = j + 1;
      }
      if (nums.length === 0) table += '0 1\n0000000000 65535 f\r\n';
    }
    const prev = first ? '' : ` /Prev ${this.lastXref}`;
    table += `trailer\n<< /Size ${this.nextNum} /Root ${this.catalog} 0 R${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    push(enc(table));
    this.lastXref = xrefAt;
    this.bytes = concat([this.bytes, ...parts]);
    this.revisions++;
    return this.bytes;
  }

  private stagePage(index: number): void {
    const page = this.page(index);
    const annots = page.annots.length ? ` /Annots [${page.annots.map((n) => `${n} 0 R`).join(' ')}]` : '';
    this.set(
      page.num,
      `<< /Type /Page /Parent ${this.pagesNum} 0 R /MediaBox [0 0 595 842] /Contents ${page.contents} 0 R ` +
        `/Resources << /Font << /F1 ${this.font} 0 R >> ${this.pageResources.get(index) ?? ''}>>${annots} >>`,
    );
  }

  private stagePages(): void {
    const kids = this.pages.map((p) => `${p.num} 0 R`).join(' ');
    this.set(this.pagesNum, `<< /Type /Pages /Kids [${kids}] /Count ${this.pages.length} >>`);
  }

  private stageCatalog(): void {
    const extra = [...this.catalogEntries].map(([k, v]) => ` /${k} ${v}`).join('');
    this.set(this.catalog, `<< /Type /Catalog /Pages ${this.pagesNum} 0 R${extra} >>`);
  }

  private stageAcroForm(): void {
    if (this.acroForm === undefined) return;
    const extra = [...this.acroFormEntries].map(([k, v]) => ` /${k} ${v}`).join('');
    this.set(this.acroForm, `<< /Fields [${this.fields.map((n) => `${n} 0 R`).join(' ')}]${extra} >>`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Signing with a throw-away PKI

export interface TestIdentity {
  certificate: Uint8Array;
  privateKey: CryptoKey;
  name: string;
}

export interface TestPki {
  root: TestIdentity;
  signer: TestIdentity;
  /** A time-stamping unit (critical id-kp-timeStamping) issued by the same root. */
  tsa: TestIdentity;
  /** A CRL of the root that revokes nobody: with it, revocation is known to be good. */
  crl: Uint8Array;
}

function keyHandleOf(identity: TestIdentity): KeyHandle {
  return {
    id: `test-${identity.name}`,
    algorithm: 'RSA-2048',
    publicKeySpki: new Uint8Array(x509Certificate(identity.certificate).publicKey.rawData),
    sign: async (data) =>
      new Uint8Array(await webcrypto.subtle.sign('RSASSA-PKCS1-v1_5', identity.privateKey, data)),
  };
}

/** A CRL signed by the test root, revoking the certificates given by serial (hex). */
export async function createTestCrl(
  root: TestIdentity,
  revoked: Array<{ serialHex: string; revokedAt: Date }> = [],
): Promise<Uint8Array> {
  return buildCrl({
    issuer: { certificate: root.certificate, key: keyHandleOf(root) },
    thisUpdate: new Date(Date.now() - 60_000),
    nextUpdate: new Date(Date.now() + 86_400_000),
    crlNumber: 1 + revoked.length,
    revoked: revoked.map((r) => ({ ...r, reason: 'keyCompromise' as const })),
  });
}

const RSA: webcrypto.RsaHashedKeyGenParams = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};

let cryptoReady = false;
function setUpCrypto(): void {
  if (cryptoReady) return;
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  pkijs.setEngine(
    'node',
    new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as pkijs.ICryptoEngine['crypto'] }),
  );
  cryptoReady = true;
}

/** A root CA and a signer certificate it issued, valid from a year ago for ten years. */
export async function createTestPki(signerName = 'Test Signer'): Promise<TestPki> {
  setUpCrypto();
  const notBefore = new Date(Date.now() - 365 * 86400_000);
  const notAfter = new Date(Date.now() + 9 * 365 * 86400_000);
  const rootKeys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=OpenSeal Test Root,O=OpenSeal Tests',
    notBefore,
    notAfter,
    keys: rootKeys,
    signingAlgorithm: RSA,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });
  const signerKeys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const signer = await x509.X509CertificateGenerator.create({
    serialNumber: '1001',
    subject: `CN=${signerName},O=OpenSeal Tests`,
    issuer: root.subject,
    notBefore,
    notAfter,
    publicKey: signerKeys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: RSA,
    extensions: [
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation,
        true,
      ),
      await x509.AuthorityKeyIdentifierExtension.create(root),
    ],
  });
  const tsaKeys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as CryptoKeyPair;
  const tsa = await x509.X509CertificateGenerator.create({
    serialNumber: '2001',
    subject: 'CN=OpenSeal Test TSA,O=OpenSeal Tests',
    issuer: root.subject,
    notBefore,
    notAfter,
    publicKey: tsaKeys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: RSA,
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension(['1.3.6.1.5.5.7.3.8'], true),
      await x509.AuthorityKeyIdentifierExtension.create(root),
    ],
  });
  const rootIdentity: TestIdentity = {
    certificate: new Uint8Array(root.rawData),
    privateKey: rootKeys.privateKey,
    name: 'OpenSeal Test Root',
  };
  return {
    tsa: {
      certificate: new Uint8Array(tsa.rawData),
      privateKey: tsaKeys.privateKey,
      name: 'OpenSeal Test TSA',
    },
    root: rootIdentity,
    crl: await createTestCrl(rootIdentity),
    signer: {
      certificate: new Uint8Array(signer.rawData),
      privateKey: signerKeys.privateKey,
      name: signerName,
    },
  };
}

/** A detached CMS SignedData over `digest` with contentType, signingTime, messageDigest and ESS signing-certificate-v2. */
export async function createTestCms(
  identity: TestIdentity,
  digest: Uint8Array,
  signingTime: Date,
  extraCertificates: Uint8Array[] = [],
): Promise<Uint8Array> {
  setUpCrypto();
  const cert = pkijs.Certificate.fromBER(identity.certificate);
  const certHash = createHash('sha256').update(identity.certificate).digest();
  const essCertIdV2 = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: certHash })] })],
      }),
    ],
  });
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        new pkijs.Attribute({
          type: '1.2.840.113549.1.9.3',
          values: [new asn1js.ObjectIdentifier({ value: '1.2.840.113549.1.7.1' })],
        }),
        new pkijs.Attribute({
          type: '1.2.840.113549.1.9.5',
          values: [new asn1js.UTCTime({ valueDate: signingTime })],
        }),
        new pkijs.Attribute({
          type: '1.2.840.113549.1.9.4',
          values: [new asn1js.OctetString({ valueHex: digest })],
        }),
        new pkijs.Attribute({ type: '1.2.840.113549.1.9.16.2.47', values: [essCertIdV2] }),
      ],
    }),
  });
  const signed = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: '1.2.840.113549.1.7.1' }),
    signerInfos: [signerInfo],
    certificates: [cert, ...extraCertificates.map((c) => pkijs.Certificate.fromBER(c))],
  });
  await signed.sign(identity.privateKey, 0, 'SHA-256');
  const info = new pkijs.ContentInfo({ contentType: '1.2.840.113549.1.7.2', content: signed.toSchema(true) });
  return new Uint8Array(info.toSchema().toBER(false));
}

export interface SignOptions {
  identity: TestIdentity;
  fieldName: string;
  pageIndex?: number;
  rect?: [number, number, number, number];
  /** Makes this a certification signature with this DocMDP permission level. */
  docMdp?: 1 | 2 | 3;
  subFilter?: 'adbe.pkcs7.detached' | 'ETSI.CAdES.detached';
  signingTime?: Date;
  /** Signs an existing empty signature field instead of adding one. */
  existingField?: number;
  contentsSize?: number;
  /** Signs the digest of other bytes: a CMS that belongs to another document. */
  wrongDigest?: boolean;
}

interface PlaceholderOptions {
  fieldName: string;
  pageIndex?: number;
  rect?: [number, number, number, number];
  existingField?: number;
  contentsSize?: number;
  /** Entries of the signature dictionary besides /ByteRange and /Contents. */
  dictHead: string;
  /** Builds the /Contents value from the SHA-256 digest of the signed ranges. */
  contents: (digest: Uint8Array) => Promise<Uint8Array>;
  docMdp?: number;
}

/**
 * Adds a signature dictionary in a new revision, the way a PAdES signer does: /Contents placeholder,
 * a widget, the field in /AcroForm, then the ByteRange and the CMS patched in.
 */
async function addSignature(
  pdf: TestPdf,
  options: PlaceholderOptions,
): Promise<{ bytes: Uint8Array; sig: number; field: number }> {
  const pageIndex = options.pageIndex ?? 0;
  const page = pdf.page(pageIndex);
  const size = options.contentsSize ?? 8192;
  const sig = pdf.alloc();
  const placeholderRange = '/ByteRange [0 0000000000 0000000000 0000000000]';
  pdf.set(sig, `<< ${options.dictHead} ${placeholderRange} /Contents <${'0'.repeat(size * 2)}> >>`);
  const rect = (options.rect ?? [72, 72, 272, 122]).join(' ');
  let field = options.existingField;
  if (field === undefined) {
    field = pdf.alloc();
    pdf.set(
      field,
      `<< /Type /Annot /Subtype /Widget /FT /Sig /T (${options.fieldName}) /V ${sig} 0 R /Rect [${rect}] ` +
        `/P ${page.num} 0 R /F 132 >>`,
    );
    pdf.addAnnot(pageIndex, field);
    pdf.addField(field);
  } else {
    pdf.set(field, pdf.get(field).body.replace(/>>\s*$/, ` /V ${sig} 0 R >>`));
  }
  pdf.setAcroFormEntry('SigFlags', '3');
  if (options.docMdp) pdf.setCatalogEntry('Perms', `<< /DocMDP ${sig} 0 R >>`);
  const bytes = pdf.commit();

  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const objAt = text.lastIndexOf(`\n${sig} 0 obj\n`);
  const contentsAt = text.indexOf('/Contents <', objAt) + '/Contents '.length;
  const gapEnd = contentsAt + size * 2 + 2;
  const range = [0, contentsAt, gapEnd, bytes.length - gapEnd];
  const rangeText = `/ByteRange [${range.join(' ')}]`.padEnd(placeholderRange.length, ' ');
  const rangeAt = text.indexOf(placeholderRange, objAt);
  bytes.set(enc(rangeText), rangeAt);
  const digest = createHash('sha256')
    .update(bytes.subarray(0, contentsAt))
    .update(bytes.subarray(gapEnd))
    .digest();
  const cms = await options.contents(new Uint8Array(digest));
  if (cms.length > size) throw new Error(`CMS of ${cms.length} bytes does not fit in ${size}`);
  bytes.set(enc(Buffer.from(cms).toString('hex').toUpperCase()), contentsAt + 1);
  pdf.bytes = bytes;
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
    'latin1',
    objAt + `\n${sig} 0 obj\n`.length,
    text.indexOf('\nendobj', objAt),
  );
  pdf.patched(sig, body);
  return { bytes, sig, field };
}

/** Signs in a new revision with a CAdES (or PKCS#7) detached CMS. */
export async function signTestPdf(
  pdf: TestPdf,
  options: SignOptions,
): Promise<{ bytes: Uint8Array; sig: number; field: number }> {
  const time = options.signingTime ?? new Date();
  const reference = options.docMdp
    ? ` /Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P ${options.docMdp} /V /1.2 >> >>]`
    : '';
  return addSignature(pdf, {
    ...options,
    dictHead:
      `/Type /Sig /Filter /Adobe.PPKLite /SubFilter /${options.subFilter ?? 'ETSI.CAdES.detached'} ` +
      `/M (${pdfDate(time)})${reference}`,
    contents: (digest) => {
      const signed = options.wrongDigest ? createHash('sha256').update('another document').digest() : digest;
      return createTestCms(options.identity, new Uint8Array(signed), time);
    },
  });
}

/** Adds a PAdES document timestamp (/DocTimeStamp, ETSI.RFC3161) from the test TSA. */
export async function timestampTestPdf(
  pdf: TestPdf,
  options: { tsa: TestIdentity; fieldName: string; time?: Date },
): Promise<{ bytes: Uint8Array; sig: number; field: number }> {
  const genTime = options.time ?? new Date();
  const key = keyHandleOf(options.tsa);
  return addSignature(pdf, {
    fieldName: options.fieldName,
    rect: [0, 0, 0, 0],
    dictHead: '/Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161',
    contents: (digest) =>
      buildTimeStampToken({
        tsa: { certificate: options.tsa.certificate, key },
        request: { hashAlgorithm: 'SHA-256', hashedMessage: digest, certReq: true },
        serialNumber: Uint8Array.of(1, 2, 3, 4),
        genTime,
        policy: '1.3.6.1.4.1.99999.1',
      }),
  });
}

function x509Certificate(der: Uint8Array): x509.X509Certificate {
  setUpCrypto();
  return new x509.X509Certificate(der);
}

export const MALLORY = 'PAY 1,000,000 TO MALLORY';

/**
 * Appends, in a new incremental update, an annotation that shows `text` on page 1: a FreeText (its
 * /Contents and its appearance) or a Stamp (its appearance only), as an attacker's editor would.
 */
export function appendAnnotation(
  bytes: Uint8Array,
  subtype: 'FreeText' | 'Stamp',
  text = MALLORY,
): Uint8Array {
  const doc = openPdf(bytes);
  const up = new IncrementalUpdate(doc);
  const page = doc.pages()[0]!;
  const font = up.allocate();
  up.set(
    font,
    new PdfDict([
      ['Type', new PdfName('Font')],
      ['Subtype', new PdfName('Type1')],
      ['BaseFont', new PdfName('Helvetica')],
    ]),
  );
  const ap = up.addStream(
    new PdfDict([
      ['Type', new PdfName('XObject')],
      ['Subtype', new PdfName('Form')],
      ['BBox', [0, 0, 300, 40]],
      ['Resources', new PdfDict([['Font', new PdfDict([['Helv', font]])]])],
    ]),
    Uint8Array.from(Buffer.from(`BT /Helv 14 Tf 4 14 Td (${text}) Tj ET`, 'latin1')),
  );
  const annot = up.allocate();
  const dict = new PdfDict([
    ['Type', new PdfName('Annot')],
    ['Subtype', new PdfName(subtype)],
    ['Rect', [100, 400, 400, 440]],
    ['F', 4],
    ['P', page.ref],
    ['AP', new PdfDict([['N', ap]])],
  ]);
  if (subtype === 'FreeText') {
    dict.set('Contents', PdfString.fromText(text));
    dict.set('DA', PdfString.fromLatin1('/Helv 14 Tf 0 g'));
  }
  up.set(annot, dict);
  const annots = page.dict.get('Annots');
  const list = doc.resolve(annots);
  const next = [...(Array.isArray(list) ? list : []), annot];
  if (annots instanceof PdfRef) up.set(annots, next);
  else up.set(page.ref, page.dict.clone().set('Annots', next));
  const added = up.build();
  const out = new Uint8Array(bytes.length + added.length);
  out.set(bytes);
  out.set(added, bytes.length);
  return out;
}
