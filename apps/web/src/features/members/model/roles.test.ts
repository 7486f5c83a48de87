import { describe, expect, it } from 'vitest';
import { editableRoleCodes, grantableRoles, isHolderRole, keptRoleCodes } from './roles';

describe('member role rules', () => {
  const roles = [
    { code: 'legalPerson', name: 'L', points: ['member.view'] },
    { code: 'superAdmin', name: 'S', points: ['member.view'] },
    { code: 'admin', name: 'A', points: ['member.view', 'member.manage'] },
    { code: 'staff', name: 'St', points: ['seal.view'] },
    { code: 'custom_1', name: 'C', points: ['seal.claim'] },
  ];

  it('never offers holder roles, nor roles above the caller', () => {
    const codes = grantableRoles(roles, ['member.view', 'member.manage', 'seal.view']).map((r) => r.code);
    expect(codes).toEqual(['admin', 'staff']);
  });

  it('keeps holder roles out of the editable choice', () => {
    expect(isHolderRole('superAdmin')).toBe(true);
    expect(isHolderRole('admin')).toBe(false);
    expect(editableRoleCodes(['superAdmin', 'sealAdmin'])).toEqual(['sealAdmin']);
  });

  it('keeps the roles an edit cannot offer', () => {
    const offered = grantableRoles(roles, ['member.view', 'member.manage', 'seal.view']);
    expect(keptRoleCodes(['superAdmin', 'admin', 'custom_1'], offered)).toEqual(['custom_1']);
  });
});
