import { describe, expect, it } from 'vitest';
import { afterLoginTarget } from './redirect';

describe('after-login target', () => {
  it('returns to in-app addresses only', () => {
    expect(afterLoginTarget(null)).toBe('/');
    expect(afterLoginTarget('/sealService/mySealList?x=1')).toBe('/sealService/mySealList?x=1');
    expect(afterLoginTarget('https://elsewhere.example/')).toBe('/');
    expect(afterLoginTarget('//elsewhere.example/')).toBe('/');
    expect(afterLoginTarget('/login?redirect=%2F')).toBe('/');
  });
});
