import { describe, expect, it } from 'vitest';
import type { AccountListEntry } from '../../../lib/contracts';
import { selectableSpaces } from './select-space';

const person: AccountListEntry = {
  accountId: 'psn_1',
  organizeId: null,
  type: 2,
  name: '张三',
  chooseStatus: true,
  realNameStatus: 1,
};
const org = (id: string, realNameStatus: 0 | 1 | 2 | 3): AccountListEntry => ({
  accountId: id,
  organizeId: id,
  type: 1,
  name: `企业${id}`,
  chooseStatus: false,
  realNameStatus,
});
const list = { personAccount: person, ownAccounts: [person, org('o1', 0), org('o2', 1), org('o3', 2)] };

describe('spaces offered on /selectSpace', () => {
  it('offers the personal space first, then organisations with real-named ones first', () => {
    const spaces = selectableSpaces(list, ['person', 'org']);
    expect(spaces.map((s) => s.accountId)).toEqual(['psn_1', 'o2', 'o1', 'o3']);
    expect(spaces[0]).toEqual({
      kind: 'person',
      accountId: 'psn_1',
      name: '张三',
      realNameStatus: 1,
      current: true,
    });
    expect(spaces.slice(1).every((s) => s.kind === 'org' && !s.current)).toBe(true);
    expect(spaces.map((s) => s.realNameStatus)).toEqual([1, 1, 0, 2]);
  });

  it('follows PERSON_SSO_SPACE', () => {
    expect(selectableSpaces(list, ['org']).map((s) => s.accountId)).toEqual(['o2', 'o1', 'o3']);
    expect(selectableSpaces(list, ['person']).map((s) => s.accountId)).toEqual(['psn_1']);
  });

  it('never offers nothing: the personal space stays when there is no organisation', () => {
    expect(selectableSpaces({ personAccount: person, ownAccounts: [person] }, ['org'])).toHaveLength(1);
    expect(selectableSpaces(list, [])).toHaveLength(1);
  });
});
