import { describe, expect, it } from 'vitest';
import { applicationIdOfRow, changeSideText, sealRowOwner, sealRowSummary } from './seal-queue';

describe('seal queue rows', () => {
  it('reads both sides of a seal change', () => {
    const row = {
      changeNo: 'chg1',
      before: { name: '甲公司合同专用章', sealType: 0, title: null, title0: null },
      after: { name: '甲公司合同专用章', sealType: 4, title: '合同专用章', title0: '第二行' },
    };
    const s = sealRowSummary(row);
    expect(s.before).toBe('甲公司合同专用章');
    expect(s.afterSide).toEqual({
      name: '甲公司合同专用章',
      sealType: '4',
      title: '合同专用章',
      title0: '第二行',
    });
    expect(changeSideText(s.afterSide, (v) => `type${v}`)).toBe(
      '甲公司合同专用章 · type4 · 合同专用章 · 第二行',
    );
    expect(changeSideText(s.beforeSide, (v) => `type${v}`)).toBe('甲公司合同专用章 · type0');
  });
  it('a work order has one name on both sides', () => {
    const s = sealRowSummary({ applyNo: 'a1', sealName: '乙公司财务专用章', sealType: 5, title: null });
    expect(s.before).toBe('乙公司财务专用章');
    expect(s.after).toBe('乙公司财务专用章');
  });
  it('survives a row without sides', () => {
    const s = sealRowSummary({ changeNo: 'c' });
    expect(s.before).toBe('');
    expect(changeSideText(s.beforeSide, () => '')).toBe('-');
  });
  it('names the organisation a row is about, or says it is a personal seal', () => {
    expect(sealRowOwner({ organizeId: 'org1', organizeName: '甲公司' })).toEqual({
      personal: false,
      name: '甲公司',
    });
    expect(sealRowOwner({ organizeId: 'org1', organizeName: '  乙公司 ' }).name).toBe('乙公司');
    expect(sealRowOwner({ organizeId: null, organizeName: null })).toEqual({ personal: true, name: '' });
    expect(sealRowOwner({ changeNo: 'c1' })).toEqual({ personal: true, name: '' });
    // An organisation id without a name is not taken for a person.
    expect(sealRowOwner({ organizeId: 'org2' })).toEqual({ personal: false, name: '' });
    expect(sealRowOwner({ organizeId: 'org2', organizeName: '' })).toEqual({ personal: false, name: '' });
  });
  it('names the id each queue decides on', () => {
    expect(applicationIdOfRow('authority', { applyNo: 'au1', applicationId: 'x' })).toBe('au1');
    expect(applicationIdOfRow('realname', { applicationId: 'rn1' })).toBe('rn1');
    expect(applicationIdOfRow('sealApply', { applicationId: 'a1', applyNo: 'a1' })).toBe('a1');
    expect(applicationIdOfRow('sealApply', { applyNo: 'a2' })).toBe('a2');
    expect(applicationIdOfRow('sealChange', { changeNo: 'c1' })).toBe('c1');
  });
});
