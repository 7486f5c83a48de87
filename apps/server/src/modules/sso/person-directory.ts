import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import * as accounts from '../accounts/accounts.repository';

/**
 * The few person operations single sign-on needs. The accounts module owns the persons table; this port
 * keeps SSO to its public repository functions until the accounts service offers them itself.
 */
export interface PersonDirectory {
  byId(
    db: Db,
    personId: string,
  ): Promise<{ id: string; mobile: string; name: string; active: boolean } | null>;
  byMobile(
    db: Db,
    mobile: string,
  ): Promise<{ id: string; mobile: string; name: string; active: boolean } | null>;
  /** Registers a person with a proven mobile; answers the existing one when the mobile is taken. */
  register(
    db: Db,
    p: { mobile: string; name: string | null },
  ): Promise<{ person: { id: string; mobile: string; name: string; active: boolean }; created: boolean }>;
}

type Row = NonNullable<Awaited<ReturnType<typeof accounts.findPersonById>>>;
const view = (p: Row) => ({ id: p.id, mobile: p.mobile, name: p.name, active: p.status === 'active' });

export function createPersonDirectory(): PersonDirectory {
  return {
    async byId(db, personId) {
      const p = await accounts.findPersonById(db, personId);
      return p ? view(p) : null;
    },
    async byMobile(db, mobile) {
      const p = await accounts.findPersonByMobile(db, mobile);
      return p ? view(p) : null;
    },
    async register(db, { mobile, name }) {
      const id = newId('psn');
      const p = await accounts.insertPersonIfAbsent(db, {
        id,
        mobile,
        name: name ?? `用户${mobile.slice(-4)}`,
      });
      return { person: view(p), created: p.id === id };
    },
  };
}
