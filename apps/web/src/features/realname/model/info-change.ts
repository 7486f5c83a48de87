import { readStorage, writeStorage } from '../../../lib/storage';

/**
 * Rules of the info-change tip and dialog (spec sections 4 and 6) that need no browser: who may confirm,
 * what "cancelled for this session" means, and the address a close reloads.
 */

/**
 * Roles that may confirm: the spec's legal representative, seal administrator and administrator, plus
 * the super administrator, whom the server accepts as well (realname.service `CHANGE_ROLES`).
 */
export const CHANGE_CONFIRM_ROLES = ['legalPerson', 'sealAdmin', 'admin', 'superAdmin'] as const;

/** Spec section 6: one of the roles above, or the server's legal-change permission flag. */
export function mayConfirmChange(roles: readonly { code: string }[], permissionFlag: boolean): boolean {
  return permissionFlag || roles.some((r) => (CHANGE_CONFIRM_ROLES as readonly string[]).includes(r.code));
}

/**
 * Cancelling is remembered per organisation in session storage: the tab stops asking until it is closed,
 * and another organisation's changes (after a space switch) still show.
 */
const CANCELLED_PREFIX = 'infoChangeCancelled:';

export function isChangeCancelled(organizeId: string): boolean {
  return readStorage(CANCELLED_PREFIX + organizeId, 'session') === '1';
}

export function rememberChangeCancelled(organizeId: string): void {
  writeStorage(CANCELLED_PREFIX + organizeId, '1', 'session');
}

/** Spec section 4: closing reloads the page without `flowId`, so a finished flow is not shown again. */
export function addressWithoutFlowId(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('flowId');
  return `${url.pathname}${url.search}${url.hash}`;
}
