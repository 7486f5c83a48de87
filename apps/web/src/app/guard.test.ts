import { describe, expect, it } from 'vitest';
import { decideGuard, type GuardInput } from './guard';
import { isMobileClient, mobileRedirectTarget } from './mobile';
import { desktopTargetOf, findMobileRoute, MOBILE_ROUTES, mobileHref } from './mobile-routes';
import { findRoute, flattenRoutes, ROUTES } from './route-table';

const meta = (path: string) => {
  const route = findRoute(path);
  if (!route) throw new Error(path);
  return route.meta;
};

const input = (path: string, over: Partial<GuardInput> = {}): GuardInput => ({
  path,
  search: '',
  meta: findRoute(path)?.meta ?? null,
  hasToken: false,
  identityType: null,
  userInfoLoaded: false,
  isMobile: false,
  ...over,
});

describe('route guard', () => {
  it('sends a logged-out visitor of a login-only page to login with the way back', () => {
    expect(decideGuard(input('/sealService/mySealList', { search: '?a=1&b=2' }))).toEqual({
      kind: 'redirect',
      reason: 'login',
      to: `/login?redirect=${encodeURIComponent('/sealService/mySealList?a=1&b=2')}`,
    });
  });

  it('lets anyone open public pages', () => {
    expect(decideGuard(input('/'))).toEqual({ kind: 'allow' });
    expect(decideGuard(input('/verifySign'))).toEqual({ kind: 'allow' });
    expect(decideGuard(input('/plugin/unknown'))).toEqual({ kind: 'allow' });
  });

  it('waits for user info where the identity matters, then blocks persons from personAuth=false routes', () => {
    const base = { hasToken: true } as const;
    expect(decideGuard(input('/devCenter/applyList', base))).toEqual({ kind: 'wait' });
    expect(
      decideGuard(input('/devCenter/applyList', { ...base, userInfoLoaded: true, identityType: 2 })),
    ).toEqual({
      kind: 'redirect',
      reason: 'personBlocked',
      to: '/',
    });
    expect(
      decideGuard(input('/devCenter/applyList', { ...base, userInfoLoaded: true, identityType: 1 })),
    ).toEqual({
      kind: 'allow',
    });
    expect(decideGuard(input('/freeContract', { ...base, userInfoLoaded: true, identityType: 2 })).kind).toBe(
      'redirect',
    );
    expect(
      decideGuard(input('/userCenter/infoPersonal', { ...base, userInfoLoaded: true, identityType: 2 })),
    ).toEqual({
      kind: 'allow',
    });
  });

  it('sends phones to the mobile pages first', () => {
    expect(decideGuard(input('/verifySign', { isMobile: true }))).toEqual({
      kind: 'redirect',
      reason: 'mobile',
      to: '/h5/verifySign',
    });
    expect(decideGuard(input('/sealService/mySealList', { isMobile: true }))).toEqual({
      kind: 'redirect',
      reason: 'mobile',
      to: '/h5/sealService/mySealList',
    });
    // A page without a phone version: the mobile home, which keeps the address for "continue to desktop".
    expect(decideGuard(input('/sealService/applySeal', { isMobile: true }))).toEqual({
      kind: 'redirect',
      reason: 'mobile',
      to: '/h5/?from=%2FsealService%2FapplySeal',
    });
    // sealAuth stays, and then needs a login like everywhere else.
    expect(decideGuard(input('/sealAuth', { isMobile: true })).kind).toBe('redirect');
    expect(decideGuard(input('/sealAuth', { isMobile: true }))).toMatchObject({ reason: 'login' });
    expect(decideGuard(input('/h5/anything', { isMobile: true }))).toEqual({ kind: 'allow' });
  });
});

describe('mobile redirect', () => {
  it('recognises phone-sized screens and phone browsers', () => {
    expect(isMobileClient(768, 'Mozilla/5.0 (X11; Linux x86_64)')).toBe(true);
    expect(isMobileClient(1440, 'Mozilla/5.0 (X11; Linux x86_64)')).toBe(false);
    expect(isMobileClient(1024, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe(
      true,
    );
    expect(isMobileClient(1024, 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) Mobile/15E148')).toBe(false);
  });

  it('keeps the path and query for routes with H5 pages and goes to the mobile root otherwise', () => {
    expect(mobileRedirectTarget('/', '', meta('/'))).toBe('/h5/');
    expect(mobileRedirectTarget('/getSealFlow', '?getSealFlowId=9', meta('/getSealFlow'))).toBe(
      '/h5/getSealFlow?getSealFlowId=9',
    );
    expect(mobileRedirectTarget('/openPlatform', '?x=1', meta('/openPlatform'))).toBe(
      '/h5/?from=%2FopenPlatform%3Fx%3D1',
    );
    expect(mobileRedirectTarget('/unknown', '', null)).toBe('/h5/?from=%2Funknown');
    // The parent of a section with a phone page goes to it (the user centre's "me" page).
    expect(mobileRedirectTarget('/userCenter', '', meta('/userCenter'))).toBe('/h5/userCenter');
    expect(mobileRedirectTarget('/sealAuth', '', meta('/sealAuth'))).toBeNull();
    expect(mobileRedirectTarget('/h5/verifySign', '', null)).toBeNull();
  });

  it('has a phone page for every route marked hasH5, and a desktop page for every mobile-only address', () => {
    for (const r of flattenRoutes(ROUTES))
      if (r.meta.hasH5) expect(findMobileRoute(r.path), r.path).toBeDefined();
    for (const m of MOBILE_ROUTES) {
      const desktop = m.desktopPath ?? m.path;
      expect(findRoute(desktop), desktop).toBeDefined();
      // The way back: a wide screen on a mobile address lands on the desktop page, query kept.
      expect(desktopTargetOf(mobileHref(m.path), '?a=1')).toBe(`${desktop}?a=1`);
    }
  });
});
