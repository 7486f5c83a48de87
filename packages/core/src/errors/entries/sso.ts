import type { CatalogueEntry } from '../catalogue';

/**
 * Catalogue entries of the sso area (14000–14099); merged into the catalogue in catalogue.ts. A failed
 * exchange with the provider answers the spec's 315 (`sso.loginException`), which lives in the catalogue.
 */
export const SSO_ENTRIES = [
  {
    code: 14001,
    http: 404,
    key: 'sso.notConfigured',
    handling: 'toastFail',
    zh: '未配置单点登录',
    en: 'Single sign-on is not configured',
  },
  {
    code: 14002,
    http: 400,
    key: 'sso.stateInvalid',
    handling: 'toastFail',
    zh: '单点登录请求无效或已过期，请重新登录',
    en: 'The single sign-on request is not valid or has expired; please log in again',
  },
  {
    code: 14003,
    http: 404,
    key: 'sso.flowNotFound',
    handling: 'toastFail',
    zh: '单点登录流程不存在或已过期',
    en: 'The single sign-on flow does not exist or has expired',
  },
  {
    code: 14004,
    http: 409,
    key: 'sso.flowStep',
    handling: 'toastFail',
    zh: '单点登录流程当前不能进行此操作',
    en: 'The single sign-on flow is not at this step',
  },
  {
    code: 14005,
    http: 502,
    key: 'sso.providerUnavailable',
    handling: 'toastFail',
    zh: '身份提供方暂不可用，请稍后再试',
    en: 'The identity provider is unavailable; please try again later',
  },
  {
    code: 14006,
    http: 403,
    key: 'sso.orgNotOwned',
    handling: 'toastFail',
    zh: '您不是该企业的成员',
    en: 'You are not a member of this organisation',
  },
  {
    code: 14007,
    http: 409,
    key: 'sso.alreadyLinked',
    handling: 'toastFail',
    zh: '该手机号已绑定其他单点登录账号',
    en: 'This mobile is already linked to another single sign-on account',
  },
] as const satisfies readonly CatalogueEntry[];
