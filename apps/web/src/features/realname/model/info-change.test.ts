import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addressWithoutFlowId,
  isChangeCancelled,
  mayConfirmChange,
  rememberChangeCancelled,
} from './info-change';

describe('who may confirm an information change', () => {
  it('lets the legal representative, seal administrator, administrator and super administrator confirm', () => {
    for (const code of ['legalPerson', 'sealAdmin', 'admin', 'superAdmin'])
      expect(mayConfirmChange([{ code: 'staff' }, { code }], false)).toBe(true);
  });

  it('refuses staff and custom roles unless the server grants the legal-change flag', () => {
    expect(mayConfirmChange([{ code: 'staff' }, { code: 'signAdmin' }], false)).toBe(false);
    expect(mayConfirmChange([{ code: 'custom_auditor' }], false)).toBe(false);
    expect(mayConfirmChange([], false)).toBe(false);
    expect(mayConfirmChange([{ code: 'staff' }], true)).toBe(true);
  });
});

describe('the address a closed dialog reloads', () => {
  it('drops flowId and keeps everything else', () => {
    expect(addressWithoutFlowId('http://h/userCenter/infoEnt?flowId=rnf_1&tab=2#top')).toBe(
      '/userCenter/infoEnt?tab=2#top',
    );
    expect(addressWithoutFlowId('http://h/?flowId=rnf_1')).toBe('/');
    expect(addressWithoutFlowId('http://h/sealService/mySealList?a=1')).toBe('/sealService/mySealList?a=1');
  });
});

describe('cancelled for this session', () => {
  const saved = globalThis.sessionStorage;
  beforeEach(() => {
    const values = new Map<string, string>();
    Object.defineProperty(globalThis, 'sessionStorage', {
      configurable: true,
      value: {
        getItem: (k: string) => values.get(k) ?? null,
        setItem: (k: string, v: string) => values.set(k, v),
        removeItem: (k: string) => values.delete(k),
      },
    });
  });
  afterEach(() => {
    Object.defineProperty(globalThis, 'sessionStorage', { configurable: true, value: saved });
  });

  it('is remembered per organisation', () => {
    expect(isChangeCancelled('org_a')).toBe(false);
    rememberChangeCancelled('org_a');
    expect(isChangeCancelled('org_a')).toBe(true);
    expect(isChangeCancelled('org_b')).toBe(false);
  });
});
