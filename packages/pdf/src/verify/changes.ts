import { PdfError } from '../errors';
import { PdfDict, PdfRef, PdfStream, type PdfObject } from '../objects';
import type { PdfDocument } from '../reader';
import { describeAnnotation } from './annotation-content';
import { isSignatureDictionary } from './discover';
import { PAGE_CONTENT_KEYS, type AnnotState, type FieldState, type RevisionModel, type Role } from './model';
import type { ChangeKind, SignatureChange } from './types';
import { canonical, dictOf, sameObject } from './values';

export type DocMdp = 1 | 2 | 3 | undefined;

/**
 * What a change needs to be permitted (ISO 32000-2 §12.8.2.2, Table 257; PAdES LTV additions are
 * allowed at every level). Annotations that existed when a signature was made are part of what it
 * signed: changing or removing them is permitted only where the certifier allowed annotations (P=3).
 */
type Rule =
  | 'new-signature'
  | 'new-doc-timestamp'
  | 'form-fill'
  | 'new-field'
  | 'annotation'
  | 'annotation-change'
  | 'always'
  | 'never';

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
    case 'annotation-change':
      return mdp === 3;
    case 'never':
      return false;
  }
}

const FORM_FILL_FIELD_KEYS = new Set(['AP', 'AS', 'MK', 'DA', 'Q', 'RV', 'DS', 'Ff', 'NeedAppearances']);
const SIGNING_FIELD_KEYS = new Set(['AP', 'AS', 'MK', 'F', 'DA', 'Ff', 'Lock', 'SV', 'P']);
const WIDGET_FILL_KEYS = new Set(['AP', 'AS', 'MK']);
const FORM_KEYS = new Set(['DR', 'DA', 'NeedAppearances', 'XFA', 'CO', 'Q']);
const MERGED_FIELD_KEYS = new Set([
  'FT',
  'T',
  'TU',
  'TM',
  'V',
  'DV',
  'Kids',
  'Ff',
  'Opt',
  'TI',
  'I',
  'DA',
  'Q',
  'DS',
  'RV',
  'Lock',
  'SV',
]);
const MAX_DETAILS_PER_KIND = 12;

/** The fields of a change besides its revision, kind, rule and sentence. */
type ChangeFacts = Partial<Omit<SignatureChange, 'revision' | 'kind' | 'allowed' | 'detail'>>;

/** A change one revision makes, not yet judged. */
interface Candidate {
  kind: ChangeKind;
  detail: string;
  rule: Rule;
  facts?: ChangeFacts;
}

class ChangeList {
  readonly items: SignatureChange[] = [];
  private readonly seen = new Set<string>();
  private readonly counts = new Map<string, number>();
  private readonly overflow = new Map<string, SignatureChange>();

  private readonly unreferencedCounts = new Map<string, number>();
  /** Annotations whose appearance may still be read to tell what they show (a revision may add thousands). */
  describable = 64;

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
        action: verb === 'added' ? 'added' : verb === 'deleted' ? 'removed' : 'changed',
        detail: `${n} unreferenced object(s) ${verb}`,
        allowed: true,
      });
    }
    this.unreferencedCounts.clear();
    return this.items;
  }

  add(kind: ChangeKind, detail: string, rule: Rule, facts: ChangeFacts = {}): void {
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
    const action = facts.action ?? 'changed';
    if (n <= MAX_DETAILS_PER_KIND) {
      this.items.push({ revision: this.revision, kind, ...facts, action, detail: detail + note, allowed });
      return;
    }
    let more = this.overflow.get(group);
    if (!more) {
      more = { revision: this.revision, kind, action: 'changed', detail: '', allowed };
      // A summary of many visible changes is itself visible.
      if (facts.visible) more.visible = true;
      this.overflow.set(group, more);
      this.items.push(more);
    }
    more.detail = `and ${n - MAX_DETAILS_PER_KIND} more change(s) of this kind`;
  }

  /**
   * Adds what one overwritten object means. An object may serve several parts of the signed revision
   * (a form field's appearance that page content also draws): the strictest part decides, so sharing
   * an object with a field never lets a change through that the other use forbids.
   */
  addStrictest(candidates: Candidate[]): void {
    const refused = candidates.filter((c) => !isAllowed(c.rule, this.mdp));
    for (const c of refused.length > 0 ? refused : candidates) this.add(c.kind, c.detail, c.rule, c.facts);
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
function acroFormChanges(
  signing: boolean,
  before: PdfDict | undefined,
  after: PdfDict | undefined,
): Candidate[] {
  if (!before && after)
    return [
      {
        kind: 'signature',
        detail: 'an interactive form (/AcroForm) was added',
        rule: 'new-signature',
        facts: { action: 'added' },
      },
    ];
  if (before && !after)
    return [
      {
        kind: 'catalog',
        detail: 'the interactive form (/AcroForm) was removed',
        rule: 'never',
        facts: { action: 'removed' },
      },
    ];
  const out: Candidate[] = [];
  for (const key of changedKeys(before, after)) {
    if (key === 'Fields') continue;
    if (key === 'SigFlags')
      out.push({ kind: 'signature', detail: 'signature flags (/SigFlags) updated', rule: 'always' });
    else if (FORM_KEYS.has(key))
      out.push({ kind: 'form-fill', detail: `form /${key} updated`, rule: signing ? 'always' : 'form-fill' });
    else out.push({ kind: 'other', detail: `form dictionary /${key} changed`, rule: 'never' });
  }
  return out;
}

function diffCatalog(doc: PdfDocument, list: ChangeList, prev: RevisionModel, cur: RevisionModel): void {
  const before = doc.catalog(prev.revision);
  const after = doc.catalog(cur.revision);
  for (const key of changedKeys(before, after)) {
    const what = !before.has(key) ? 'added' : !after.has(key) ? 'removed' : 'changed';
    const action = what === 'removed' ? 'removed' : what === 'added' ? 'added' : 'changed';
    switch (key) {
      case 'AcroForm':
        list.addStrictest(
          acroFormChanges(
            list.signing,
            dictOf(doc, before.get('AcroForm'), prev.revision),
            dictOf(doc, after.get('AcroForm'), cur.revision),
          ),
        );
        break;
      case 'DSS':
        list.add('dss', `validation data (/DSS) ${what} in the catalog`, 'always', { action });
        break;
      case 'Extensions':
      case 'Version':
        list.add('catalog', `catalog /${key} ${what}`, 'always', { action });
        break;
      case 'Metadata':
      case 'PieceInfo':
      case 'MarkInfo':
      case 'StructTreeRoot':
        list.add('other', `catalog /${key} ${what}`, 'always', { action });
        break;
      case 'Perms':
        list.add('catalog', `permissions (/Perms) ${what}`, 'never', { action });
        break;
      default:
        list.add('catalog', `catalog /${key} ${what}`, 'never', { action });
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
      list.add('page-added', `page ${i + 1} added`, 'never', { action: 'added', page: i + 1 });
      changed = true;
    }
  });
  prev.pageKeys.forEach((k, i) => {
    if (!after.has(k)) {
      list.add('page-removed', `page ${i + 1} removed`, 'never', { action: 'removed', page: i + 1 });
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

/** The first page (1-based) on which a widget of the field sits, if any. */
function pageOfField(model: RevisionModel, fieldKey: string): number | undefined {
  for (const [, a] of model.annots) if (a.field === fieldKey && a.page >= 0) return a.page + 1;
  return undefined;
}

/** What the widgets of a field show on a page (visible, with an appearance that paints), if anything. */
function fieldShows(
  doc: PdfDocument,
  list: ChangeList,
  model: RevisionModel,
  fieldKey: string,
): ChangeFacts | undefined {
  for (const [key, a] of model.annots) {
    if (a.field !== fieldKey || a.page < 0 || a.hidden) continue;
    // Past the reading budget a widget on a page counts as showing something.
    if (list.describable-- <= 0) return { visible: true, subtype: 'Widget' };
    const shown = describeAnnotation(doc, refOfKey(key), model.revision);
    if (!shown.paints && !shown.text) continue;
    const facts: ChangeFacts = { visible: true, subtype: 'Widget', image: shown.image };
    if (shown.text) facts.text = shown.text;
    return facts;
  }
  return undefined;
}

function diffFields(
  doc: PdfDocument,
  list: ChangeList,
  prev: RevisionModel,
  cur: RevisionModel,
): Set<string> {
  const added = new Set<string>();
  for (const [key, field] of prev.fields) {
    if (cur.fields.has(key)) continue;
    const facts: ChangeFacts = { action: 'removed', field: field.name };
    if (field.isSig) {
      list.add(
        'signature',
        `signature field ${quote(field.name)} removed${field.signed ? ' (it was signed)' : ''}`,
        'never',
        facts,
      );
    } else {
      list.add('form-fill', `form field ${quote(field.name)} removed`, 'never', facts);
    }
  }
  for (const [key, field] of cur.fields) {
    const before = prev.fields.get(key);
    const page = pageOfField(cur, key);
    if (!before) {
      added.add(key);
      if (field.isSig) {
        const what = field.signed
          ? field.docTimestamp
            ? 'document timestamp'
            : 'signature'
          : 'empty signature field';
        // An empty signature field signs nothing, yet its widget may show anything.
        const shows = field.signed ? undefined : fieldShows(doc, list, cur, key);
        const facts: ChangeFacts = {
          action: 'added',
          field: field.name,
          ...(page ? { page } : {}),
          ...shows,
        };
        list.add(
          'signature',
          `${what} ${quote(field.name)} added`,
          field.signed ? signingRule(field) : 'new-signature',
          facts,
        );
      } else {
        const facts: ChangeFacts = {
          action: 'added',
          field: field.name,
          ...(page ? { page } : {}),
          ...(page ? fieldShows(doc, list, cur, key) : undefined),
        };
        if (field.valueText) facts.value = field.valueText;
        list.add('form-fill', `form field ${quote(field.name)} added`, 'new-field', facts);
      }
      continue;
    }
    if (before.value === field.value) continue;
    if (field.isSig) {
      const facts: ChangeFacts = { action: 'changed', field: field.name, ...(page ? { page } : {}) };
      if (before.signed)
        list.add('signature', `signature field ${quote(field.name)} now holds another value`, 'never', facts);
      else list.add('signature', `signature field ${quote(field.name)} signed`, signingRule(field), facts);
    } else {
      const facts: ChangeFacts = { action: 'changed', field: field.name, ...(page ? { page } : {}) };
      if (field.valueText !== undefined) facts.value = field.valueText;
      list.add('form-fill', `field ${quote(field.name)} filled in`, 'form-fill', facts);
    }
  }
  return added;
}

function refOfKey(key: string): PdfRef {
  const [num, gen] = key.split(' ').map(Number) as [number, number];
  return new PdfRef(num, gen);
}

/** A sentence tail quoting what an annotation shows. */
function shownText(text: string | undefined, image: boolean): string {
  if (text) return `: "${text}"`;
  return image ? ' (an image)' : '';
}

/** Facts of an annotation as it stands in `revision`: page, subtype, what it shows, whether seen. */
function annotationFacts(
  doc: PdfDocument,
  list: ChangeList,
  key: string,
  state: AnnotState,
  revision: number,
  action: 'added' | 'removed' | 'changed',
): ChangeFacts {
  // Past the reading budget an annotation counts as painting something, its text untold.
  const shown =
    list.describable-- > 0
      ? describeAnnotation(doc, refOfKey(key), revision)
      : { image: false, paints: true, text: undefined };
  const facts: ChangeFacts = { action, page: state.page + 1, subtype: state.subtype, image: shown.image };
  if (shown.text) facts.text = shown.text;
  // A link without an appearance and a pop-up (the window of another annotation's text) show nothing.
  const silent = state.subtype === 'Popup' || (state.subtype === 'Link' && !shown.paints);
  facts.visible = !state.hidden && !silent;
  return facts;
}

function diffAnnots(
  doc: PdfDocument,
  list: ChangeList,
  prev: RevisionModel,
  cur: RevisionModel,
  addedFields: Set<string>,
): void {
  for (const [key, annot] of cur.annots) {
    if (prev.annots.has(key) || annot.page < 0) continue;
    const where = `on page ${annot.page + 1}`;
    if (annot.kind === 'annot') {
      const facts = annotationFacts(doc, list, key, annot, cur.revision, 'added');
      list.add(
        'annotation',
        `/${annot.subtype} annotation added ${where}${shownText(facts.text, facts.image === true)}`,
        'annotation',
        facts,
      );
    } else if (annot.field && addedFields.has(annot.field)) continue;
    else if (annot.kind === 'sig-widget') {
      const facts: ChangeFacts = { action: 'added', page: annot.page + 1, subtype: 'Widget' };
      const owner = annot.field ? cur.fields.get(annot.field) : undefined;
      if (owner) facts.field = owner.name;
      if (!owner?.signed && !annot.hidden) {
        const shown =
          list.describable-- > 0 ? describeAnnotation(doc, refOfKey(key), cur.revision) : { paints: true };
        if (shown.paints || ('text' in shown && shown.text)) facts.visible = true;
      }
      list.add('signature', `signature widget added ${where}`, 'new-signature', facts);
    } else {
      const owner = annot.field ? cur.fields.get(annot.field) : undefined;
      const facts: ChangeFacts = {
        action: 'added',
        page: annot.page + 1,
        subtype: 'Widget',
        visible: !annot.hidden,
      };
      if (owner) facts.field = owner.name;
      list.add('form-fill', `form widget added ${where}`, 'new-field', facts);
    }
  }
  for (const [key, annot] of prev.annots) {
    if (cur.annots.has(key) || annot.page < 0) continue;
    const where = `from page ${annot.page + 1}`;
    if (annot.kind === 'annot') {
      const facts = annotationFacts(doc, list, key, annot, prev.revision, 'removed');
      list.add(
        'annotation',
        `/${annot.subtype} annotation removed ${where}${shownText(facts.text, facts.image === true)}`,
        annot.subtype === 'Popup' ? 'annotation' : 'annotation-change',
        facts,
      );
    } else if (annot.kind === 'sig-widget')
      list.add('signature', `signature widget removed ${where}`, 'never', {
        action: 'removed',
        page: annot.page + 1,
      });
    else
      list.add('form-fill', `form widget removed ${where}`, 'never', {
        action: 'removed',
        page: annot.page + 1,
      });
  }
}

function fieldOf(model: RevisionModel, num: number): FieldState | undefined {
  for (const [key, field] of model.fields) if (key.startsWith(`${num} `)) return field;
  return undefined;
}

function annotOf(model: RevisionModel, key: string): AnnotState | undefined {
  return model.annots.get(key);
}

interface ObjectChange {
  doc: PdfDocument;
  list: ChangeList;
  prev: RevisionModel;
  cur: RevisionModel;
  num: number;
  added: boolean;
  removed: boolean;
  verb: 'added' | 'deleted' | 'changed';
  before: PdfDict | undefined;
  after: PdfDict | undefined;
  signing: boolean;
}

/** What changing an object used by the annotations (or widgets) `owners` means, one candidate per user. */
function annotationUse(c: ObjectChange, owners: ReadonlySet<string> | undefined, what: string): Candidate[] {
  const out: Candidate[] = [];
  if (!owners || owners.size === 0) {
    // A pop-up no page lists, or the like: it shows only what its parent holds.
    return [
      {
        kind: 'annotation',
        detail: `annotation object ${c.num} ${c.verb}`,
        rule: 'annotation',
        facts: { action: c.removed ? 'removed' : 'changed', object: c.num },
      },
    ];
  }
  for (const owner of owners ?? []) {
    const state = annotOf(c.prev, owner) ?? annotOf(c.cur, owner);
    const where = state && state.page >= 0 ? ` on page ${state.page + 1}` : '';
    const action: 'removed' | 'changed' = c.removed ? 'removed' : 'changed';
    if (!state) {
      out.push({
        kind: 'other',
        detail: `${what} of an unknown annotation ${c.verb}`,
        rule: 'never',
        facts: { object: c.num },
      });
    } else if (state.kind === 'sig-widget') {
      const field = state.field ? c.prev.fields.get(state.field) : undefined;
      if (field?.signed)
        out.push({
          kind: 'signature',
          detail: `${what} of signed field ${quote(field.name)} ${c.verb}`,
          rule: 'never',
          facts: { action, field: field.name, ...(state.page >= 0 ? { page: state.page + 1 } : {}) },
        });
      else
        out.push({
          kind: 'signature',
          detail: `${what} of a signature widget${where} updated`,
          rule: 'new-signature',
          facts: { action },
        });
    } else if (state.kind === 'widget') {
      // A form widget's own appearance is what filling the form redraws; anything else about it is not.
      const fill = what === 'appearance';
      out.push({
        kind: 'form-fill',
        detail: `${what} of a form widget${where} ${fill ? 'updated' : c.verb}`,
        rule: fill ? 'form-fill' : 'never',
        facts: { action, ...(state.page >= 0 ? { page: state.page + 1 } : {}) },
      });
    } else {
      const facts: ChangeFacts =
        state.page >= 0
          ? annotationFacts(c.doc, c.list, owner, state, c.removed ? c.prev.revision : c.cur.revision, action)
          : { action };
      out.push({
        kind: 'annotation',
        detail: `${what} of a /${state.subtype} annotation${where} ${c.verb}${shownText(facts.text, facts.image === true)}`,
        rule: state.subtype === 'Popup' ? 'annotation' : 'annotation-change',
        facts,
      });
    }
  }
  return out;
}

/** What changing an object means for one part it played in the previous revision. */
function judgeRole(c: ObjectChange, role: Role): Candidate[] {
  const { prev, cur, num, verb } = c;
  const object = { object: num };
  switch (role) {
    case 'catalog':
      return []; // the catalog comparison reports these
    case 'content':
      return [
        {
          kind: 'content',
          detail: `object ${num} used by page content ${verb}`,
          rule: 'never',
          facts: object,
        },
      ];
    case 'page':
    case 'pages': {
      if (c.added || c.removed) return []; // the page comparison reports these
      const samePages = prev.pageKeys.join() === cur.pageKeys.join();
      const index = cur.pageKeys.findIndex((k) => k.startsWith(`${num} `));
      const what = role === 'page' ? `page ${index + 1}` : `page tree node ${num}`;
      const page = role === 'page' && index >= 0 ? { page: index + 1 } : {};
      const out: Candidate[] = [];
      for (const key of changedKeys(c.before, c.after)) {
        if (key === 'Annots') continue;
        if (key === 'Kids' || key === 'Parent') {
          if (samePages)
            out.push({
              kind: 'other',
              detail: 'page tree reorganised (same pages, same order)',
              rule: 'always',
            });
        } else if (key === 'Count') {
          // The count is what many viewers trust: it must still tell the pages the tree holds.
          const count = cur.treeCounts.get(num);
          if (samePages && count && count.declared === count.found)
            out.push({
              kind: 'other',
              detail: 'page tree reorganised (same pages, same order)',
              rule: 'always',
            });
          else
            out.push({
              kind: 'content',
              detail: `${what}: /Count changed to ${count?.declared ?? '?'} (the tree holds ${count?.found ?? '?'} page(s))`,
              rule: 'never',
              facts: object,
            });
        } else if (PAGE_CONTENT_KEYS.has(key)) {
          out.push({
            kind: 'content',
            detail: `${what}: /${key} changed`,
            rule: 'never',
            facts: { ...page, object: num },
          });
        } else {
          out.push({
            kind: 'other',
            detail: `${what}: /${key} changed (it does not change what the page shows)`,
            rule: 'always',
            facts: page,
          });
        }
      }
      return out;
    }
    case 'encrypt':
      return [{ kind: 'other', detail: `encryption dictionary ${verb}`, rule: 'never', facts: object }];
    case 'document': {
      const key = cur.documentKey.get(num) ?? prev.documentKey.get(num) ?? '?';
      return [
        {
          kind: 'other',
          detail: `document-level object ${num} (under catalog /${key}) ${verb}`,
          rule: 'never',
          facts: object,
        },
      ];
    }
    case 'perms':
      return [{ kind: 'catalog', detail: 'permissions (/Perms) changed', rule: 'never' }];
    case 'sigdict':
      if (c.added)
        return [
          {
            kind: 'signature',
            detail: `signature dictionary ${num} added`,
            rule: 'new-signature',
            facts: { action: 'added', object: num },
          },
        ];
      return [
        {
          kind: 'signature',
          detail: `signature dictionary ${num} ${verb} after signing`,
          rule: 'never',
          facts: object,
        },
      ];
    case 'sig-field':
    case 'field': {
      if (c.added || c.removed) return []; // the field comparison reports these
      const field = fieldOf(cur, num) ?? fieldOf(prev, num);
      const wasSigned = fieldOf(prev, num)?.signed ?? false;
      const name = field?.name ?? `object ${num}`;
      const facts: ChangeFacts = { field: name };
      const out: Candidate[] = [];
      for (const key of changedKeys(c.before, c.after).filter((k) => k !== 'V' && k !== 'Kids')) {
        if (role === 'sig-field') {
          if (wasSigned)
            out.push({
              kind: 'signature',
              detail: `signature field ${quote(name)}: /${key} changed after it was signed`,
              rule: 'never',
              facts,
            });
          else if (SIGNING_FIELD_KEYS.has(key))
            out.push({
              kind: 'signature',
              detail: `signature field ${quote(name)} prepared for signing`,
              rule: 'new-signature',
              facts,
            });
          else
            out.push({
              kind: 'signature',
              detail: `signature field ${quote(name)}: /${key} changed`,
              rule: 'never',
              facts,
            });
        } else if (FORM_FILL_FIELD_KEYS.has(key)) {
          out.push({
            kind: 'form-fill',
            detail: `field ${quote(name)}: appearance updated`,
            rule: 'form-fill',
            facts,
          });
        } else
          out.push({
            kind: 'form-fill',
            detail: `field ${quote(name)}: /${key} changed`,
            rule: 'never',
            facts,
          });
      }
      return out;
    }
    case 'sig-widget':
    case 'widget':
    case 'annot': {
      if (c.added) return []; // the annotation comparison reports these
      const self = [...prev.annots].find(([k]) => k.startsWith(`${num} `));
      if (self) {
        // The annotation dictionary itself.
        const [key, state] = self;
        if (c.removed) {
          return state.page < 0
            ? [{ kind: 'other', detail: `annotation object ${num} deleted`, rule: 'never', facts: object }]
            : [];
        }
        if (state.kind === 'annot') return annotationUse(c, new Set([key]), 'the dictionary');
        if (state.kind === 'sig-widget') return annotationUse(c, new Set([key]), 'the widget');
        const where = state.page >= 0 ? ` on page ${state.page + 1}` : '';
        const page = state.page >= 0 ? { page: state.page + 1 } : {};
        // A widget merged with its field: the field's entries are judged as the field's.
        return changedKeys(c.before, c.after)
          .filter((k) => !MERGED_FIELD_KEYS.has(k))
          .map((k) =>
            WIDGET_FILL_KEYS.has(k)
              ? {
                  kind: 'form-fill' as const,
                  detail: `form widget${where}: appearance updated`,
                  rule: 'form-fill' as const,
                  facts: page,
                }
              : {
                  kind: 'form-fill' as const,
                  detail: `form widget${where}: /${k} changed`,
                  rule: 'never' as const,
                  facts: page,
                },
          );
      }
      // Something an annotation holds (its text, its action, its border…).
      return annotationUse(c, prev.owners.get(num), 'an entry');
    }
    case 'appearance':
      return annotationUse(c, prev.owners.get(num), 'appearance');
    case 'acroform':
      return c.added || c.removed ? [] : acroFormChanges(c.signing, c.before, c.after);
    case 'annots':
    case 'fields':
      return []; // explained by the field and annotation comparisons
    case 'field-value':
      return [{ kind: 'form-fill', detail: `a field value ${verb}`, rule: 'form-fill' }];
    case 'xfa':
      return [{ kind: 'form-fill', detail: `XFA form data ${verb}`, rule: 'form-fill' }];
    case 'form-resources':
      return [
        {
          kind: 'form-fill',
          detail: `form resources (/DR) ${verb}`,
          rule: c.signing ? 'always' : 'form-fill',
        },
      ];
    case 'dss':
      return [{ kind: 'dss', detail: `validation data (DSS) objects ${verb}`, rule: 'always' }];
    case 'metadata':
      return [{ kind: 'other', detail: `XMP metadata ${verb}`, rule: 'always' }];
    case 'info':
      return [{ kind: 'other', detail: `document information ${verb}`, rule: 'always' }];
    case 'struct':
      return [{ kind: 'other', detail: `structure tree (tags) ${verb}`, rule: 'always' }];
    case 'piece-info':
    case 'page-extra':
      return [
        { kind: 'other', detail: `application data of a page or the document ${verb}`, rule: 'always' },
      ];
  }
}

/**
 * Judges one object that a later revision added, replaced or freed. What the object was used for in
 * the previous revision decides: an object that revision used is part of what a signature over it
 * covers, and every one of its uses must permit the change.
 */
function classifyObject(
  doc: PdfDocument,
  list: ChangeList,
  prev: RevisionModel,
  cur: RevisionModel,
  num: number,
  before: PdfObject | undefined,
  after: PdfObject | undefined,
): void {
  const added = before === undefined;
  const removed = after === undefined;
  const verb = added ? 'added' : removed ? 'deleted' : 'changed';
  const b = asDict(before);
  const a = asDict(after);
  const used = prev.roles.get(num);
  if (!used || used.size === 0) {
    // New material, or an object nothing used: what refers to it now is judged where that changed.
    if (added && a && !removed && isSignatureDictionary(a) && !cur.roles.get(num)?.has('sigdict'))
      list.add('signature', `signature dictionary ${num} added without a field`, 'new-signature', {
        action: 'added',
        object: num,
      });
    else if (!cur.roles.has(num)) {
      const type = (a ?? b)?.getName('Type');
      if (type !== 'ObjStm' && type !== 'XRef') list.unreferenced(verb);
    }
    return;
  }
  const change: ObjectChange = {
    doc,
    list,
    prev,
    cur,
    num,
    added,
    removed,
    verb,
    before: b,
    after: a,
    signing: list.signing,
  };
  list.addStrictest([...used].flatMap((role) => judgeRole(change, role)));
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
  const addedFields = diffFields(doc, list, prev, cur);
  diffAnnots(doc, list, prev, cur, addedFields);

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
      list.add('other', `object ${num} cannot be read`, 'never', { object: num });
    }
  }
  return list.finish();
}
