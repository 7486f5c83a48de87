import { contracts } from '@openseal/core';
import { describe, expect, it } from 'vitest';
import {
  actionsOf,
  batchActionsFor,
  canApplyChange,
  certificateAfter,
  changeTypeOf,
  daysLeft,
  expiryHint,
  filtersFromQuery,
  filtersToQuery,
  formatDateTime,
  formatDay,
  renewalState,
  withFilter,
} from './manage-seals';

/** The actions the server sends for a status: the seal table's allowed actions. */
const seal = (status: contracts.SealStatus) => ({
  actions: contracts.allowedActions(contracts.SEAL_MACHINE, status),
});
const NOW = new Date(2025, 5, 15, 10, 0, 0);
const inDays = (days: number) => new Date(NOW.getTime() + days * 86_400_000).toISOString();

describe('filters in the address bar', () => {
  it('reads known values and drops unknown ones', () => {
    const f = filtersFromQuery(
      new URLSearchParams('status=disabled&sealKind=contract&carrier=ukey&keyword=%20合同%20&pageNum=3'),
    );
    expect(f).toEqual({
      status: 'disabled',
      sealKind: 'contract',
      carrier: 'ukey',
      keyword: '合同',
      pageNum: 3,
      pageSize: 10,
    });
    expect(
      filtersFromQuery(new URLSearchParams('status=gone&sealKind=x&carrier=disk&pageNum=-2&pageSize=7')),
    ).toEqual({ pageNum: 1, pageSize: 10 });
  });

  it('round-trips through the query and keeps other parameters', () => {
    const current = new URLSearchParams('sealCode=S1&status=normal');
    const q = filtersToQuery({ sealKind: 'finance', pageNum: 2, pageSize: 20 }, current);
    expect(q.get('sealCode')).toBe('S1');
    expect(q.get('status')).toBeNull();
    expect(q.toString()).toBe('sealCode=S1&sealKind=finance&pageNum=2&pageSize=20');
    expect(filtersFromQuery(q)).toEqual({ sealKind: 'finance', pageNum: 2, pageSize: 20 });
    expect(filtersToQuery({ pageNum: 1, pageSize: 10 }, new URLSearchParams()).toString()).toBe('');
  });

  it('a changed filter goes back to page one and clears empty values', () => {
    expect(
      withFilter({ status: 'normal', pageNum: 4, pageSize: 10 }, { status: undefined, keyword: '' }),
    ).toEqual({ pageNum: 1, pageSize: 10 });
  });
});

describe('single and batch actions', () => {
  it('follow the seal state machine', () => {
    expect(actionsOf(seal('normal'))).toEqual(['disable', 'freeze', 'invalidate']);
    expect(actionsOf(seal('disabled'))).toEqual(['enable', 'invalidate']);
    expect(actionsOf(seal('frozen'))).toEqual(['enable', 'invalidate']);
    // An expired seal is cancelled by scrapping it.
    expect(actionsOf(seal('expired'))).toEqual(['invalidate']);
    expect(actionsOf(seal('voided'))).toEqual([]);
    expect(actionsOf(seal('changeInApproval'))).toEqual([]);
  });

  it('a batch allows only what every selected seal allows', () => {
    expect(batchActionsFor([])).toEqual([]);
    expect(batchActionsFor([seal('normal'), seal('normal')])).toEqual(['disable', 'freeze', 'invalidate']);
    expect(batchActionsFor([seal('normal'), seal('disabled')])).toEqual(['invalidate']);
    expect(batchActionsFor([seal('disabled'), seal('frozen')])).toEqual(['enable', 'invalidate']);
    expect(batchActionsFor([seal('normal'), seal('voided')])).toEqual([]);
  });

  it('names what happens to the certificate', () => {
    expect(certificateAfter('enable')).toBe('good');
    expect(certificateAfter('disable')).toBe('hold');
    expect(certificateAfter('freeze')).toBe('hold');
    expect(certificateAfter('invalidate')).toBe('revoked');
  });

  it('a change fits the seal kind and needs a normal seal without a pending change', () => {
    expect(changeTypeOf('contract')).toBe('ordinary');
    expect(changeTypeOf('department')).toBe('ordinary');
    expect(changeTypeOf('personalName')).toBe('personal');
    expect(changeTypeOf('personalHandDrawn')).toBe('handPainted');
    expect(canApplyChange(seal('normal'), null)).toBe(true);
    expect(canApplyChange(seal('normal'), 'chg_1')).toBe(false);
    expect(canApplyChange(seal('disabled'), null)).toBe(false);
  });
});

describe('validity and renewal window', () => {
  it('counts calendar days and hints within 30 days', () => {
    expect(daysLeft(null, NOW)).toBeNull();
    expect(daysLeft(inDays(10), NOW)).toBe(10);
    expect(daysLeft(inDays(-3), NOW)).toBe(-3);
    expect(expiryHint(inDays(10), NOW)).toEqual({ kind: 'expiring', days: 10 });
    expect(expiryHint(inDays(30), NOW)).toEqual({ kind: 'expiring', days: 30 });
    expect(expiryHint(inDays(31), NOW)).toBeNull();
    expect(expiryHint(inDays(-1), NOW)).toEqual({ kind: 'ended' });
  });

  it('opens renewal only within 30 days of the end, for a good certificate and a renewable status', () => {
    const base = { ...seal('normal'), certSerial: 'AB12', certStatus: 'good' };
    expect(renewalState({ ...base, validTo: inDays(10) }, NOW)).toEqual({ canRenew: true });
    expect(renewalState({ ...base, validTo: inDays(29.9) }, NOW)).toEqual({ canRenew: true });
    expect(renewalState({ ...base, validTo: inDays(365) }, NOW)).toEqual({
      canRenew: false,
      reason: 'notDue',
      days: 335,
    });
    // Ended: the seal reads as expired, which still renews.
    expect(renewalState({ ...base, ...seal('expired'), validTo: inDays(-2) }, NOW)).toEqual({
      canRenew: true,
    });
    expect(renewalState({ ...base, ...seal('disabled'), validTo: inDays(5) }, NOW)).toEqual({
      canRenew: false,
      reason: 'status',
    });
    expect(renewalState({ ...base, certStatus: 'hold', validTo: inDays(5) }, NOW)).toEqual({
      canRenew: false,
      reason: 'certificate',
    });
    expect(renewalState({ ...base, certSerial: null, validTo: null }, NOW)).toEqual({
      canRenew: false,
      reason: 'noCertificate',
    });
  });
});

describe('formatting', () => {
  it('writes local days and times, a dash for nothing', () => {
    const at = new Date(2025, 0, 5, 9, 7).toISOString();
    expect(formatDay(at)).toBe('2025-01-05');
    expect(formatDateTime(at)).toBe('2025-01-05 09:07');
    expect(formatDay(null)).toBe('—');
    expect(formatDateTime('nonsense')).toBe('—');
  });
});
