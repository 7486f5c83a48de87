import { PdfError } from '../errors';
import { PdfDict, PdfRef, PdfStream, type PdfObject } from '../objects';
import type { PdfDocument } from '../reader';
import { isSignatureDictionary } from './discover';
import { PAGE_CONTENT_KEYS, type FieldState, type RevisionModel, type Role } from './model';
import type { ChangeKind, SignatureChange } from './types';
import { canonical, dictOf, sameObject } from './values';

export type DocMdp = 1 | 2 | 3 | undefined;

/**
 * What a change needs to be permitted (ISO 32000-2 §12.8.2.2, Table 257; PAdES LTV additions are
 * allowed at every level).
 */
type Rule =
  'new-signature' | 'new-doc-timestamp' | 'form-fill' | 'new-field' | 'annotation' | 'always' | 'never';

export function isAllowed(rule: Rule, mdp: DocMdp): boolean {
  switch (rule) {
    case 'always':
    case 'new-doc-timestamp':
      return true;
    case 'new-signature':
    case 'form-fill':
      return mdp !== 1;
    case 'new-field':
      return mdp === undefined;
    case 'annotation':
      return mdp === undefined || mdp === 3;
    case 'never':
      return false;
  }
}

const FORM_FILL_FIELD_KEYS = new Set(['AP', 'AS', 'MK', 'DA', 'Q', 'RV', 'DS', 'Ff', 'NeedAppearances']);
const SIGNING_FIELD_KEYS = new Set(['AP', 'AS', 'MK', 'F', 'DA', 'Ff', 'Lock', 'SV', 'P']);
const WIDGET_FILL_KEYS = new Set(['AP', 'AS', 'MK']);
const FORM_KEYS = new Set(['DR', 'DA', 'NeedAppearances', 'XFA', 'CO', 'Q']);
const MAX_DETAILS_PER_KIND = 12;

class ChangeList {
  readonly items: SignatureChange[] = [];
  private readonly seen = new Set<string>();
  private readonly counts = new Map<string, number>();
  private readonly overflow = new Map<string, SignatureChange>();

  private readonly unreferencedCounts = new Map<string, number>();

  constructor(
    readonly revision: number,
    readonly mdp: DocMdp,
    /** Whether this revision signs or timestamps: form resources it touches serve the new appearance. */
    public signing = false,
  ) {}

  /** Objects no revision refers to cannot change what a reader sees; they are counted, not listed. */
  unreferenced(verb: string): void {
    this.unreferencedCounts.set(verb, (this.unreferencedCounts.get(verb) ?? 0) + 1);
  }

  finish(): SignatureChange[] {
    for (const [verb, n] of this.unreferencedCounts) {
      this.items.push({
        revision: this.revision,
        kind: 'other',
        detail: `${n} unreferenced object(s) ${verb}`,
        allowed: true,
      });
    }
    this.unreferencedCounts.clear();
    return this.items;
  }

  add(kind: ChangeKind, detail: string, rule: Rule): void {
    const allowed = isAllowed(rule, this.mdp);
    const note =
      kind === 'annotation' && allowed && this.mdp === undefined
        ? ' (allowed: no certification signature restricts annotations)'
        : '';
    const key = `${kind}|${detail}|${allowed}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    // Long lists of the same kind (hundreds of font objects on an added page) say nothing more.
    const group = `${kind}|${allowed}`;
    const n = (this.counts.get(group) ?? 0) + 1;
    this.counts.set(group, n);
    if (n <= MAX_DETAILS_PER_KIND) {
      this.items.push({ revision: this.revision, kind, detail: detail + note, allowed });
      return;
    }
    let more = this.overflow.get(group);
    if (!more) {
      more = { revision: this.revision, kind, detail: '', allowed };
      this.overflow.set(group, more);
      this.items.push(more);
    }
    more.detail = `and ${n - MAX_DETAILS_PER_KIND} more change(s) of this kind`;
  }
}

function changedKeys(a: PdfDict | undefined, b: PdfDict | undefined): string[] {
  const keys = new Set([...(a?.keys() ?? []), ...(b?.keys() ?? [])]);
  return [...keys].filter((k) => canonical(a?.get(k)) !== canonical(b?.get(k)));
}

function asDict(obj: PdfObject | undefined): PdfDict | undefined {
  return obj instanceof PdfDict ? obj : obj instanceof PdfStream ? obj.dict : undefined;
}

function quote(name: string): string {
  return `"${name}"`;
}

/** Judges the AcroForm dictionary's own entries; fields themselves are compared one by one. */
function diffAcroForm(list: ChangeList, before: PdfDict | undefined, after: PdfDict | undefined): void {
  if (!before && after) {
    list.add('signature', 'an interactive form (/AcroForm) was added', 'new-signature');
    return;
  }
  if (before && !after) {
    list.add('catalog', 'the interactive form (/AcroForm) was removed', 'never');
    return;
  }
  for (const key of changedKeys(before, after)) {
    if (key === 'Fields') continue;
    if (key === 'SigFlags') list.add('signature', 'signature flags (/SigFlags) updated', 'always');
    else if (FORM_KEYS.has(key))
      list.add('form-fill', `form /${key} updated`, list.signing ? 'always' : 'form-fill');
    else list.add('other', `form dictionary /${key} changed`, 'never');
  }
}

function diffCatalog(doc: PdfDocument, list: ChangeList, prev: RevisionModel, cur: RevisionModel): void {
  const before = doc.catalog(prev.revision);
  const after = doc.catalog(cur.revision);
  for (const key of changedKeys(before, after)) {
    const what = !before.has(key) ? 'added' : !after.has(key) ? 'removed' : 'changed';
    switch (key) {
      case 'AcroForm':
        diffAcroForm(
          list,
          dictOf(doc, before.get('AcroForm'), prev.revision),
          dictOf(doc, after.get('AcroForm'), cur.revision),
        );
        break;
      case 'DSS':
        list.add('dss', `validation data (/DSS) ${what} in the catalog`, 'always');
        break;
      case 'Extensions':
      case 'Version':
        list.add('catalog', `catalog /${key} ${what}`, 'always');
        break;
      case 'Metadata':
      case 'PieceInfo':
      case 'MarkInfo':
      case 'StructTreeRoot':
        list.add('other', `catalog /${key} ${what}`, 'always');
        break;
      case 'Perms':
        list.add('catalog', `permissions (/Perms) ${what}`, 'never');
        break;
      default:
        list.add('catalog', `catalog /${key} ${what}`, 'never');
    }
  }
  const tBefore = doc.trailer(prev.revision);
  const tAfter = doc.trailer(cur.revision);
  if (canonical(tBefore.get('Encrypt')) !== canonical(tAfter.get('Encrypt'))) {
    list.add('other', 'encryption (/Encrypt) changed', 'never');
  }
  if (canonical(tBefore.get('Info')) !== canonical(tAfter.get('Info'))) {
    list.add('other', 'document information (/Info) replaced', 'always');
  }
}

function diffPages(list: ChangeList, prev: RevisionModel, cur: RevisionModel): boolean {
  const before = new Set(prev.pageKeys);
  const after = new Set(cur.pageKeys);
  let changed = false;
  cur.pageKeys.forEach((k, i) => {
    if (!before.has(k)) {
      list.add('page-added', `page ${i + 1} added`, 'never');
      changed = true;
    }
  });
  prev.pageKeys.forEach((k, i) => {
    if (!after.has(k)) {
      list.add('page-removed', `page ${i + 1} removed`, 'never');
      changed = true;
    }
  });
  if (!changed && prev.pageKeys.join() !== cur.pageKeys.join()) {
    list.add('content', 'pages reordered', 'never');
    changed = true;
  }
  return changed;
}

function signingRule(field: FieldState): Rule {
  return field.docTimestamp ? 'new-doc-timestamp' : 'new-signature';
}

function diffFields(list: ChangeList, prev: RevisionModel, cur: RevisionModel): Set<string> {
  const added = new Set<string>();
  for (const [key, field] of prev.fields) {
    if (cur.fields.has(key)) continue;
    if (field.isSig) {
      list.add(
        'signature',
        `signature field ${quote(field.name)} removed${field.signed ? ' (it was signed)' : ''}`,
        'never',
      );
    } else {
      list.add('form-fill', `form field ${quote(field.name)} removed`, 'never');
    }
  }
  for (const [key, field] of cur.fields) {
    const before = prev.fields.get(key);
    if (!before) {
      added.add(key);
      if (field.isSig) {
        const what = field.signed
          ? field.docTimestamp
            ? 'document timestamp'
            : 'signature'
          : 'empty signature field';
        list.add(
          'signature',
          `${what} ${quote(field.name)} added`,
          field.signed ? signingRule(field) : 'new-signature',
        );
      } else {
        list.add('form-fill', `form field ${quote(field.name)} added`, 'new-field');
      }
      continue;
    }
    if (before.value === field.value) continue;
    if (field.isSig) {
      if (before.signed)
        list.add('signature', `signature field ${quote(field.name)} now holds another value`, 'never');
      else list.add('signature', `signature field ${quote(field.name)} signed`, signingRule(field));
    } else {
      list.add('form-fill', `field ${quote(field.name)} filled in`, 'form-fill');
    }
  }
  return added;
}

function diffAnnots(
  list: ChangeList,
  prev: RevisionModel,
  cur: RevisionModel,
  addedFields: Set<string>,
): void {
  for (const [key, annot] of cur.annots) {
    if (prev.annots.has(key) || annot.page < 0) continue;
    const where = `on page ${annot.page + 1}`;
    if (annot.kind === 'annot')
      list.add('annotation', `/${annot.subtype} annotation added ${where}`, 'annotation');
    else if (annot.field && addedFields.has(annot.field)) continue;
    else if (annot.kind === 'sig-widget')
      list.add('signature', `signature widget added ${where}`, 'new-signature');
    else list.add('form-fill', `form widget added ${where}`, 'new-field');
  }
  for (const [key, annot] of prev.annots) {
    if (cur.annots.has(key) || annot.page < 0) continue;
    const where = `from page ${annot.page + 1}`;
    if (annot.kind === 'annot')
      list.add('annotation', `/${annot.subtype} annotation removed ${where}`, 'annotation');
    else if (annot.kind === 'sig-widget') list.add('signature', `signature widget removed ${where}`, 'never');
    else list.add('form-fill', `form widget removed ${where}`, 'never');
  }
}

function rolesOf(prev: RevisionModel, cur: RevisionModel, num: number): Set<Role> {
  return new Set([...(prev.roles.get(num) ?? []), ...(cur.roles.get(num) ?? [])]);
}

function fieldOf(model: RevisionModel, num: number): FieldState | undefined {
  for (const [key, field] of model.fields) if (key.startsWith(`${num} `)) return field;
  return undefined;
}

/** Judges one object that a later revision added, replaced or freed. */
function classifyObject(
  doc: PdfDocument,
  list: ChangeList,
  prev: RevisionModel,
  cur: RevisionModel,
  num: number,
  before: PdfObject | undefined,
  after: PdfObject | undefined,
): void {
  const roles = rolesOf(prev, cur, num);
  const added = before === undefined;
  const removed = after === undefined;
  const verb = added ? 'added' : removed ? 'deleted' : 'changed';
  const b = asDict(before);
  const a = asDict(after);

  if (roles.has('catalog')) return;
  if (roles.has('content')) {
    list.add('content', `object ${num} used by page content ${verb}`, 'never');
    return;
  }
  if (roles.has('page') || roles.has('pages')) {
    if (added || removed) return; // the page comparison reports these
    const index = cur.pageKeys.findIndex((k) => k.startsWith(`${num} `));
    const what = roles.has('page') ? `page ${index + 1}` : `page tree node ${num}`;
    for (const key of changedKeys(b, a)) {
      if (key === 'Annots') continue;
      if (key === 'Kids' || key === 'Count') {
        if (prev.pageKeys.join() === cur.pageKeys.join()) {
          list.add('other', 'page tree reorganised (same pages, same order)', 'always');
        }
      } else if (PAGE_CONTENT_KEYS.has(key)) {
        list.add('content', `${what}: /${key} changed`, 'never');
      } else {
        list.add('other', `${what}: /${key} changed (it does not change what the page shows)`, 'always');
      }
    }
    return;
  }
  if (roles.has('encrypt')) {
    list.add('other', `encryption dictionary ${verb}`, 'never');
    return;
  }
  if (roles.has('document')) {
    const key = cur.documentKey.get(num) ?? prev.documentKey.get(num) ?? '?';
    list.add('other', `document-level object ${num} (under catalog /${key}) ${verb}`, 'never');
    return;
  }
  if (roles.has('perms')) {
    list.add('catalog', 'permissions (/Perms) changed', 'never');
    return;
  }
  if (roles.has('sigdict') || (added && a && !removed && isSignatureDictionary(a))) {
    if (added) {
      if (!roles.has('sigdict'))
        list.add('signature', `signature dictionary ${num} added without a field`, 'new-signature');
      return;
    }
    list.add('signature', `signature dictionary ${num} ${verb} after signing`, 'never');
    return;
  }
  if (roles.has('sig-field') || roles.has('field')) {
    if (added || removed) return; // the field comparison reports these
    const field = fieldOf(cur, num) ?? fieldOf(prev, num);
    const wasSigned = fieldOf(prev, num)?.signed ?? false;
    const name = quote(field?.name ?? `object ${num}`);
    const keys = changedKeys(b, a).filter((k) => k !== 'V' && k !== 'Kids');
    if (roles.has('sig-field')) {
      for (const key of keys) {
        if (wasSigned)
          list.add('signature', `signature field ${name}: /${key} changed after it was signed`, 'never');
        else if (SIGNING_FIELD_KEYS.has(key))
          list.add('signature', `signature field ${name} prepared for signing`, 'new-signature');
        else list.add('signature', `signature field ${name}: /${key} changed`, 'never');
      }
    } else {
      for (const key of keys) {
        if (FORM_FILL_FIELD_KEYS.has(key))
          list.add('form-fill', `field ${name}: appearance updated`, 'form-fill');
        else list.add('form-fill', `field ${name}: /${key} changed`, 'never');
      }
    }
    return;
  }
  if (roles.has('sig-widget') || roles.has('widget') || roles.has('annot')) {
    if (added) return; // the annotation comparison reports these
    const key = `${num} `;
    const state = [...cur.annots, ...prev.annots].find(([k]) => k.startsWith(key))?.[1];
    const where = state && state.page >= 0 ? ` on page ${state.page + 1}` : '';
    if (removed) {
      if (!state || state.page < 0) list.add('other', `annotation object ${num} deleted`, 'never');
      return;
    }
    if (roles.has('sig-widget')) {
      const owner = state?.field ? prev.fields.get(state.field) : undefined;
      if (owner?.signed)
        list.add('signature', `widget of signed field ${quote(owner.name)} changed`, 'never');
      else list.add('signature', `signature widget${where} updated`, 'new-signature');
    } else if (roles.has('widget')) {
      for (const k of changedKeys(b, a)) {
        if (WIDGET_FILL_KEYS.has(k))
          list.add('form-fill', `form widget${where}: appearance updated`, 'form-fill');
        else list.add('form-fill', `form widget${where}: /${k} changed`, 'never');
      }
    } else {
      list.add('annotation', `/${state?.subtype ?? '?'} annotation${where} changed`, 'annotation');
    }
    return;
  }
  if (roles.has('appearance')) {
    if (added) return; // a new appearance comes with a new or changed annotation, reported there
    const owner = cur.appearanceOwner.get(num) ?? prev.appearanceOwner.get(num);
    const state = owner ? (cur.annots.get(owner) ?? prev.annots.get(owner)) : undefined;
    if (state?.kind === 'sig-widget') {
      const field = state.field ? prev.fields.get(state.field) : undefined;
      if (field?.signed)
        list.add('signature', `appearance of signed field ${quote(field.name)} ${verb}`, 'never');
      else list.add('signature', 'appearance of a signature widget updated', 'new-signature');
    } else if (state?.kind === 'widget') {
      list.add('form-fill', 'appearance of a form widget updated', 'form-fill');
    } else {
      list.add('annotation', `appearance of an annotation ${verb}`, 'annotation');
    }
    return;
  }
  if (roles.has('acroform')) {
    if (!added && !removed) diffAcroForm(list, b, a);
    return;
  }
  if (roles.has('annots') || roles.has('fields')) return; // explained by the field and annotation comparisons
  if (roles.has('field-value') || roles.has('xfa') || roles.has('form-resources')) {
    const what = roles.has('xfa')
      ? 'XFA form data'
      : roles.has('form-resources')
        ? 'form resources (/DR)'
        : 'a field value';
    const signingResources =
      list.signing && roles.has('form-resources') && !roles.has('field-value') && !roles.has('xfa');
    list.add('form-fill', `${what} ${verb}`, signingResources ? 'always' : 'form-fill');
    return;
  }
  if (roles.has('dss')) {
    list.add('dss', `validation data (DSS) objects ${verb}`, 'always');
    return;
  }
  if (roles.has('metadata')) return list.add('other', `XMP metadata ${verb}`, 'always');
  if (roles.has('info')) return list.add('other', `document information ${verb}`, 'always');
  if (roles.has('struct')) return list.add('other', `structure tree (tags) ${verb}`, 'always');
  if (roles.has('piece-info') || roles.has('page-extra')) {
    return list.add('other', `application data of a page or the document ${verb}`, 'always');
  }
  const type = (a ?? b)?.getName('Type');
  if (type === 'ObjStm' || type === 'XRef') return;
  list.unreferenced(verb);
}

/**
 * Compares revision `cur.revision` with the one before it and judges every difference under the
 * DocMDP level in force (undefined: approval signatures only).
 */
export function diffRevision(
  doc: PdfDocument,
  prev: RevisionModel,
  cur: RevisionModel,
  mdp: DocMdp,
): SignatureChange[] {
  const list = new ChangeList(cur.revision, mdp);
  if (!prev.complete || !cur.complete) {
    list.add('other', prev.problem ?? cur.problem ?? 'the changes could not be analysed', 'never');
    return list.finish();
  }
  list.signing = [...cur.fields].some(([key, f]) => f.isSig && f.signed && !prev.fields.get(key)?.signed);
  diffCatalog(doc, list, prev, cur);
  diffPages(list, prev, cur);
  const addedFields = diffFields(list, prev, cur);
  diffAnnots(list, prev, cur, addedFields);

  const section = doc.revisions[cur.revision]!;
  for (const [num, entry] of section.entries) {
    if (num <= 0) continue;
    const old = doc.entry(num, prev.revision);
    const oldRef =
      old && old.type !== 'free' ? new PdfRef(num, old.type === 'compressed' ? 0 : old.gen) : undefined;
    try {
      const before = oldRef ? doc.lookup(oldRef, prev.revision) : undefined;
      if (entry.type === 'free') {
        if (before !== undefined && before !== null)
          classifyObject(doc, list, prev, cur, num, before, undefined);
        continue;
      }
      const after = doc.lookup(new PdfRef(num, entry.type === 'compressed' ? 0 : entry.gen), cur.revision);
      if (before !== undefined && before !== null && sameObject(doc, before, after)) continue;
      classifyObject(doc, list, prev, cur, num, before ?? undefined, after);
    } catch (e) {
      if (e instanceof PdfError && (e.code === 'timeout' || e.code === 'too-complex')) throw e;
      list.add('other', `object ${num} cannot be read`, 'never');
    }
  }
  return list.finish();
}
