import type { NavKey, SystemConfig } from '../lib/system-config';
import type { ResolvedRoute } from './route-table';

/** Top navigation of spec section 1 and the side menus of the sections, filtered by the rules that apply. */
export type TopNavKey = NavKey | 'freeContract';

export interface TopNavItem {
  key: TopNavKey;
  path: string;
  /** Clicking it while logged out goes to login first (spec section 4). */
  protected: boolean;
}

export const TOP_NAV: readonly TopNavItem[] = [
  { key: 'home', path: '/', protected: false },
  { key: 'sealService', path: '/sealService', protected: true },
  { key: 'signService', path: '/signService', protected: true },
  { key: 'verifySign', path: '/verifySign', protected: false },
  { key: 'openPlatform', path: '/openPlatform', protected: false },
  { key: 'applicationCenter', path: '/applicationCenter/applicationCenterHome', protected: false },
  { key: 'freeContract', path: '/freeContract', protected: true },
];

export interface NavContext {
  config: Pick<SystemConfig, 'hiddenNav' | 'presenterContract'>;
  identityType: 1 | 2 | null;
}

/** MINOR_CONFIG hides items by key; the free-contract menu is for organisations with PRESENTER_CONTRACT. */
export function visibleTopNav(ctx: NavContext, items: readonly TopNavItem[] = TOP_NAV): TopNavItem[] {
  const hidden = new Set(ctx.config.hiddenNav);
  return items.filter((item) => {
    if (hidden.has(item.key)) return false;
    if (item.key === 'freeContract') return ctx.config.presenterContract && ctx.identityType === 1;
    return true;
  });
}

/**
 * Where a click on a top-navigation item goes: login first when logged out; the "verify your real name
 * first" dialog when the current space (the person, and the organisation in an organisation space) is not
 * real-named, since the server refuses its functions (-999, spec section 6); else the item's page.
 */
export function topNavTarget(
  item: TopNavItem,
  isLoggedIn: boolean,
  isRealNamed = true,
): string | { realNameRequired: true } {
  if (item.protected && !isLoggedIn) return `/login?redirect=${encodeURIComponent(item.path)}`;
  if (item.protected && !isRealNamed) return { realNameRequired: true };
  return item.path;
}

/** The side-menu entries of a section: the routes marked for the menu that this identity may open. */
export function sectionMenu(section: ResolvedRoute, identityType: 1 | 2 | null): ResolvedRoute[] {
  return section.children.filter((c) => c.menu && !(identityType === 2 && !c.meta.personAuth));
}

/** The side-menu entry to highlight: the route itself, or the menu sibling whose path prefixes it. */
export function activeMenuPath(
  section: ResolvedRoute,
  path: string,
  identityType: 1 | 2 | null,
): string | null {
  const menu = sectionMenu(section, identityType);
  const own = section.children.find((c) => c.path.toLowerCase() === path.toLowerCase());
  if (own?.activeMenu && menu.some((m) => m.path === own.activeMenu)) return own.activeMenu;
  const exact = menu.find((m) => m.path.toLowerCase() === path.toLowerCase());
  if (exact) return exact.path;
  const byPrefix = menu
    .filter((m) => path.toLowerCase().startsWith(`${m.path.toLowerCase()}/`))
    .sort((a, b) => b.path.length - a.path.length)[0];
  if (byPrefix) return byPrefix.path;
  // Detail pages (…Detail) light up their list.
  const base = path.replace(/Detail$/, '');
  const sibling = menu.find((m) => m.path.toLowerCase().startsWith(base.toLowerCase()));
  return sibling?.path ?? null;
}
