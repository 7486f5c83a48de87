import { contracts } from '@openseal/core';
import { describe, expect, it } from 'vitest';
import type { SealAuthorization } from '../api/authorize';
import {
  authActions,
  endOfDay,
  formFromAuthorization,
  toAddRequest,
  toEditRequest,
  toListRequest,
  unusableReason,
  usesView,
  validateAuthorizeForm,
  validityView,
  type AuthorizeFormValues,
} from './authorize-form';

const NOW = new Date(2031, 4, 10, 9, 30); // 10 May 2031, 09:30 local
const day = (y: number, m: number, d: number) => new Date(y, m - 1, d);

const base: AuthorizeFormValues = {
  sealCode: 'seal_1',
  memberIds: ['mem_a'],
  appIds: [],
  usesMode: 'unlimited',
  usesLimit: null,
  validityMode: 'permanent',
  range: null,
  appRange: [],
};

const grant = (over: Partial<SealAuthorization> = {}): SealAuthorization => ({
  authCode: 'sau_1',
  sealCode: 'seal_1',
  sealName: '合同专用章',
  authoriserName: '张三',
  granteeType: 'member',
  granteeId: 'mem_a',
  granteeName: '员工甲',
  usesLimit: 3,
  usesRemaining: 3,
  validFrom: day(2031, 5, 10).toISOString(),
  validTo: endOfDay(day(2031, 6, 30)).toISOString(),
  appRange: [],
  status: 'inEffect',
  usable: true,
  createTime: NOW.toISOString(),
  terminateTime: null,
  ...over,
});

describe('form → addSealAuth request', () => {
  it('unlimited and permanent: null limit, null end, no start (the server starts it now)', () => {
    const r = toAddRequest(base, NOW);
    expect(r).toEqual({
      sealCode: 'seal_1',
      grantees: [{ type: 'member', id: 'mem_a' }],
      usesLimit: null,
      validTo: null,
      appRange: [],
    });
    expect(contracts.addSealAuthRequest.safeParse(r).success).toBe(true);
  });

  it('counted and dated from today: the limit, the end of the last day, no start', () => {
    const r = toAddRequest(
      {
        ...base,
        usesMode: 'counted',
        usesLimit: 3,
        validityMode: 'dated',
        range: [day(2031, 5, 10), day(2031, 6, 30)],
      },
      NOW,
    );
    expect(r.usesLimit).toBe(3);
    expect(r.validFrom).toBeUndefined();
    expect(new Date(r.validTo!).getTime()).toBe(new Date(2031, 5, 30, 23, 59, 59, 999).getTime());
    expect(contracts.addSealAuthRequest.safeParse(r).success).toBe(true);
  });

  it('a validity starting later sends the start of its first day', () => {
    const r = toAddRequest(
      { ...base, validityMode: 'dated', range: [day(2031, 6, 1), day(2031, 6, 30)] },
      NOW,
    );
    expect(new Date(r.validFrom!).getTime()).toBe(day(2031, 6, 1).getTime());
  });

  it('a count left from before is dropped when the mode is unlimited', () => {
    expect(toAddRequest({ ...base, usesMode: 'unlimited', usesLimit: 7 }, NOW).usesLimit).toBeNull();
  });

  it('members and apps become grantees, trimmed and without repeats; app range likewise', () => {
    const r = toAddRequest(
      {
        ...base,
        memberIds: ['mem_a', 'mem_a', 'mem_b'],
        appIds: [' app_1 ', 'app_1'],
        appRange: ['x', 'x', 'y'],
      },
      NOW,
    );
    expect(r.grantees).toEqual([
      { type: 'member', id: 'mem_a' },
      { type: 'member', id: 'mem_b' },
      { type: 'app', id: 'app_1' },
    ]);
    expect(r.appRange).toEqual(['x', 'y']);
  });
});

describe('checks before sending', () => {
  it('a complete form passes', () => {
    expect(validateAuthorizeForm(base, NOW)).toEqual([]);
  });

  it('names each missing or wrong part', () => {
    expect(validateAuthorizeForm({ ...base, sealCode: undefined, memberIds: [] }, NOW)).toEqual([
      'sealRequired',
      'granteeRequired',
    ]);
    expect(validateAuthorizeForm({ ...base, usesMode: 'counted', usesLimit: null }, NOW)).toEqual([
      'usesInvalid',
    ]);
    expect(validateAuthorizeForm({ ...base, usesMode: 'counted', usesLimit: 0 }, NOW)).toEqual([
      'usesInvalid',
    ]);
    expect(validateAuthorizeForm({ ...base, usesMode: 'counted', usesLimit: 1.5 }, NOW)).toEqual([
      'usesInvalid',
    ]);
    expect(validateAuthorizeForm({ ...base, usesMode: 'counted', usesLimit: 1 }, NOW)).toEqual([]);
    expect(validateAuthorizeForm({ ...base, validityMode: 'dated' }, NOW)).toEqual(['rangeRequired']);
    expect(
      validateAuthorizeForm(
        { ...base, validityMode: 'dated', range: [day(2031, 5, 1), day(2031, 5, 9)] },
        NOW,
      ),
    ).toEqual(['rangeInPast']);
    // Ending today is fine: the grant lasts until the end of the day.
    expect(
      validateAuthorizeForm(
        { ...base, validityMode: 'dated', range: [day(2031, 5, 10), day(2031, 5, 10)] },
        NOW,
      ),
    ).toEqual([]);
    expect(validateAuthorizeForm({ ...base, appIds: ['bad id'] }, NOW)).toEqual(['appIdInvalid']);
    expect(validateAuthorizeForm({ ...base, appRange: ['ok', 'not/ok'] }, NOW)).toEqual(['appRangeInvalid']);
    expect(
      validateAuthorizeForm({ ...base, appRange: Array.from({ length: 21 }, (_, i) => `a${i}`) }, NOW),
    ).toEqual(['tooManyApps']);
    expect(
      validateAuthorizeForm({ ...base, memberIds: Array.from({ length: 51 }, (_, i) => `m${i}`) }, NOW),
    ).toEqual(['tooManyGrantees']);
  });

  it('an edit does not ask for the seal or grantees', () => {
    expect(validateAuthorizeForm({ ...base, sealCode: undefined, memberIds: [] }, NOW, 'edit')).toEqual([]);
  });
});

describe('form → editSealAuth request', () => {
  it('an untouched form changes nothing', () => {
    const g = grant();
    expect(toEditRequest(g, formFromAuthorization(g))).toBeNull();
  });

  it('counted to unlimited sends only the limit', () => {
    const g = grant();
    const r = toEditRequest(g, { ...formFromAuthorization(g), usesMode: 'unlimited' });
    expect(r).toEqual({ authCode: 'sau_1', usesLimit: null });
    expect(contracts.editSealAuthRequest.safeParse(r).success).toBe(true);
  });

  it('a new end day, permanent, or a new app range are sent', () => {
    const g = grant();
    const f = formFromAuthorization(g);
    expect(toEditRequest(g, { ...f, range: [day(2031, 5, 10), day(2031, 7, 31)] })).toEqual({
      authCode: 'sau_1',
      validTo: endOfDay(day(2031, 7, 31)).toISOString(),
    });
    expect(toEditRequest(g, { ...f, validityMode: 'permanent' })).toEqual({
      authCode: 'sau_1',
      validTo: null,
    });
    expect(toEditRequest(g, { ...f, appRange: ['app_2'] })).toEqual({
      authCode: 'sau_1',
      appRange: ['app_2'],
    });
  });

  it('the form of a grant reflects its modes', () => {
    const f = formFromAuthorization(
      grant({ usesLimit: null, usesRemaining: null, validTo: null, granteeType: 'app', granteeId: 'app_9' }),
    );
    expect(f).toMatchObject({
      usesMode: 'unlimited',
      validityMode: 'permanent',
      range: null,
      appIds: ['app_9'],
      memberIds: [],
    });
  });
});

describe('display', () => {
  it('remaining uses: unlimited, or remaining of total with the share left', () => {
    expect(usesView({ usesLimit: null, usesRemaining: null })).toEqual({ unlimited: true });
    expect(usesView({ usesLimit: 3, usesRemaining: 3 })).toEqual({
      unlimited: false,
      remaining: 3,
      total: 3,
      used: 0,
      percent: 100,
    });
    expect(usesView({ usesLimit: 3, usesRemaining: 2 })).toMatchObject({
      remaining: 2,
      used: 1,
      percent: 67,
    });
    expect(usesView({ usesLimit: 3, usesRemaining: 0 })).toMatchObject({ remaining: 0, used: 3, percent: 0 });
  });

  it('validity: permanent from a day, or from one day to another', () => {
    expect(validityView({ validFrom: day(2031, 5, 10).toISOString(), validTo: null })).toEqual({
      permanent: true,
      from: '2031-05-10',
    });
    expect(
      validityView({
        validFrom: day(2031, 5, 10).toISOString(),
        validTo: endOfDay(day(2031, 6, 30)).toISOString(),
      }),
    ).toEqual({ permanent: false, from: '2031-05-10', to: '2031-06-30' });
  });

  it('actions: edit and cancel only for a grant in effect, and only with the authorise permission', () => {
    expect(authActions({ status: 'inEffect' }, true)).toEqual(['detail', 'edit', 'cancel']);
    expect(authActions({ status: 'inEffect' }, false)).toEqual(['detail']);
    expect(authActions({ status: 'terminated' }, true)).toEqual(['detail']);
  });

  it('why a grant cannot be used now', () => {
    expect(unusableReason(grant(), NOW)).toBeNull();
    expect(unusableReason(grant({ usable: false, status: 'terminated' }), NOW)).toBe('terminated');
    expect(unusableReason(grant({ usable: false, usesRemaining: 0 }), NOW)).toBe('exhausted');
    expect(unusableReason(grant({ usable: false, validFrom: day(2031, 6, 1).toISOString() }), NOW)).toBe(
      'notStarted',
    );
    expect(unusableReason(grant({ usable: false, validTo: day(2031, 5, 1).toISOString() }), NOW)).toBe(
      'expired',
    );
  });
});

describe('filters → list request', () => {
  it('sends only the filters chosen', () => {
    expect(toListRequest({}, 1, 10)).toEqual({ pageNum: 1, pageSize: 10 });
    expect(toListRequest({ status: 'inEffect', sealCode: 'seal_1', granteeType: 'app' }, 2, 10)).toEqual({
      status: 'inEffect',
      sealCode: 'seal_1',
      granteeType: 'app',
      pageNum: 2,
      pageSize: 10,
    });
    expect(
      contracts.sealAuthListRequest.safeParse(toListRequest({ status: 'terminated' }, 1, 10)).success,
    ).toBe(true);
  });
});
