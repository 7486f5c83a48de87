import { describe, expect, it } from 'vitest';
import { canDeleteFirm, orderFirmList, spaceMenuVisibility } from './firm-list';
import { canSubmit, EMPTY_FORM, normaliseUsccInput, onInput } from './org-form';
import { safeRedirect } from './safe-redirect';

const firm = (name: string, chooseStatus: boolean, realNameStatus: number) => ({
  name,
  chooseStatus,
  realNameStatus,
});

describe('organisation list', () => {
  it('puts the chosen space first, then verified before unverified, keeping the order within groups', () => {
    const list = [
      firm('a', false, 0),
      firm('b', false, 1),
      firm('c', true, 0),
      firm('d', false, 2),
      firm('e', false, 1),
    ];
    expect(orderFirmList(list).map((f) => f.name)).toEqual(['c', 'b', 'e', 'a', 'd']);
  });

  it('lets only non-current, unverified organisations be deleted', () => {
    expect(canDeleteFirm(firm('x', false, 0))).toBe(true);
    expect(canDeleteFirm(firm('x', true, 0))).toBe(false);
    expect(canDeleteFirm(firm('x', false, 1))).toBe(false);
  });

  it('shows create organisation and the way back to the personal space per section 6', () => {
    const rules = {
      hasPersonalAccount: true,
      personOrgSwitch: true,
      legalCreateDisable: false,
      isKeyLogin: false,
    };
    expect(spaceMenuVisibility({ ...rules, identityType: 1 })).toEqual({
      orgList: true,
      createOrg: true,
      switchToPersonal: true,
    });
    expect(spaceMenuVisibility({ ...rules, identityType: 2 }).switchToPersonal).toBe(false);
    expect(spaceMenuVisibility({ ...rules, identityType: 2, legalCreateDisable: true }).createOrg).toBe(
      false,
    );
    expect(spaceMenuVisibility({ ...rules, identityType: 1, legalCreateDisable: true }).createOrg).toBe(true);
    expect(spaceMenuVisibility({ ...rules, identityType: 2, personOrgSwitch: false }).createOrg).toBe(false);
    expect(spaceMenuVisibility({ ...rules, identityType: 1, personOrgSwitch: false }).switchToPersonal).toBe(
      false,
    );
    expect(
      spaceMenuVisibility({ ...rules, identityType: 1, hasPersonalAccount: false }).switchToPersonal,
    ).toBe(false);
    expect(spaceMenuVisibility({ ...rules, identityType: 1, isKeyLogin: true }).orgList).toBe(false);
  });
});

describe('create-organisation form', () => {
  it('enables confirm only when both fields passed, and input resets a verdict', () => {
    const valid = { ...EMPTY_FORM.organizeName, status: 'valid' as const, value: 'x' };
    const both = { organizeName: valid, uscc: valid };
    expect(canSubmit(EMPTY_FORM)).toBe(false);
    expect(canSubmit(both)).toBe(true);
    const typed = onInput(both, 'uscc', '9');
    expect(typed.uscc).toEqual({ value: '9', status: 'idle', errorKey: null });
    expect(canSubmit(typed)).toBe(false);
  });

  it('upper-cases credit codes and drops spaces', () => {
    expect(normaliseUsccInput('91 37 0000728611939a')).toBe('91370000728611939A');
  });
});

describe('logout redirect', () => {
  it('follows site paths and http(s) addresses only', () => {
    expect(safeRedirect(undefined)).toBe('/');
    expect(safeRedirect('/login')).toBe('/login');
    expect(safeRedirect('https://sso.example.gov.cn/logout')).toBe('https://sso.example.gov.cn/logout');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect('javascript:alert(1)')).toBe('/');
  });
});
