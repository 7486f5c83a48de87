import { OfdError } from './errors';
import { findSealPicture, type SealPicture } from './seal-picture';
import { attr, child, children, childText, numbers, parseXml, XmlBudget, type XmlElement } from './xml';
import { dirOf, resolveLoc, ZipPackage, type OfdLimits } from './zip-package';

/** A rectangle in millimetres, as OFD writes boxes: left, top, width, height. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface OfdPageInfo {
  /** 0-based position in the document. */
  index: number;
  /** The page's ID in Document.xml (stamps and annotations name pages by it). */
  id: string;
  /** The physical box of the page. */
  box: Box;
  widthMm: number;
  heightMm: number;
}

export interface OfdStamp {
  pageIndex: number;
  boundary: Box;
  /** The part of the seal picture shown on this page (riding seams), in the stamp's own coordinates. */
  clip?: Box;
}

/** A signature of the document as it describes itself (`verifySignatures` checks it). */
export interface OfdSignatureInfo {
  id: string;
  /** `Seal` (an electronic seal with a picture) or `Sign` (a digital signature without one). */
  type: string;
  provider?: string;
  company?: string;
  /** The algorithm's OID, e.g. 1.2.156.10197.1.501 for SM2 with SM3. */
  method?: string;
  dateTime?: string;
  stamps: OfdStamp[];
  picture?: SealPicture;
  /** Package paths of the signature's parts. */
  files: { list: string; signature: string; signedValue?: string; seal?: string };
  /** The parts the signature covers, each with its digest as the signature recorded it. */
  references: { checkMethod?: string; items: { file: string; checkValue: string }[] };
}

/** One resource file's entries and the folder its files live in. */
export interface Resource {
  el: XmlElement;
  /** Folder that the resource's own file names (MediaFile, FontFile) are relative to. */
  base: string;
}

interface PagePart {
  info: OfdPageInfo;
  root: XmlElement;
  path: string;
  resources: Map<string, Resource>;
}

export interface OfdMeta {
  version?: string;
  docId?: string;
  title?: string;
  creator?: string;
  creationDate?: string;
}

const RESOURCE_KINDS: Record<string, string> = {
  ColorSpaces: 'ColorSpace',
  DrawParams: 'DrawParam',
  Fonts: 'Font',
  MultiMedias: 'MultiMedia',
  CompositeGraphicUnits: 'CompositeGraphicUnit',
};

/** The first document of an OFD package: its pages, resources, templates, annotations and signatures. */
export class OfdPackageDocument {
  readonly meta: OfdMeta;
  readonly pages: OfdPageInfo[];
  readonly signatures: OfdSignatureInfo[];
  /** Parts the document names but the package lacks (drawn without them). */
  readonly warnings: string[];
  /** @internal */ readonly parts: PagePart[];
  /** @internal */ readonly templates: Map<string, { root: XmlElement; path: string }>;
  /** @internal */ readonly annotations: Map<string, { root: XmlElement; path: string }[]>;

  /** @internal */
  constructor(
    readonly pkg: ZipPackage,
    fields: {
      meta: OfdMeta;
      parts: PagePart[];
      templates: Map<string, { root: XmlElement; path: string }>;
      annotations: Map<string, { root: XmlElement; path: string }[]>;
      signatures: OfdSignatureInfo[];
      warnings: string[];
    },
  ) {
    this.warnings = fields.warnings;
    this.meta = fields.meta;
    this.parts = fields.parts;
    this.pages = fields.parts.map((p) => p.info);
    this.templates = fields.templates;
    this.annotations = fields.annotations;
    this.signatures = fields.signatures;
  }
}

export function parseBox(text: string | undefined): Box | undefined {
  const n = numbers(text);
  if (n.length < 4) return undefined;
  const [x, y, w, h] = n as [number, number, number, number];
  if (!(w > 0 && h > 0)) return undefined;
  return { x, y, w, h };
}

/** A package being read: its parts, and what its XML parts may still hold together. */
interface Reading {
  pkg: ZipPackage;
  budget: XmlBudget;
}

function partXml(r: Reading, path: string, reason: 'noDocument' | 'missingPart' = 'missingPart') {
  const bytes = r.pkg.get(path);
  if (!bytes) throw new OfdError(reason, `missing part ${path}`);
  return parseXml(bytes, path, r.budget);
}

/**
 * Adds the entries of one resource file (PublicRes, DocumentRes or a page's PageRes) to `into`. Producers
 * do name resource files they never wrote; such a file is noted and skipped, as viewers do: the pages
 * still draw, without what it would have held.
 */
function loadResources(r: Reading, path: string, into: Map<string, Resource>, warnings: string[]): void {
  if (!r.pkg.has(path)) {
    warnings.push(`missing resource file ${path}`);
    return;
  }
  const root = partXml(r, path);
  const base = resolveLoc(dirOf(path), attr(root, 'BaseLoc') ?? '');
  for (const group of children(root)) {
    const kind = RESOURCE_KINDS[group.localName ?? ''];
    if (!kind) continue;
    for (const el of children(group, kind)) {
      const id = attr(el, 'ID');
      if (id) into.set(id, { el, base });
    }
  }
}

/**
 * Opens a package and reads its structure; throws `OfdError` when it is not an OFD or its structure is
 * broken (missing document, pages, or parts that the document names).
 */
export function readOfdPackage(bytes: Uint8Array, limits?: OfdLimits): OfdPackageDocument {
  const pkg = ZipPackage.open(bytes, limits);
  const r: Reading = { pkg, budget: new XmlBudget(limits?.xml) };
  const ofdXml = pkg.get('OFD.xml');
  if (!ofdXml) throw new OfdError('noOfdXml', 'no OFD.xml at the root of the package');
  const ofd = parseXml(ofdXml, 'OFD.xml', r.budget);
  if (ofd.localName !== 'OFD') throw new OfdError('badXml', `OFD.xml has root ${ofd.nodeName}`);
  const body = child(ofd, 'DocBody');
  const docRoot = childText(body, 'DocRoot');
  if (!body || !docRoot) throw new OfdError('noDocument', 'OFD.xml names no document (DocBody/DocRoot)');
  const info = child(body, 'DocInfo');
  const meta: OfdMeta = {
    version: attr(ofd, 'Version'),
    docId: childText(info, 'DocID'),
    title: childText(info, 'Title'),
    creator: childText(info, 'Creator'),
    creationDate: childText(info, 'CreationDate'),
  };

  const docPath = resolveLoc('', docRoot);
  const doc = partXml(r, docPath, 'noDocument');
  if (doc.localName !== 'Document') throw new OfdError('noDocument', `${docPath} is not a Document`);
  const docDir = dirOf(docPath);
  const common = child(doc, 'CommonData');
  const defaultBox = parseBox(childText(child(common, 'PageArea'), 'PhysicalBox')) ?? {
    x: 0,
    y: 0,
    w: 210,
    h: 297,
  };

  const warnings: string[] = [];
  const shared = new Map<string, Resource>();
  for (const kind of ['PublicRes', 'DocumentRes'])
    for (const el of children(common, kind)) {
      const loc = el.textContent?.trim();
      if (loc) loadResources(r, resolveLoc(docDir, loc), shared, warnings);
    }

  const templates = new Map<string, { root: XmlElement; path: string }>();
  for (const el of children(common, 'TemplatePage')) {
    const id = attr(el, 'ID');
    const loc = attr(el, 'BaseLoc');
    if (!id || !loc) continue;
    const path = resolveLoc(docDir, loc);
    if (pkg.has(path)) templates.set(id, { root: partXml(r, path), path });
    else warnings.push(`missing template ${path}`);
  }

  const pageEls = children(child(doc, 'Pages'), 'Page');
  if (pageEls.length === 0) throw new OfdError('noPages', 'the document has no pages');
  const parts: PagePart[] = pageEls.map((el, index) => {
    const loc = attr(el, 'BaseLoc');
    if (!loc) throw new OfdError('badPage', `page ${index + 1} has no BaseLoc`);
    const path = resolveLoc(docDir, loc);
    const root = partXml(r, path);
    if (root.localName !== 'Page') throw new OfdError('badPage', `${path} is not a Page`);
    const resources = new Map(shared);
    for (const res of children(root, 'PageRes')) {
      const resLoc = res.textContent?.trim();
      if (resLoc) loadResources(r, resolveLoc(dirOf(path), resLoc), resources, warnings);
    }
    const box = parseBox(childText(child(root, 'Area'), 'PhysicalBox')) ?? defaultBox;
    return {
      info: { index, id: attr(el, 'ID') ?? String(index + 1), box, widthMm: box.w, heightMm: box.h },
      root,
      path,
      resources,
    };
  });

  const annotations = new Map<string, { root: XmlElement; path: string }[]>();
  const annotsLoc = childText(doc, 'Annotations');
  const annotsPath = annotsLoc ? resolveLoc(docDir, annotsLoc) : undefined;
  if (annotsPath && !pkg.has(annotsPath)) warnings.push(`missing annotations ${annotsPath}`);
  else if (annotsPath) {
    const annots = partXml(r, annotsPath);
    for (const page of children(annots, 'Page')) {
      const pageId = attr(page, 'PageID');
      const fileLoc = childText(page, 'FileLoc');
      if (!pageId || !fileLoc) continue;
      const path = resolveLoc(dirOf(annotsPath), fileLoc);
      if (!pkg.has(path)) {
        warnings.push(`missing annotations ${path}`);
        continue;
      }
      const list = annotations.get(pageId) ?? [];
      list.push({ root: partXml(r, path), path });
      annotations.set(pageId, list);
    }
  }

  const pageIndexById = new Map(parts.map((p) => [p.info.id, p.info.index]));
  const signatures = readSignatures(r, childText(body, 'Signatures'), pageIndexById);
  return new OfdPackageDocument(pkg, { meta, parts, templates, annotations, signatures, warnings });
}

/**
 * The document's signatures as it lists them (OFD.xml DocBody/Signatures → Signatures.xml → each
 * Signature.xml). A signature part that cannot be read is left out rather than failing the document:
 * what a viewer needs is the pages.
 */
function readSignatures(
  r: Reading,
  loc: string | undefined,
  pageIndexById: Map<string, number>,
): OfdSignatureInfo[] {
  if (!loc) return [];
  const { pkg } = r;
  const listPath = resolveLoc('', loc);
  const bytes = pkg.tryGet(listPath);
  if (!bytes) return [];
  const out: OfdSignatureInfo[] = [];
  let list: XmlElement;
  try {
    list = parseXml(bytes, listPath, r.budget);
  } catch (err) {
    // A signature list that cannot be read leaves the document unsigned; one over the limits fails it.
    if (err instanceof OfdError && err.reason === 'tooComplex') throw err;
    return [];
  }
  for (const entry of children(list, 'Signature')) {
    const baseLoc = attr(entry, 'BaseLoc');
    if (!baseLoc) continue;
    const path = resolveLoc(dirOf(listPath), baseLoc);
    const sigBytes = pkg.tryGet(path);
    if (!sigBytes) continue;
    let sig: XmlElement;
    try {
      sig = parseXml(sigBytes, path, r.budget);
    } catch (err) {
      if (err instanceof OfdError && err.reason === 'tooComplex') throw err;
      continue;
    }
    const signed = child(sig, 'SignedInfo');
    const provider = child(signed, 'Provider');
    const stamps: OfdStamp[] = [];
    for (const s of children(signed, 'StampAnnot')) {
      const pageIndex = pageIndexById.get(attr(s, 'PageRef') ?? '');
      const boundary = parseBox(attr(s, 'Boundary'));
      if (pageIndex === undefined || !boundary) continue;
      stamps.push({ pageIndex, boundary, clip: parseBox(attr(s, 'Clip')) });
    }
    const valueLoc = childText(sig, 'SignedValue');
    const sealLoc = childText(child(signed, 'Seal'), 'BaseLoc');
    const valuePath = valueLoc ? resolveLoc(dirOf(path), valueLoc) : undefined;
    const sealPath = sealLoc ? resolveLoc(dirOf(path), sealLoc) : undefined;
    const sources = [valuePath, sealPath]
      .filter((l): l is string => !!l)
      .map((l) => pkg.tryGet(l))
      .filter((b): b is Uint8Array => !!b);
    const refs = child(signed, 'References');
    let picture: SealPicture | undefined;
    for (const der of sources) {
      picture = findSealPicture(der);
      if (picture) break;
    }
    out.push({
      id: attr(entry, 'ID') ?? String(out.length + 1),
      type: attr(entry, 'Type') ?? 'Seal',
      provider: attr(provider, 'ProviderName'),
      company: attr(provider, 'Company'),
      method: childText(signed, 'SignatureMethod'),
      dateTime: childText(signed, 'SignatureDateTime'),
      stamps,
      picture,
      files: { list: listPath, signature: path, signedValue: valuePath, seal: sealPath },
      references: {
        checkMethod: attr(refs, 'CheckMethod'),
        items: children(refs, 'Reference').map((r) => ({
          // FileRef is absolute from the package root (or, as some writers put it, relative to it).
          file: resolveLoc('', attr(r, 'FileRef') ?? ''),
          checkValue: (childText(r, 'CheckValue') ?? '').replace(/\s+/g, ''),
        })),
      },
    });
  }
  return out;
}
