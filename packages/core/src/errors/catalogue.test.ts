import { describe, expect, it } from 'vitest';
import { AppError, catalogue, entryForCode, messageFor, SESSION_INVALID_CODES } from '../index';

describe('error catalogue (spec 8)', () => {
  it('has unique codes and keys, and both languages for each', () => {
    expect(new Set(catalogue.map((e) => e.code)).size).toBe(catalogue.length);
    expect(new Set(catalogue.map((e) => e.key)).size).toBe(catalogue.length);
    for (const e of catalogue) {
      expect(e.zh.length).toBeGreaterThan(0);
      expect(e.en.length).toBeGreaterThan(0);
      expect(e.http).toBeGreaterThanOrEqual(200);
    }
  });
  it('lists exactly the session-invalid codes of section 8', () => {
    expect([...SESSION_INVALID_CODES].sort((a, b) => a - b)).toEqual([
      102, 201, 202, 225, 310, 312, 1097, 1099, 90001, 150001,
    ]);
  });
  it('keeps the special codes of section 8', () => {
    expect(entryForCode(305)?.handling).toBe('toastFail');
    expect(entryForCode(120033)?.handling).toBe('passThrough');
    expect(entryForCode(120034)?.handling).toBe('passThrough');
    expect(entryForCode(-999)?.handling).toBe('special');
    expect(entryForCode(402)?.handling).toBe('goHome');
    expect(entryForCode(315)?.handling).toBe('loginException');
    for (const c of [0, 100, 1000]) expect(entryForCode(c)?.handling).toBe('success');
  });
  it('fills message parameters', () => {
    expect(messageFor('ukey.pinWrong', 'en', { remaining: 3 })).toBe('Wrong PIN; 3 attempts left');
    expect(messageFor('ukey.pinWrong', 'zh-CN', { remaining: 3 })).toContain('3次');
  });
  it('AppError carries code and status', () => {
    const e = new AppError('org.nameExists');
    expect([e.code, e.httpStatus, e.key]).toEqual([3003, 409, 'org.nameExists']);
  });
});
