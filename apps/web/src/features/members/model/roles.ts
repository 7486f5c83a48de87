import type { contracts } from '@openseal/core';

/** Role rules the screens need, mirroring the server's checks (which decide anyway). */

/** The two roles that move only through the SMS-confirmed change (same list as the core contract). */
export const HOLDER_ROLES: typeof contracts.HOLDER_ROLES = ['legalPerson', 'superAdmin'];

export function isHolderRole(code: string): boolean {
  return (HOLDER_ROLES as readonly string[]).includes(code);
}

export interface RoleLike {
  code: string;
  name: string;
  points: readonly string[];
}

/**
 * Roles a caller may grant: never a holder role, and nothing that carries a point outside the caller's
 * grantable points (no one raises anyone above themselves).
 */
export function grantableRoles<R extends RoleLike>(roles: readonly R[], grantable: readonly string[]): R[] {
  const held = new Set(grantable);
  return roles.filter((r) => !isHolderRole(r.code) && r.points.every((p) => held.has(p)));
}

/**
 * A member's roles the caller cannot offer (above the caller's points): an edit keeps them, since taking
 * them away is refused just as granting them is.
 */
export function keptRoleCodes(codes: readonly string[], offered: readonly RoleLike[]): string[] {
  return codes.filter((c) => !isHolderRole(c) && !offered.some((r) => r.code === c));
}

/** The roles an edit may change: holder roles stay out of the choice (they are kept by the server). */
export function editableRoleCodes(codes: readonly string[]): string[] {
  return codes.filter((c) => !isHolderRole(c));
}

/** Colours of the member and application statuses. */
export const STATUS_COLOUR: Record<string, string> = {
  active: 'green',
  paused: 'orange',
  invited: 'blue',
  pending: 'blue',
  approved: 'green',
  rejected: 'red',
  withdrawn: 'default',
};
