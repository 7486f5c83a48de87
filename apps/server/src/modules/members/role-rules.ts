import { AppError, contracts, roleName, type Language } from '@openseal/core';
import type { Db } from '@openseal/db';
import { lackingPoints, pointsOfRoles } from '../../lib/permissions';
import * as repo from './members.repository';

const HOLDER = new Set<string>(contracts.HOLDER_ROLES);
export const isHolderRole = (r: string) => HOLDER.has(r);

/** Role codes with display names: built-in names from the catalogue, custom ones from the organisation. */
export async function roleRefs(db: Db, organizationId: string, codes: readonly string[], lang: Language) {
  const custom = codes.some((c) => !Object.hasOwn(contracts.BUILTIN_ROLE_POINTS, c))
    ? await repo.listCustomRoles(db, organizationId)
    : [];
  return codes.map((code) => ({
    code,
    name: custom.find((r) => r.code === code)?.name ?? roleName(code, lang),
  }));
}

/** Staff is the default: it stands alone or not at all. */
export function normaliseRoles(roles: readonly string[]): string[] {
  const set = [...new Set(roles)].filter((r) => r !== 'staff');
  return set.length ? set : ['staff'];
}

/**
 * A change of the roles of one member or invitation, from `before` to `after` (holder roles excluded: they
 * move only through the confirmed change). The roles wanted must exist and never be a holder role. No one
 * raises anyone, themselves included, above themselves: every role added must carry only points the
 * caller holds, and every role taken away too (so no one strips someone above them). Roles kept as they
 * were are not re-checked. Answers the normalised roles to store.
 */
export async function checkAssignment(
  db: Db,
  organizationId: string,
  caller: ReadonlySet<string>,
  change: { before: readonly string[]; after: readonly string[]; self: boolean },
): Promise<string[]> {
  const wanted = normaliseRoles(change.after);
  const custom = await repo.listCustomRoles(db, organizationId);
  for (const r of wanted) {
    if (isHolderRole(r)) throw new AppError('member.roleNotAssignable');
    if (!Object.hasOwn(contracts.BUILTIN_ROLE_POINTS, r) && !custom.some((c) => c.code === r))
      throw new AppError('role.notFound');
  }
  const before = new Set(change.before.filter((r) => !isHolderRole(r) && r !== 'staff'));
  const added = wanted.filter((r) => r !== 'staff' && !before.has(r));
  const removed = [...before].filter((r) => !wanted.includes(r));
  const notHeld = lackingPoints(caller, await pointsOfRoles(db, organizationId, added));
  if (notHeld.length)
    throw new AppError(change.self ? 'member.selfGrant' : 'member.grantNotHeld', {
      details: { points: notHeld },
    });
  const notRevocable = lackingPoints(caller, await pointsOfRoles(db, organizationId, removed));
  if (notRevocable.length) throw new AppError('member.revokeNotHeld', { details: { points: notRevocable } });
  return wanted;
}
