import type { CatalogueEntry } from '../catalogue';

/** Catalogue entries of the evidence log and its records (12301–12319); merged into the catalogue in catalogue.ts. */
export const EVIDENCE_ENTRIES = [
  {
    code: 12301,
    http: 404,
    key: 'evidence.notInReport',
    handling: 'toastFail',
    zh: '该验签报告的证据中没有这条存证记录',
    en: "This evidence record is not part of the verification report's evidence",
  },
] as const satisfies readonly CatalogueEntry[];
