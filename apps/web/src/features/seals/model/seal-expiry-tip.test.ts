import { describe, expect, it } from 'vitest';
import {
  daysOf,
  effectiveRemindType,
  isTipHidden,
  mayLoadTip,
  renewTarget,
  showsRenewButton,
  tipTextKey,
  tipTextParams,
  TIP_HIDDEN_PATHS,
  type ExpiryTip,
} from './seal-expiry-tip';

const tip = (over: Partial<ExpiryTip> = {}): ExpiryTip => ({
  certId: 'ab12',
  certType: 'CLOUD_CERT',
  remindType: 'IN_OF_DATE',
  message: '10',
  sealCode: 'seal_1',
  sealName: '合同专用章',
  validTo: '2030-01-01T00:00:00.000Z',
  ...over,
});

describe('seal-expiry tip: where it shows', () => {
  it('is hidden on every order, pay, make-UKey, change-UKey-seal and createOrder page', () => {
    for (const p of [
      '/sealOrderInfo',
      '/sealPayTransit',
      '/commonPay',
      '/commonPayResult',
      '/makeUKey',
      '/ChangeUkeySeal',
      '/createOrder',
    ])
      expect(isTipHidden(p, false)).toBe(true);
    expect(TIP_HIDDEN_PATHS).toHaveLength(7);
    expect(isTipHidden('/makeUKey/', false)).toBe(true);
  });
  it('shows elsewhere, but never inside an iframe', () => {
    expect(isTipHidden('/', false)).toBe(false);
    expect(isTipHidden('/sealService/mySealList', false)).toBe(false);
    expect(isTipHidden('/commonPayResultX', false)).toBe(false);
    expect(isTipHidden('/', true)).toBe(true);
  });
});

describe('seal-expiry tip: who loads it', () => {
  const base = { realNamed: true, sealManage: false, receiveUkey: false };
  it('a person always', () => {
    expect(mayLoadTip({ ...base, identity: 2 })).toBe(true);
  });
  it('an organisation member only with sealManage or receiveUkey', () => {
    expect(mayLoadTip({ ...base, identity: 1 })).toBe(false);
    expect(mayLoadTip({ ...base, identity: 1, sealManage: true })).toBe(true);
    expect(mayLoadTip({ ...base, identity: 1, receiveUkey: true })).toBe(true);
    expect(mayLoadTip({ ...base, identity: 1, sealManage: undefined, receiveUkey: undefined })).toBe(false);
  });
  it('nobody before the space is real-named or while logged out', () => {
    expect(mayLoadTip({ ...base, identity: 2, realNamed: false })).toBe(false);
    expect(mayLoadTip({ ...base, identity: 1, sealManage: true, realNamed: false })).toBe(false);
    expect(mayLoadTip({ ...base, identity: null })).toBe(false);
  });
});

describe('seal-expiry tip: words', () => {
  it('a zero-day tip takes its TODAY_ form', () => {
    expect(effectiveRemindType(tip({ remindType: 'IN_OF_DATE', message: '0' }))).toBe('TODAY_IN_OF_DATE');
    expect(effectiveRemindType(tip({ remindType: 'OUT_OF_DATE', message: '0' }))).toBe('TODAY_OUT_OF_DATE');
    expect(effectiveRemindType(tip({ remindType: 'TODAY_OUT_OF_DATE', message: '0' }))).toBe(
      'TODAY_OUT_OF_DATE',
    );
    // An invalid certificate stays invalid (its message is always 0).
    expect(effectiveRemindType(tip({ remindType: 'CERT_INVALID', message: '0' }))).toBe('CERT_INVALID');
  });
  it('other days keep their type', () => {
    expect(effectiveRemindType(tip({ remindType: 'IN_OF_DATE', message: '10' }))).toBe('IN_OF_DATE');
    expect(effectiveRemindType(tip({ remindType: 'OUT_OF_DATE', message: '3' }))).toBe('OUT_OF_DATE');
    expect(effectiveRemindType(tip({ remindType: 'IN_OF_DATE', message: 'x' }))).toBe('IN_OF_DATE');
  });
  it('picks the sentence and passes the days and the seal name', () => {
    expect(tipTextKey(tip({ message: '10' }))).toBe('sealRemind.text.IN_OF_DATE');
    expect(tipTextKey(tip({ message: '0' }))).toBe('sealRemind.text.TODAY_IN_OF_DATE');
    expect(tipTextParams(tip({ message: '10' }))).toEqual({ days: 10, name: '合同专用章' });
    expect(tipTextParams(tip({ message: '-4' }))).toEqual({ days: 4, name: '合同专用章' });
    expect(daysOf(' 7 ')).toBe(7);
    expect(daysOf('seven')).toBeNull();
  });
});

describe('seal-expiry tip: renew button', () => {
  it('cloud certificates go to my seal list at the seal, or the list', () => {
    expect(renewTarget(tip())).toBe('/sealService/mySealList?sealCode=seal_1');
    expect(renewTarget(tip({ sealCode: '' }))).toBe('/sealService/mySealList');
  });
  it('UKey certificates go to the offline tab of UKey management', () => {
    expect(renewTarget(tip({ certType: 'UKEY_CERT' }))).toBe('/sealService/ukeyManage?tab=offline');
  });
  it('is hidden for an invalid certificate', () => {
    expect(showsRenewButton(tip({ remindType: 'CERT_INVALID', message: '0' }), '/')).toBe(false);
    expect(showsRenewButton(tip({ remindType: 'OUT_OF_DATE', message: '2' }), '/')).toBe(true);
    expect(showsRenewButton(tip({ remindType: 'IN_OF_DATE', message: '0' }), '/')).toBe(true);
  });
  it('is hidden on the page where the renewal happens', () => {
    expect(showsRenewButton(tip(), '/sealService/mySealList')).toBe(false);
    expect(showsRenewButton(tip(), '/sealService/ukeyManage')).toBe(true);
    expect(showsRenewButton(tip({ certType: 'UKEY_CERT' }), '/sealService/ukeyManage')).toBe(false);
    expect(showsRenewButton(tip({ certType: 'UKEY_CERT' }), '/sealService/mySealList')).toBe(true);
  });
});
