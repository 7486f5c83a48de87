import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { createTemplate, imagePx, MAX_SEAL_PNG_BYTES, SealImageError, type SealSpec } from '../index';
import { glyphsFor, loadFont, renderPng } from './index';
import { toIndexed } from './render-png';

/** `SEAL_GOLDEN_WRITE=1 npx vitest run --project unit packages/seal-image` redraws the goldens. */
const GOLDEN = fileURLToPath(new URL('../../test/golden/', import.meta.url));
const WRITE = process.env.SEAL_GOLDEN_WRITE === '1';
/** Differing pixels allowed against a golden (anti-aliasing may move by a renderer release). */
const TOLERANCE = 0.002;
const SLOW = 60_000;

const COMPANY = '上海某某信息科技有限公司';
const LONG_25 = '中国某某集团某某省某某市分公司某某科技发展有限公司'.slice(0, 25);
const LONG_40 = '中华人民共和国某某省某某市某某区某某街道某某社区某某科技发展股份有限公司第一分店';
const FINANCE_48 = `${LONG_40}某某某财务专用章`;
const DENSE = '鑫麤龘齉爨馕鬱灪籲躞'.repeat(5);

/** Every seal type and every layout boundary of the README's rules. */
const CASES: Record<string, SealSpec> = {
  'type0-official': { sealType: 0, name: COMPANY, serial: '3101150123456' },
  'type0-name-25': { sealType: 0, name: LONG_25, serial: '3101150123456' },
  'type0-name-40': { sealType: 0, name: LONG_40, title: '合同专用章', serial: '3101150123456' },
  'type0-double-border': { sealType: 0, name: COMPANY, serial: '3101150123456', doubleBorder: true },
  'type0-security-lines': { sealType: 0, name: COMPANY, serial: '3101150123456', securityLines: true },
  'type1-contract': {
    sealType: 1,
    name: '北京某某文化传媒有限公司',
    title: '合同专用章',
    serial: '1101080098765',
  },
  'type1-short-name': { sealType: 1, name: '某某商行', title: '业务专用章' },
  'type2-invoice': {
    sealType: 2,
    name: '深圳市某某电子商务有限公司',
    serial: '91440300MA5FXXXX1A',
    title: '发票专用章',
  },
  'type2-name-30': {
    sealType: 2,
    name: LONG_40.slice(0, 30),
    serial: '91310110666007217T',
    title: '发票专用章',
  },
  'type2-double-security': {
    sealType: 2,
    name: '深圳市某某电子商务有限公司',
    serial: '91440300MA5FXXXX1A',
    title: '发票专用章',
    doubleBorder: true,
    securityLines: true,
  },
  'type3-1': { sealType: 3, name: '王' },
  'type3-2': { sealType: 3, name: '王明' },
  'type3-3': { sealType: 3, name: '王小明' },
  'type3-4': { sealType: 3, name: '欧阳小明' },
  'type3-5': { sealType: 3, name: '欧阳小明', title: '印' },
  'type3-15': { sealType: 3, name: '爱新觉罗某某某某某某某某', title: '之印章' },
  'type3-security-lines': { sealType: 3, name: '王小明', title: '之印', securityLines: true },
  'type4-two-titles': {
    sealType: 4,
    name: '杭州某某网络技术有限公司',
    title0: '人力资源部',
    title: '专用章',
    serial: '3301060011223',
  },
  'type5-9': { sealType: 5, name: '某某有限公司', title: '财务章' },
  'type5-15': { sealType: 5, name: '广州某某贸易有限公司' },
  'type5-48': { sealType: 5, name: FINANCE_48, title: '' },
  'type5-48-double-security': {
    sealType: 5,
    name: FINANCE_48,
    title: '',
    doubleBorder: true,
    securityLines: true,
  },
};

/** The longest text each type allows, with every option on: the 50 KB bound must hold for these. */
function maxText(sealType: SealSpec['sealType'], chars: string): SealSpec {
  const take = (n: number) => chars.repeat(Math.ceil(n / chars.length)).slice(0, n);
  const all = { doubleBorder: true, securityLines: true };
  switch (sealType) {
    case 0:
    case 1:
      return { sealType, name: take(40), title: take(12), serial: '3'.repeat(24), ...all };
    case 2:
      return { sealType, name: take(30), title: take(10), serial: '9'.repeat(20), ...all };
    case 3:
      return { sealType, name: take(15), ...all };
    case 4:
      return { sealType, name: take(40), title0: take(12), title: take(12), serial: '3'.repeat(24), ...all };
    case 5:
      return { sealType, name: take(48), title: '', ...all };
  }
}

function decode(png: Buffer): PNG {
  return PNG.sync.read(png);
}

function alphaAt(img: PNG, x: number, y: number): number {
  return img.data[(y * img.width + x) * 4 + 3]!;
}

/** Bit depth from the IHDR chunk. */
function depthOf(png: Buffer): number {
  return png[24]!;
}

function diffRatio(a: PNG, b: PNG): number {
  return pixelmatch(a.data, b.data, undefined, a.width, a.height, { threshold: 0.1 }) / (a.width * a.height);
}

describe('renderPng goldens', () => {
  it('covers the layout boundaries it claims to', () => {
    const length = (name: string) => [...createTemplate(CASES[name]!).contentInfo.content].length;
    expect(length('type0-name-25')).toBe(25);
    expect(length('type0-name-40')).toBe(40);
    expect(length('type2-name-30')).toBe(30);
    for (const n of [1, 2, 3, 4, 5, 15]) expect(length(`type3-${n}`)).toBe(n);
    for (const n of [9, 15, 48]) expect(length(`type5-${n}`)).toBe(n);
  });

  if (WRITE) mkdirSync(GOLDEN, { recursive: true });
  for (const [name, spec] of Object.entries(CASES)) {
    it(
      `draws ${name} as its golden image`,
      async () => {
        const { png } = await renderPng(createTemplate(spec));
        const file = join(GOLDEN, `${name}.png`);
        if (WRITE) writeFileSync(file, png);
        expect(existsSync(file), `${file} missing: run with SEAL_GOLDEN_WRITE=1`).toBe(true);
        const actual = decode(png);
        const golden = decode(readFileSync(file));
        expect([actual.width, actual.height]).toEqual([golden.width, golden.height]);
        expect(diffRatio(actual, golden)).toBeLessThanOrEqual(TOLERANCE);
      },
      SLOW,
    );
  }

  it(
    'notices a changed picture (the tolerance is not blind)',
    async () => {
      const golden = decode(readFileSync(join(GOLDEN, 'type0-official.png')));
      const other = decode(
        (await renderPng(createTemplate({ ...CASES['type0-official']!, serial: '3101150123457' }))).png,
      );
      const changed = diffRatio(other, golden);
      expect(changed).toBeGreaterThan(0);
      // One digit of the serial differs: a few hundred pixels, which the tolerance must not swallow.
      expect(changed).toBeGreaterThan(TOLERANCE / 4);
      const name = decode(
        (await renderPng(createTemplate({ ...CASES['type0-official']!, name: '上海某某信息技术有限公司' })))
          .png,
      );
      expect(diffRatio(name, golden)).toBeGreaterThan(TOLERANCE);
    },
    SLOW,
  );
});

describe('renderPng output', () => {
  it(
    'is the real size at 400 dpi, says so in pHYs, and keeps round and oval corners transparent',
    async () => {
      for (const spec of [
        CASES['type0-official']!,
        CASES['type1-contract']!,
        CASES['type2-invoice']!,
        CASES['type3-2']!,
        CASES['type4-two-titles']!,
        CASES['type5-9']!,
      ]) {
        const t = createTemplate(spec);
        const { png, widthPx, heightPx } = await renderPng(t);
        expect([widthPx, heightPx]).toEqual([imagePx(t.baseInfo.realWidth), imagePx(t.baseInfo.realHeight)]);
        const img = decode(png);
        expect([img.width, img.height]).toEqual([widthPx, heightPx]);
        const phys = png.indexOf('pHYs');
        expect(phys).toBeGreaterThan(0);
        expect(png.readUInt32BE(phys + 4)).toBe(15748); // 400 / 0.0254
        expect(png.readUInt8(phys + 12)).toBe(1);
        const corners = [
          [0, 0],
          [widthPx - 1, 0],
          [0, heightPx - 1],
          [widthPx - 1, heightPx - 1],
        ] as const;
        if (spec.sealType === 3 || spec.sealType === 5) {
          // Square seals: the border runs to the corners.
          for (const [x, y] of corners) expect(alphaAt(img, x, y)).toBeGreaterThan(200);
        } else {
          for (const [x, y] of corners)
            for (let d = 0; d < 20; d++) {
              expect(alphaAt(img, Math.abs(x - d), y)).toBe(0);
              expect(alphaAt(img, x, Math.abs(y - d))).toBe(0);
            }
          // And the middle of the border is ink.
          expect(alphaAt(img, Math.floor(widthPx / 2), 3)).toBe(255);
        }
      }
    },
    SLOW,
  );

  it('draws 42 mm as 661 px', async () => {
    const { widthPx, heightPx } = await renderPng(createTemplate({ sealType: 0, name: COMPANY }));
    expect([widthPx, heightPx]).toEqual([661, 661]);
  });

  it(
    'paints only the ink colour, over full transparency',
    async () => {
      const img = decode(
        (await renderPng(createTemplate({ ...CASES['type1-contract']!, color: '#c00000' }))).png,
      );
      const colours = new Set<string>();
      let transparent = 0;
      for (let i = 0; i < img.data.length; i += 4) {
        if (img.data[i + 3] === 0) transparent++;
        else colours.add(`${img.data[i]},${img.data[i + 1]},${img.data[i + 2]}`);
      }
      expect([...colours]).toEqual(['192,0,0']);
      expect(transparent / (img.width * img.height)).toBeGreaterThan(0.5);
    },
    SLOW,
  );

  for (const sealType of [0, 1, 2, 3, 4, 5] as const) {
    it(
      `keeps type ${sealType} at its longest text under 50 KB at 16 levels, and dense glyphs under 50 KB at all`,
      async () => {
        const common = await renderPng(createTemplate(maxText(sealType, LONG_40)));
        expect(common.png.length).toBeLessThanOrEqual(MAX_SEAL_PNG_BYTES);
        expect(depthOf(common.png)).toBe(4);
        const dense = await renderPng(createTemplate(maxText(sealType, DENSE)));
        expect(dense.png.length).toBeLessThanOrEqual(MAX_SEAL_PNG_BYTES);
        expect(decode(dense.png).width).toBe(dense.widthPx);
      },
      SLOW,
    );
  }
});

describe('toIndexed', () => {
  it('keeps two inks apart and every alpha level within one step', () => {
    // Premultiplied pixels: red at full and half alpha, blue at full, and transparency.
    const pixels = Uint8Array.from([255, 0, 0, 255, 128, 0, 0, 128, 0, 0, 255, 255, 0, 0, 0, 0]);
    const { indices, palette } = toIndexed(pixels, ['#ff0000', '#0000ff'], 8);
    const entries = [...indices].map((i) => palette[i]!);
    expect(entries[0]).toEqual([255, 0, 0, 255]);
    expect(entries[1]!.slice(0, 3)).toEqual([255, 0, 0]);
    expect(Math.abs(entries[1]![3] - 128)).toBeLessThanOrEqual(255 / 7 / 2 + 1);
    expect(entries[2]).toEqual([0, 0, 255, 255]);
    expect(entries[3]![3]).toBe(0);
  });
});

describe('fonts and glyphs', () => {
  it('reads a font once', async () => {
    expect(await loadFont()).toBe(await loadFont('Noto Serif SC Bold'));
  });

  it('refuses fonts it does not ship', async () => {
    await expect(loadFont('SimSun')).rejects.toMatchObject({ code: 'unknown-font' });
  });

  it('answers outlines in font units with the ideographic em box', async () => {
    const set = glyphsFor('国A1 ', await loadFont());
    expect(set).toMatchObject({ unitsPerEm: 1000, ascender: 880, descender: -120 });
    expect(Object.keys(set.glyphs).sort()).toEqual([' ', '1', 'A', '国'].sort());
    expect(set.glyphs['国']!.advance).toBe(1000);
    expect(set.glyphs['国']!.d).toMatch(/^M[-\d. ]+/);
    expect(set.glyphs[' ']!.d).toBe('');
    // The same outline from the regular weight differs: the handle is per font.
    expect(glyphsFor('国', await loadFont('Noto Serif SC')).glyphs['国']!.d).not.toBe(set.glyphs['国']!.d);
  });

  it('names every character the font lacks', async () => {
    try {
      glyphsFor('国\u{F0000}\u{F0001}', await loadFont());
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SealImageError);
      expect((e as SealImageError).code).toBe('missing-glyph');
      expect((e as SealImageError).details.characters).toBe('\u{F0000}\u{F0001}');
    }
  });

  it('refuses to draw a seal whose text the font lacks', async () => {
    await expect(renderPng(createTemplate({ sealType: 3, name: '张\u{F0000}' }))).rejects.toMatchObject({
      code: 'missing-glyph',
    });
  });
});
