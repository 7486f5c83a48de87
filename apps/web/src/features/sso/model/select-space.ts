import { REAL_NAME_STATUS } from '@openseal/core';
import type { AccountList } from '../../../lib/contracts';

/** One space offered on /selectSpace. */
export interface SpaceChoice {
  kind: 'person' | 'org';
  accountId: string;
  name: string;
  realNameStatus: number;
  /** The space of the current token: choosing it only continues home. */
  current: boolean;
}

/**
 * The spaces a person may enter after single sign-on: the personal space and their organisations, as
 * PERSON_SSO_SPACE allows ("person", "org"). The personal space stays when no organisation is left, so
 * the page never offers nothing. Organisations keep the firm-list order (spec section 9): real-named first.
 */
export function selectableSpaces(
  list: Pick<AccountList, 'ownAccounts' | 'personAccount'>,
  personSsoSpace: readonly string[],
): SpaceChoice[] {
  const orgs = personSsoSpace.includes('org')
    ? list.ownAccounts
        .filter((a) => a.type === 1)
        .map((a, index) => ({ a, index }))
        .sort(
          (x, y) =>
            Number(y.a.realNameStatus === REAL_NAME_STATUS.verified) -
              Number(x.a.realNameStatus === REAL_NAME_STATUS.verified) || x.index - y.index,
        )
        .map(({ a }) => ({
          kind: 'org' as const,
          accountId: a.accountId,
          name: a.name,
          realNameStatus: a.realNameStatus,
          current: a.chooseStatus,
        }))
    : [];
  const p = list.personAccount;
  const person: SpaceChoice = {
    kind: 'person',
    accountId: p.accountId,
    name: p.name,
    realNameStatus: p.realNameStatus,
    current: p.chooseStatus,
  };
  return personSsoSpace.includes('person') || orgs.length === 0 ? [person, ...orgs] : orgs;
}
