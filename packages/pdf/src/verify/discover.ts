import { PdfError } from '../errors';
import { PdfDict, PdfRef, type PdfObject } from '../objects';
import type { PdfDocument } from '../reader';
import { arrayOf, asName, asNumber, asText, canonical, dictOf } from './values';

/** A terminal signature field as one revision's AcroForm shows it. */
export interface SignatureField {
  name: string;
  ref: PdfRef | undefined;
  /** The /V value as written: a reference to the signature dictionary, an inline one, or nothing. */
  value: PdfObject | undefined;
  widgets: PdfRef[];
  revision: number;
}

/** One version of a signature dictionary found in the file. */
export interface FoundSignature {
  ref: PdfRef | undefined;
  /** The revision whose cross-reference section first gives this version. */
  definedIn: number;
  dict: PdfDict;
  /** File offset of the object holding the dictionary, when stored uncompressed. */
  offset: number | undefined;
  compressed: boolean;
  field: SignatureField | undefined;
}

export interface Discovery {
  signatures: FoundSignature[];
  /** Names of signature fields without a value in the latest revision. */
  unsignedFields: string[];
  warnings: string[];
}

const MAX_FIELD_DEPTH = 32;
const MAX_FIELDS = 100_000;

export function isSignatureDictionary(dict: PdfDict): boolean {
  const type = dict.getName('Type');
  if (type === 'Sig' || type === 'DocTimeStamp') return dict.has('ByteRange') || dict.has('Contents');
  return dict.has('ByteRange') && dict.has('Contents') && dict.has('Filter');
}

/**
 * Walks one revision's AcroForm field tree and returns its signature fields (terminal fields whose
 * inherited /FT is /Sig) with fully qualified names.
 */
export function signatureFields(doc: PdfDocument, revision: number): SignatureField[] {
  const out: SignatureField[] = [];
  const acroForm = dictOf(doc, doc.catalog(revision).get('AcroForm'), revision);
  if (!acroForm) return out;
  const seen = new Set<string>();
  let count = 0;
  const walk = (
    node: PdfObject,
    parentName: string,
    inheritedFt: string | undefined,
    depth: number,
  ): void => {
    if (depth > MAX_FIELD_DEPTH || ++count > MAX_FIELDS) return;
    const ref = node instanceof PdfRef ? node : undefined;
    if (ref) {
      if (seen.has(ref.key())) return;
      seen.add(ref.key());
    }
    const dict = dictOf(doc, node, revision);
    if (!dict) return;
    const partial = asText(doc.resolve(dict.get('T'), revision));
    const name = partial === undefined ? parentName : parentName ? `${parentName}.${partial}` : partial;
    const ft = asName(doc.resolve(dict.get('FT'), revision)) ?? inheritedFt;
    const kids = arrayOf(doc, dict.get('Kids'), revision);
    // Kids that carry a /T are fields; kids without one are this field's widgets.
    const childFields = kids.filter((k) => dictOf(doc, k, revision)?.has('T'));
    if (childFields.length > 0) {
      for (const kid of childFields) walk(kid, name, ft, depth + 1);
      return;
    }
    if (ft !== 'Sig') return;
    const widgets: PdfRef[] = kids.filter((k): k is PdfRef => k instanceof PdfRef);
    if (widgets.length === 0 && ref && dict.getName('Subtype') === 'Widget') widgets.push(ref);
    if (widgets.length === 0 && ref && dict.has('Rect')) widgets.push(ref);
    out.push({ name: name || '(unnamed)', ref, value: dict.get('V'), widgets, revision });
  };
  for (const field of arrayOf(doc, acroForm.get('Fields'), revision)) walk(field, '', undefined, 0);
  return out;
}

function versionKey(ref: PdfRef | undefined, dict: PdfDict): string {
  return `${ref?.key() ?? 'inline'}|${canonical(dict)}`;
}

/**
 * Finds every signature dictionary in every revision: through the field trees of all revisions
 * (the latest naming wins) and by looking at every object each cross-reference section defines, so
 * that a signature whose field was later removed or hidden is still found.
 */
export function discoverSignatures(doc: PdfDocument): Discovery {
  const warnings: string[] = [];
  const last = doc.revisions.length - 1;
  const fieldBySig = new Map<string, SignatureField>();
  const found = new Map<string, FoundSignature>();
  let unsignedFields: string[] = [];

  for (let r = last; r >= 0; r--) {
    let fields: SignatureField[];
    try {
      fields = signatureFields(doc, r);
    } catch (e) {
      if (e instanceof PdfError && (e.code === 'timeout' || e.code === 'too-complex')) throw e;
      warnings.push(`the form fields of revision ${r} could not be read`);
      continue;
    }
    if (r === last) {
      unsignedFields = fields.filter((f) => doc.resolve(f.value, r) === null).map((f) => f.name);
    }
    for (const field of fields) {
      if (field.value instanceof PdfRef) {
        if (!fieldBySig.has(field.value.key())) fieldBySig.set(field.value.key(), field);
        continue;
      }
      // An inline signature dictionary: its bytes are the field object's.
      if (field.value instanceof PdfDict && isSignatureDictionary(field.value)) {
        const key = versionKey(undefined, field.value);
        if (found.has(key)) continue;
        const entry = field.ref ? doc.entry(field.ref.num, r) : undefined;
        found.set(key, {
          ref: undefined,
          definedIn: r,
          dict: field.value,
          offset: entry?.type === 'offset' ? entry.offset : undefined,
          compressed: entry?.type === 'compressed',
          field,
        });
      }
    }
  }

  let unreadable = 0;
  let usageRights = 0;
  for (let r = 0; r <= last; r++) {
    const revision = doc.revisions[r]!;
    for (const [num, entry] of revision.entries) {
      if (entry.type === 'free' || num <= 0) continue;
      const ref = new PdfRef(num, entry.type === 'compressed' ? 0 : entry.gen);
      let obj: PdfObject;
      try {
        obj = doc.lookup(ref, r);
      } catch (e) {
        if (e instanceof PdfError && (e.code === 'timeout' || e.code === 'too-complex')) throw e;
        unreadable++;
        continue;
      }
      if (!(obj instanceof PdfDict) || !isSignatureDictionary(obj)) continue;
      if (!fieldBySig.has(ref.key()) && isUsageRightsSignature(doc, obj, r)) {
        usageRights++;
        continue;
      }
      const key = versionKey(ref, obj);
      if (found.has(key)) continue;
      found.set(key, {
        ref,
        definedIn: r,
        dict: obj,
        offset: entry.type === 'offset' ? entry.offset : undefined,
        compressed: entry.type === 'compressed',
        field: fieldBySig.get(ref.key()),
      });
    }
  }
  if (usageRights > 0) {
    warnings.push(
      `${usageRights} usage-rights (UR3) signature(s) ignored: they enable viewer features, they do not sign`,
    );
  }
  if (unreadable > 0) warnings.push(`${unreadable} object(s) could not be read while looking for signatures`);

  const signatures = [...found.values()].sort(
    (a, b) => signedEnd(a) - signedEnd(b) || (a.offset ?? 0) - (b.offset ?? 0),
  );
  return { signatures, unsignedFields, warnings };
}

/** Where a signature's ByteRange ends, for ordering; signatures without one sort last. */
export function signedEnd(sig: FoundSignature): number {
  const br = sig.dict.get('ByteRange');
  if (!Array.isArray(br) || br.length < 4) return Number.MAX_SAFE_INTEGER;
  const c = asNumber(br[2]);
  const d = asNumber(br[3]);
  return c === undefined || d === undefined ? Number.MAX_SAFE_INTEGER : c + d;
}

/** A signature that unlocks viewer features (/Perms /UR3), not one over the document's content. */
export function isUsageRightsSignature(doc: PdfDocument, dict: PdfDict, revision: number): boolean {
  return arrayOf(doc, dict.get('Reference'), revision).some((item) => {
    const method = asName(doc.resolve(dictOf(doc, item, revision)?.get('TransformMethod'), revision));
    return method === 'UR' || method === 'UR3';
  });
}

/** The DocMDP permission a signature dictionary declares through its /Reference, if any. */
export function docMdpOf(doc: PdfDocument, dict: PdfDict, revision: number): 1 | 2 | 3 | undefined {
  for (const item of arrayOf(doc, dict.get('Reference'), revision)) {
    const ref = dictOf(doc, item, revision);
    if (!ref || asName(doc.resolve(ref.get('TransformMethod'), revision)) !== 'DocMDP') continue;
    const params = dictOf(doc, ref.get('TransformParams'), revision);
    const p = asNumber(doc.resolve(params?.get('P'), revision));
    return p === 1 || p === 3 ? p : 2;
  }
  return undefined;
}

/** Object keys of the signature dictionaries that some revision's catalog names in /Perms /DocMDP. */
export function certificationRefs(doc: PdfDocument): Set<string> {
  const out = new Set<string>();
  for (let r = 0; r < doc.revisions.length; r++) {
    try {
      const perms = dictOf(doc, doc.catalog(r).get('Perms'), r);
      const ref = perms?.get('DocMDP');
      if (ref instanceof PdfRef) out.add(ref.key());
    } catch {
      // A revision without a readable catalog names no certification.
    }
  }
  return out;
}
