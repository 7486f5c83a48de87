import { createHash, type Hash } from 'node:crypto';
import { copyFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { checkSigningAllowed } from '../encryption';
import { PdfError } from '../errors';
import { PdfDict, PdfName, PdfRef, PdfString } from '../objects';
import { openPdf, type PdfDocument, type PdfPage } from '../reader';
import { openFileSource, toSource, type ByteSource, type FileSource } from '../source';
import { IncrementalUpdate, latin1Bytes, serializeObject } from '../writer';
import { addEmptyForm, addImageForm, addPngImage, round } from './appearance';
import { displaySize, pageFrame, PT_PER_MM, userRect } from './geometry';
import { docMdpLevel, listFields, signedFields } from './form';
import { buildDss, type DssData } from './dss';

export interface PdfSignAppearance {
  png: Uint8Array;
  /** 1-based page number. */
  page: number;
  /** Millimetres from the page's left and top edges to the image centre, as the page is displayed. */
  x: number;
  y: number;
  /** Millimetres. */
  width: number;
  height: number;
}

export interface PdfRidingSeam {
  png: Uint8Array;
  /** 1-based page numbers; default all pages. */
  pages?: number[];
  /** Millimetres from the top edge to the seal's centre. */
  y: number;
  /** Millimetres of the whole seal. */
  width: number;
  height: number;
  edge?: 'right' | 'left';
}

export interface PdfSignOptions {
  /** Gets the SHA-256 digest of the signed byte ranges, returns a detached CMS (DER). */
  sign: (digest: Uint8Array) => Promise<Uint8Array>;
  /** Bytes reserved for the CMS; default 24 KiB. */
  contentsBytes?: number;
  subFilter?: 'ETSI.CAdES.detached' | 'adbe.pkcs7.detached';
  fieldName?: string;
  signingTime?: Date;
  reason?: string;
  location?: string;
  contactInfo?: string;
  name?: string;
  appearance?: PdfSignAppearance;
  ridingSeam?: PdfRidingSeam;
  /** DocMDP certification level; only for the file's first signature (refused otherwise). */
  certify?: 1 | 2 | 3;
  /**
   * Certify with this DocMDP level when the file holds no signature yet, else sign for approval: a
   * platform's first signature on a document certifies it, and later signers approve it.
   */
  certifyIfFirst?: 1 | 2 | 3;
  /**
   * Validation data (PAdES B-LT) written into the signed revision itself, so the signature still covers
   * the whole file. Known before signing when the signer's chain and revocation answers are at hand.
   */
  dss?: DssData;
  /**
   * Password of an encrypted document, user or owner; without it the empty user password is tried. The
   * signed revision is encrypted with the document's key.
   */
  password?: string;
}

export interface ByteSink {
  write(chunk: Uint8Array): void | Promise<void>;
  /**
   * Optional fast path for file outputs: writes the whole original itself (a kernel copy, on another
   * thread) while `hash` reads the original on this one, and refuses the result if the original changed
   * meanwhile; later write() calls append after it.
   */
  copyOriginal?(size: number, hash: () => void): Promise<void>;
  /** True when write() has consumed the chunk by the time it returns, so the buffer may be reused. */
  readonly consumesChunk?: boolean;
}

export interface PdfSignResult {
  /** The signed file, when no output sink was given. */
  bytes?: Uint8Array;
  byteRange: [number, number, number, number];
  fieldName: string;
  /** Size of the signed file. */
  size: number;
  /**
   * Lower-case hex SHA-256 of the file before and after signing, from the same pass over the bytes as
   * the byte-range digest: the original is read once, and its hash state is forked for all three.
   */
  sha256Before: string;
  sha256After: string;
}

const DEFAULT_CONTENTS = 24 * 1024;
const CHUNK = 4 * 1024 * 1024;
const BYTE_RANGE_WIDTH = 48;

export async function signPdf(
  input: ByteSource | Uint8Array,
  options: PdfSignOptions,
  output?: ByteSink,
): Promise<PdfSignResult> {
  const doc = openPdf(toSource(input), options.password ? { password: options.password } : {});
  checkSignable(doc, options);
  const update = new IncrementalUpdate(doc);
  const plan = planSignature(doc, update, { ...options, certify: certificationOf(doc, options) });
  if (options.dss) buildDss(doc, update, { ...options.dss, vri: false });
  const section = update.build();

  const body = update.bodyOffset(plan.sigRef)!;
  const relA = body + plan.contentsAt;
  const relB = relA + plan.hexLength + 2;
  const total = doc.size + section.length;
  const byteRange: [number, number, number, number] = [
    0,
    doc.size + relA,
    doc.size + relB,
    total - doc.size - relB,
  ];
  const br = `[${byteRange.join(' ')}]`;
  if (br.length > BYTE_RANGE_WIDTH) throw new PdfError('too-complex', 'the file is too large to sign');
  section.set(latin1Bytes(br.padEnd(BYTE_RANGE_WIDTH, ' ')), body + plan.byteRangeAt);

  // One pass over the original feeds one hash; its state is forked for the file before (the original
  // alone), the byte ranges (around the signature's gap) and the file after (the whole section).
  const original = createHash('sha256');
  const result = output ? undefined : new Uint8Array(total);
  await copyOriginal(doc.source, original, output, result);
  const sha256Before = original.copy().digest('hex');
  const ranges = original.copy();
  ranges.update(section.subarray(0, relA));
  ranges.update(section.subarray(relB));
  const cms = await options.sign(new Uint8Array(ranges.digest()));
  if (cms.length * 2 > plan.hexLength) {
    throw new PdfError(
      'too-complex',
      `the CMS signature is ${cms.length} bytes but only ${plan.hexLength / 2} bytes were reserved; raise contentsBytes`,
    );
  }
  section.set(latin1Bytes(Buffer.from(cms).toString('hex').toUpperCase()), relA + 1);
  const sha256After = original.update(section).digest('hex');
  if (output) await output.write(section);
  else result!.set(section, doc.size);
  const out: PdfSignResult = {
    byteRange,
    fieldName: plan.fieldName,
    size: total,
    sha256Before,
    sha256After,
  };
  if (result) out.bytes = result;
  return out;
}

/**
 * Files up to this size are signed in memory by `signPdfFile`: read in one read, written in one write.
 * Larger files stream, so memory stays at a few MB whatever their size.
 */
export const WHOLE_FILE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Signs a file into another file: a small one (WHOLE_FILE_MAX_BYTES) read whole, signed in memory and
 * written at once; a larger one streamed, so memory stays at a few MB whatever the file size.
 */
export async function signPdfFile(
  inPath: string,
  outPath: string,
  options: PdfSignOptions,
): Promise<Omit<PdfSignResult, 'bytes'>> {
  if (resolve(inPath) === resolve(outPath))
    throw new PdfError('unsupported', 'the output must be another file than the input');
  if (statSync(inPath).size > WHOLE_FILE_MAX_BYTES)
    return withFiles(inPath, outPath, (src, sink) => signPdf(src, options, sink));
  const { bytes, ...signed } = await signPdf(readFileSync(inPath), options);
  try {
    writeFileSync(outPath, bytes!);
  } catch (e) {
    rmSync(outPath, { force: true });
    throw e;
  }
  return signed;
}

export async function withFiles<T>(
  inPath: string,
  outPath: string,
  fn: (src: ByteSource, sink: ByteSink) => Promise<T>,
): Promise<T> {
  // Opening the output for writing would truncate the input before it is read.
  if (resolve(inPath) === resolve(outPath))
    throw new PdfError('unsupported', 'the output must be another file than the input');
  const src = openFileSource(inPath);
  let fd: number | undefined;
  let pos = 0;
  try {
    fd = openSync(outPath, 'w');
    const res = await fn(src, {
      consumesChunk: true,
      async copyOriginal(size, hash) {
        // The kernel copies the file (copy_file_range, or a reflink) on a thread of the pool, without
        // passing it through this process, while this thread hashes the original: one pass in time, not
        // two. What was hashed is what was copied unless the original changed meanwhile, which its size
        // and change times before and after tell (any write moves the change time).
        closeSync(fd!);
        fd = undefined;
        const before = statSync(inPath);
        const copying = copyFile(inPath, outPath);
        try {
          hash();
        } finally {
          await copying;
        }
        const after = statSync(inPath);
        fd = openSync(outPath, 'r+');
        if (
          fstatSync(fd).size !== size ||
          after.size !== size ||
          after.mtimeMs !== before.mtimeMs ||
          after.ctimeMs !== before.ctimeMs
        )
          throw new PdfError('damaged', 'the file changed while it was being signed');
        pos = size;
      },
      write(chunk) {
        for (let done = 0; done < chunk.length;) {
          const n = writeSync(fd!, chunk, done, chunk.length - done, pos);
          done += n;
          pos += n;
        }
      },
    });
    closeSync(fd);
    fd = undefined;
    return res;
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    rmSync(outPath, { force: true });
    throw e;
  } finally {
    src.close();
  }
}

/** Streams the original bytes into the hash and the sink (or the result buffer), a chunk at a time. */
export async function copyOriginal(
  source: ByteSource,
  hash: Hash | undefined,
  output: ByteSink | undefined,
  result: Uint8Array | undefined,
): Promise<void> {
  if (output?.copyOriginal && 'readInto' in source) {
    const original = source as FileSource;
    await output.copyOriginal(source.size, () => {
      if (hash) readAll(original, hash);
    });
    return;
  }
  // A file copied into a file reuses one buffer, so memory stays flat whatever the size.
  const reusable = output?.consumesChunk && 'readInto' in source ? (source as FileSource) : undefined;
  const scratch = reusable ? new Uint8Array(CHUNK) : undefined;
  for (let off = 0; off < source.size; off += CHUNK) {
    const want = Math.min(CHUNK, source.size - off);
    const chunk = reusable
      ? scratch!.subarray(0, reusable.readInto(off, scratch!.subarray(0, want)))
      : source.read(off, want);
    if (chunk.length !== want) throw new PdfError('damaged', 'the file changed while it was being signed');
    hash?.update(chunk);
    if (output) await output.write(chunk);
    else result?.set(chunk, off);
  }
}

function readAll(source: FileSource, hash: Hash): void {
  const scratch = new Uint8Array(CHUNK);
  for (let off = 0; off < source.size;) {
    const n = source.readInto(off, scratch.subarray(0, Math.min(CHUNK, source.size - off)));
    if (n <= 0) throw new PdfError('damaged', 'the file changed while it was being signed');
    hash.update(scratch.subarray(0, n));
    off += n;
  }
}

interface Plan {
  sigRef: PdfRef;
  fieldName: string;
  /** Offsets inside the signature dictionary's body. */
  byteRangeAt: number;
  contentsAt: number;
  hexLength: number;
}

/**
 * Throws unless `doc` may take another signature: its encryption and permissions allow it (see
 * checkSigningAllowed) and no certification forbids every change (DocMDP P=1). A platform checks this
 * when a file is uploaded, before anyone prepares to sign it.
 */
export function checkDocumentSignable(doc: PdfDocument, passwordGiven = false): void {
  checkSigningAllowed(doc, passwordGiven);
  if (docMdpLevel(doc) === 1) {
    throw new PdfError(
      'certified',
      'the document is certified with no changes allowed: the certifier forbade changes',
    );
  }
}

function checkSignable(doc: PdfDocument, options: PdfSignOptions): void {
  checkDocumentSignable(doc, Boolean(options.password));
  const level = docMdpLevel(doc);
  if (options.certify !== undefined) {
    if (![1, 2, 3].includes(options.certify)) throw new PdfError('unsupported', 'certify must be 1, 2 or 3');
    if (level !== undefined || signedFields(doc).length > 0) {
      throw new PdfError('unsupported', 'a certification signature must be the first signature in the file');
    }
  }
}

/** The DocMDP level this signature certifies with, if it is a certification signature. */
function certificationOf(doc: PdfDocument, options: PdfSignOptions): 1 | 2 | 3 | undefined {
  if (options.certify !== undefined) return options.certify;
  const level = options.certifyIfFirst;
  if (level === undefined) return undefined;
  if (![1, 2, 3].includes(level)) throw new PdfError('unsupported', 'certifyIfFirst must be 1, 2 or 3');
  return docMdpLevel(doc) === undefined && signedFields(doc).length === 0 ? level : undefined;
}

function pdfDate(d: Date): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return (
    `D:${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}` +
    `${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`
  );
}

function planSignature(doc: PdfDocument, update: IncrementalUpdate, options: PdfSignOptions): Plan {
  const pages = doc.pages();
  if (pages.length === 0) throw new PdfError('damaged', 'the document has no pages');

  const names = new Set(listFields(doc).map((f) => f.fullName));
  let fieldName = options.fieldName;
  if (fieldName !== undefined) {
    if (!fieldName || fieldName.includes('.'))
      throw new PdfError('unsupported', 'a field name cannot be empty or contain "."');
    if (names.has(fieldName))
      throw new PdfError('unsupported', `a field named "${fieldName}" already exists`);
  } else {
    for (let n = 1; ; n++) {
      if (!names.has(`Signature${n}`)) {
        fieldName = `Signature${n}`;
        break;
      }
    }
  }

  // The signature dictionary, written by hand so the placeholders' positions are known.
  const sigRef = update.allocate();
  const contentsBytes = Math.max(1024, Math.floor(options.contentsBytes ?? DEFAULT_CONTENTS));
  const hexLength = contentsBytes * 2;
  const head = new PdfDict([
    ['Type', new PdfName('Sig')],
    ['Filter', new PdfName('Adobe.PPKLite')],
    ['SubFilter', new PdfName(options.subFilter ?? 'ETSI.CAdES.detached')],
  ]);
  const tail = new PdfDict([['M', PdfString.fromLatin1(pdfDate(options.signingTime ?? new Date()))]]);
  if (options.name) tail.set('Name', PdfString.fromText(options.name));
  if (options.reason) tail.set('Reason', PdfString.fromText(options.reason));
  if (options.location) tail.set('Location', PdfString.fromText(options.location));
  if (options.contactInfo) tail.set('ContactInfo', PdfString.fromText(options.contactInfo));
  if (options.certify) {
    tail.set('Reference', [
      new PdfDict([
        ['Type', new PdfName('SigRef')],
        ['TransformMethod', new PdfName('DocMDP')],
        [
          'TransformParams',
          new PdfDict([
            ['Type', new PdfName('TransformParams')],
            ['P', options.certify],
            ['V', new PdfName('1.2')],
          ]),
        ],
      ]),
    ]);
  }
  tail.set('Prop_Build', new PdfDict([['App', new PdfDict([['Name', new PdfName('OpenSeal')]])]]));
  const headText = latin1Of(serializeObject(head)).slice(0, -2);
  // Strings of the signature dictionary are encrypted like any other; /Contents never is.
  const tailText = latin1Of(update.serialize(sigRef, tail)).slice(2);
  const byteRangeKey = '/ByteRange ';
  const byteRangeAt = headText.length + byteRangeKey.length;
  const contentsKey = ' /Contents ';
  const contentsAt = byteRangeAt + BYTE_RANGE_WIDTH + contentsKey.length;
  const sigBody =
    headText +
    byteRangeKey +
    `[0 0 0 0]`.padEnd(BYTE_RANGE_WIDTH, ' ') +
    contentsKey +
    '<' +
    '0'.repeat(hexLength) +
    '>' +
    tailText;
  update.setRaw(sigRef, latin1Bytes(sigBody));

  // The field, merged with its widget; with a riding seam, a field of its own with one widget per page.
  const seam = options.ridingSeam;
  const fieldRef = update.allocate();
  const widgets: Array<{ ref: PdfRef; page: PdfPage }> = [];
  const field = new PdfDict([
    ['FT', new PdfName('Sig')],
    ['T', PdfString.fromText(fieldName!)],
    ['V', sigRef],
  ]);
  // The seam's widgets are found through the field's /Kids and carry no /Parent: poppler (pdfsig)
  // reads a kid with /Parent as a field of its own, without the signature value, and would report
  // each strip as an unsigned signature.
  const widgetOf = (page: PdfPage, rect: number[], form: PdfRef): PdfDict =>
    new PdfDict([
      ['Type', new PdfName('Annot')],
      ['Subtype', new PdfName('Widget')],
      ['Rect', rect],
      ['F', 132],
      ['P', page.ref],
      ['AP', new PdfDict([['N', form]])],
    ]);
  const app = options.appearance;
  if (app) {
    const sigPage = pageAt(pages, app.page);
    const frame = pageFrame(sigPage);
    const w = app.width * PT_PER_MM;
    const h = app.height * PT_PER_MM;
    checkSize(app.width, app.height);
    const img = addPngImage(update, app.png);
    const rect = userRect(frame, app.x * PT_PER_MM, app.y * PT_PER_MM, w, h).map(round);
    const widget = widgetOf(sigPage, rect, addImageForm(update, img, w, h, frame.rotate));
    widgets.push({ ref: seam ? update.allocate() : fieldRef, page: sigPage });
    update.set(widgets[0]!.ref, seam ? widget : mergeField(field, widget));
  } else if (!seam) {
    const sigPage = pages[0]!;
    update.set(fieldRef, mergeField(field, widgetOf(sigPage, [0, 0, 0, 0], addEmptyForm(update))));
    widgets.push({ ref: fieldRef, page: sigPage });
  }

  // Riding seam: one signature whose field has a widget on each page showing that page's strip of the
  // seal. Widgets of the signature field, not free stamps: a certification (DocMDP P=2) permits later
  // signers to add signature fields and their widgets, and a verifier counts them as the signature's.
  if (seam) {
    checkSize(seam.width, seam.height);
    const seamPages = (seam.pages ?? pages.map((_, i) => i + 1)).map((n) => pageAt(pages, n));
    const img = addPngImage(update, seam.png);
    const n = seamPages.length;
    const fullW = seam.width * PT_PER_MM;
    const h = seam.height * PT_PER_MM;
    const stripW = fullW / n;
    seamPages.forEach((page, i) => {
      const frame = pageFrame(page);
      const [dw] = displaySize(frame);
      const strip = seam.edge === 'left' ? n - 1 - i : i;
      const cu = seam.edge === 'left' ? stripW / 2 : dw - stripW / 2;
      const form = addImageForm(update, img, stripW, h, frame.rotate, fullW, strip * stripW);
      const ref = update.allocate();
      update.set(ref, widgetOf(page, userRect(frame, cu, seam.y * PT_PER_MM, stripW, h).map(round), form));
      widgets.push({ ref, page });
    });
    field.set(
      'Kids',
      widgets.map((w) => w.ref),
    );
    update.set(fieldRef, field);
  }

  for (const [pageRef, refs] of groupByPage(widgets)) addAnnots(doc, update, pageRef, refs);
  addField(doc, update, fieldRef, options.certify ? sigRef : undefined);
  return { sigRef, fieldName: fieldName!, byteRangeAt, contentsAt, hexLength };
}

/** A field merged with its only widget (one dictionary, as most signers write it): Type, Subtype, the field, the rest. */
function mergeField(field: PdfDict, widget: PdfDict): PdfDict {
  const merged = new PdfDict([
    ['Type', widget.get('Type')!],
    ['Subtype', widget.get('Subtype')!],
  ]);
  for (const [k, v] of field.map) merged.set(k, v);
  for (const [k, v] of widget.map) if (!merged.has(k)) merged.set(k, v);
  return merged;
}

function checkSize(w: number, h: number): void {
  if (!(w > 0 && h > 0 && Number.isFinite(w) && Number.isFinite(h))) {
    throw new PdfError('unsupported', 'the seal width and height must be positive numbers of millimetres');
  }
}

function pageAt(pages: PdfPage[], n: number): PdfPage {
  const p = Number.isInteger(n) ? pages[n - 1] : undefined;
  if (!p)
    throw new PdfError('page-out-of-range', `page ${n} does not exist (the document has ${pages.length})`);
  return p;
}

function groupByPage(items: Array<{ ref: PdfRef; page: PdfPage }>): Map<PdfRef, PdfRef[]> {
  const byKey = new Map<string, { page: PdfRef; refs: PdfRef[] }>();
  for (const it of items) {
    const k = it.page.ref.key();
    const g = byKey.get(k) ?? { page: it.page.ref, refs: [] };
    g.refs.push(it.ref);
    byKey.set(k, g);
  }
  return new Map([...byKey.values()].map((g) => [g.page, g.refs]));
}

/** Adds annotations to a page: through the indirect /Annots array when there is one, else via the page. */
function addAnnots(doc: PdfDocument, update: IncrementalUpdate, pageRef: PdfRef, refs: PdfRef[]): void {
  const page = (update.pending(pageRef) as PdfDict | undefined) ?? doc.resolveDict(pageRef);
  if (!page) throw new PdfError('damaged', 'a page object is missing');
  const annots = page.get('Annots');
  if (annots instanceof PdfRef) {
    const arr = update.pending(annots) ?? doc.resolve(annots);
    if (Array.isArray(arr)) {
      update.set(annots, [...arr, ...refs]);
      return;
    }
  }
  const copy = page.clone();
  const current = doc.resolve(annots);
  copy.set('Annots', [...(Array.isArray(current) ? current : []), ...refs]);
  update.set(pageRef, copy);
}

/** Adds the field to /AcroForm /Fields (creating the form when absent) and sets /SigFlags 3. */
function addField(doc: PdfDocument, update: IncrementalUpdate, field: PdfRef, certifiedBy?: PdfRef): void {
  const rootRef = doc.trailer().get('Root');
  if (!(rootRef instanceof PdfRef)) throw new PdfError('damaged', 'the trailer /Root is not a reference');
  let catalog: PdfDict | undefined;
  const editCatalog = (): PdfDict => (catalog ??= doc.catalog().clone());

  const acroObj = doc.catalog().get('AcroForm');
  const acroRef = acroObj instanceof PdfRef ? acroObj : undefined;
  const acro = doc.resolveDict(acroObj)?.clone() ?? new PdfDict();
  const fields = acro.get('Fields');
  const fieldsArr = doc.resolve(fields);
  if (fields instanceof PdfRef && Array.isArray(fieldsArr)) {
    update.set(fields, [...fieldsArr, field]);
  } else {
    acro.set('Fields', [...(Array.isArray(fieldsArr) ? fieldsArr : []), field]);
  }
  acro.set('SigFlags', 3);
  if (acroRef && doc.resolveDict(acroRef)) update.set(acroRef, acro);
  else {
    const ref = update.allocate();
    update.set(ref, acro);
    editCatalog().set('AcroForm', ref);
  }

  if (certifiedBy) {
    const perms = doc.resolveDict(doc.catalog().get('Perms'))?.clone() ?? new PdfDict();
    perms.set('DocMDP', certifiedBy);
    editCatalog().set('Perms', perms);
  }
  if (catalog) update.set(rootRef, catalog);
}

function latin1Of(b: Uint8Array): string {
  let s = '';
  for (const c of b) s += String.fromCharCode(c);
  return s;
}
