/**
 * Why the engine refused something. The server maps these codes to catalogued errors
 * (`sealImage.*` in packages/core); the engine itself knows nothing of HTTP or languages.
 */
export type SealImageErrorCode =
  /** A text has more characters than its layout rule allows (e.g. a personal seal over 15). */
  | 'text-too-long'
  /** A text has fewer characters than its layout rule needs (e.g. a finance seal under 9, an empty name). */
  | 'text-too-short'
  /** A seal description (SealSpec) that no template can be made from: bad size, colour, font, field. */
  | 'bad-spec'
  /** A template (usually loaded from JSON) that does not follow the template schema. */
  | 'bad-template'
  /** A glyph set whose outlines are not plain SVG path data or whose metrics are unusable. */
  | 'bad-glyphs'
  /** A character the template draws has no outline in the glyph set or the font. */
  | 'missing-glyph'
  /** A font name that is not one of the shipped fonts. */
  | 'unknown-font'
  /** The encoded PNG is over the 50 KB limit of spec section 5. */
  | 'image-too-large'
  /** A picture to fit (a hand-drawn seal) that is not a PNG, or does not decode. */
  | 'bad-image'
  /** A picture to fit whose header declares more pixels than the caller allows: it is not decoded. */
  | 'image-too-many-pixels';

export class SealImageError extends Error {
  override name = 'SealImageError';
  constructor(
    readonly code: SealImageErrorCode,
    message: string,
    /** Machine-readable particulars (field, limit, characters…), safe to log. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
