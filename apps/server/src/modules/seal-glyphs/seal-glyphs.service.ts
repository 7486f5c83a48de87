import { AppError } from '@openseal/core';
import { SealImageError } from '@openseal/seal-image';
import { glyphsFor, loadFont } from '@openseal/seal-image/node';

/** Distinct characters, in first-seen order, without whitespace (nothing to draw). */
function distinct(text: string): string {
  return [...new Set([...text].filter((ch) => ch.trim() !== ''))].join('');
}

/**
 * Serves glyph outlines of the shipped seal font to the browser's seal engine. The font is read once per
 * process, on first use, so a server that never draws a seal never pays for loading it.
 */
export function createSealGlyphsService() {
  return {
    async glyphs(text: string, font?: string) {
      let handle;
      try {
        handle = await loadFont(font);
      } catch (error) {
        if (error instanceof SealImageError) throw new AppError('sealImage.fontUnknown');
        throw error;
      }
      try {
        return glyphsFor(distinct(text), handle);
      } catch (error) {
        if (error instanceof SealImageError && error.code === 'missing-glyph')
          throw new AppError('sealImage.missingGlyph');
        throw error;
      }
    },
  };
}
