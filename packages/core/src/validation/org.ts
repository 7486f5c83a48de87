import type { ErrorKey } from '../errors/catalogue';

export type Check = { ok: true; value: string } | { ok: false; key: ErrorKey };

export const ORG_NAME_MAX = 100;
export const USCC_LENGTH = 18;

/**
 * Section 5: 1-100 characters of letters (Chinese included), digits, space, round brackets (ASCII or
 * full-width) and dot, with at least one letter. "Dot" is read as the ASCII full stop, its full-width
 * form and the middle dot used in transliterated names (e.g. 阿卜杜·热合曼).
 */
const ORG_NAME_CHARS = /^[\p{L}\p{N} ()（）.．·]+$/u;
const HAS_LETTER = /\p{L}/u;

export function checkOrgName(raw: string | null | undefined): Check {
  const value = (raw ?? '').trim();
  if (value.length === 0) return { ok: false, key: 'org.nameRequired' };
  // Count code points so a CJK extension character counts once.
  const length = [...value].length;
  if (length > ORG_NAME_MAX || !ORG_NAME_CHARS.test(value) || !HAS_LETTER.test(value)) {
    return { ok: false, key: 'org.nameFormat' };
  }
  return { ok: true, value };
}

/** Characters a credit code may use (GB 32100-2015): digits and capitals without I, O, S, V, Z. */
export const USCC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
const USCC_STRUCTURE = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;

/** The GB 32100-2015 check character for the first 17 characters, or null if one is outside the alphabet. */
export function usccCheckChar(first17: string): string | null {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const idx = USCC_ALPHABET.indexOf(first17[i] ?? '');
    if (idx < 0) return null;
    sum += idx * USCC_WEIGHTS[i]!;
  }
  return USCC_ALPHABET[(31 - (sum % 31)) % 31] ?? null;
}

/** Section 5 structure plus the GB 32100-2015 check character. Lower-case input is not accepted. */
export function checkUscc(raw: string | null | undefined): Check {
  const value = (raw ?? '').trim();
  if (value.length === 0) return { ok: false, key: 'org.usccRequired' };
  if (value.length !== USCC_LENGTH || !USCC_STRUCTURE.test(value))
    return { ok: false, key: 'org.usccFormat' };
  if (usccCheckChar(value.slice(0, 17)) !== value[17]) return { ok: false, key: 'org.usccFormat' };
  return { ok: true, value };
}
