import { SealImageError } from './errors';
import { chars } from './text';
import type { SealType } from './types';

export type SealShape = 'round' | 'ellipse' | 'square';

export function shapeOf(sealType: SealType): SealShape {
  switch (sealType) {
    case 0:
    case 1:
    case 4:
      return 'round';
    case 2:
      return 'ellipse';
    case 3:
    case 5:
      return 'square';
    default: {
      const never: never = sealType;
      throw new SealImageError('bad-template', `unknown seal type ${String(never)}`);
    }
  }
}

/** Where a text of the template is drawn. */
export type TextRole = 'upper-arc' | 'lower-arc' | 'line' | 'grid';
export type TextField = 'contentInfo' | 'titleInfo' | 'title0Info' | 'serialInfo';

/** Characters allowed per text and seal type; `null` means the seal type does not draw that text. */
interface TextRule {
  role: TextRole;
  min: number;
  max: number;
}

/**
 * The layout rules (README "Layout rules"). Spec section 5 fixes the square seals: a personal seal
 * holds 1 to 15 characters, a finance seal 9 to 48. The other limits are what still reads at the
 * default size: 40 characters on a round seal's upper arc are 4 mm high and 1.6 mm wide, 30 on the
 * oval's 4.4 by 1.75 mm; more would be thinner than 0.4 of their height.
 */
export const TEXT_RULES: Record<SealType, Record<TextField, TextRule | null>> = {
  0: {
    contentInfo: { role: 'upper-arc', min: 1, max: 40 },
    titleInfo: { role: 'line', min: 0, max: 12 },
    title0Info: null,
    serialInfo: { role: 'lower-arc', min: 0, max: 24 },
  },
  1: {
    contentInfo: { role: 'upper-arc', min: 1, max: 40 },
    titleInfo: { role: 'line', min: 0, max: 12 },
    title0Info: null,
    serialInfo: { role: 'lower-arc', min: 0, max: 24 },
  },
  2: {
    contentInfo: { role: 'upper-arc', min: 1, max: 30 },
    titleInfo: { role: 'line', min: 0, max: 10 },
    title0Info: null,
    serialInfo: { role: 'line', min: 0, max: 20 },
  },
  3: {
    contentInfo: { role: 'grid', min: 1, max: 15 },
    titleInfo: null,
    title0Info: null,
    serialInfo: null,
  },
  4: {
    contentInfo: { role: 'upper-arc', min: 1, max: 40 },
    titleInfo: { role: 'line', min: 0, max: 12 },
    title0Info: { role: 'line', min: 0, max: 12 },
    serialInfo: { role: 'lower-arc', min: 0, max: 24 },
  },
  5: {
    contentInfo: { role: 'grid', min: 9, max: 48 },
    titleInfo: null,
    title0Info: null,
    serialInfo: null,
  },
};

/** Longest micro-text of a security line (it repeats, so a short text is enough). */
export const MAX_SECURITY_TEXT = 60;

const FIELD_LABEL: Record<TextField, string> = {
  contentInfo: 'name',
  titleInfo: 'title',
  title0Info: 'title0',
  serialInfo: 'serial',
};

/**
 * Throws unless every text of the seal type fits its rule. `unusedCode` is what a text that the seal
 * type does not draw is refused with: a spec field the caller may not set, or a malformed template.
 */
export function checkTextRules(
  sealType: SealType,
  texts: Record<TextField, string>,
  unusedCode: 'bad-spec' | 'bad-template',
): void {
  for (const field of Object.keys(FIELD_LABEL) as TextField[]) {
    const rule = TEXT_RULES[sealType][field];
    const n = chars(texts[field]).length;
    const label = FIELD_LABEL[field];
    if (!rule) {
      if (n > 0)
        throw new SealImageError(unusedCode, `seal type ${sealType} draws no ${label}`, { field: label });
      continue;
    }
    if (n > rule.max)
      throw new SealImageError(
        'text-too-long',
        `the ${label} of seal type ${sealType} takes at most ${rule.max} characters, not ${n}`,
        { field: label, max: rule.max, length: n },
      );
    if (n < rule.min)
      throw new SealImageError(
        'text-too-short',
        `the ${label} of seal type ${sealType} needs at least ${rule.min} characters, not ${n}`,
        { field: label, min: rule.min, length: n },
      );
  }
}

/**
 * Characters per column of a square seal, right column first (square seals read from the right, top
 * to bottom). Personal seal (spec section 5): up to 4 characters in the four corners: 1 fills the
 * square, 2 stand side by side one column each, 3 put the first (the surname) alone in the right
 * column and the other two on the left, 4 make 2 × 2; 5 to 15 share three columns. Finance seal: 9 to
 * 48 characters in ⌊√n⌋ columns, which is 3 to 6 and keeps cells at least as tall as wide. Columns
 * differ by one character at most, the right ones taking the extra.
 */
export function gridColumns(sealType: 3 | 5, n: number): number[] {
  if (sealType === 3) {
    if (n <= 2) return Array.from({ length: n }, () => 1);
    if (n === 3) return [1, 2];
    if (n === 4) return [2, 2];
    return balance(n, 3);
  }
  return balance(n, Math.min(6, Math.max(3, Math.floor(Math.sqrt(n)))));
}

function balance(n: number, columns: number): number[] {
  const base = Math.floor(n / columns);
  const extra = n % columns;
  return Array.from({ length: columns }, (_, i) => base + (i < extra ? 1 : 0));
}
