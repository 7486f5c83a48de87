/**
 * The fonts the engine ships (through npm, SIL Open Font License; README "Font"). Names are what a
 * template's `font` fields hold; the node entry maps each to its file. Noto Serif SC is a Song (Ming)
 * face, the face the seal rules name for company seals.
 */
export const SEAL_FONTS = [
  'Noto Serif SC',
  'Noto Serif SC SemiBold',
  'Noto Serif SC Bold',
  'Noto Serif SC Black',
] as const;
export type SealFontName = (typeof SEAL_FONTS)[number];

export const DEFAULT_SEAL_FONT: SealFontName = 'Noto Serif SC Bold';

export function isSealFont(name: string): name is SealFontName {
  return (SEAL_FONTS as readonly string[]).includes(name);
}
