import { z } from 'zod';

/**
 * Glyph outlines for the seal image engine in the browser: the server reads the shipped font once and
 * answers the outlines of the characters a template draws, so the browser renders the same path-only SVG
 * as the server without downloading a whole CJK font.
 */
export const glyphsQuery = z.object({
  text: z.string().min(1).max(400).describe('the characters the template draws; duplicates are ignored'),
  font: z.string().max(64).optional().describe('a shipped font name; the default font when absent'),
});

export const glyphSetOut = z.object({
  unitsPerEm: z.number(),
  ascender: z.number(),
  descender: z.number(),
  glyphs: z.record(z.string(), z.object({ d: z.string(), advance: z.number() })),
});
