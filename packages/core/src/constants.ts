/** Business constants and limits of spec section 9, in one place for server and web. */
export const LIMITS = {
  chunkLoadTimeoutMs: 120_000,
  expiryToastMs: 1_500,
  redirectAfter402Ms: 1_000,
  switchDelayMs: 800,
  logoutMessageMs: 1_000,
  reloadAfterCreateOrgMs: 1_000,
  sealImageDpi: 400,
  warningDialogWidth: 440,
  dialogWidth: 510,
  orgNameMax: 100,
  usccLength: 18,
  orgListScrollAfter: 10,
  topTipHeight: 44,
  freeContractCopies: 1,
  scrollHeaderAt: [1, 400] as const,
  scrollTopAnimationMs: 500,
  scrollbarHideMs: 3_000,
  signUploadMaxFiles: 10,
  appIconPx: 200,
  appIconMaxBytes: 100 * 1024,
  imageMaxBytes: 10 * 1024 * 1024,
  sealImageMaxBytes: 50 * 1024,
  /**
   * Pixels an image may have to be accepted or decoded (4096 × 4096): a decoded pixel takes 4 bytes, and a
   * 31 KB PNG can declare 16384 × 16384. Read from the header before anything is decoded.
   */
  imageMaxPixels: 4096 * 4096,
  /** Pixels a hand-drawn seal upload may have (2048 × 2048); it is re-encoded at the seal's own size. */
  handDrawnMaxPixels: 2048 * 2048,
  verifyUploadMaxBytes: 3 * 1024 * 1024,
  ukeyNameMax: 20,
  appNameMax: 50,
  renewalWindowDays: 30,
  renewalYears: 1,
  freeTrialSealYears: 1,
} as const;

/** mm to pixels at the seal image resolution (section 9: mm / 25.4 * 400). */
export function mmToPx(mm: number, dpi: number = LIMITS.sealImageDpi): number {
  return (mm / 25.4) * dpi;
}

/** Section 3: subject type codes and identity types. */
export const IDENTITY = { organization: 1, person: 2 } as const;
export type IdentityType = (typeof IDENTITY)[keyof typeof IDENTITY];

/** Real-name status of a person or an organisation. */
export const REAL_NAME_STATUS = { none: 0, verified: 1, pending: 2, failed: 3 } as const;
export type RealNameStatus = (typeof REAL_NAME_STATUS)[keyof typeof REAL_NAME_STATUS];

/** Section 9 date helper: whole-day bounds. */
export function dayStart(d: Date): Date {
  const x = new Date(d);
  x.setHours(0, 0, 0, 0);
  return x;
}
export function dayEnd(d: Date): Date {
  const x = new Date(d);
  x.setHours(23, 59, 59, 999);
  return x;
}

/** The four request headers of section 7. */
export const HEADERS = {
  accessToken: 'x-access-token',
  ownerSwitch: 'x-owner-switch',
  keySerial: 'x-key-serial',
  language: 'x-language',
} as const;
export const OWNER_SWITCH_VALUE = 'PROMOTE';

/** Organisation roles of spec section 6 (custom roles arrive with the permission tree). */
export const ROLES = {
  legalPerson: { zh: '法定代表人', en: 'Legal representative' },
  superAdmin: { zh: '超级管理员', en: 'Super administrator' },
  admin: { zh: '企业管理员', en: 'Enterprise administrator' },
  sealAdmin: { zh: '印章管理员', en: 'Seal administrator' },
  signAdmin: { zh: '签署管理员', en: 'Signing administrator' },
  staff: { zh: '员工', en: 'Staff' },
} as const;
export type RoleCode = keyof typeof ROLES;
export function roleName(code: string, lang: 'zh-CN' | 'en'): string {
  const r = (ROLES as Record<string, { zh: string; en: string }>)[code];
  return r ? (lang === 'en' ? r.en : r.zh) : code;
}
