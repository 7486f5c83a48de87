import { z } from 'zod';

/** The header an operator token travels in; never the user's `x-access-token`. */
export const OPERATOR_TOKEN_HEADER = 'x-operator-token';

export const operatorLoginRequest = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(128),
});
export const operatorProfile = z.object({
  operatorId: z.string(),
  username: z.string(),
  name: z.string(),
});
export const operatorLoginResponse = z.object({
  operatorToken: z.string(),
  expiresAt: z.string().describe('ISO 8601'),
  operator: operatorProfile,
});
export const operatorMeResponse = operatorProfile.extend({
  expiresAt: z.string().describe('ISO 8601'),
  lastLoginAt: z.string().nullable(),
});
export const operatorLogoutResponse = z.object({ loggedOut: z.literal(true) });

const page = z.coerce.number().int().min(1).max(100_000).default(1);
const size = z.coerce.number().int().min(1).max(100).default(20);

export const auditLogQuery = z.object({
  actor: z.string().trim().min(1).max(64).optional().describe('person id or operator id'),
  action: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .describe('an action, or a prefix: "account" matches account.login, account.logout, ...'),
  target: z.string().trim().min(1).max(64).optional().describe('target id'),
  org: z.string().trim().min(1).max(64).optional().describe('organisation id'),
  from: z.string().datetime({ offset: true }).optional().describe('ISO 8601, inclusive'),
  to: z.string().datetime({ offset: true }).optional().describe('ISO 8601, exclusive'),
  page,
  size,
});
export const auditLogEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  actorType: z.enum(['person', 'operator', 'system']),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  organizationId: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export const auditLogPage = z.object({
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  list: z.array(auditLogEntry),
});

export const reviewQueueName = z
  .enum(['realname', 'authority', 'sealApply', 'sealChange'])
  .describe(
    'realname: manual organisation real-name applications; authority: role applications; sealApply: seal work orders; sealChange: seal changes',
  );
export const reviewQueueParams = z.object({ queue: reviewQueueName });
export const reviewDecisionParams = z.object({
  queue: reviewQueueName,
  applicationId: z.string().min(1).max(64),
});
export const reviewQueueStatus = z.enum(['pending', 'approved', 'rejected', 'all']);
export const reviewQueueQuery = z.object({
  status: reviewQueueStatus.default('pending'),
  page,
  size,
});
export const reviewQueuePage = z.object({
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
  list: z.array(z.record(z.string(), z.unknown())),
});
export const reviewRejectRequest = z.object({ reason: z.string().trim().min(1).max(500) });
export const reviewDecisionResponse = z.object({
  applicationId: z.string(),
  decision: z.enum(['approved', 'rejected']),
});
