import { describe, expect, it } from 'vitest';
import {
  createTemplate,
  DEFAULT_SEAL_FONT,
  parseTemplate,
  renderSvg,
  SealImageError,
  templateText,
  type GlyphSet,
  type SealSpec,
  type SealTemplate,
} from './index';

/** A glyph set without a font: every character is a box, digits half as wide. */
function boxGlyphs(text: string): GlyphSet {
  const glyphs: GlyphSet['glyphs'] = {};
  for (const ch of text) {
    const narrow = ch.charCodeAt(0) < 0x2e80;
    glyphs[ch] = {
      d: narrow ? 'M40 0L420 0L420 720L40 720Z' : 'M80 -80L920 -80L920 820L80 820Z',
      advance: narrow ? 466 : 1000,
    };
  }
  return { unitsPerEm: 1000, ascender: 880, descender: -120, glyphs };
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof SealImageError) return e.code;
    throw e;
  }
  return 'accepted';
}

const COMPANY: SealSpec = { sealType: 0, name: '上海某某信息科技有限公司', serial: '3101150123456' };

describe('createTemplate', () => {
  it('sizes each seal type at 400 dpi from its default real size', () => {
    const size = (spec: SealSpec) => {
      const { width, height, realWidth, realHeight } = createTemplate(spec).baseInfo;
      return [realWidth, realHeight, width, height];
    };
    expect(size(COMPANY)).toEqual([42, 42, 661, 661]);
    expect(size({ sealType: 1, name: '某某公司', title: '合同专用章' })).toEqual([40, 40, 630, 630]);
    expect(size({ sealType: 2, name: '某某公司', serial: '91310110666007217T' })).toEqual([40, 30, 630, 472]);
    expect(size({ sealType: 3, name: '张三' })).toEqual([18, 18, 283, 283]);
    expect(size({ sealType: 4, name: '某某公司', title0: '人力资源部', title: '专用章' })).toEqual([
      42, 42, 661, 661,
    ]);
    expect(size({ sealType: 5, name: '某某有限公司' })).toEqual([22, 22, 346, 346]);
    expect(size({ ...COMPANY, widthMm: 38 })).toEqual([38, 38, 598, 598]);
  });

  it('applies the documented defaults of a company seal', () => {
    const t = createTemplate(COMPANY);
    expect(t.baseInfo.fontColor).toBe('#e60012');
    expect(t.borderInfo).toEqual({ width: 18.9, useDKLine: false, lineColor: '#e60012', lineWidth: 4.72 }); // 1.2 mm
    expect(t.imageInfo.size).toBe(220.47); // the 14 mm star
    expect(t.imageInfo.y).toBe(330.5); // centred
    expect(t.contentInfo.font).toBe(DEFAULT_SEAL_FONT);
    expect(t.contentInfo.arcWidth).toBeGreaterThan(150);
    expect(t.contentInfo.arcWidth).toBeLessThanOrEqual(240);
    expect(t.serialInfo.arcWidth).toBeLessThanOrEqual(70);
    expect(t.securityLineInfo.fontSize).toBe(0);
  });

  it('condenses and lowers a long name rather than running past the arc', () => {
    const short = createTemplate({ sealType: 0, name: '某某科技有限公司' }).contentInfo;
    const name = '中华人民共和国某某省某某市某某区某某街道某某社区某某科技发展股份有限公司第一分店';
    expect([...name]).toHaveLength(40);
    const long = createTemplate({ sealType: 0, name }).contentInfo;
    expect(long.arcWidth).toBe(240);
    expect(long.contentWidth).toBeLessThan(short.contentWidth);
    expect(long.fontSize).toBeLessThan(short.fontSize);
    expect(long.contentWidth / long.fontSize).toBeGreaterThanOrEqual(0.399);
    expect(long.fontSize).toBeCloseTo(63, 0); // 4 mm
  });

  it('makes room inside for a double border and a security line', () => {
    const plain = createTemplate(COMPANY);
    const both = createTemplate({ ...COMPANY, doubleBorder: true, securityLines: true });
    expect(both.borderInfo.useDKLine).toBe(true);
    expect(both.securityLineInfo).toEqual({
      content: '上海某某信息科技有限公司 ',
      fontSize: 11.02,
      angel: 180,
    });
    expect(both.contentInfo.y).toBeGreaterThan(plain.contentInfo.y + both.securityLineInfo.fontSize);
    expect(both.imageInfo.size).toBeLessThan(plain.imageInfo.size);
  });

  it('puts the title into the grid of square seals, a finance seal ending in 财务专用章 by default', () => {
    expect(createTemplate({ sealType: 3, name: '张 三', title: '之印' }).contentInfo.content).toBe(
      '张三之印',
    );
    expect(createTemplate({ sealType: 5, name: '某某有限公司' }).contentInfo.content).toBe(
      '某某有限公司财务专用章',
    );
    expect(
      createTemplate({ sealType: 5, name: '某某有限公司某某', title: '财务章' }).contentInfo.content,
    ).toBe('某某有限公司某某财务章');
  });

  it('refuses text outside the layout rules', () => {
    expect(refusal(() => createTemplate({ sealType: 3, name: '一二三四五六七八九十甲乙丙丁戊' }))).toBe(
      'accepted',
    );
    expect(refusal(() => createTemplate({ sealType: 3, name: '一二三四五六七八九十甲乙丙丁戊己' }))).toBe(
      'text-too-long',
    );
    expect(
      refusal(() => createTemplate({ sealType: 3, name: '一二三四五六七八九十甲乙丙丁', title: '之印' })),
    ).toBe('text-too-long');
    expect(refusal(() => createTemplate({ sealType: 5, name: '某某公司', title: '财务' }))).toBe(
      'text-too-short',
    );
    expect(refusal(() => createTemplate({ sealType: 5, name: '一'.repeat(44), title: '财务专用章' }))).toBe(
      'text-too-long',
    );
    expect(refusal(() => createTemplate({ sealType: 0, name: '  ' }))).toBe('text-too-short');
    expect(refusal(() => createTemplate({ sealType: 0, name: '一'.repeat(41) }))).toBe('text-too-long');
    expect(refusal(() => createTemplate({ ...COMPANY, title: '一'.repeat(13) }))).toBe('text-too-long');
  });

  it('refuses specs no template can be made from', () => {
    expect(refusal(() => createTemplate({ ...COMPANY, title0: '部门' }))).toBe('bad-spec');
    expect(refusal(() => createTemplate({ sealType: 3, name: '张三', serial: '1' }))).toBe('bad-spec');
    expect(refusal(() => createTemplate({ ...COMPANY, color: 'red' }))).toBe('bad-spec');
    expect(refusal(() => createTemplate({ ...COMPANY, color: '#e60012"/><script>' }))).toBe('bad-spec');
    expect(refusal(() => createTemplate({ ...COMPANY, widthMm: 5 }))).toBe('bad-spec');
    expect(refusal(() => createTemplate({ ...COMPANY, widthMm: 40, heightMm: 30 }))).toBe('bad-spec');
    expect(refusal(() => createTemplate({ ...COMPANY, font: 'SimSun' }))).toBe('unknown-font');
    expect(refusal(() => createTemplate({ ...COMPANY, sealType: 7 as 0 }))).toBe('bad-spec');
    expect(refusal(() => createTemplate({ ...COMPANY, name: '某\u0000公司' }))).toBe('bad-spec');
  });
});

describe('parseTemplate', () => {
  const t = createTemplate({ ...COMPANY, title: '合同专用章', doubleBorder: true, securityLines: true });

  it('round-trips through JSON to the same SVG', () => {
    const loaded = parseTemplate(JSON.parse(JSON.stringify(t)));
    expect(loaded).toEqual(t);
    const glyphs = boxGlyphs(templateText(t));
    expect(renderSvg(loaded, glyphs)).toBe(renderSvg(t, glyphs));
  });

  const broken: [string, (t: SealTemplate) => unknown, string][] = [
    ['not an object', () => 'seal', 'bad-template'],
    ['a missing section', ({ borderInfo: _, ...rest }) => rest, 'bad-template'],
    ['an unknown field', (t) => ({ ...t, extra: 1 }), 'bad-template'],
    ['an unknown seal type', (t) => ({ ...t, baseInfo: { ...t.baseInfo, sealType: 6 } }), 'bad-template'],
    [
      'pixels that disagree with the millimetres',
      (t) => ({ ...t, baseInfo: { ...t.baseInfo, width: 700 } }),
      'bad-template',
    ],
    [
      'an oval round seal',
      (t) => ({ ...t, baseInfo: { ...t.baseInfo, realHeight: 30, height: 472 } }),
      'bad-template',
    ],
    [
      'a colour that is not #rrggbb',
      (t) => ({ ...t, baseInfo: { ...t.baseInfo, fontColor: 'red"/><script>' } }),
      'bad-template',
    ],
    [
      'markup in the centre image',
      (t) => ({ ...t, imageInfo: { ...t.imageInfo, path: 'M0 0"/><script>alert(1)</script>' } }),
      'bad-template',
    ],
    ['an unknown font', (t) => ({ ...t, contentInfo: { ...t.contentInfo, font: 'SimSun' } }), 'bad-template'],
    ['two fonts', (t) => ({ ...t, titleInfo: { ...t.titleInfo, font: 'Noto Serif SC' } }), 'bad-template'],
    [
      'a string for a number',
      (t) => ({ ...t, contentInfo: { ...t.contentInfo, fontSize: '100' } }),
      'bad-template',
    ],
    [
      'a border wider than the seal allows',
      (t) => ({ ...t, borderInfo: { ...t.borderInfo, width: 200 } }),
      'bad-template',
    ],
    [
      'a second title on a one-title seal',
      (t) => ({ ...t, title0Info: { ...t.titleInfo, content: '部门' } }),
      'bad-template',
    ],
    [
      'a name over the arc’s limit',
      (t) => ({ ...t, contentInfo: { ...t.contentInfo, content: '一'.repeat(41) } }),
      'text-too-long',
    ],
    [
      'a personal seal of 16 characters',
      () => {
        const p = createTemplate({ sealType: 3, name: '张三' });
        return { ...p, contentInfo: { ...p.contentInfo, content: '一'.repeat(16) } };
      },
      'text-too-long',
    ],
    [
      'a finance seal of 8 characters',
      () => {
        const p = createTemplate({ sealType: 5, name: '某某有限公司' });
        return { ...p, contentInfo: { ...p.contentInfo, content: '一'.repeat(8) } };
      },
      'text-too-short',
    ],
  ];
  for (const [what, make, code] of broken) {
    it(`refuses ${what} with ${code}`, () => {
      expect(refusal(() => parseTemplate(make(structuredClone(t))))).toBe(code);
    });
  }

  it('says where a template is wrong', () => {
    try {
      parseTemplate({ ...t, baseInfo: { ...t.baseInfo, fontColor: 'red' } });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SealImageError);
      expect((e as SealImageError).message).toContain('baseInfo.fontColor');
    }
  });
});

describe('templateText', () => {
  it('lists every drawn character once, without blanks', () => {
    const t = createTemplate({
      sealType: 4,
      name: '某某 公司',
      title0: '人事部',
      title: '专用章',
      serial: '1231',
      securityLines: true,
    });
    expect(templateText(t)).toBe('某公司人事部专用章123');
  });
});
