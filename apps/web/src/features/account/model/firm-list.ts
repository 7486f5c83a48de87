import { REAL_NAME_STATUS } from '@openseal/core';
import type { AccountListEntry } from '../../../lib/contracts';

/** Section 9: the organisation list shows the chosen space first, then real-named before the others. */
export function orderFirmList<T extends Pick<AccountListEntry, 'chooseStatus' | 'realNameStatus'>>(
  list: readonly T[],
): T[] {
  const rank = (e: T) => (e.chooseStatus ? 0 : e.realNameStatus === REAL_NAME_STATUS.verified ? 1 : 2);
  // Array.prototype.sort is stable, so the server's order holds within each group.
  return [...list].sort((a, b) => rank(a) - rank(b));
}

export function isVerified(entry: Pick<AccountListEntry, 'realNameStatus'>): boolean {
  return entry.realNameStatus === REAL_NAME_STATUS.verified;
}

/** A non-current organisation that has not finished real-name can be deleted. */
export function canDeleteFirm(entry: Pick<AccountListEntry, 'chooseStatus' | 'realNameStatus'>): boolean {
  return !entry.chooseStatus && !isVerified(entry);
}

export interface SpaceMenuRules {
  identityType: 1 | 2;
  hasPersonalAccount: boolean;
  personOrgSwitch: boolean;
  legalCreateDisable: boolean;
  isKeyLogin: boolean;
}

/** Section 6: who sees which entries of the account dropdown. */
export function spaceMenuVisibility(rules: SpaceMenuRules): {
  orgList: boolean;
  createOrg: boolean;
  switchToPersonal: boolean;
} {
  const isOrg = rules.identityType === 1;
  return {
    orgList: !rules.isKeyLogin && (isOrg || rules.personOrgSwitch),
    createOrg: isOrg || (rules.personOrgSwitch && !rules.legalCreateDisable),
    switchToPersonal: isOrg && rules.hasPersonalAccount && rules.personOrgSwitch,
  };
}
