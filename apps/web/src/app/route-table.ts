import type { NavKey } from '../lib/system-config';

/**
 * Every route of the product as data (spec section 2 and shared/spec/routes.tsv): its meta flags, which
 * page renders it, and its place in the tree. The router, the guard, the side menus and the document
 * title all read this one table. Children inherit their parent's meta and may override it.
 */
export interface RouteMeta {
  needLogin?: boolean;
  needUserInfo?: boolean;
  hasH5?: boolean;
  isNoHeader?: boolean;
  hideFoot?: boolean;
  /** Hide the customer-service widget; defaults to needLogin (the widget is for public pages). */
  hideKf?: boolean;
  /** false: persons are blocked and sent to /. */
  personAuth?: boolean;
  /** Content without the standard minimum height and padding (full-bleed pages). */
  noHigh?: boolean;
  /** Which top-navigation tab is highlighted. */
  headerTab?: NavKey;
  /** Seal-collection flow: the simplified seal-flow header and no footer. */
  sealFlow?: boolean;
}

export type EffectiveMeta = Required<Omit<RouteMeta, 'headerTab'>> & { headerTab: NavKey | null };

/** Pages built for real; every other route renders the "coming soon" page inside the layout. */
export type PageKey =
  | 'home'
  | 'login'
  | 'placeholder'
  | 'updatePassword'
  | 'infoPersonal'
  | 'infoEnt'
  | 'personRealName'
  | 'orgRealName'
  | 'realNameAuditDetail'
  | 'personRealNameAuditDetail'
  | 'infoModify'
  | 'memberList'
  | 'infoModifyLegal'
  | 'applyAuthority'
  | 'applyAuthorityRecord'
  | 'selectSpace'
  | 'ssoResult'
  | 'ssoEntry'
  | 'mySealList'
  | 'applyRecordList'
  | 'applyDetail'
  | 'applySeal'
  | 'authorizeMng'
  | 'authorizeCreate'
  | 'authorizeDetail'
  | 'changeRecode'
  | 'changeRecodeDetail'
  | 'ukeyManage'
  | 'makeUKey'
  | 'changeUkeySeal'
  | 'sealAuth'
  | 'getSealFlow'
  | 'sealFlowResult'
  | 'signByMe'
  | 'signRecord'
  | 'signRecordDetail'
  | 'signLog'
  | 'approveReceived'
  | 'approveLaunch'
  | 'signQuickly'
  | 'willAuthPage'
  | 'verifySign'
  | 'verifyContractResult'
  | 'invalidDynamicRecord'
  | 'pageTest'
  | 'help';

export type SectionKey = 'userCenter' | 'sealService' | 'signService' | 'devCenter' | 'serviceCenter';

export interface RouteDef {
  path: string;
  meta?: RouteMeta;
  page?: PageKey;
  /** Index redirect of a parent route. */
  redirect?: string;
  /** A parent that renders the section layout (side menu + child page). */
  section?: SectionKey;
  /** Shown in its section's side menu. */
  menu?: boolean;
  /** A page outside the side menu that lights up this menu entry (its list), when its path does not say. */
  activeMenu?: string;
  children?: RouteDef[];
}

export interface ResolvedRoute {
  path: string;
  /** i18n key of the title, in the `route` namespace. */
  titleKey: string;
  meta: EffectiveMeta;
  page: PageKey;
  redirect: string | null;
  section: SectionKey | null;
  menu: boolean;
  activeMenu: string | null;
  parent: string | null;
  children: ResolvedRoute[];
}

const APPLY_RECORDS = '/sealService/applyRecordList';

const SEAL_FLOW: RouteMeta = { needLogin: true, sealFlow: true, hideFoot: true, hideKf: true, hasH5: true };

const child = (path: string, extra: Omit<RouteDef, 'path'> = {}): RouteDef => ({ path, ...extra });
const menuChild = (path: string, extra: Omit<RouteDef, 'path'> = {}): RouteDef => ({
  path,
  menu: true,
  ...extra,
});

const openPlatformChildren = (base: '/devCenter' | '/serviceCenter'): RouteDef[] => [
  menuChild(`${base}/applyList`),
  child(`${base}/appApplyDetail`),
  menuChild(`${base}/settledDetail`),
  menuChild(`${base}/appProviderList`),
  menuChild(`${base}/applyApp`),
  child(`${base}/appDetail`),
  child(`${base}/appSettledDetail`),
  ...(base === '/devCenter' ? [menuChild(`${base}/testApi`)] : []),
];

export const ROUTE_DEFS: readonly RouteDef[] = [
  { path: '/', page: 'home', meta: { hasH5: true, noHigh: true, headerTab: 'home' } },
  { path: '/login', page: 'login', meta: { hasH5: true, hideKf: true } },
  {
    path: '/verifySign',
    page: 'verifySign',
    meta: { isNoHeader: true, hasH5: true, headerTab: 'verifySign' },
  },
  // The independence variants are the embeddable ones: no header, footer or customer-service widget.
  {
    path: '/verifySign/independence',
    page: 'verifySign',
    meta: { isNoHeader: true, hasH5: true, headerTab: 'verifySign', hideFoot: true, hideKf: true },
  },
  {
    path: '/verifyContractResult',
    page: 'verifyContractResult',
    meta: { headerTab: 'verifySign', hasH5: true },
  },
  {
    path: '/verifyContractResult/independence',
    page: 'verifyContractResult',
    meta: { isNoHeader: true, headerTab: 'verifySign', hideFoot: true, hideKf: true, hasH5: true },
  },
  { path: '/openPlatform', meta: { headerTab: 'openPlatform' } },
  { path: '/applicationCenter/applicationCenterHome', meta: { headerTab: 'applicationCenter' } },
  { path: '/freeContract', meta: { needLogin: true, personAuth: false } },
  { path: '/infoAuthPage' },
  { path: '/invoice', meta: { needLogin: true } },
  {
    path: '/selectSpace',
    page: 'selectSpace',
    meta: { isNoHeader: true, needLogin: true, hideFoot: true, hasH5: true },
  },
  // OpenSeal's single sign-on return address (the provider's callback sends the browser here with flowId).
  { path: '/ssoResult', page: 'ssoResult', meta: { isNoHeader: true, hideFoot: true, hideKf: true } },
  { path: '/commonPay', meta: { needLogin: true } },
  { path: '/commonPayResult', meta: { needLogin: true } },
  { path: '/sealOrderInfo', meta: { needLogin: true } },
  { path: '/sealPayTransit', meta: { needLogin: true, hideFoot: true } },
  { path: '/thirdAuth', meta: { hideKf: true } },
  { path: '/WebAuthorCode', meta: { hideKf: true } },
  { path: '/makeUKey', page: 'makeUKey', meta: { needLogin: true } },
  { path: '/ChangeUkeySeal', page: 'changeUkeySeal', meta: { needLogin: true } },
  { path: '/createOrder', meta: { needLogin: true } },
  { path: '/willAuthPage', page: 'willAuthPage', meta: { hasH5: true, hideKf: true } },
  { path: '/sealAuth', page: 'sealAuth', meta: { needLogin: true } },
  { path: '/govSealList' },
  { path: '/providerForGov' },
  { path: '/providerForGovTest' },
  { path: '/govLogin', meta: { hideKf: true } },
  // A government portal's way in: starts single sign-on at once (phones too: it is exempt from /h5).
  {
    path: '/haiNanSSO',
    page: 'ssoEntry',
    meta: { isNoHeader: true, hideFoot: true, hideKf: true },
  },
  { path: '/pageTest', page: 'pageTest' },
  // The user guide ("帮助文档", HELP_DOC_URL): not a route of the specification, which only names the link.
  { path: '/help', page: 'help', meta: { hasH5: true } },
  { path: '/invalidDynamicRecord', page: 'invalidDynamicRecord', meta: { hasH5: true } },
  { path: '/getSealFlow', page: 'getSealFlow', meta: SEAL_FLOW },
  { path: '/noGetSealAuthResult', page: 'sealFlowResult', meta: SEAL_FLOW },
  { path: '/noGetSealResult', page: 'sealFlowResult', meta: SEAL_FLOW },
  { path: '/getSealResult', page: 'sealFlowResult', meta: SEAL_FLOW },
  { path: '/getSealWaitResult', page: 'sealFlowResult', meta: SEAL_FLOW },
  { path: '/getArtificialSealtResult', page: 'sealFlowResult', meta: SEAL_FLOW },
  { path: '/getSealResultOnlyLegal', page: 'sealFlowResult', meta: SEAL_FLOW },
  { path: '/settledApply', meta: { needLogin: true, personAuth: false, headerTab: 'openPlatform' } },
  { path: '/settledApplyDetail', meta: { needLogin: true, personAuth: false, headerTab: 'openPlatform' } },
  {
    path: '/devCenter',
    section: 'devCenter',
    redirect: '/devCenter/applyList',
    meta: { needLogin: true, needUserInfo: true, personAuth: false, headerTab: 'openPlatform' },
    children: openPlatformChildren('/devCenter'),
  },
  {
    path: '/serviceCenter',
    section: 'serviceCenter',
    redirect: '/serviceCenter/applyList',
    meta: { needLogin: true, needUserInfo: true, personAuth: false, headerTab: 'openPlatform' },
    children: openPlatformChildren('/serviceCenter'),
  },
  {
    path: '/userCenter',
    section: 'userCenter',
    redirect: '/userCenter/infoEnt',
    meta: { needLogin: true, needUserInfo: true },
    children: [
      menuChild('/userCenter/infoEnt', { page: 'infoEnt' }),
      menuChild('/userCenter/infoMemberList', { page: 'memberList', meta: { personAuth: false } }),
      child('/userCenter/infoModify', { page: 'infoModify', meta: { personAuth: false } }),
      child('/userCenter/infoModifyLegal', { page: 'infoModifyLegal', meta: { personAuth: false } }),
      menuChild('/userCenter/infoPersonal', { page: 'infoPersonal', meta: { hasH5: true } }),
      child('/userCenter/infoEnt/realName', { page: 'orgRealName', meta: { hasH5: true } }),
      child('/userCenter/infoEnt/realNameAuditDetail', { page: 'realNameAuditDetail' }),
      child('/userCenter/infoPersonal/realName', { page: 'personRealName', meta: { hasH5: true } }),
      child('/userCenter/infoPersonal/applyAuthority', { page: 'applyAuthority' }),
      menuChild('/userCenter/applyAuthorityRecord', { page: 'applyAuthorityRecord' }),
      menuChild('/userCenter/updatePassword', { page: 'updatePassword', meta: { hasH5: true } }),
      child('/userCenter/infoPersonal/realNameAuditDetail', { page: 'personRealNameAuditDetail' }),
      menuChild('/userCenter/orderManagement'),
      child('/userCenter/orderDetail'),
      menuChild('/userCenter/applyBindRecord/applyBindRecord'),
      child('/userCenter/applyBindRecordDetail'),
    ],
  },
  {
    path: '/sealService',
    section: 'sealService',
    redirect: '/sealService/mySealList',
    meta: { needLogin: true, needUserInfo: true, headerTab: 'sealService' },
    children: [
      menuChild('/sealService/mySealList', { page: 'mySealList', meta: { hasH5: true } }),
      menuChild('/sealService/applyRecordList', { page: 'applyRecordList' }),
      child('/sealService/cloudSealList', { page: 'applyRecordList', activeMenu: APPLY_RECORDS }),
      child('/sealService/cloudSealDetail', { page: 'applyDetail', activeMenu: APPLY_RECORDS }),
      child('/sealService/ukeySealList', { page: 'applyRecordList', activeMenu: APPLY_RECORDS }),
      child('/sealService/ukeySealDetail', { page: 'applyDetail', activeMenu: APPLY_RECORDS }),
      menuChild('/sealService/applySeal', { page: 'applySeal' }),
      menuChild('/sealService/authorizeMng', { page: 'authorizeMng', meta: { personAuth: false } }),
      child('/sealService/authorizeCreate', {
        page: 'authorizeCreate',
        activeMenu: '/sealService/authorizeMng',
        meta: { personAuth: false },
      }),
      child('/sealService/authorizeDetail', { page: 'authorizeDetail', meta: { personAuth: false } }),
      menuChild('/sealService/changeRecode', { page: 'changeRecode' }),
      child('/sealService/changeRecodeDetail', { page: 'changeRecodeDetail' }),
      menuChild('/sealService/ukeyManage', { page: 'ukeyManage' }),
    ],
  },
  {
    path: '/signService',
    section: 'signService',
    redirect: '/signService/signByMe',
    meta: { needLogin: true, needUserInfo: true, headerTab: 'signService' },
    children: [
      menuChild('/signService/signByMe', { page: 'signByMe', meta: { hasH5: true } }),
      menuChild('/signService/signRecord', { page: 'signRecord', meta: { hasH5: true } }),
      child('/signService/signRecordDetail', {
        page: 'signRecordDetail',
        activeMenu: '/signService/signRecord',
        meta: { hasH5: true },
      }),
      menuChild('/signService/signLog', { page: 'signLog', meta: { hasH5: true } }),
      menuChild('/signService/approveReceived', {
        page: 'approveReceived',
        meta: { personAuth: false, hasH5: true },
      }),
      menuChild('/signService/approveLaunch', {
        page: 'approveLaunch',
        meta: { personAuth: false, hasH5: true },
      }),
      menuChild('/signService/signQuickly', { page: 'signQuickly' }),
    ],
  },
  { path: '/manage/data-check-chart/generate', meta: { needLogin: true } },
];

/**
 * The operator console (an OpenSeal addition, not in the specification's routes.tsv): a separate app with
 * its own login, header and session (`x-operator-token`), so it sits outside the user layout, guard and
 * menus. The router renders these next to the user layout, not inside it.
 */
export type ConsolePageKey = 'manageLogin' | 'manageConsole';
export const CONSOLE_ROUTES: readonly { path: string; page: ConsolePageKey }[] = [
  { path: '/manage/login', page: 'manageLogin' },
  { path: '/manage', page: 'manageConsole' },
];

/** Routes a phone is never sent away from (spec section 2: "except sealAuth"; the single sign-on return). */
export const MOBILE_EXEMPT_PATHS: readonly string[] = ['/sealAuth', '/ssoResult', '/haiNanSSO'];
export { MOBILE_BASE } from '../lib/device';

export function titleKeyOf(path: string): string {
  return path === '/' ? 'home' : path.slice(1).replaceAll('/', '_');
}

function effective(meta: RouteMeta): EffectiveMeta {
  const needLogin = meta.needLogin ?? false;
  return {
    needLogin,
    needUserInfo: meta.needUserInfo ?? false,
    hasH5: meta.hasH5 ?? false,
    isNoHeader: meta.isNoHeader ?? false,
    hideFoot: meta.hideFoot ?? false,
    hideKf: meta.hideKf ?? needLogin,
    personAuth: meta.personAuth ?? true,
    noHigh: meta.noHigh ?? false,
    headerTab: meta.headerTab ?? null,
    sealFlow: meta.sealFlow ?? false,
  };
}

function resolve(def: RouteDef, inherited: RouteMeta, parent: string | null): ResolvedRoute {
  // Children inherit flags set on the parent but never its own title-like properties.
  const merged: RouteMeta = { ...inherited, ...def.meta };
  const resolved: ResolvedRoute = {
    path: def.path,
    titleKey: titleKeyOf(def.path),
    meta: effective(merged),
    page: def.page ?? 'placeholder',
    redirect: def.redirect ?? null,
    section: def.section ?? null,
    menu: def.menu ?? false,
    activeMenu: def.activeMenu ?? null,
    parent,
    children: [],
  };
  resolved.children = (def.children ?? []).map((c) => resolve(c, merged, def.path));
  return resolved;
}

export function resolveRoutes(defs: readonly RouteDef[] = ROUTE_DEFS): ResolvedRoute[] {
  return defs.map((d) => resolve(d, {}, null));
}

export function flattenRoutes(routes: readonly ResolvedRoute[]): ResolvedRoute[] {
  return routes.flatMap((r) => [r, ...flattenRoutes(r.children)]);
}

export const ROUTES: readonly ResolvedRoute[] = resolveRoutes();
const BY_PATH = new Map(flattenRoutes(ROUTES).map((r) => [r.path.toLowerCase(), r]));

export function normalisePath(path: string): string {
  const p = path.split(/[?#]/)[0] ?? '/';
  return p.length > 1 ? p.replace(/\/+$/, '') || '/' : p || '/';
}

/** The route of an address, ignoring a trailing slash and letter case (as the router does). */
export function findRoute(path: string): ResolvedRoute | undefined {
  return BY_PATH.get(normalisePath(path).toLowerCase());
}

export function sectionRoute(section: SectionKey): ResolvedRoute {
  const found = ROUTES.find((r) => r.section === section);
  if (!found) throw new Error(`no section ${section}`);
  return found;
}
