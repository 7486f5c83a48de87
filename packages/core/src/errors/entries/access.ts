import type { CatalogueEntry } from '../catalogue';

/**
 * Catalogue entries of access to downloads and of login throttling (5201–5219 files, 2101–2119
 * accounts); merged into the catalogue in catalogue.ts. A download address is issued through an object
 * the caller may see and re-checked when used; wrong passwords slow down one account from one address.
 */
export const ACCESS_ENTRIES = [
  {
    code: 5201,
    http: 403,
    key: 'file.accessDenied',
    handling: 'toastFail',
    zh: '您无权查看该文件',
    en: 'You may not read this file',
  },
  {
    code: 5202,
    http: 403,
    key: 'file.linkRevoked',
    handling: 'toastFail',
    zh: '下载地址已失效：您已无权查看该文件',
    en: 'This download address no longer works: you may no longer read the file',
  },
  {
    code: 5203,
    http: 410,
    key: 'file.linkExpired',
    handling: 'toastFail',
    zh: '下载地址已过期，请重新获取',
    en: 'This download address has expired; ask for a new one',
  },
  {
    code: 5211,
    http: 409,
    key: 'ukey.keyInUse',
    handling: 'toastFail',
    zh: '该UKey密钥已为其他UKey或其他持有者签发证书',
    en: 'This UKey key pair is already certified for another UKey or another holder',
  },
  {
    code: 5212,
    http: 409,
    key: 'ukey.sealOnOtherKey',
    handling: 'toastFail',
    zh: '所选印章已由其他UKey承载',
    en: 'A chosen seal is already carried by another UKey',
  },
  {
    code: 5213,
    http: 409,
    key: 'ukey.serialInImport',
    handling: 'toastFail',
    zh: '该UKey正在为另一申请制作',
    en: 'This UKey is being made for another application',
  },
  {
    code: 2101,
    http: 429,
    key: 'account.loginThrottled',
    handling: 'toastFail',
    zh: '密码错误次数过多，请{{seconds}}秒后再试',
    en: 'Too many wrong passwords from this address; try again in {{seconds}} seconds',
  },
  {
    code: 2102,
    http: 429,
    key: 'operator.loginThrottled',
    handling: 'toastFail',
    zh: '密码错误次数过多，请{{seconds}}秒后再试',
    en: 'Too many wrong passwords from this address; try again in {{seconds}} seconds',
  },
] as const satisfies readonly CatalogueEntry[];
