import { describe, expect, it } from 'vitest';
import { findRoute, flattenRoutes, ROUTES, titleKeyOf } from './route-table';
import { ROUTE_TITLES } from './i18n/route-titles';

/** Every route of shared/spec/routes.tsv, as written there. */
const SPEC_ROUTES =
  `/ /verifySign /verifySign/independence /verifyContractResult /verifyContractResult/independence
/openPlatform /applicationCenter/applicationCenterHome /freeContract /infoAuthPage /invoice /selectSpace /commonPay
/commonPayResult /sealOrderInfo /sealPayTransit /thirdAuth /WebAuthorCode /makeUKey /ChangeUkeySeal /createOrder
/willAuthPage /sealAuth /govSealList /providerForGov /providerForGovTest /govLogin /haiNanSSO /pageTest
/invalidDynamicRecord /getSealFlow /noGetSealAuthResult /noGetSealResult /getSealResult /getSealWaitResult
/getArtificialSealtResult /getSealResultOnlyLegal /settledApply /settledApplyDetail /devCenter /devCenter/applyList
/devCenter/appApplyDetail /devCenter/settledDetail /devCenter/appProviderList /devCenter/applyApp /devCenter/appDetail
/devCenter/appSettledDetail /devCenter/testApi /serviceCenter /serviceCenter/applyList /serviceCenter/appApplyDetail
/serviceCenter/settledDetail /serviceCenter/appProviderList /serviceCenter/applyApp /serviceCenter/appDetail
/serviceCenter/appSettledDetail /userCenter /userCenter/infoEnt /userCenter/infoMemberList /userCenter/infoModify
/userCenter/infoModifyLegal /userCenter/infoPersonal /userCenter/infoEnt/realName /userCenter/infoEnt/realNameAuditDetail
/userCenter/infoPersonal/realName /userCenter/infoPersonal/applyAuthority /userCenter/applyAuthorityRecord
/userCenter/updatePassword /userCenter/infoPersonal/realNameAuditDetail /userCenter/orderManagement
/userCenter/orderDetail /userCenter/applyBindRecord/applyBindRecord /userCenter/applyBindRecordDetail /sealService
/sealService/mySealList /sealService/applyRecordList /sealService/cloudSealList /sealService/cloudSealDetail
/sealService/ukeySealList /sealService/ukeySealDetail /sealService/applySeal /sealService/authorizeMng
/sealService/authorizeCreate /sealService/authorizeDetail /sealService/changeRecode /sealService/changeRecodeDetail
/sealService/ukeyManage /signService /signService/signByMe /signService/signRecord /signService/signRecordDetail
/signService/signLog /signService/approveReceived /signService/approveLaunch /signService/signQuickly
/manage/data-check-chart/generate`.split(/\s+/);

const SEAL_FLOW = [
  '/getSealFlow',
  '/noGetSealAuthResult',
  '/noGetSealResult',
  '/getSealResult',
  '/getSealWaitResult',
  '/getArtificialSealtResult',
  '/getSealResultOnlyLegal',
];

describe('route table', () => {
  it('has every route of the specification, once, with a title in both languages', () => {
    const all = flattenRoutes(ROUTES);
    const paths = all.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of SPEC_ROUTES) {
      const route = findRoute(path);
      expect(route, path).toBeDefined();
      const title = ROUTE_TITLES[titleKeyOf(path)];
      expect(title?.[0], path).toBeTruthy();
      expect(title?.[1], path).toBeTruthy();
    }
    expect(findRoute('/login')?.page).toBe('login');
  });

  it('nests section children under their parent and redirects the parents', () => {
    const parent = (p: string) => findRoute(p)?.parent;
    expect(parent('/userCenter/updatePassword')).toBe('/userCenter');
    expect(parent('/userCenter/infoEnt/realName')).toBe('/userCenter');
    expect(parent('/sealService/cloudSealDetail')).toBe('/sealService');
    expect(parent('/devCenter/testApi')).toBe('/devCenter');
    expect(findRoute('/serviceCenter/testApi')).toBeUndefined();
    expect(findRoute('/userCenter')?.redirect).toBe('/userCenter/infoEnt');
    expect(findRoute('/sealService')?.redirect).toBe('/sealService/mySealList');
    expect(findRoute('/signService')?.redirect).toBe('/signService/signByMe');
  });

  it('lets children inherit the meta flags of their parent', () => {
    expect(findRoute('/userCenter/updatePassword')?.meta.needLogin).toBe(true);
    expect(findRoute('/signService/signLog')?.meta.headerTab).toBe('signService');
    expect(findRoute('/devCenter/applyApp')?.meta.personAuth).toBe(false);
    expect(findRoute('/userCenter/infoMemberList')?.meta.personAuth).toBe(false);
    expect(findRoute('/userCenter/infoPersonal')?.meta.personAuth).toBe(true);
  });

  it('sets the flags the specification names', () => {
    for (const p of ['/verifySign', '/verifySign/independence', '/selectSpace']) {
      expect(findRoute(p)?.meta.isNoHeader, p).toBe(true);
    }
    for (const p of SEAL_FLOW) {
      const meta = findRoute(p)?.meta;
      expect(meta?.needLogin && meta.sealFlow && meta.hideFoot, p).toBe(true);
    }
    expect(findRoute('/sealAuth')?.meta.needLogin).toBe(true);
    expect(findRoute('/sealOrderInfo')?.meta.needLogin).toBe(true);
    expect(findRoute('/')?.meta.needLogin).toBe(false);
    // The customer-service widget is for public pages.
    expect(findRoute('/')?.meta.hideKf).toBe(false);
    expect(findRoute('/sealService/mySealList')?.meta.hideKf).toBe(true);
  });

  it('finds routes ignoring a trailing slash, the query and letter case', () => {
    expect(findRoute('/userCenter/')?.path).toBe('/userCenter');
    expect(findRoute('/webauthorcode?x=1')?.path).toBe('/WebAuthorCode');
    expect(findRoute('/nope')).toBeUndefined();
  });

  it('builds real pages only where they exist and placeholders elsewhere', () => {
    expect(findRoute('/userCenter/updatePassword')?.page).toBe('updatePassword');
    expect(findRoute('/')?.page).toBe('home');
    expect(findRoute('/sealService/applySeal')?.page).toBe('applySeal');
    expect(findRoute('/sealService/ukeySealList')?.page).toBe('applyRecordList');
    expect(findRoute('/signService/signByMe')?.page).toBe('signByMe');
    expect(findRoute('/signService/signLog')?.page).toBe('signLog');
  });
});
