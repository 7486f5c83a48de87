import { mobileRedirectTarget } from './mobile';
import type { EffectiveMeta } from './route-table';

/** The one route guard of spec section 2, as a pure decision the router layout carries out. */
export interface GuardInput {
  path: string;
  search: string;
  /** null for addresses outside the route table (plugin routes and unknown paths). */
  meta: EffectiveMeta | null;
  hasToken: boolean;
  /** Identity of the signed-in space once user info has loaded; null while unknown. */
  identityType: 1 | 2 | null;
  userInfoLoaded: boolean;
  isMobile: boolean;
}

export type GuardDecision =
  | { kind: 'allow' }
  | { kind: 'wait' }
  | { kind: 'redirect'; to: string; reason: 'mobile' | 'login' | 'personBlocked' };

export function loginRedirect(path: string, search: string): string {
  return `/login?redirect=${encodeURIComponent(`${path}${search}`)}`;
}

export function decideGuard(input: GuardInput): GuardDecision {
  const { meta } = input;
  if (input.isMobile) {
    const to = mobileRedirectTarget(input.path, input.search, meta);
    if (to) return { kind: 'redirect', to, reason: 'mobile' };
  }
  if (!meta) return { kind: 'allow' };
  if (meta.needLogin && !input.hasToken) {
    return { kind: 'redirect', to: loginRedirect(input.path, input.search), reason: 'login' };
  }
  const needsIdentity = meta.needUserInfo || !meta.personAuth;
  if (needsIdentity && input.hasToken && !input.userInfoLoaded) return { kind: 'wait' };
  if (!meta.personAuth && input.hasToken && input.identityType === 2) {
    return { kind: 'redirect', to: '/', reason: 'personBlocked' };
  }
  return { kind: 'allow' };
}
