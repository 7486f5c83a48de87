import type { SealApplyRequest, SealCarrier } from '../api/apply';
import type { SealKindOption } from '../api/seals';

/**
 * The apply form's rules (spec sections 1, 3 and 5): how kinds are grouped, which fields a kind and a
 * drawing type need, what a title may hold, and the request the form becomes. The server checks all of
 * it again; these only let the page say so before a round trip.
 */

export type KindGroup = 'standard' | 'custom' | 'personal';
export type DrawType = SealKindOption['sealTypes'][number];

/** Kinds in the order the server lists them, grouped: standard and custom (organisation), personal. */
export function groupKinds(list: readonly SealKindOption[]): { group: KindGroup; kinds: SealKindOption[] }[] {
  const groups: Record<KindGroup, SealKindOption[]> = { standard: [], custom: [], personal: [] };
  for (const option of list) {
    const group: KindGroup = option.subject === 'person' ? 'personal' : option.custom ? 'custom' : 'standard';
    groups[group].push(option);
  }
  return (['standard', 'custom', 'personal'] as const)
    .filter((g) => groups[g].length > 0)
    .map((group) => ({ group, kinds: groups[group] }));
}

/** The same characters the server accepts in a title (letters, digits, brackets, dot, middle dot, space). */
const TITLE_CHARS = /^[\p{L}\p{N}()（）·. -]+$/u;

export type TitleProblem = 'required' | 'tooLong' | 'chars';

/** Why a title cannot be used, or null; `required` says whether an empty one is a problem. */
export function titleProblem(
  value: string | undefined,
  maxLength: number,
  required: boolean,
): TitleProblem | null {
  const text = (value ?? '').trim();
  if (!text) return required ? 'required' : null;
  if ([...text].length > maxLength) return 'tooLong';
  if (!TITLE_CHARS.test(text)) return 'chars';
  return null;
}

export interface ApplyFormValues {
  sealType: DrawType;
  carrier: SealCarrier;
  title?: string;
  title0?: string;
  securityLines: boolean;
}

/** Which inputs the form shows for a kind and drawing type. */
export function formFields(option: SealKindOption, sealType: DrawType) {
  return {
    /** Custom kinds (department, industry, practice): the applicant writes the title. */
    title: option.custom,
    /** Round with two titles: a second title line. */
    title0: sealType === 4,
    /** A person's seal is a cloud seal only. */
    carrier: option.subject === 'organization',
    securityLines: !option.handDrawn,
    handDrawn: option.handDrawn,
  };
}

/** The form's first values for a kind: its default (first) drawing type, a cloud seal. */
export function initialValues(option: SealKindOption): ApplyFormValues {
  return { sealType: option.sealTypes[0] ?? 0, carrier: 'cloud', securityLines: false };
}

/** Whether the form can be sent: titles in order and, for a hand-drawn seal, the drawing uploaded. */
export function formProblems(
  option: SealKindOption,
  values: ApplyFormValues,
  titleMaxLength: number,
  handDrawnFileKey: string | null,
): { title: TitleProblem | null; title0: TitleProblem | null; handDrawn: boolean } {
  const fields = formFields(option, values.sealType);
  return {
    title: fields.title ? titleProblem(values.title, titleMaxLength, true) : null,
    title0: fields.title0 ? titleProblem(values.title0, titleMaxLength, false) : null,
    handDrawn: fields.handDrawn && !handDrawnFileKey,
  };
}

export function hasProblems(p: ReturnType<typeof formProblems>): boolean {
  return p.title !== null || p.title0 !== null || p.handDrawn;
}

/** The preview request for the form, or null when there is nothing the server could draw yet. */
export function previewRequest(option: SealKindOption, values: ApplyFormValues, titleMaxLength: number) {
  if (option.handDrawn) return null;
  // Values still settling from the kind chosen before (the preview waits for typing to pause) are not
  // this kind's: asking with them would be refused (6104).
  if (!option.sealTypes.includes(values.sealType)) return null;
  const problems = formProblems(option, values, titleMaxLength, null);
  if (problems.title || problems.title0) return null;
  const fields = formFields(option, values.sealType);
  return {
    sealKind: option.kind,
    sealType: values.sealType,
    ...(fields.title ? { title: values.title!.trim() } : {}),
    ...(fields.title0 && values.title0?.trim() ? { title0: values.title0.trim() } : {}),
    ...(values.securityLines ? { securityLines: true } : {}),
  };
}

/** The apply request: only the fields the kind uses, trimmed; `submit: false` saves a draft. */
export function buildApplyRequest(
  option: SealKindOption,
  values: ApplyFormValues,
  submit: boolean,
  handDrawnFileKey: string | null,
): SealApplyRequest {
  const fields = formFields(option, values.sealType);
  const title = values.title?.trim();
  const title0 = values.title0?.trim();
  return {
    sealKind: option.kind,
    sealType: values.sealType,
    carrier: fields.carrier ? values.carrier : 'cloud',
    ...(fields.title && title ? { title } : {}),
    ...(fields.title0 && title0 ? { title0 } : {}),
    ...(fields.securityLines && values.securityLines ? { securityLines: true } : {}),
    ...(fields.handDrawn && handDrawnFileKey ? { handDrawnFileKey } : {}),
    submit,
  };
}

/** The physical size of a drawing type, from the kind's list. */
export function sizeOf(option: SealKindOption, sealType: DrawType) {
  return option.sizes.find((s) => s.sealType === sealType) ?? null;
}
