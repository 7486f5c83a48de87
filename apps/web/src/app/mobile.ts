import { MOBILE_BASE, MOBILE_EXEMPT_PATHS, normalisePath, type EffectiveMeta } from './route-table';

export { isMobileClient, MOBILE_MAX_WIDTH } from '../lib/device';

export function isMobilePath(path: string): boolean {
  const p = normalisePath(path);
  return p === MOBILE_BASE || p.startsWith(`${MOBILE_BASE}/`);
}

/**
 * Where a phone is sent for a desktop address: routes with H5 pages to the same path under /h5, the
 * others to the mobile root, except the exempt ones (null: stay).
 */
export function mobileRedirectTarget(
  path: string,
  search: string,
  meta: EffectiveMeta | null,
): string | null {
  const p = normalisePath(path);
  if (isMobilePath(p)) return null;
  if (MOBILE_EXEMPT_PATHS.some((exempt) => exempt.toLowerCase() === p.toLowerCase())) return null;
  if (meta?.hasH5) return `${MOBILE_BASE}${p === '/' ? '/' : p}${search}`;
  return `${MOBILE_BASE}/`;
}
