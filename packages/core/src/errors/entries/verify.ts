import type { CatalogueEntry } from '../catalogue';

/** Catalogue entries of the public verification service (12400–12449); merged into the catalogue in catalogue.ts. */
export const VERIFY_ENTRIES = [
  {
    code: 12401,
    http: 404,
    key: 'verify.reportNotFound',
    handling: 'toastFail',
    zh: '验签报告不存在或已过期，请重新上传文件验签',
    en: 'The verification report does not exist or has expired; upload the file again to verify it',
  },
  {
    code: 12402,
    http: 404,
    key: 'verify.recordNotFound',
    handling: 'toastFail',
    zh: '验签记录不存在',
    en: 'The verification record does not exist',
  },
] as const satisfies readonly CatalogueEntry[];
