import { z } from 'zod';
import { id } from './common';

/**
 * Ways of confirming intent (意愿认证) before an act that carries weight — signing a task, authorising or
 * claiming a seal: a code to the person's own mobile, their login password, a face check (offered only
 * through the sandbox identity service: no live face service is wired) or a signature of a UKey bound to
 * the organisation. POST /v1/auth/willAuthConfig says which apply to the caller for a business.
 */
export const WILL_METHODS = ['sms', 'password', 'face', 'ukey'] as const;
export type WillMethod = (typeof WILL_METHODS)[number];
export const willMethod = z.enum(WILL_METHODS);

/** Offered methods when the deployment sets no WILL_AUTH_METHODS: the first is the default. */
export const DEFAULT_WILL_METHODS: readonly WillMethod[] = ['sms', 'password', 'ukey', 'face'];

/** Why a method does not apply to this caller and business now. */
export const WILL_METHOD_REASONS = [
  'notOffered', // the deployment does not offer it (WILL_AUTH_METHODS)
  'noPassword', // the person set no login password
  'noFaceService', // no face service: only the sandbox offers a face check
  'notRealNamed', // a face check compares with the verified identity
  'personalBusiness', // a UKey belongs to an organisation: not for a personal act
  'noBoundUkey', // the organisation has no UKey bound on this platform
] as const;

const source = z
  .union([z.literal(1), z.literal(2), z.literal(3)])
  .describe('auth=1, getSeal=2 (renewSeal=2), sign=3');

export const willAuthConfigRequest = z.object({
  source,
  bizId: id
    .optional()
    .describe('the business (a sign task, a seal, an authorisation, a claim); checked as the caller’s own'),
});

export const willAuthMethodOut = z.object({
  method: willMethod,
  available: z.boolean(),
  reason: z.enum(WILL_METHOD_REASONS).nullable(),
  sandbox: z.boolean().describe('a sandbox service answers (labelled in the UI)'),
  /** sms: the masked mobile the code goes to. */
  mobile: z.string().nullable(),
  /** ukey: the organisation's bound keys one may confirm with. */
  ukeys: z.array(z.object({ ukeySn: z.string(), name: z.string() })),
});

export const willAuthConfigResponse = z.object({
  source: z.number().int(),
  bizId: z.string().nullable(),
  /** The first offered method that is available (sms when nothing else is). */
  defaultMethod: willMethod,
  methods: z.array(willAuthMethodOut),
});

/** POST /v1/will/{willBizId}/verifyPassword */
export const willPasswordRequest = z.object({ password: z.string().min(1).max(128) });
/** POST /v1/will/{willBizId}/verifyUkey: a bound key's signature over a challenge of /v1/sealUKeyBinding/challenge. */
export const willUkeyRequest = z.object({
  ukeySn: z.string().trim().min(1).max(64),
  challengeId: id,
  signature: z.string().min(1).max(2048).describe('base64'),
});
