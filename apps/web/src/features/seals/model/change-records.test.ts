import { contracts } from '@openseal/core';
import { describe, expect, it } from 'vitest';
import {
  canCancelChange,
  changedFields,
  changeFiltersFromQuery,
  changeFiltersToQuery,
  changeListRequest,
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
