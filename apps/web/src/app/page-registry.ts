import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyPage } from './lazy-page';
import type { PageProps } from './page-props';
import type { PageKey } from './route-table';

/** One lazily loaded chunk per page (spec section 9: split by route). */
export const PAGES: Record<PageKey, LazyExoticComponent<ComponentType<PageProps>>> = {
  pageTest: lazyPage(() => import('./pages/page-test-page').then((m) => m.PageTestPage)),
  help: lazyPage(() => import('../features/help/pages/help-page').then((m) => m.HelpPage)),
  invalidDynamicRecord: lazyPage(() =>
    import('./pages/invalid-dynamic-record-page').then((m) => m.InvalidDynamicRecordPage),
  ),
  home: lazyPage(() => import('../features/home/pages/home-page').then((m) => m.HomePage)),
  login: lazyPage(() => import('../features/auth/pages/login-page').then((m) => m.LoginPage)),
  placeholder: lazyPage(() => import('./pages/placeholder-page').then((m) => m.PlaceholderPage)),
  updatePassword: lazyPage(() =>
    import('../features/user-center/pages/update-password-page').then((m) => m.UpdatePasswordPage),
  ),
  infoPersonal: lazyPage(() =>
    import('../features/user-center/pages/info-personal-page').then((m) => m.InfoPersonalPage),
  ),
  infoEnt: lazyPage(() => import('../features/user-center/pages/info-ent-page').then((m) => m.InfoEntPage)),
  personRealName: lazyPage(() =>
    import('../features/realname/pages/person-real-name-page').then((m) => m.PersonRealNamePage),
  ),
  orgRealName: lazyPage(() =>
    import('../features/realname/pages/org-real-name-page').then((m) => m.OrgRealNamePage),
  ),
  realNameAuditDetail: lazyPage(() =>
    import('../features/realname/pages/real-name-audit-detail-page').then((m) => m.RealNameAuditDetailPage),
  ),
  personRealNameAuditDetail: lazyPage(() =>
    import('../features/realname/pages/real-name-audit-detail-page').then((m) => m.RealNameAuditDetailPage),
  ),
  infoModify: lazyPage(() =>
    import('../features/realname/pages/info-modify-page').then((m) => m.InfoModifyPage),
  ),
  memberList: lazyPage(() =>
    import('../features/members/pages/member-list-page').then((m) => m.MemberListPage),
  ),
  infoModifyLegal: lazyPage(() =>
    import('../features/members/pages/info-modify-legal-page').then((m) => m.InfoModifyLegalPage),
  ),
  applyAuthority: lazyPage(() =>
    import('../features/members/pages/apply-authority-page').then((m) => m.ApplyAuthorityPage),
  ),
  applyAuthorityRecord: lazyPage(() =>
    import('../features/members/pages/apply-authority-record-page').then((m) => m.ApplyAuthorityRecordPage),
  ),
  selectSpace: lazyPage(() =>
    import('../features/sso/pages/select-space-page').then((m) => m.SelectSpacePage),
  ),
  ssoResult: lazyPage(() => import('../features/auth/pages/sso-result-page').then((m) => m.SsoResultPage)),
  ssoEntry: lazyPage(() => import('../features/auth/pages/sso-entry-page').then((m) => m.SsoEntryPage)),
  mySealList: lazyPage(() =>
    import('../features/seals/pages/my-seal-list-page').then((m) => m.MySealListPage),
  ),
  applyRecordList: lazyPage(() =>
    import('../features/seals/pages/apply-record-list-page').then((m) => m.ApplyRecordListPage),
  ),
  applyDetail: lazyPage(() =>
    import('../features/seals/pages/apply-detail-page').then((m) => m.ApplyDetailPage),
  ),
  applySeal: lazyPage(() => import('../features/seals/pages/apply-seal-page').then((m) => m.ApplySealPage)),
  authorizeMng: lazyPage(() =>
    import('../features/seals/pages/authorize-mng-page').then((m) => m.AuthorizeMngPage),
  ),
  authorizeCreate: lazyPage(() =>
    import('../features/seals/pages/authorize-create-page').then((m) => m.AuthorizeCreatePage),
  ),
  authorizeDetail: lazyPage(() =>
    import('../features/seals/pages/authorize-detail-page').then((m) => m.AuthorizeDetailPage),
  ),
  changeRecode: lazyPage(() =>
    import('../features/seals/pages/change-record-page').then((m) => m.ChangeRecordPage),
  ),
  changeRecodeDetail: lazyPage(() =>
    import('../features/seals/pages/change-record-detail-page').then((m) => m.ChangeRecordDetailPage),
  ),
  ukeyManage: lazyPage(() =>
    import('../features/seals/pages/ukey-manage-page').then((m) => m.UkeyManagePage),
  ),
  makeUKey: lazyPage(() => import('../features/seals/pages/make-ukey-page').then((m) => m.MakeUkeyPage)),
  changeUkeySeal: lazyPage(() =>
    import('../features/seals/pages/change-ukey-seal-page').then((m) => m.ChangeUkeySealPage),
  ),
  sealAuth: lazyPage(() => import('../features/seals/pages/seal-auth-page').then((m) => m.SealAuthPage)),
  getSealFlow: lazyPage(() =>
    import('../features/seals/pages/get-seal-flow-page').then((m) => m.GetSealFlowPage),
  ),
  sealFlowResult: lazyPage(() =>
    import('../features/seals/pages/seal-flow-result-page').then((m) => m.SealFlowResultPage),
  ),
  signByMe: lazyPage(() => import('../features/sign/pages/sign-by-me-page').then((m) => m.SignByMePage)),
  signRecord: lazyPage(() => import('../features/sign/pages/sign-record-page').then((m) => m.SignRecordPage)),
  signRecordDetail: lazyPage(() =>
    import('../features/sign/pages/sign-record-detail-page').then((m) => m.SignRecordDetailPage),
  ),
  signLog: lazyPage(() => import('../features/sign/pages/sign-log-page').then((m) => m.SignLogPage)),
  approveReceived: lazyPage(() =>
    import('../features/sign/pages/approvals-page').then((m) => m.ApproveReceivedPage),
  ),
  approveLaunch: lazyPage(() =>
    import('../features/sign/pages/approvals-page').then((m) => m.ApproveLaunchPage),
  ),
  signQuickly: lazyPage(() =>
    import('../features/sign/pages/sign-quickly-page').then((m) => m.SignQuicklyPage),
  ),
  willAuthPage: lazyPage(() => import('../features/sign/pages/will-auth-page').then((m) => m.WillAuthPage)),
  verifySign: lazyPage(() =>
    import('../features/verify/pages/verify-sign-page').then((m) => m.VerifySignPage),
  ),
  verifyContractResult: lazyPage(() =>
    import('../features/verify/pages/verify-result-page').then((m) => m.VerifyResultPage),
  ),
};
