import { describe, expect, it } from 'vitest';
import {
  applyRowActions,
  daysLeft,
  isRenewalDue,
  keyRowActions,
  needsTargetKey,
  tabOf,
  tabOfApplyType,
} from './ukey-actions';

describe('keyRowActions', () => {
  it('lets a seal manager edit and unbind a key bound here', () => {
    expect(keyRowActions({ status: 'bound' }, { manage: true })).toEqual([
      'certProperties',
      'edit',
      'unbind',
    ]);
  });
  it('offers only the certificate for a key not bound here, or to someone who does not manage seals', () => {
    expect(keyRowActions({ status: 'unbound' }, { manage: true })).toEqual(['certProperties']);
    expect(keyRowActions({ status: 'replaced' }, { manage: true })).toEqual(['certProperties']);
    expect(keyRowActions({ status: 'bound' }, { manage: false })).toEqual(['certProperties']);
  });
});

describe('applyRowActions', () => {
  const can = { receive: true };
  it('follows the import states: revoke before making or after failure, make until it succeeds', () => {
    expect(applyRowActions('toImport', can)).toEqual(['detail', 'make', 'revoke']);
    expect(applyRowActions('importing', can)).toEqual(['detail', 'make']);
    expect(applyRowActions('failure', can)).toEqual(['detail', 'make', 'revoke']);
    expect(applyRowActions('success', can)).toEqual(['detail']);
    expect(applyRowActions('revoked', can)).toEqual(['detail']);
  });
  it('shows only the detail without the receiveUkey permission', () => {
    expect(applyRowActions('toImport', { receive: false })).toEqual(['detail']);
  });
});

describe('validity and kinds', () => {
  const now = new Date('2025-01-01T00:00:00Z');
  it('counts whole days left and opens renewal at 30 days or fewer', () => {
    expect(daysLeft('2025-01-31T00:00:00Z', now)).toBe(30);
    expect(isRenewalDue('2025-01-31T00:00:00Z', now)).toBe(true);
    expect(isRenewalDue('2025-02-01T00:00:00Z', now)).toBe(false);
    expect(isRenewalDue('2024-12-31T00:00:00Z', now)).toBe(false);
  });
  it('sends applications to the tab of their kind, and asks replacements and renewals for the old key', () => {
    expect(tabOfApplyType('ukey_online')).toBe('online');
    expect(tabOfApplyType('ukey_offline_renewal')).toBe('offline');
    expect(needsTargetKey('ukey_offline_replace')).toBe(true);
    expect(needsTargetKey('ukey_offline')).toBe(false);
  });
  it('reads the tab of the address, defaulting to signing keys', () => {
    expect(tabOf('online')).toBe('online');
    expect(tabOf('apply')).toBe('apply');
    expect(tabOf('offline')).toBe('offline');
    expect(tabOf(null)).toBe('offline');
    expect(tabOf('bogus')).toBe('offline');
  });
});
