import { describe, expect, it } from 'vitest';
import { isMobileClient } from './device';

const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';

describe('mobile client detection', () => {
  it('takes phone-sized windows and phone browsers for mobile', () => {
    expect(isMobileClient(390, DESKTOP)).toBe(true);
    expect(isMobileClient(768, DESKTOP)).toBe(true);
    expect(isMobileClient(1280, PHONE)).toBe(true);
    expect(isMobileClient(1280, DESKTOP)).toBe(false);
    expect(isMobileClient(1024, 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) Mobile/15E148')).toBe(false);
  });

  it('ignores the transient tiny widths a desktop window reports while it is created or captured', () => {
    expect(isMobileClient(1, DESKTOP)).toBe(false);
    expect(isMobileClient(0, DESKTOP)).toBe(false);
    expect(isMobileClient(120, DESKTOP)).toBe(false);
  });
});
