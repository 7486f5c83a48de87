import { describe, expect, it } from 'vitest';
import { activeMenuPath, sectionMenu, topNavTarget, TOP_NAV, visibleTopNav } from './nav-menu';
import { sectionRoute } from './route-table';

const config = (hiddenNav: string[] = [], presenterContract = false) => ({ hiddenNav, presenterContract });

describe('top navigation', () => {
  it('shows the six menus by default and hides those MINOR_CONFIG lists', () => {
    expect(visibleTopNav({ config: config(), identityType: null }).map((i) => i.key)).toEqual([
      'home',
      'sealService',
      'signService',
      'verifySign',
      'openPlatform',
      'applicationCenter',
    ]);
    expect(
      visibleTopNav({ config: config(['openPlatform', 'applicationCenter']), identityType: 2 }).map(
        (i) => i.key,
      ),
    ).toEqual(['home', 'sealService', 'signService', 'verifySign']);
  });

  it('offers free contracts to organisations only, when PRESENTER_CONTRACT is on', () => {
    const keys = (identityType: 1 | 2 | null, on: boolean) =>
      visibleTopNav({ config: config([], on), identityType }).map((i) => i.key);
    expect(keys(1, true)).toContain('freeContract');
    expect(keys(2, true)).not.toContain('freeContract');
    expect(keys(1, false)).not.toContain('freeContract');
  });

  it('sends clicks on protected menus to login while logged out', () => {
    const item = (key: string) => TOP_NAV.find((i) => i.key === key)!;
    expect(topNavTarget(item('sealService'), false)).toBe('/login?redirect=%2FsealService');
    expect(topNavTarget(item('signService'), false)).toBe('/login?redirect=%2FsignService');
    expect(topNavTarget(item('freeContract'), false)).toBe('/login?redirect=%2FfreeContract');
    expect(topNavTarget(item('sealService'), true)).toBe('/sealService');
    expect(topNavTarget(item('verifySign'), false)).toBe('/verifySign');
    // Logged in but not real-named: the functions ask for a real name first; public pages open.
    expect(topNavTarget(item('sealService'), true, false)).toEqual({ realNameRequired: true });
    expect(topNavTarget(item('signService'), true, false)).toEqual({ realNameRequired: true });
    expect(topNavTarget(item('verifySign'), true, false)).toBe('/verifySign');
    expect(topNavTarget(item('sealService'), true, true)).toBe('/sealService');
  });
});

describe('section side menus', () => {
  it('lists menu entries and hides organisation-only ones from persons', () => {
    const seal = sectionRoute('sealService');
    const forOrg = sectionMenu(seal, 1).map((r) => r.path);
    const forPerson = sectionMenu(seal, 2).map((r) => r.path);
    expect(forOrg).toContain('/sealService/authorizeMng');
    expect(forPerson).not.toContain('/sealService/authorizeMng');
    expect(forOrg).not.toContain('/sealService/authorizeDetail');
  });

  it('lights up the list entry for its detail pages', () => {
    const seal = sectionRoute('sealService');
    expect(activeMenuPath(seal, '/sealService/changeRecodeDetail', 1)).toBe('/sealService/changeRecode');
    expect(activeMenuPath(seal, '/sealService/mySealList', 1)).toBe('/sealService/mySealList');
    expect(activeMenuPath(seal, '/sealService/authorizeCreate', 1)).toBe('/sealService/authorizeMng');
    expect(activeMenuPath(seal, '/sealService/ukeySealDetail', 1)).toBe('/sealService/applyRecordList');
    expect(activeMenuPath(seal, '/sealService/cloudSealList', 1)).toBe('/sealService/applyRecordList');
    const user = sectionRoute('userCenter');
    expect(activeMenuPath(user, '/userCenter/infoPersonal/realName', 2)).toBe('/userCenter/infoPersonal');
  });
});
