import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import { SealImageError } from '../errors';
import { DEFAULT_SEAL_FONT, isSealFont, type SealFontName } from '../fonts';
import { chars, isBlank } from '../text';
import type { GlyphSet } from '../types';

const require = createRequire(import.meta.url);

/** The font files behind the names in SEAL_FONTS: static instances of Noto Serif SC, OFL 1.1. */
const FONT_FILES: Record<SealFontName, string> = {
  'Noto Serif SC': '@expo-google-fonts/noto-serif-sc/400Regular/NotoSerifSC_400Regular.ttf',
  'Noto Serif SC SemiBold': '@expo-google-fonts/noto-serif-sc/600SemiBold/NotoSerifSC_600SemiBold.ttf',
  'Noto Serif SC Bold': '@expo-google-fonts/noto-serif-sc/700Bold/NotoSerifSC_700Bold.ttf',
  'Noto Serif SC Black': '@expo-google-fonts/noto-serif-sc/900Black/NotoSerifSC_900Black.ttf',
};

type Glyph = GlyphSet['glyphs'][string];

/** A font read once: fontkit parses tables lazily, and outlines are kept as they are asked for. */
export interface FontHandle {
  readonly name: SealFontName;
  readonly unitsPerEm: number;
  readonly ascender: number;
  readonly descender: number;
  /** Outline of one character, or null when the font has none. */
  glyph(ch: string): Glyph | null;
}

const handles = new Map<SealFontName, FontHandle>();

function fontName(name: string | undefined): SealFontName {
  const n = name ?? DEFAULT_SEAL_FONT;
  if (!isSealFont(n)) throw new SealImageError('unknown-font', `no shipped font named ${n}`, { font: n });
  return n;
}

function openFont(name: SealFontName, bytes: Buffer): FontHandle {
  const parsed = fontkit.create(bytes);
  if (!('glyphForCodePoint' in parsed)) throw new Error(`${FONT_FILES[name]} is a font collection`);
  const font = parsed;
  // The ideographic em box (OS/2 typo metrics: 880 / −120 in Noto CJK), which CJK layout centres on.
  const os2 = font['OS/2'] as { typoAscender?: number; typoDescender?: number } | undefined;
  const ascender = os2?.typoAscender ?? font.ascent;
  const descender = os2?.typoDescender ?? font.descent;
  const cache = new Map<string, Glyph | null>();
  return {
    name,
    unitsPerEm: font.unitsPerEm,
    ascender,
    descender,
    glyph(ch) {
      let g = cache.get(ch);
      if (g !== undefined) return g;
      const cp = ch.codePointAt(0);
      const glyph = cp === undefined ? null : font.glyphForCodePoint(cp);
      // Glyph 0 is .notdef: the font has no outline for this character.
      g = glyph && glyph.id !== 0 ? { d: glyph.path.toSVG(), advance: glyph.advanceWidth } : null;
      cache.set(ch, g);
      return g;
    },
  };
}

function fontFile(name: SealFontName): string {
  return require.resolve(FONT_FILES[name]);
}

/** Reads a shipped font once per process (later calls answer from the cache). Throws `unknown-font`. */
export async function loadFont(name?: string): Promise<FontHandle> {
  const n = fontName(name);
  const cached = handles.get(n);
  if (cached) return cached;
  const bytes = await readFile(fontFile(n));
  // Another caller may have finished first: keep one handle per font.
  const handle = handles.get(n) ?? openFont(n, bytes);
  handles.set(n, handle);
  return handle;
}

function loadFontSync(name?: string): FontHandle {
  const n = fontName(name);
  let handle = handles.get(n);
  if (!handle) {
    handle = openFont(n, readFileSync(fontFile(n)));
    handles.set(n, handle);
  }
  return handle;
}

/**
 * Outlines of the characters of `text` in the given font (the default font, read on first use, when
 * none is given): what the server answers the browser so both draw the same picture. Blanks come with
 * their advance and no outline. Throws `missing-glyph` naming every character the font lacks.
 */
export function glyphsFor(text: string, font?: FontHandle): GlyphSet {
  const f = font ?? loadFontSync();
  const glyphs: GlyphSet['glyphs'] = {};
  const missing: string[] = [];
  for (const ch of new Set(chars(text))) {
    const g = f.glyph(ch);
    if (g) glyphs[ch] = g;
    else if (!isBlank(ch)) missing.push(ch);
  }
  if (missing.length > 0)
    throw new SealImageError('missing-glyph', `${f.name} has no outline for ${missing.join('')}`, {
      characters: missing.join(''),
      font: f.name,
    });
  return { unitsPerEm: f.unitsPerEm, ascender: f.ascender, descender: f.descender, glyphs };
}
