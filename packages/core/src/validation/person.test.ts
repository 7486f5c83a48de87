import { describe, expect, it } from 'vitest';
import { checkMobile, checkPassword, checkResidentId, checkSmsCode, maskPhone } from './person';

describe('checkMobile', () => {
  it.each(['13800138000', '19912345678', ' 15000000000 '])('accepts %j', (m) =>
    expect(checkMobile(m).ok).toBe(true),
  );
  it.each([
    '',
    '1380013800',
    '138001380000',
    '12800138000',
    '23800138000',
    '1380013800a',
    '+8613800138000',
    null,
  ])('rejects %j', (m) => expect(checkMobile(m)).toEqual({ ok: false, key: 'account.mobileFormat' }));
});

describe('checkSmsCode', () => {
  it('accepts six digits', () => expect(checkSmsCode('012345')).toEqual({ ok: true, value: '012345' }));
  it.each(['12345', '1234567', 'abcdef', '', '12 345'])('rejects %j', (c) =>
    expect(checkSmsCode(c)).toEqual({ ok: false, key: 'account.codeFormat' }),
  );
});

describe('checkPassword', () => {
  it.each(['abcd1234', 'A1' + 'x'.repeat(30)])('accepts %j', (p) => expect(checkPassword(p).ok).toBe(true));
  it.each(['abc1234', 'abcdefgh', '12345678', 'abcd 1234', 'A1' + 'x'.repeat(31), undefined])(
    'rejects %j',
    (p) => expect(checkPassword(p)).toEqual({ ok: false, key: 'account.passwordWeak' }),
  );
});

describe('checkResidentId (GB 11643-1999)', () => {
  it.each(['11010519491231002X', '440524188001010014', '11010519491231002x'])('accepts %j', (v) =>
    expect(checkResidentId(v)).toEqual({ ok: true, value: v.toUpperCase() }),
  );
  it.each([
    '110105194912310021',
    '11010519491331002X',
    '11010519490230002X',
    '1101051949123100',
    'ABCDEFGHIJKLMNOPQR',
  ])('rejects %j', (v) => expect(checkResidentId(v)).toEqual({ ok: false, key: 'realName.idFormat' }));
});

describe('maskPhone (section 9: first 3, last 4)', () => {
  it('masks the middle', () => expect(maskPhone('13800138000')).toBe('138****8000'));
  it('leaves short values alone', () => expect(maskPhone('1234567')).toBe('1234567'));
  it('handles empty', () => expect(maskPhone(undefined)).toBe(''));
  it('leaves a masked number as it is', () => expect(maskPhone('138****8000')).toBe('138****8000'));
});
