import { AppError, contracts, roleName, type Language } from '@openseal/core';
import type { Db } from '@openseal/db';
import { pointsOfRoles } from '../../lib/permissions';
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
 * Roles a caller may hand out: known in the organisation, never a holder role (those move only through
 * the confirmed change), and granting nothing the caller does not hold, so no one can raise anyone above
 * themselves.
 */
export async function checkGrantable(
  db: Db,
  organizationId: string,
  callerPoints: Set<string>,
  roles: readonly string[],
): Promise<string[]> {
  const wanted = normaliseRoles(roles);
  const custom = await repo.listCustomRoles(db, organizationId);
  for (const r of wanted) {
    if (isHolderRole(r)) throw new AppError('member.roleNotAssignable');
    if (!Object.hasOwn(contracts.BUILTIN_ROLE_POINTS, r) && !custom.some((c) => c.code === r))
      throw new AppError('role.notFound');
  }
  for (const p of await pointsOfRoles(db, organizationId, wanted))
    if (!callerPoints.has(p)) throw new AppError('member.roleNotAssignable');
  return wanted;
}
