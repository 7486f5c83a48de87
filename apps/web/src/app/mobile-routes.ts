import { MOBILE_BASE, mobileHref } from '../lib/device';
import { normalisePath, type PageKey } from './route-table';

export { mobileHref };

/**
 * The mobile (H5) pages, by the desktop address they stand for: a phone asking for one of these desktop
 * routes is sent to the same path under MOBILE_BASE (the route table marks them `hasH5`), and every other
 * route goes to the mobile home, which offers the desktop page instead (spec section 2).
 *
 * A page is either a phone page of its own (`mobile`) or the desktop page, which is responsive, inside the
 * mobile frame (`desktop`). Mobile-only addresses name the desktop page a wide screen goes to instead.
 */
export type MobilePageKey = 'home' | 'sealList' | 'sealDetail' | 'signList' | 'signRecords' | 'me';

export type MobileTab = 'home' | 'seals' | 'sign' | 'me';

export interface MobileRoute {
  /** The desktop path (without MOBILE_BASE). */
  path: string;
  page: { mobile: MobilePageKey } | { desktop: PageKey };
  needLogin: boolean;
  /** The bottom tab lit on this page; tab roots show no back button. */
  tab: MobileTab | null;
  /** i18n key of the title (namespace `route` unless it starts with `mobile.`). */
  titleKey: string;
  /** Only for mobile-only paths: where a wide screen goes instead. */
  desktopPath?: string;
  /** A full-screen page: no bottom tab bar (signing, will-auth, the seal-collection flow). */
  bare?: boolean;
  /** Full-screen only with this query (signByMe with `taskId`: the task being signed). */
  bareWith?: string;
}

const m = (
  path: string,
  page: MobileRoute['page'],
  extra: Partial<Omit<MobileRoute, 'path' | 'page'>> = {},
): MobileRoute => ({
  path,
  page,
  needLogin: extra.needLogin ?? true,
  tab: extra.tab ?? null,
  titleKey: extra.titleKey ?? (path === '/' ? 'home' : path.slice(1).replaceAll('/', '_')),
  ...(extra.desktopPath ? { desktopPath: extra.desktopPath } : {}),
  ...(extra.bare ? { bare: true } : {}),
  ...(extra.bareWith ? { bareWith: extra.bareWith } : {}),
});

const SEAL_FLOW_PATHS = [
  '/getSealFlow',
  '/noGetSealAuthResult',
  '/noGetSealResult',
  '/getSealResult',
  '/getSealWaitResult',
  '/getArtificialSealtResult',
  '/getSealResultOnlyLegal',
];

export const MOBILE_ROUTES: readonly MobileRoute[] = [
  m('/', { mobile: 'home' }, { needLogin: false, tab: 'home' }),
  m('/login', { desktop: 'login' }, { needLogin: false, bare: true }),
  m('/selectSpace', { desktop: 'selectSpace' }, { bare: true }),
  m('/verifySign', { desktop: 'verifySign' }, { needLogin: false }),
  m('/verifySign/independence', { desktop: 'verifySign' }, { needLogin: false, bare: true }),
  m('/verifyContractResult', { desktop: 'verifyContractResult' }, { needLogin: false }),
  m(
    '/verifyContractResult/independence',
    { desktop: 'verifyContractResult' },
    { needLogin: false, bare: true },
  ),
  m('/willAuthPage', { desktop: 'willAuthPage' }, { needLogin: false, bare: true }),
  m('/invalidDynamicRecord', { desktop: 'invalidDynamicRecord' }, { needLogin: false }),
  m('/help', { desktop: 'help' }, { needLogin: false }),
  ...SEAL_FLOW_PATHS.map((p) =>
    m(p, { desktop: p === '/getSealFlow' ? 'getSealFlow' : 'sealFlowResult' }, { bare: true }),
  ),
  m('/sealService/mySealList', { mobile: 'sealList' }, { tab: 'seals' }),
  m(
    '/sealService/sealDetail',
    { mobile: 'sealDetail' },
    { desktopPath: '/sealService/mySealList', titleKey: 'mobile.seals.detail' },
  ),
  m('/sealService', { mobile: 'sealList' }, { tab: 'seals', titleKey: 'sealService_mySealList' }),
  m('/signService/signByMe', { mobile: 'signList' }, { tab: 'sign', bareWith: 'taskId' }),
  m('/signService', { mobile: 'signList' }, { tab: 'sign', titleKey: 'signService_signByMe' }),
  m('/signService/signRecord', { mobile: 'signRecords' }),
  m('/signService/signRecordDetail', { desktop: 'signRecordDetail' }),
  // Seal administrators decide approvals where they are: the lists show a card per approval.
  m('/signService/approveReceived', { desktop: 'approveReceived' }),
  m('/signService/approveLaunch', { desktop: 'approveLaunch' }),
  m('/signService/signLog', { desktop: 'signLog' }),
  m('/userCenter', { mobile: 'me' }, { tab: 'me', titleKey: 'mobile.me.title', desktopPath: '/userCenter' }),
  m('/userCenter/infoPersonal', { desktop: 'infoPersonal' }),
  m('/userCenter/infoPersonal/realName', { desktop: 'personRealName' }),
  m('/userCenter/infoEnt/realName', { desktop: 'orgRealName' }),
  m('/userCenter/updatePassword', { desktop: 'updatePassword' }),
];

const BY_PATH = new Map(MOBILE_ROUTES.map((r) => [r.path.toLowerCase(), r]));

/** The desktop path a mobile address stands for (`/h5/x?y` → `/x`). */
export function desktopPathOf(mobilePath: string): string {
  const p = normalisePath(mobilePath);
  const rest = p.slice(MOBILE_BASE.length);
  return rest === '' ? '/' : rest;
}

/** The mobile page of a desktop path, if it has one. */
export function findMobileRoute(desktopPath: string): MobileRoute | undefined {
  return BY_PATH.get(normalisePath(desktopPath).toLowerCase());
}

/**
 * Where a wide screen goes for a mobile address: the same desktop page, or a mobile-only page's desktop
 * counterpart; the query goes along.
 */
export function desktopTargetOf(mobilePath: string, search: string): string {
  const path = desktopPathOf(mobilePath);
  const route = findMobileRoute(path);
  return `${route?.desktopPath ?? path}${search}`;
}
