import { describe, expect, it } from 'vitest';
import { checkTextRules, gridColumns } from './rules';
import { SealImageError } from './errors';

describe('gridColumns', () => {
  it('lays out personal seals of 1 to 4 characters in the corners, right column first', () => {
    expect(gridColumns(3, 1)).toEqual([1]);
    expect(gridColumns(3, 2)).toEqual([1, 1]);
    // The surname alone in the right column, the given name on the left.
    expect(gridColumns(3, 3)).toEqual([1, 2]);
    expect(gridColumns(3, 4)).toEqual([2, 2]);
  });

  it('splits personal seals of 5 to 15 characters into three columns, extra characters on the right', () => {
    expect(gridColumns(3, 5)).toEqual([2, 2, 1]);
    expect(gridColumns(3, 7)).toEqual([3, 2, 2]);
    expect(gridColumns(3, 15)).toEqual([5, 5, 5]);
    for (let n = 5; n <= 15; n++) {
      const cols = gridColumns(3, n);
      expect(cols).toHaveLength(3);
      expect(cols.reduce((a, b) => a + b, 0)).toBe(n);
      expect(Math.max(...cols) - Math.min(...cols)).toBeLessThanOrEqual(1);
      expect([...cols].sort((a, b) => b - a)).toEqual(cols);
    }
  });

  it('gives finance seals of 9 to 48 characters 3 to 6 columns, never wider cells than tall rows allow', () => {
    expect(gridColumns(5, 9)).toEqual([3, 3, 3]);
    expect(gridColumns(5, 15)).toEqual([5, 5, 5]);
    expect(gridColumns(5, 16)).toEqual([4, 4, 4, 4]);
    expect(gridColumns(5, 48)).toEqual([8, 8, 8, 8, 8, 8]);
    const seen = new Set<number>();
    for (let n = 9; n <= 48; n++) {
      const cols = gridColumns(5, n);
      seen.add(cols.length);
      expect(cols.reduce((a, b) => a + b, 0)).toBe(n);
      // At least as many rows as columns in a square: cells are as tall as wide or taller.
      expect(Math.min(...cols)).toBeGreaterThanOrEqual(cols.length);
      expect(Math.max(...cols) - Math.min(...cols)).toBeLessThanOrEqual(1);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
  });
});

describe('checkTextRules', () => {
  const texts = (
    contentInfo: string,
    rest: Partial<Record<'titleInfo' | 'title0Info' | 'serialInfo', string>> = {},
  ) => ({
    contentInfo,
    titleInfo: '',
    title0Info: '',
    serialInfo: '',
    ...rest,
  });
  const code = (fn: () => void) => {
    try {
      fn();
    } catch (e) {
      return e instanceof SealImageError ? e.code : 'other';
    }
    return 'none';
  };

  it('holds the personal and finance bounds of spec section 5', () => {
    expect(code(() => checkTextRules(3, texts('一'.repeat(15)), 'bad-spec'))).toBe('none');
    expect(code(() => checkTextRules(3, texts('一'.repeat(16)), 'bad-spec'))).toBe('text-too-long');
    expect(code(() => checkTextRules(3, texts(''), 'bad-spec'))).toBe('text-too-short');
    expect(code(() => checkTextRules(5, texts('一'.repeat(8)), 'bad-spec'))).toBe('text-too-short');
    expect(code(() => checkTextRules(5, texts('一'.repeat(9)), 'bad-spec'))).toBe('none');
    expect(code(() => checkTextRules(5, texts('一'.repeat(48)), 'bad-spec'))).toBe('none');
    expect(code(() => checkTextRules(5, texts('一'.repeat(49)), 'bad-spec'))).toBe('text-too-long');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(code(() => checkTextRules(3, texts('𠀀'.repeat(15)), 'bad-spec'))).toBe('none');
  });

  it('refuses a text the seal type does not draw with the caller’s code', () => {
    expect(code(() => checkTextRules(0, texts('某公司', { title0Info: '部' }), 'bad-spec'))).toBe('bad-spec');
    expect(code(() => checkTextRules(3, texts('张三', { serialInfo: '1' }), 'bad-template'))).toBe(
      'bad-template',
    );
    expect(code(() => checkTextRules(4, texts('某公司', { title0Info: '部' }), 'bad-spec'))).toBe('none');
  });
});
