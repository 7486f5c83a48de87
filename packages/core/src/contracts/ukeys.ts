import { z } from 'zod';
import type { Check } from '../validation/org';
import { id } from './common';

/**
 * UKeys (spec sections 3, 5 and 7): hardware tokens that hold an organisation's key and certificate.
 * The server binds them to organisations and records UKey applications; the local agent
 * (`apps/ukey-agent`) speaks PKCS#11 to the token for the browser.
 */

/**
 * What a bound key is for. `online` (the spec's ukey_online, authentication UKey): proves who acts, by a
 * signature over a server challenge (verifySign), and carries no seals. `offline` (ukey_offline,
 * signing UKey): carries seals and signs with its own key on the user's computer.
 */
export const UKEY_KINDS = ['online', 'offline'] as const;
export type UkeyKind = (typeof UKEY_KINDS)[number];

/** Kinds of UKey application (spec section 3), and the binding kind each one makes. */
export const UKEY_APPLY_TYPES = [
  'ukey_online',
  'ukey_offline',
  'ukey_offline_replace',
  'ukey_offline_renewal',
] as const;
export type UkeyApplyType = (typeof UKEY_APPLY_TYPES)[number];
export const KIND_OF_APPLY_TYPE: Record<UkeyApplyType, UkeyKind> = {
  ukey_online: 'online',
  ukey_offline: 'offline',
  ukey_offline_replace: 'offline',
  ukey_offline_renewal: 'offline',
};

/** The seal import states of spec section 4, plus `revoked` for an application withdrawn before it was made. */
export const UKEY_APPLY_STATUS = ['toImport', 'importing', 'success', 'failure', 'revoked'] as const;
export type UkeyApplyStatus = (typeof UKEY_APPLY_STATUS)[number];

/** Operations on an application (executeOpt and the dedicated routes), checked against one transition table. */
export const UKEY_APPLY_OPTS = ['start', 'done', 'fail', 'retry', 'revoke'] as const;
export type UkeyApplyOpt = (typeof UKEY_APPLY_OPTS)[number];

export const UKEY_BINDING_STATUS = ['bound', 'unbound', 'replaced'] as const;

export const UKEY_LIMITS = {
  nameMax: 20,
  maxSealsPerKey: 10,
  pinMin: 4,
  pinMax: 16,
  challengeTtlSeconds: 300,
} as const;

/** The local agent listens here unless told otherwise; the web app calls it over loopback HTTP. */
export const UKEY_AGENT_DEFAULT_PORT = 17777;

/** Letters (Chinese included), digits, and `-`, `_` or a space inside: spec 5 "no special characters". */
const UKEY_NAME = /^[\p{L}\p{N}](?:[\p{L}\p{N}_\- ]*[\p{L}\p{N}])?$/u;

export function checkUkeyName(raw: string | null | undefined): Check {
  const value = (raw ?? '').trim();
  if (value.length === 0) return { ok: false, key: 'ukey.nameRequired' };
  if ([...value].length > UKEY_LIMITS.nameMax || !UKEY_NAME.test(value))
    return { ok: false, key: 'ukey.nameFormat' };
  return { ok: true, value };
}

// --- requests and responses of the server ---

export const ukeySerial = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/)
  .describe('the token serial number (PKCS#11 CK_TOKEN_INFO.serialNumber)');
const base64 = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9+/=_\-\s]*$/);
/** A certificate as the agent reads it: base64 DER or PEM. */
const certificateText = z.string().min(1).max(20_000);
const sealCodes = z.array(z.string().trim().min(1).max(64)).max(UKEY_LIMITS.maxSealsPerKey * 2);

export const ukeyChallengeRequest = z.object({ ukeySn: ukeySerial });
export const ukeyChallengeOut = z.object({
  challengeId: z.string(),
  challenge: z.string().describe('the exact text to sign: SHA-256 over its UTF-8 bytes, signed by the key'),
  expiresAt: z.string(),
});

/** A signature over a challenge, made by the key's private key (ECDSA as DER, RSA PKCS#1 v1.5; SHA-256). */
const proof = {
  challengeId: id,
  signature: base64(2048).min(1).describe('base64'),
};

export const ukeyBindRequest = z.object({
  ukeySn: ukeySerial,
  ukeyName: z.string().max(64),
  certificate: certificateText,
  kind: z.enum(UKEY_KINDS).default('offline'),
  sealCodes: sealCodes.optional(),
  ...proof,
});
export const ukeySnRequest = z.object({ ukeySn: ukeySerial });
export const ukeyListRequest = z.object({
  tab: z.enum(UKEY_KINDS).default('offline').describe('online: authentication keys; offline: signing keys'),
  keyword: z.string().max(64).optional(),
  pageNum: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});
export const ukeyVerifySignRequest = z.object({ ukeySn: ukeySerial, ...proof });
export const ukeyCertPropertiesRequest = z
  .object({ ukeySn: ukeySerial.optional(), certificate: certificateText.optional() })
  .refine((r) => (r.ukeySn === undefined) !== (r.certificate === undefined), {
    message: 'give either ukeySn or certificate',
  });
export const ukeyUpdateSealsRequest = z.object({
  ukeySn: ukeySerial,
  sealCodes,
  ukeyName: z.string().max(64).optional(),
});

export const ukeyCertOut = z.object({
  serial: z.string(),
  subject: z.string(),
  issuer: z.string(),
  organization: z.string().nullable(),
  uscc: z.string().nullable(),
  notBefore: z.string(),
  notAfter: z.string(),
  keyAlgorithm: z.string(),
  status: z.enum(['good', 'hold', 'revoked', 'expired', 'notYetValid', 'unknown']),
  issuedByPlatform: z.boolean(),
  holderMatches: z.boolean().describe('organisation name and USCC equal the current organisation'),
});
export const ukeySealOut = z.object({
  sealCode: z.string(),
  name: z.string().nullable(),
  usable: z.boolean(),
});
export const ukeyOut = z.object({
  ukeySn: z.string(),
  ukeyName: z.string(),
  kind: z.enum(UKEY_KINDS),
  status: z.enum(UKEY_BINDING_STATUS),
  certSerial: z.string(),
  issuer: z.string(),
  holder: z.string().nullable(),
  notBefore: z.string(),
  notAfter: z.string(),
  certStatus: ukeyCertOut.shape.status,
  bindTime: z.string(),
  binderPersonId: z.string(),
  applyNo: z.string().nullable(),
  sealCodes: z.array(z.string()),
});
export const ukeyPage = z.object({ total: z.number().int(), list: z.array(ukeyOut) });
export const ukeyVerifyOut = z.object({
  verified: z.literal(true),
  ukeySn: z.string(),
  kind: z.enum(UKEY_KINDS),
  certSerial: z.string(),
  sealCodes: z.array(z.string()),
});
export const ukeyBindSealsOut = z.object({ ukeySn: z.string(), seals: z.array(ukeySealOut) });
export const ukeyAgentDownloadOut = z.object({
  name: z.string(),
  version: z.string(),
  packaged: z.boolean().describe('false: no installer yet; the agent runs from the source workspace'),
  defaultUrl: z.string(),
  requirements: z.array(z.string()),
  steps: z.array(z.string()),
  api: z.array(z.object({ method: z.string(), path: z.string(), purpose: z.string() })),
});

// UKey applications (/v1/pub/ukeyApply/*)

export const ukeyApplyRequest = z.object({
  ukeyType: z.enum(UKEY_APPLY_TYPES),
  ukeyName: z.string().max(64),
  sealCodes: sealCodes.default([]),
  targetUkeySn: ukeySerial.optional().describe('the bound key a replacement or renewal is for'),
});
export const ukeyApplyNoRequest = z.object({ applyNo: id });
export const ukeyApplyListRequest = z.object({
  status: z.enum(UKEY_APPLY_STATUS).optional(),
  ukeyType: z.enum(UKEY_APPLY_TYPES).optional(),
  pageNum: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});
export const ukeyMakingDataRequest = z.object({
  applyNo: id,
  ukeySn: ukeySerial,
  publicKeySpki: base64(4096)
    .min(1)
    .describe('base64 DER SubjectPublicKeyInfo of the key generated on the token'),
});
export const ukeyApplyDoneRequest = z.object({ applyNo: id, ukeySn: ukeySerial, ...proof });
export const ukeyExecuteOptRequest = z.object({
  applyNo: id,
  opt: z.enum(['fail', 'retry', 'revoke']),
  reason: z.string().max(200).optional(),
});
export const ukeyApplyEventOut = z.object({
  opt: z.enum(UKEY_APPLY_OPTS).or(z.literal('apply')),
  fromStatus: z.enum(UKEY_APPLY_STATUS).nullable(),
  toStatus: z.enum(UKEY_APPLY_STATUS),
  actorPersonId: z.string(),
  reason: z.string().nullable(),
  time: z.string(),
});
export const ukeyApplyOut = z.object({
  applyNo: z.string(),
  ukeyType: z.enum(UKEY_APPLY_TYPES),
  ukeyName: z.string(),
  status: z.enum(UKEY_APPLY_STATUS),
  statusText: z.string(),
  sealCodes: z.array(z.string()),
  targetUkeySn: z.string().nullable(),
  ukeySn: z.string().nullable(),
  certSerial: z.string().nullable(),
  failureReason: z.string().nullable(),
  applicantPersonId: z.string(),
  createTime: z.string(),
  updateTime: z.string(),
});
export const ukeyApplyDetail = ukeyApplyOut.extend({ events: z.array(ukeyApplyEventOut) });
export const ukeyApplyPage = z.object({ total: z.number().int(), list: z.array(ukeyApplyOut) });
export const ukeyApplyInfoOut = z.object({
  organizeName: z.string(),
  uscc: z.string(),
  ukeyTypes: z.array(z.object({ ukeyType: z.enum(UKEY_APPLY_TYPES), kind: z.enum(UKEY_KINDS) })),
  nameMax: z.number().int(),
  maxSealsPerKey: z.number().int(),
  boundKeys: z.array(z.object({ ukeySn: z.string(), ukeyName: z.string(), kind: z.enum(UKEY_KINDS) })),
});
export const ukeyMakingDataOut = z.object({
  applyNo: z.string(),
  ukeySn: z.string(),
  ukeyName: z.string(),
  kind: z.enum(UKEY_KINDS),
  certificate: z.string().describe('base64 DER, for the agent to write next to the key'),
  certSerial: z.string(),
  seals: z.array(
    z.object({
      sealCode: z.string(),
      name: z.string(),
      imagePng: z.string().nullable().describe('base64 PNG written to the key as a data object'),
    }),
  ),
});
