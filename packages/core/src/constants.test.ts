import { describe, expect, it } from 'vitest';
import { dayEnd, dayStart, LIMITS, mmToPx, roleName } from './constants';

describe('section 9 helpers', () => {
  it('converts mm to pixels at 400 dpi', () => {
    expect(mmToPx(25.4)).toBe(400);
    expect(Math.round(mmToPx(42))).toBe(661); // a Ø42 mm company seal
  });
  it('spans a whole day: 00:00:00 to 23:59:59', () => {
    const d = new Date(2026, 10, 21, 15, 30);
    expect([dayStart(d).getHours(), dayStart(d).getMinutes(), dayStart(d).getSeconds()]).toEqual([0, 0, 0]);
    expect([dayEnd(d).getHours(), dayEnd(d).getMinutes(), dayEnd(d).getSeconds()]).toEqual([23, 59, 59]);
    expect(dayStart(d).getDate()).toBe(21);
    expect(d.getHours()).toBe(15); // the input is not changed
  });
  it('keeps the limits of section 9', () => {
    expect([
      LIMITS.warningDialogWidth,
      LIMITS.dialogWidth,
      LIMITS.switchDelayMs,
      LIMITS.verifyUploadMaxBytes,
    ]).toEqual([440, 510, 800, 3 * 1024 * 1024]);
  });
  it('names roles in both languages and passes unknown codes through', () => {
    expect(roleName('superAdmin', 'zh-CN')).toBe('超级管理员');
    expect(roleName('signAdmin', 'en')).toBe('Signing administrator');
    expect(roleName('custom_1', 'en')).toBe('custom_1');
  });
});
