import { findMobileRoute } from './mobile-routes';
import { MOBILE_BASE, MOBILE_EXEMPT_PATHS, normalisePath, type EffectiveMeta } from './route-table';

export { isMobileClient, MOBILE_MAX_WIDTH } from '../lib/device';

/** The query parameter of the mobile home that keeps the desktop address a phone asked for. */
export const FROM_PARAM = 'from';

export function isMobilePath(path: string): boolean {
  const p = normalisePath(path);
  return p === MOBILE_BASE || p.startsWith(`${MOBILE_BASE}/`);
}

/**
 * Where a phone is sent for a desktop address: routes with H5 pages to the same path under /h5, the
 * others to the mobile root, except the exempt ones (null: stay). The mobile root keeps the address asked
 * for (`?from=`), so "continue to desktop" can return to it.
 */
export function mobileRedirectTarget(
  path: string,
  search: string,
  meta: EffectiveMeta | null,
): string | null {
  const p = normalisePath(path);
  if (isMobilePath(p)) return null;
  if (MOBILE_EXEMPT_PATHS.some((exempt) => exempt.toLowerCase() === p.toLowerCase())) return null;
  if (meta?.hasH5 || findMobileRoute(p)) return `${MOBILE_BASE}${p === '/' ? '/' : p}${search}`;
  return `${MOBILE_BASE}/?${FROM_PARAM}=${encodeURIComponent(`${p}${search}`)}`;
}
