import { contracts } from '@openseal/core';
import { describe, expect, it } from 'vitest';
import {
  canCancelChange,
  changedFields,
  changeFiltersFromQuery,
  changeFiltersToQuery,
  changeListRequest,
  changeStyleChoice,
} from './change-records';

describe('change-record filters', () => {
  it('read from and write to the address bar', () => {
    const f = changeFiltersFromQuery(new URLSearchParams('status=pendingReview&sealCode=%20S9%20&pageNum=2'));
    expect(f).toEqual({ status: 'pendingReview', sealCode: 'S9', pageNum: 2 });
    expect(changeFiltersToQuery(f).toString()).toBe('status=pendingReview&sealCode=S9&pageNum=2');
    expect(changeFiltersFromQuery(new URLSearchParams('status=done&pageNum=x'))).toEqual({ pageNum: 1 });
    expect(changeFiltersToQuery({ pageNum: 1 }).toString()).toBe('');
  });

  it('become the list request', () => {
    expect(changeListRequest({ pageNum: 3 })).toEqual({ pageNum: 3, pageSize: 10 });
    expect(changeListRequest({ status: 'changed', sealCode: 'S1', pageNum: 1 })).toEqual({
      status: 'changed',
      sealCode: 'S1',
      pageNum: 1,
      pageSize: 10,
    });
  });
});

describe('a change', () => {
  it('lists the fields it alters', () => {
    const before = { name: '甲公司合同专用章', sealType: 0, title: '合同专用章', title0: null };
    expect(changedFields(before, { ...before })).toEqual([]);
    expect(changedFields(before, { ...before, sealType: 1 })).toEqual(['sealType']);
    expect(changedFields(before, { ...before, name: '乙公司合同专用章', title0: '副标题' })).toEqual([
      'name',
      'title0',
    ]);
  });

  it('may be cancelled only while pending review', () => {
    for (const status of contracts.CHANGE_STATUSES)
      expect(canCancelChange({ actions: contracts.allowedActions(contracts.CHANGE_MACHINE, status) })).toBe(
        status === 'pendingReview',
      );
  });
});

describe('change style choice', () => {
  const standard = {
    list: [
      { kind: 'contract' as const, sealTypes: [0, 1] as const },
      { kind: 'finance' as const, sealTypes: [5, 1] as const },
      // The standard list may name a custom kind too; a custom kind must not read it.
      { kind: 'department' as const, sealTypes: [0] as const },
    ],
  };
  const custom = {
    list: [
      { kind: 'department' as const, sealTypes: [0, 1, 4, 1] as const },
      { kind: 'practice' as const, sealTypes: [4] as const },
    ],
    titleMaxLength: 12,
  };

  it('custom kinds take their types and title length from the custom list', () => {
    const c = changeStyleChoice({ sealKind: 'department', sealType: 1 }, standard, custom);
    expect(c).toEqual({
      source: 'custom',
      ready: true,
      options: [
        { value: 0, allowed: true },
        { value: 1, allowed: true },
        { value: 4, allowed: true },
      ],
      initial: 1,
      titleMaxLength: 12,
    });
    // The standard list alone is not enough for a custom kind: it waits for the custom list.
    const waiting = changeStyleChoice({ sealKind: 'department', sealType: 1 }, standard, undefined);
    expect(waiting).toMatchObject({ source: 'custom', ready: false, initial: 1, titleMaxLength: null });
    expect(waiting.options).toEqual([{ value: 1, allowed: true }]);
  });

  it('a current type no longer allowed stays visible but not chosen', () => {
    const c = changeStyleChoice({ sealKind: 'practice', sealType: 0 }, standard, custom);
    expect(c.options).toEqual([
      { value: 0, allowed: false },
      { value: 4, allowed: true },
    ]);
    expect(c.initial).toBe(4);
    // A kind the configuration no longer lists: only the current type, kept.
    const gone = changeStyleChoice({ sealKind: 'industry', sealType: 0 }, standard, custom);
    expect(gone.options).toEqual([{ value: 0, allowed: false }]);
    expect(gone.initial).toBe(0);
  });

  it('standard kinds read the seal kinds of the space', () => {
    const c = changeStyleChoice({ sealKind: 'finance', sealType: 5 }, standard, custom);
    expect(c).toMatchObject({ source: 'standard', ready: true, initial: 5, titleMaxLength: null });
    expect(c.options.map((o) => o.value)).toEqual([5, 1]);
    expect(changeStyleChoice({ sealKind: 'contract', sealType: 0 }, undefined, custom).ready).toBe(false);
  });
});
