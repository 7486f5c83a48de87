import { describe, expect, it } from 'vitest';
import { reasonText } from './reason';

describe('failure reasons', () => {
  it('shows a catalogued reason in the page language', () => {
    expect(reasonText('realName.identityMismatch', 'zh-CN')).toBe('姓名与身份证号码不一致');
    expect(reasonText('realName.legalMismatch', 'en')).toBe(
      'The legal representative does not match the business registry',
    );
    expect(reasonText('realName.amountTooMany', 'zh-CN')).toBe('打款金额错误次数过多，请重新认证');
    expect(reasonText('realName.amountTooMany', 'en')).toBe(
      'Too many wrong amounts; start the verification again',
    );
  });

  it("shows an operator's or a service's own words as written", () => {
    expect(reasonText('营业执照不清晰', 'en')).toBe('营业执照不清晰');
    expect(reasonText('manual review: licence expired', 'zh-CN')).toBe('manual review: licence expired');
  });
});
