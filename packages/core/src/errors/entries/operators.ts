import type { CatalogueEntry } from '../catalogue';

/**
 * Catalogue entries of the operators area; merged into the catalogue in catalogue.ts. The operator
 * console is not the user site, so its session codes are its own (the console goes to its own login on
 * 13001-13003) rather than the section-8 session codes, which would send a user to the user login.
 */
export const OPERATORS_ENTRIES = [
  {
    code: 13001,
    http: 401,
    key: 'operator.sessionMissing',
    handling: 'toastFail',
    zh: '请先登录管理后台',
    en: 'Please log in to the operator console first',
  },
  {
    code: 13002,
    http: 401,
    key: 'operator.sessionInvalid',
    handling: 'toastFail',
    zh: '管理后台登录凭证无效，请重新登录',
    en: 'Your operator token is invalid; please log in again',
  },
  {
    code: 13003,
    http: 401,
    key: 'operator.sessionExpired',
    handling: 'toastFail',
    zh: '管理后台登录已过期，请重新登录',
    en: 'Your operator session has expired; please log in again',
  },
  {
    code: 13004,
    http: 400,
    key: 'operator.credentialsWrong',
    handling: 'toastFail',
    zh: '用户名或密码错误',
    en: 'Wrong username or password',
  },
  {
    code: 13006,
    http: 403,
    key: 'operator.disabled',
    handling: 'toastFail',
    zh: '管理员账号已停用',
    en: 'This operator account is disabled',
  },
  {
    code: 13007,
    http: 503,
    key: 'operator.queueUnavailable',
    handling: 'toastFail',
    zh: '该审核队列暂不可用',
    en: 'This review queue is not available',
  },
  {
    code: 13008,
    http: 400,
    key: 'operator.auditRangeInvalid',
    handling: 'toastFail',
    zh: '查询时间范围无效',
    en: 'The time range is invalid',
  },
] as const satisfies readonly CatalogueEntry[];
