import { describe, expect, it } from 'vitest';
import {
  createTemplate,
  renderSvg,
  SealImageError,
  templateText,
  type GlyphSet,
  type SealSpec,
} from './index';

function boxGlyphs(text: string): GlyphSet {
  const glyphs: GlyphSet['glyphs'] = {};
  for (const ch of text) glyphs[ch] = { d: 'M80 -80L920 -80L920 820L80 820Z', advance: 1000 };
  return { unitsPerEm: 1000, ascender: 880, descender: -120, glyphs };
}

function svgFor(spec: SealSpec): string {
  const t = createTemplate(spec);
  return renderSvg(t, boxGlyphs(templateText(t)));
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof SealImageError) return e.code;
    throw e;
  }
  return 'accepted';
}

/** Placed glyphs as [a, b, c, d, e, f] matrices, in drawing order. */
function placements(svg: string): number[][] {
  return [...svg.matchAll(/<use href="#g\d+" transform="matrix\(([^)]+)\)"\/>/g)].map((m) =>
    m[1]!.split(' ').map(Number),
  );
}

describe('renderSvg', () => {
  const specs: SealSpec[] = [
    {
      sealType: 0,
      name: '上海某某信息科技有限公司',
      serial: '3101150123456',
      securityLines: true,
      doubleBorder: true,
    },
    { sealType: 1, name: '某某公司', title: '合同专用章' },
    { sealType: 2, name: '某某公司', serial: '91310110666007217T', title: '发票专用章', securityLines: true },
    { sealType: 3, name: '张三', securityLines: true },
    { sealType: 4, name: '某某公司', title0: '人力资源部', title: '专用章' },
    { sealType: 5, name: '某某有限公司', doubleBorder: true },
  ];

  it('draws paths only: no text, no font, no image, no script, transparent background', () => {
    for (const spec of specs) {
      const svg = svgFor(spec);
      const tags = new Set([...svg.matchAll(/<([a-zA-Z]+)/g)].map((m) => m[1]));
      expect(
        [...tags].every((tag) => ['svg', 'defs', 'path', 'g', 'use', 'ellipse', 'rect'].includes(tag!)),
      ).toBe(true);
      expect(svg).not.toMatch(/font|<text|<image|<script|on[a-z]+=/i);
      // Nothing paints the background: every filled or stroked element is in the ink colour.
      expect(new Set([...svg.matchAll(/(?:fill|stroke)="([^"]+)"/g)].map((m) => m[1]))).toEqual(
        new Set(['#e60012', 'none']),
      );
    }
  });

  it('sets the viewBox in pixels at 400 dpi', () => {
    expect(svgFor(specs[0]!)).toMatch(
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="661" height="661" viewBox="0 0 661 661">/,
    );
    expect(svgFor(specs[2]!)).toMatch(/width="630" height="472" viewBox="0 0 630 472"/);
  });

  it('gives the same string for the same template and glyphs', () => {
    for (const spec of specs) expect(svgFor(spec)).toBe(svgFor(spec));
  });

  it('defines each glyph once and places it per character', () => {
    const t = createTemplate({ sealType: 3, name: '王王王王' });
    const svg = renderSvg(t, boxGlyphs('王'));
    expect(svg.match(/<path id=/g)).toHaveLength(1);
    expect(placements(svg)).toHaveLength(4);
  });

  it('reads a personal seal from the right column down', () => {
    const t = createTemplate({ sealType: 3, name: '甲乙丙丁' });
    const [first, second, third, fourth] = placements(renderSvg(t, boxGlyphs('甲乙丙丁')));
    const x = (m: number[]) => m[4]!;
    const y = (m: number[]) => m[5]!;
    expect(x(first!)).toBeGreaterThan(x(third!));
    expect(x(first!)).toBeCloseTo(x(second!), 6);
    expect(y(first!)).toBeLessThan(y(second!));
    expect(y(third!)).toBeLessThan(y(fourth!));
  });

  it('runs the name clockwise over the top, upright at 12 o’clock', () => {
    const t = createTemplate({ sealType: 0, name: '一二三' });
    const [left, top, right] = placements(renderSvg(t, boxGlyphs('一二三')));
    expect(left![4]).toBeLessThan(top![4]!);
    expect(right![4]).toBeGreaterThan(top![4]!);
    // Upright: no rotation (b = c = 0), y flipped (d < 0).
    expect(top![1]).toBeCloseTo(0, 6);
    expect(top![3]).toBeLessThan(0);
  });

  it('refuses a glyph set that lacks a character, naming it', () => {
    const t = createTemplate({ sealType: 3, name: '张三' });
    expect(codeOf(() => renderSvg(t, boxGlyphs('张')))).toBe('missing-glyph');
    try {
      renderSvg(t, boxGlyphs('张'));
    } catch (e) {
      expect((e as SealImageError).details).toEqual({ characters: '三' });
    }
  });

  it('refuses glyph outlines that are not plain path data', () => {
    const t = createTemplate({ sealType: 3, name: '张三' });
    const evil = boxGlyphs('张三');
    evil.glyphs['三'] = { d: 'M0 0"/><script>alert(1)</script><path d="', advance: 1000 };
    expect(codeOf(() => renderSvg(t, evil))).toBe('bad-glyphs');
    expect(codeOf(() => renderSvg(t, { ...boxGlyphs('张三'), unitsPerEm: 0 }))).toBe('bad-glyphs');
  });

  it('validates the template it is given, so an object built by hand cannot reach the SVG', () => {
    const t = createTemplate({ sealType: 3, name: '张三' });
    const bad = { ...t, baseInfo: { ...t.baseInfo, fontColor: '#fff"/><script>' } };
    expect(codeOf(() => renderSvg(bad, boxGlyphs('张三')))).toBe('bad-template');
  });

  it('needs no outline for blanks', () => {
    const t = createTemplate({ sealType: 0, name: '某某 公司' });
    expect(templateText(t)).toBe('某公司');
    expect(placements(renderSvg(t, boxGlyphs('某公司')))).toHaveLength(4);
  });
});
