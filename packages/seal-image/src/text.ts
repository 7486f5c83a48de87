import type { SealTemplate } from './types';

/** Code points, so characters outside the BMP count as one (a string's length counts UTF-16 units). */
export function chars(text: string): string[] {
  return Array.from(text);
}

export function isBlank(ch: string): boolean {
  return ch.trim() === '';
}

/**
 * Advance of a character as a share of the em, for layout before the font is at hand: CJK and
 * full-width forms are one em, everything else about half (Noto Serif SC digits are 0.47 em).
 */
export function estimatedAdvance(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  return cp >= 0x2e80 ? 1 : 0.55;
}

/** The texts a template draws, in drawing order. */
export function drawnTexts(t: SealTemplate): string[] {
  const texts = [t.contentInfo, t.title0Info, t.titleInfo, t.serialInfo]
    .filter((info) => info.content !== '')
    .map((info) => info.content);
  if (t.securityLineInfo.fontSize > 0) texts.push(t.securityLineInfo.content);
  return texts;
}

/**
 * Every character the template draws, once each, in first-seen order, without whitespace (a blank
 * takes space but has no outline): what to ask the glyph source for.
 */
export function templateText(t: SealTemplate): string {
  const seen = new Set<string>();
  for (const text of drawnTexts(t)) for (const ch of chars(text)) if (!isBlank(ch)) seen.add(ch);
  return [...seen].join('');
}
