import type { CatalogueEntry } from '../catalogue';

/**
 * Catalogue entries for signing encrypted PDFs (12101–12119); merged into the catalogue in catalogue.ts.
 * pdf.encrypted (12002) stays for encryption the platform cannot write at all.
 */
export const PDF_ENCRYPTION_ENTRIES = [
  {
    code: 12101,
    http: 400,
    key: 'pdf.signNotPermitted',
    handling: 'toastFail',
    zh: '该 PDF 的权限设置不允许签署（禁止填写表单），请让文档所有者放开权限或提供所有者密码',
    en: "The document's permissions do not allow signing (form filling is forbidden); ask its owner to allow it or give the owner password",
  },
  {
    code: 12102,
    http: 400,
    key: 'pdf.passwordRequired',
    handling: 'toastFail',
    zh: '该 PDF 受密码保护，请提供打开密码后再签署',
    en: 'This PDF is protected by a password; give the password to sign it',
  },
  {
    code: 12103,
    http: 400,
    key: 'pdf.passwordWrong',
    handling: 'toastFail',
    zh: 'PDF 密码错误',
    en: 'The PDF password is wrong',
  },
] as const satisfies readonly CatalogueEntry[];
