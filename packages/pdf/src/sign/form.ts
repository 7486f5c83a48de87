import type { PdfDict } from '../objects';
import { PdfRef, PdfString, type PdfObject } from '../objects';
import type { PdfDocument } from '../reader';

export interface FieldInfo {
  ref?: PdfRef;
  dict: PdfDict;
  fullName: string;
  type?: string;
}

/** Every field of the AcroForm, with inherited /FT and full dotted names. Cycle-safe. */
export function listFields(doc: PdfDocument): FieldInfo[] {
  const out: FieldInfo[] = [];
  const acro = doc.resolveDict(doc.catalog().get('AcroForm'));
  if (!acro) return out;
  const seen = new Set<string>();
  const walk = (obj: PdfObject, parentName: string, parentType: string | undefined, depth: number): void => {
    if (depth > doc.limits.maxDepth) return;
    if (obj instanceof PdfRef) {
      if (seen.has(obj.key())) return;
      seen.add(obj.key());
    }
    const dict = doc.resolveDict(obj);
    if (!dict) return;
    const t = doc.resolve(dict.get('T'));
    const partial = t instanceof PdfString ? t.text() : undefined;
    const fullName = partial === undefined ? parentName : parentName ? `${parentName}.${partial}` : partial;
    const type = dict.getName('FT') ?? parentType;
    const info: FieldInfo = { dict, fullName };
    if (obj instanceof PdfRef) info.ref = obj;
    if (type) info.type = type;
    if (partial !== undefined) out.push(info);
    const kids = doc.resolve(dict.get('Kids'));
    if (Array.isArray(kids)) for (const k of kids) walk(k, fullName, type, depth + 1);
  };
  const fields = doc.resolve(acro.get('Fields'));
  if (Array.isArray(fields)) for (const f of fields) walk(f, '', undefined, 0);
  return out;
}

/** Signature fields that hold a signature value. */
export function signedFields(doc: PdfDocument): Array<FieldInfo & { value: PdfDict }> {
  const out: Array<FieldInfo & { value: PdfDict }> = [];
  for (const f of listFields(doc)) {
    if (f.type !== 'Sig') continue;
    const v = doc.resolveDict(f.dict.get('V'));
    if (v && v.get('Contents') instanceof PdfString) out.push({ ...f, value: v });
  }
  return out;
}

/** The DocMDP permission level of an existing certification signature, if the file has one. */
export function docMdpLevel(doc: PdfDocument): number | undefined {
  const perms = doc.resolveDict(doc.catalog().get('Perms'));
  const sig = doc.resolveDict(perms?.get('DocMDP'));
  if (!sig) return undefined;
  const refs = doc.resolve(sig.get('Reference'));
  if (Array.isArray(refs)) {
    for (const r of refs) {
      const d = doc.resolveDict(r);
      if (d?.getName('TransformMethod') !== 'DocMDP') continue;
      const p = doc.resolve(doc.resolveDict(d.get('TransformParams'))?.get('P'));
      return typeof p === 'number' ? p : 2;
    }
  }
  return 2;
}
