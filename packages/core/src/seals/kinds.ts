/**
 * Seal kinds (spec section 1), the drawing types each may use (spec section 3: 0 and 1 round, 2 ellipse,
 * 3 personal square, 4 round with two titles, 5 square finance seal), and the defaults of the two system
 * config values that choose them: CONFIG_STANDARD_SEAL_TYPE (standard kinds) and CUSTOM_SEAL_CONFIG
 * (kinds whose title the applicant writes: department, industry, practice).
 */

export const SEAL_KINDS = [
  'legalName',
  'finance',
  'invoice',
  'contract',
  'business',
  'department',
  'industry',
  'practice',
  'personalName',
  'personalHandDrawn',
] as const;
export type SealKind = (typeof SEAL_KINDS)[number];

export const SEAL_DRAW_TYPES = [0, 1, 2, 3, 4, 5] as const;
export type SealDrawType = (typeof SEAL_DRAW_TYPES)[number];

/** Cloud seal (key kept by the platform) or UKey seal (certificate written to a hardware key). */
export const SEAL_CARRIERS = ['cloud', 'ukey'] as const;
export type SealCarrier = (typeof SEAL_CARRIERS)[number];

export interface SealKindInfo {
  subject: 'organization' | 'person';
  zh: string;
  en: string;
  /** The fixed title under the name (custom kinds take the applicant's). */
  title: string | null;
  custom: boolean;
}

export const SEAL_KIND_INFO: Record<SealKind, SealKindInfo> = {
  legalName: { subject: 'organization', zh: '法定名称章', en: 'Legal-name seal', title: null, custom: false },
  finance: {
    subject: 'organization',
    zh: '财务专用章',
    en: 'Finance seal',
    title: '财务专用章',
    custom: false,
  },
  invoice: {
    subject: 'organization',
    zh: '发票专用章',
    en: 'Invoice seal',
    title: '发票专用章',
    custom: false,
  },
  contract: {
    subject: 'organization',
    zh: '合同专用章',
    en: 'Contract seal',
    title: '合同专用章',
    custom: false,
  },
  business: {
    subject: 'organization',
    zh: '业务专用章',
    en: 'Business seal',
    title: '业务专用章',
    custom: false,
  },
  department: { subject: 'organization', zh: '部门章', en: 'Department seal', title: null, custom: true },
  industry: { subject: 'organization', zh: '行业章', en: 'Industry seal', title: null, custom: true },
  practice: { subject: 'organization', zh: '执业章', en: 'Practice seal', title: null, custom: true },
  personalName: { subject: 'person', zh: '个人姓名章', en: 'Personal name seal', title: null, custom: false },
  personalHandDrawn: {
    subject: 'person',
    zh: '个人手绘章',
    en: 'Hand-drawn personal seal',
    title: null,
    custom: false,
  },
};

/** Physical size in mm per drawing type (widely used sizes; DESIGN.md, seal drawing conventions). */
export const SEAL_TYPE_SIZE_MM: Record<SealDrawType, { widthMm: number; heightMm: number }> = {
  0: { widthMm: 42, heightMm: 42 },
  1: { widthMm: 40, heightMm: 40 },
  2: { widthMm: 40, heightMm: 30 },
  3: { widthMm: 18, heightMm: 18 },
  4: { widthMm: 42, heightMm: 42 },
  5: { widthMm: 22, heightMm: 22 },
};

/** One entry of CONFIG_STANDARD_SEAL_TYPE: a kind and the drawing types it may use, the first the default. */
export interface StandardSealTypeEntry {
  kind: SealKind;
  sealTypes: SealDrawType[];
}

/** CUSTOM_SEAL_CONFIG: the kinds whose title the applicant writes, and the drawing types they may use. */
export interface CustomSealConfig {
  kinds: SealKind[];
  sealTypes: SealDrawType[];
  titleMaxLength: number;
}

/** Seeded value of CONFIG_STANDARD_SEAL_TYPE (JSON). */
export const DEFAULT_STANDARD_SEAL_TYPES: StandardSealTypeEntry[] = [
  { kind: 'legalName', sealTypes: [0, 1] },
  { kind: 'contract', sealTypes: [0, 1] },
  { kind: 'finance', sealTypes: [5, 1] },
  { kind: 'invoice', sealTypes: [2] },
  { kind: 'business', sealTypes: [0, 1] },
  { kind: 'personalName', sealTypes: [3] },
  { kind: 'personalHandDrawn', sealTypes: [3] },
];

/** Seeded value of CUSTOM_SEAL_CONFIG (JSON). */
export const DEFAULT_CUSTOM_SEAL_CONFIG: CustomSealConfig = {
  kinds: ['department', 'industry', 'practice'],
  sealTypes: [0, 1, 4],
  titleMaxLength: 20,
};

/** Spec section 4, seal expiry tip. */
export const REMIND_TYPES = [
  'IN_OF_DATE',
  'TODAY_IN_OF_DATE',
  'TODAY_OUT_OF_DATE',
  'OUT_OF_DATE',
  'CERT_INVALID',
] as const;
export type RemindType = (typeof REMIND_TYPES)[number];
export const CERT_TYPES = ['CLOUD_CERT', 'UKEY_CERT'] as const;
export type CertType = (typeof CERT_TYPES)[number];

/** Spec section 4: a zero-day tip becomes its TODAY_ form (an invalid certificate stays what it is). */
export function todayRemindType(type: RemindType, days: number): RemindType {
  if (days !== 0 || type === 'CERT_INVALID') return type;
  return type === 'IN_OF_DATE' || type === 'TODAY_IN_OF_DATE' ? 'TODAY_IN_OF_DATE' : 'TODAY_OUT_OF_DATE';
}
