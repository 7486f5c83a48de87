import { z } from 'zod';
import type { PermissionPoint } from './members';
import { id } from './common';

/**
 * A member who is not the legal representative (an agent) inserts a UKey bound to the organisation to
 * operate it, and asks for the permission point the operation needs. Held already: answered at once. Else a
 * request waits for the legal representative or the super administrator, who approves only a point they
 * hold themselves; an approval lets that member do that operation on that key once, within its time, while
 * the request names the key in the permission-key header (x-key-serial).
 */
export const UKEY_AGENT_OPERATIONS = ['unbind', 'updateSeals'] as const;
export type UkeyAgentOperation = (typeof UKEY_AGENT_OPERATIONS)[number];
export const OPERATION_POINTS: Record<UkeyAgentOperation, PermissionPoint> = {
  unbind: 'seal.manage',
  updateSeals: 'seal.manage',
};
/** How long an approval lets the agent act. */
export const UKEY_PERMISSION_TTL_MINUTES = 30;

export const UKEY_PERMISSION_STATUSES = ['pending', 'approved', 'rejected', 'used', 'expired'] as const;

export const agentPromoteRequest = z.object({
  ukeySn: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/),
  operation: z.enum(UKEY_AGENT_OPERATIONS),
  /** Proof the key is inserted: its signature over a challenge of /v1/sealUKeyBinding/challenge. */
  challengeId: id,
  signature: z.string().min(1).max(2048).describe('base64'),
  reason: z.string().trim().max(200).optional(),
});

export const ukeyPermissionRequestOut = z.object({
  requestNo: z.string(),
  ukeySn: z.string(),
  operation: z.enum(UKEY_AGENT_OPERATIONS),
  point: z.string(),
  status: z.enum(UKEY_PERMISSION_STATUSES),
  applicantName: z.string(),
  applicantMobile: z.string().describe('masked'),
  reason: z.string().nullable(),
  deciderName: z.string().nullable(),
  rejectReason: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});

export const agentPromoteResponse = z.object({
  /** held: the agent holds the point already; pending: a request waits; approved: an approval is usable. */
  status: z.enum(['held', 'pending', 'approved']),
  point: z.string(),
  request: ukeyPermissionRequestOut.nullable(),
});

export const ukeyPermissionListRequest = z.object({
  status: z.enum(UKEY_PERMISSION_STATUSES).optional(),
  pageNum: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});
export const ukeyPermissionPage = z.object({
  total: z.number().int(),
  list: z.array(ukeyPermissionRequestOut),
});

export const ukeyPermissionDecisionRequest = z.object({
  requestNo: id,
  action: z.enum(['approve', 'reject']),
  rejectReason: z.string().trim().max(200).optional(),
});
