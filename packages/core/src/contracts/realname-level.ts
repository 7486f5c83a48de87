import { z } from 'zod';

/**
 * GET /v1/auth/accountRealNamedLevel: how far the current account is real-named. The person: not at all
 * or verified, and by which method; in an organisation space also the organisation (by which method) and
 * whether the caller is its legal representative.
 */
export const REAL_NAMED_LEVELS = ['none', 'person', 'organization'] as const;

const method = z
  .enum(['sms', 'bank', 'legalSms', 'manual', 'platform'])
  .nullable()
  .describe('platform: verified before any flow of this platform recorded how (imported, seeded)');

export const accountRealNamedLevelResponse = z.object({
  identityType: z.union([z.literal(1), z.literal(2)]).describe('1 organisation, 2 person'),
  /** none: the person is not verified; person: the person is (in an organisation space the organisation is not); organization: both. */
  level: z.enum(REAL_NAMED_LEVELS),
  person: z.object({
    status: z.enum(['none', 'pending', 'verified']),
    method,
    verifiedAt: z.string().nullable(),
  }),
  organization: z
    .object({
      organizeId: z.string(),
      status: z.enum(['none', 'pending', 'verified']),
      method,
      verifiedAt: z.string().nullable(),
      isLegalPerson: z.boolean(),
      /** The verified legal representative is the caller (by the verified ID number). */
      verifiedAsLegalPerson: z.boolean(),
    })
    .nullable(),
});
