import { contracts } from '@openseal/core';
import { describe, expect, it } from 'vitest';
import type { SealKindOption } from '../api/seals';

const { DEFAULT_CUSTOM_SEAL_CONFIG, DEFAULT_STANDARD_SEAL_TYPES, SEAL_KIND_INFO, SEAL_TYPE_SIZE_MM } =
  contracts;
import {
  buildApplyRequest,
  formFields,
  formProblems,
  groupKinds,
  hasProblems,
  initialValues,
  previewRequest,
  sizeOf,
  titleProblem,
} from './apply-form';

/** The kinds as the server lists them from the seeded CONFIG_STANDARD_SEAL_TYPE and CUSTOM_SEAL_CONFIG. */
function optionsFor(subject: 'organization' | 'person'): SealKindOption[] {
  const entries = [
    ...DEFAULT_STANDARD_SEAL_TYPES,
    ...DEFAULT_CUSTOM_SEAL_CONFIG.kinds.map((kind) => ({
      kind,
      sealTypes: DEFAULT_CUSTOM_SEAL_CONFIG.sealTypes,
    })),
  ];
  return entries
    .filter((e) => SEAL_KIND_INFO[e.kind].subject === subject)
    .map((e) => ({
      kind: e.kind,
      name: SEAL_KIND_INFO[e.kind].zh,
      subject,
      custom: SEAL_KIND_INFO[e.kind].custom,
      title: SEAL_KIND_INFO[e.kind].title,
      sealTypes: e.sealTypes,
      sizes: e.sealTypes.map((t) => ({ sealType: t, ...SEAL_TYPE_SIZE_MM[t] })),
      handDrawn: e.kind === 'personalHandDrawn',
    }));
}
const org = optionsFor('organization');
const person = optionsFor('person');
const kind = (k: string) => [...org, ...person].find((o) => o.kind === k)!;

describe('seal kind grouping', () => {
  it('puts fixed organisation kinds under standard and title-written ones under custom, in server order', () => {
    const groups = groupKinds(org);
    expect(groups.map((g) => g.group)).toEqual(['standard', 'custom']);
    expect(groups[0]!.kinds.map((k) => k.kind)).toEqual([
      'legalName',
      'contract',
      'finance',
      'invoice',
      'business',
    ]);
    expect(groups[1]!.kinds.map((k) => k.kind)).toEqual(['department', 'industry', 'practice']);
  });

  it('shows only the personal group in the personal space', () => {
    const groups = groupKinds(person);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ group: 'personal' });
    expect(groups[0]!.kinds.map((k) => k.kind)).toEqual(['personalName', 'personalHandDrawn']);
  });
});

describe('seal titles', () => {
  it('requires a title only when asked, counts characters not UTF-16 units, and refuses symbols', () => {
    expect(titleProblem('', 20, true)).toBe('required');
    expect(titleProblem('   ', 20, true)).toBe('required');
    expect(titleProblem(undefined, 20, false)).toBeNull();
    expect(titleProblem('人力资源部', 5, true)).toBeNull();
    expect(titleProblem('人力资源部门', 5, true)).toBe('tooLong');
    expect(titleProblem('𠀀𠀀', 2, true)).toBeNull();
    expect(titleProblem('财务部<script>', 20, true)).toBe('chars');
    expect(titleProblem('（北京）分公司 No.1·A', 20, true)).toBeNull();
  });
});

describe('the apply form', () => {
  it('asks a custom kind for its title, and a second title only for the two-title style', () => {
    const dept = kind('department');
    expect(formFields(dept, 0)).toMatchObject({
      title: true,
      title0: false,
      carrier: true,
      handDrawn: false,
    });
    expect(formFields(dept, 4)).toMatchObject({ title: true, title0: true });
    expect(formFields(kind('contract'), 0)).toMatchObject({ title: false, title0: false });
  });

  it('offers a person only the cloud carrier and a hand-drawn seal no security lines', () => {
    expect(formFields(kind('personalName'), 3)).toMatchObject({ carrier: false, securityLines: true });
    expect(formFields(kind('personalHandDrawn'), 3)).toMatchObject({
      carrier: false,
      securityLines: false,
      handDrawn: true,
    });
  });

  it('starts from the kind’s first drawing type as a cloud seal', () => {
    expect(initialValues(kind('finance'))).toEqual({ sealType: 5, carrier: 'cloud', securityLines: false });
    expect(initialValues(kind('invoice')).sealType).toBe(2);
  });

  it('blocks sending until the title is right and the drawing is uploaded', () => {
    const dept = kind('department');
    const empty = formProblems(dept, initialValues(dept), 20, null);
    expect(empty).toEqual({ title: 'required', title0: null, handDrawn: false });
    expect(hasProblems(empty)).toBe(true);
    expect(hasProblems(formProblems(dept, { ...initialValues(dept), title: '财务部' }, 20, null))).toBe(
      false,
    );
    const hand = kind('personalHandDrawn');
    expect(formProblems(hand, initialValues(hand), 20, null).handDrawn).toBe(true);
    expect(hasProblems(formProblems(hand, initialValues(hand), 20, 'f_1'))).toBe(false);
  });

  it('builds the request from only the fields the kind uses, trimmed', () => {
    const dept = kind('department');
    expect(
      buildApplyRequest(
        dept,
        { sealType: 4, carrier: 'ukey', title: ' 人力资源部 ', title0: ' 专用 ', securityLines: true },
        true,
        null,
      ),
    ).toEqual({
      sealKind: 'department',
      sealType: 4,
      carrier: 'ukey',
      title: '人力资源部',
      title0: '专用',
      securityLines: true,
      submit: true,
    });
    // A title typed before switching to a fixed kind's style is not sent; a draft is submit: false.
    expect(
      buildApplyRequest(
        kind('contract'),
        { sealType: 1, carrier: 'cloud', title: 'x', title0: 'y', securityLines: false },
        false,
        null,
      ),
    ).toEqual({ sealKind: 'contract', sealType: 1, carrier: 'cloud', submit: false });
  });

  it('sends a person’s seal as a cloud seal and a hand-drawn one with its upload', () => {
    const hand = kind('personalHandDrawn');
    expect(
      buildApplyRequest(hand, { ...initialValues(hand), carrier: 'ukey', securityLines: true }, true, 'f_9'),
    ).toEqual({
      sealKind: 'personalHandDrawn',
      sealType: 3,
      carrier: 'cloud',
      handDrawnFileKey: 'f_9',
      submit: true,
    });
  });

  it('previews only what the server can draw', () => {
    const dept = kind('department');
    expect(previewRequest(dept, initialValues(dept), 20)).toBeNull();
    expect(
      previewRequest(dept, { ...initialValues(dept), title: '财务部 ', securityLines: true }, 20),
    ).toEqual({
      sealKind: 'department',
      sealType: 0,
      title: '财务部',
      securityLines: true,
    });
    expect(
      previewRequest(kind('personalHandDrawn'), initialValues(kind('personalHandDrawn')), 20),
    ).toBeNull();
    expect(previewRequest(kind('contract'), initialValues(kind('contract')), 20)).toEqual({
      sealKind: 'contract',
      sealType: 0,
    });
  });

  it('asks nothing while the values of the kind chosen before are still settling', () => {
    const personal = kind('personalName');
    const otherType = org.flatMap((o) => o.sealTypes).find((t) => !personal.sealTypes.includes(t));
    expect(otherType).toBeDefined();
    expect(previewRequest(personal, { ...initialValues(personal), sealType: otherType! }, 20)).toBeNull();
    expect(previewRequest(personal, initialValues(personal), 20)).toEqual({
      sealKind: 'personalName',
      sealType: personal.sealTypes[0],
    });
  });

  it('knows each style’s size in millimetres', () => {
    expect(sizeOf(kind('invoice'), 2)).toMatchObject({ widthMm: 40, heightMm: 30 });
    expect(sizeOf(kind('contract'), 5)).toBeNull();
  });
});
