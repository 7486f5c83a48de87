import { PdfError } from '../errors';
import { PdfDict, PdfName, PdfRef, PdfStream, PdfString, type PdfObject } from '../objects';
import type { PdfDocument } from '../reader';
import { arrayOf, asName, asText, canonical } from './values';

/** What an object is for in one revision; an object may have several roles. */
export type Role =
  | 'catalog'
  | 'info'
  | 'encrypt'
  | 'pages'
  | 'page'
  | 'content'
  | 'annots'
  | 'annot'
  | 'widget'
  | 'sig-widget'
  | 'appearance'
  | 'acroform'
  | 'fields'
  | 'field'
  | 'sig-field'
  | 'field-value'
  | 'sigdict'
  | 'form-resources'
  | 'xfa'
  | 'dss'
  | 'metadata'
  | 'perms'
  | 'struct'
  | 'piece-info'
  | 'page-extra'
  | 'document';

export interface FieldState {
  name: string;
  isSig: boolean;
  /** Canonical text of /V as written (a reference for signature fields). */
  value: string;
  /** /V as a reader sees it (text, a name, the choices joined), for reports. */
  valueText?: string;
  signed: boolean;
  docTimestamp: boolean;
}

export interface AnnotState {
  page: number;
  kind: 'sig-widget' | 'widget' | 'annot';
  subtype: string;
  /** Object key of the field a widget belongs to. */
  field?: string;
  /** /F has Hidden or NoView: a viewer does not show it. */
  hidden: boolean;
}

/** One revision seen as a document: which object plays which part. */
export interface RevisionModel {
  revision: number;
  roles: Map<number, Set<Role>>;
  /**
   * Objects an annotation reaches (its appearance, its other entries): every annotation (object key)
   * that uses them, so that an object two annotations share is judged for both.
   */
  owners: Map<number, Set<string>>;
  /** Page tree nodes: the /Count they declare and the pages actually found below them. */
  treeCounts: Map<number, { declared: number | undefined; found: number }>;
  /** Document-level objects: the catalog key they hang from. */
  documentKey: Map<number, string>;
  pageKeys: string[];
  fields: Map<string, FieldState>;
  annots: Map<string, AnnotState>;
  /** False when the walk gave up (budget or unreadable structure): changes cannot be judged. */
  complete: boolean;
  problem?: string;
}

// Keys of a page (or an inheritable page-tree node) that decide what the page shows or does.
export const PAGE_CONTENT_KEYS = new Set([
  'Contents',
  'Resources',
  'MediaBox',
  'CropBox',
  'BleedBox',
  'TrimBox',
  'ArtBox',
  'BoxColorInfo',
  'Rotate',
  'Group',
  'UserUnit',
  'VP',
  'AA',
  'Thumb',
  'Trans',
  'Dur',
  'PresSteps',
  'SeparationInfo',
  'OutputIntents',
]);
const PAGE_STRUCTURE_KEYS = new Set(['Parent', 'Annots', 'Type', 'Kids', 'Count']);
// Keys never followed while walking: back-pointers to the tree or to pages.
const BACK_POINTERS = new Set(['Parent', 'P', 'Pg', 'IRT', 'Popup']);
const DEFAULT_BUDGET = 2_000_000;
const ANNOT_HIDDEN = 2;
const ANNOT_NO_VIEW = 32;
// Annotation entries walked on their own (appearance) or not at all (pointers back or to other annotations).
const ANNOT_OWN_WALK = new Set(['AP', 'MK', 'Parent', 'P', 'Popup', 'IRT', 'Type', 'Subtype']);
// Entries of a field dictionary merged into its widget.
const FIELD_KEYS = new Set(['FT', 'T', 'TU', 'TM', 'V', 'DV', 'Kids', 'Ff', 'Opt', 'TI', 'I', 'Lock', 'SV']);

class Budget extends Error {}

export function computeModel(doc: PdfDocument, revision: number, budget = DEFAULT_BUDGET): RevisionModel {
  const model: RevisionModel = {
    revision,
    roles: new Map(),
    owners: new Map(),
    treeCounts: new Map(),
    documentKey: new Map(),
    pageKeys: [],
    fields: new Map(),
    annots: new Map(),
    complete: true,
  };
  let visits = 0;
  const add = (num: number, role: Role): void => {
    let set = model.roles.get(num);
    if (!set) model.roles.set(num, (set = new Set()));
    set.add(role);
  };
  const resolve = (obj: PdfObject | undefined): PdfObject => {
    if (++visits > budget) throw new Budget();
    try {
      return doc.resolve(obj, revision);
    } catch (e) {
      if (e instanceof PdfError && (e.code === 'timeout' || e.code === 'too-complex')) throw e;
      return null;
    }
  };
  const dict = (obj: PdfObject | undefined): PdfDict | undefined => {
    const v = resolve(obj);
    return v instanceof PdfDict ? v : v instanceof PdfStream ? v.dict : undefined;
  };

  /**
   * Marks everything reachable from `start` with `role`. `stopAtMarked` keeps a broad walk (structure
   * tree, outlines) from claiming objects that a more specific walk already explained.
   */
  const own = (num: number, owner: string): void => {
    let set = model.owners.get(num);
    if (!set) model.owners.set(num, (set = new Set()));
    set.add(owner);
  };

  const walk = (
    start: PdfObject | undefined,
    role: Role,
    opts: { stopAtMarked?: boolean; owner?: string; docKey?: string; skipKeys?: Set<string> } = {},
  ): void => {
    const visited = new Set<number>();
    const stack: PdfObject[] = start === undefined ? [] : [start];
    while (stack.length > 0) {
      let obj = stack.pop() as PdfObject;
      if (obj instanceof PdfRef) {
        if (visited.has(obj.num)) continue;
        visited.add(obj.num);
        if (opts.stopAtMarked && model.roles.has(obj.num)) {
          // An object another walk explained still counts this annotation among its users.
          if (opts.owner) own(obj.num, opts.owner);
          continue;
        }
        const target = resolve(obj);
        const type = (target instanceof PdfDict ? target : undefined)?.getName('Type');
        // Pages belong to the page walk: a link's destination does not make a page part of the link.
        if ((type === 'Page' || type === 'Pages') && obj !== start) continue;
        if (opts.owner) own(obj.num, opts.owner);
        add(obj.num, role);
        if (opts.docKey && !model.documentKey.has(obj.num)) model.documentKey.set(obj.num, opts.docKey);
        obj = target;
      } else if (++visits > budget) throw new Budget();
      const d = obj instanceof PdfStream ? obj.dict : obj instanceof PdfDict ? obj : undefined;
      if (d) {
        const type = d.getName('Type');
        if ((type === 'Page' || type === 'Pages') && obj !== start) continue;
        for (const [k, v] of d.map) {
          if (BACK_POINTERS.has(k) || opts.skipKeys?.has(k)) continue;
          stack.push(v);
        }
      } else if (Array.isArray(obj)) {
        for (const v of obj) stack.push(v);
      }
    }
  };

  const markRef = (obj: PdfObject | undefined, role: Role): void => {
    if (obj instanceof PdfRef) add(obj.num, role);
  };

  try {
    const trailer = doc.trailer(revision);
    const rootRef = trailer.get('Root');
    markRef(rootRef, 'catalog');
    const catalog = doc.catalog(revision);

    // Pages and what they show.
    const seenNodes = new Set<string>();
    /** Walks a page tree node; answers the number of pages found below it. */
    const walkPages = (node: PdfObject | undefined, depth: number): number => {
      if (depth > 64) throw new Budget();
      if (node instanceof PdfRef) {
        if (seenNodes.has(node.key())) return 0;
        seenNodes.add(node.key());
      }
      const d = dict(node);
      if (!d) return 0;
      const kids = resolve(d.get('Kids'));
      const isTree = d.getName('Type') === 'Pages' || (d.getName('Type') !== 'Page' && Array.isArray(kids));
      markRef(node, isTree ? 'pages' : 'page');
      for (const [k, v] of d.map) {
        if (PAGE_CONTENT_KEYS.has(k)) walk(v, 'content');
        else if (!PAGE_STRUCTURE_KEYS.has(k)) pageExtras.push(v);
      }
      if (isTree) {
        markRef(d.get('Kids'), 'pages');
        let found = 0;
        if (Array.isArray(kids)) for (const kid of kids) found += walkPages(kid, depth + 1);
        if (node instanceof PdfRef) {
          const declared = resolve(d.get('Count'));
          model.treeCounts.set(node.num, {
            declared: typeof declared === 'number' ? declared : undefined,
            found,
          });
        }
        return found;
      }
      if (!(node instanceof PdfRef)) return 0;
      const pageIndex = model.pageKeys.length;
      model.pageKeys.push(node.key());
      markRef(d.get('Annots'), 'annots');
      for (const annot of arrayOf(doc, d.get('Annots'), revision)) markAnnot(annot, pageIndex);
      return 1;
    };

    const isSigField = (start: PdfDict): { sig: boolean; field?: PdfRef } => {
      let cur: PdfDict | undefined = start;
      let fieldRef: PdfRef | undefined;
      for (let depth = 0; cur && depth < 32; depth++) {
        const ft = asName(resolve(cur.get('FT')));
        if (ft) return { sig: ft === 'Sig', field: fieldRef };
        const parent = cur.get('Parent');
        if (parent instanceof PdfRef && !fieldRef) fieldRef = parent;
        cur = dict(parent);
      }
      return { sig: false, field: fieldRef };
    };

    const markAnnot = (annot: PdfObject, pageIndex: number): void => {
      if (!(annot instanceof PdfRef)) return;
      const d = dict(annot);
      if (!d) return;
      const subtype = asName(resolve(d.get('Subtype'))) ?? '(none)';
      const flags = resolve(d.get('F'));
      const hidden = typeof flags === 'number' && (flags & (ANNOT_HIDDEN | ANNOT_NO_VIEW)) !== 0;
      let state: AnnotState = { page: pageIndex, kind: 'annot', subtype, hidden };
      if (subtype === 'Widget') {
        const merged = d.has('FT') || d.has('T');
        const { sig, field } = isSigField(d);
        state = {
          page: pageIndex,
          kind: sig ? 'sig-widget' : 'widget',
          subtype,
          field: merged ? annot.key() : field?.key(),
          hidden,
        };
      }
      if (!model.annots.has(annot.key())) model.annots.set(annot.key(), state);
      add(annot.num, state.kind);
      own(annot.num, annot.key());
      walk(d.get('AP'), 'appearance', { owner: annot.key() });
      walk(d.get('MK'), 'appearance', { owner: annot.key() });
      const popup = d.get('Popup');
      if (popup instanceof PdfRef) add(popup.num, 'annot');
      // Everything else the annotation holds (its text, rich text, actions, borders…) is part of what
      // it shows or does; field entries of a merged widget are the form's, walked with the field.
      for (const [key, value] of d.map) {
        if (ANNOT_OWN_WALK.has(key) || (subtype === 'Widget' && FIELD_KEYS.has(key))) continue;
        walk(value, 'annot', { stopAtMarked: true, owner: annot.key() });
      }
    };

    const pageExtras: PdfObject[] = [];
    walkPages(catalog.get('Pages'), 0);

    // The form: fields, their values and widgets.
    const acroFormObj = catalog.get('AcroForm');
    markRef(acroFormObj, 'acroform');
    const acroForm = dict(acroFormObj);
    if (acroForm) {
      markRef(acroForm.get('Fields'), 'fields');
      const seenFields = new Set<string>();
      let count = 0;
      const walkField = (
        node: PdfObject,
        parentName: string,
        inheritedFt: string | undefined,
        depth: number,
      ) => {
        if (depth > 32 || ++count > 100_000 || !(node instanceof PdfRef)) return;
        if (seenFields.has(node.key())) return;
        seenFields.add(node.key());
        const d = dict(node);
        if (!d) return;
        const partial = asText(resolve(d.get('T')));
        const name = partial === undefined ? parentName : parentName ? `${parentName}.${partial}` : partial;
        const ft = asName(resolve(d.get('FT'))) ?? inheritedFt;
        const kids = arrayOf(doc, d.get('Kids'), revision);
        markRef(d.get('Kids'), 'fields');
        const childFields = kids.filter((k) => dict(k)?.has('T'));
        const isSig = ft === 'Sig';
        add(node.num, isSig ? 'sig-field' : 'field');
        if (childFields.length > 0) {
          for (const kid of childFields) walkField(kid, name, ft, depth + 1);
          return;
        }
        const v = d.get('V');
        const resolved = resolve(v);
        if (isSig) {
          if (v instanceof PdfRef) add(v.num, 'sigdict');
          walk(v, 'sigdict', { stopAtMarked: true, skipKeys: new Set(['Data']) });
        } else {
          walk(v, 'field-value');
          walk(d.get('DV'), 'field-value');
        }
        const sigDict = resolved instanceof PdfDict ? resolved : undefined;
        const valueText = isSig ? undefined : readableValue(resolved);
        model.fields.set(node.key(), {
          name: name || '(unnamed)',
          isSig,
          value: canonical(v),
          ...(valueText !== undefined ? { valueText } : {}),
          signed: isSig && sigDict !== undefined,
          docTimestamp:
            sigDict !== undefined &&
            (sigDict.getName('Type') === 'DocTimeStamp' || sigDict.getName('SubFilter') === 'ETSI.RFC3161'),
        });
        // Widgets that no page lists still draw when a viewer finds them through the form.
        const widgets = kids.length > 0 ? kids : [node];
        for (const w of widgets) {
          if (!(w instanceof PdfRef)) continue;
          const wd = dict(w);
          if (!wd || (wd.getName('Subtype') !== 'Widget' && !wd.has('Rect'))) continue;
          const kind = isSig ? 'sig-widget' : 'widget';
          own(w.num, w.key());
          const seen = model.annots.get(w.key());
          if (!seen) {
            model.annots.set(w.key(), {
              page: -1,
              kind,
              subtype: 'Widget',
              field: node.key(),
              hidden: false,
            });
          } else if (seen.field === undefined) {
            // A widget without /Parent (as some signers write the widgets of one field): only the
            // field's /Kids tell whose it is, so the page walk could not.
            model.roles.get(w.num)?.delete(seen.kind);
            seen.kind = kind;
            seen.field = node.key();
          }
          add(w.num, kind);
          walk(wd.get('AP'), 'appearance', { owner: w.key() });
        }
      };
      for (const f of arrayOf(doc, acroForm.get('Fields'), revision)) walkField(f, '', undefined, 0);
      walk(acroForm.get('DR'), 'form-resources');
      walk(acroForm.get('XFA'), 'xfa');
    }

    walk(catalog.get('DSS'), 'dss');
    walk(catalog.get('Metadata'), 'metadata');
    walk(catalog.get('Perms'), 'perms', { stopAtMarked: true });
    walk(catalog.get('StructTreeRoot'), 'struct', { stopAtMarked: true });
    walk(catalog.get('PieceInfo'), 'piece-info', { stopAtMarked: true });
    for (const [k, v] of catalog.map) {
      if (
        ['Pages', 'AcroForm', 'DSS', 'Metadata', 'Perms', 'StructTreeRoot', 'PieceInfo', 'Type'].includes(k)
      )
        continue;
      walk(v, 'document', { stopAtMarked: true, docKey: k });
    }
    for (const v of pageExtras) walk(v, 'page-extra', { stopAtMarked: true });
    walk(trailer.get('Info'), 'info', { stopAtMarked: true });
    markRef(trailer.get('Encrypt'), 'encrypt');
  } catch (e) {
    if (e instanceof Budget) {
      model.complete = false;
      model.problem = `revision ${revision} is too large or too deep to analyse`;
    } else if (e instanceof PdfError && e.code !== 'timeout') {
      model.complete = false;
      model.problem = `revision ${revision} could not be analysed: ${e.message}`;
    } else {
      throw e;
    }
  }
  return model;
}

/** A field value as a reader sees it: text, a name, or choices joined; at most 500 characters. */
function readableValue(v: PdfObject): string | undefined {
  let text: string | undefined;
  if (v instanceof PdfString) text = v.text();
  else if (v instanceof PdfName) text = v.name;
  else if (Array.isArray(v))
    text = v
      .map((x) => (x instanceof PdfString ? x.text() : x instanceof PdfName ? x.name : ''))
      .filter(Boolean)
      .join(', ');
  return text === undefined ? undefined : text.slice(0, 500);
}
