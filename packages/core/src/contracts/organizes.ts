import { z } from 'zod';
import { id, realNameStatus } from './common';

export const createOrgRequest = z.object({ organizeName: z.string(), uscc: z.string() });
export const createOrgResponse = z.object({
  status: z
    .union([z.literal(0), z.literal(1)])
    .describe('0 created; 1 the organisation has no valid super administrator'),
  accessToken: z.string().nullable(),
  organizeId: z.string(),
  accountId: z.string().nullable(),
});
export const deleteOrgRequest = z.object({ organizeId: id });
export const duplicateCheckQuery = z
  .object({ organizeName: z.string().optional(), uscc: z.string().optional() })
  .refine(
    (q) => (q.organizeName === undefined) !== (q.uscc === undefined),
    'give organizeName or uscc, not both',
  );
export const orgHandoverRequest = z.object({
  organizeId: id.optional(),
  accountId: id.optional(),
  type: z
    .union([z.literal(1), z.literal(2)])
    .describe('1 into the organisation, 2 back to the personal space'),
});
export const ownOrganize = z.object({
  organizeId: z.string(),
  accountId: z.string(),
  organizeName: z.string(),
  realNameStatus,
  chooseStatus: z.boolean(),
  roles: z.array(z.string()),
});
export const ownOrganizes = z.object({
  ownOrganizes: z.array(ownOrganize),
  defaultChooseOrganizeId: z.string().nullable(),
});
