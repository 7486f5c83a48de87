import { z } from 'zod';
import { id } from './common';

const organizeType = z.union([z.literal(1), z.literal(2)]).describe('1 organisation, 2 person');
const step = z
  .enum(['draft', 'awaitingCode', 'awaitingAmount', 'verifying', 'awaitingReview', 'success', 'failure'])
  .describe('where the flow stands; draft until the details are given');

export const realNameFlowRequest = z.object({
  organizeType,
  organizeId: id.optional().describe('organisation to verify; defaults to the current space'),
  redirectUrl: z.string().max(500).optional().describe('same-site path to return to'),
});
export const realNameFlowResponse = z.object({
  flowId: z.string(),
  organizeType,
  organizeId: z.string().nullable(),
  sandbox: z.boolean().describe('true while the sandbox identity verifier is active'),
});

export const realNamePersonRequest = z.object({
  name: z.string().max(50),
  idNumber: z.string().max(32).describe('resident ID number, GB 11643-1999'),
  mobile: z.string().max(20),
});
export const realNamePersonResponse = z.object({
  flowId: z.string(),
  smsFlowId: z.string(),
  expiresInSeconds: z.number().int(),
  resendAfterSeconds: z.number().int(),
  smsSandbox: z.boolean(),
  sandbox: z.boolean(),
});

export const realNameOrgRequest = z.object({
  method: z
    .enum(['legalSms', 'bank', 'manual'])
    .describe('legalSms: legal representative confirms by SMS; bank: micro-payment; manual: operator review'),
  organizeName: z.string().max(100),
  uscc: z.string().max(18),
  legalName: z.string().max(50),
  legalIdNumber: z.string().max(32),
  legalMobile: z.string().max(20).optional().describe('legalSms'),
  bankAccount: z.string().max(40).optional().describe('bank'),
  licenceFileKey: z.string().max(64).optional().describe('manual: from POST /v1/accounts/auth/material'),
  authorisationFileKey: z.string().max(64).optional().describe('manual'),
});
export const realNameOrgResponse = z.object({
  flowId: z.string(),
  step,
  smsFlowId: z.string().nullable(),
  sandbox: z.boolean(),
  sandboxAmountCents: z
    .number()
    .int()
    .optional()
    .describe('sandbox only: the amount it "paid", since there is no bank statement'),
});

export const realNameCodeRequest = z.object({ code: z.string().trim() });
export const realNameAmountRequest = z.object({
  amountCents: z.number().int().min(1).max(99).describe('the micro-payment received, in cents'),
});

export const realNameResult = z.object({
  flowId: z.string(),
  organizeType,
  organizeId: z.string().nullable(),
  method: z.string().nullable(),
  step,
  status: z.enum(['pending', 'success', 'failure']),
  reason: z.string().nullable(),
  redirectUrl: z.string().nullable(),
  sandbox: z.boolean(),
});
export const realNameRecords = z.object({
  list: z.array(realNameResult.extend({ createdAt: z.string() })),
});

export const realNameMaterialQuery = z.object({ kind: z.enum(['licence', 'authorisation']) });
export const realNameMaterial = z.object({
  fileKey: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  sha256: z.string(),
  materialId: z.string(),
  kind: z.enum(['licence', 'authorisation']),
});

export const realNameAuditDetail = realNameResult.extend({
  record: z.object({
    name: z.string().nullable(),
    idNumber: z.string().nullable().describe('masked'),
    mobile: z.string().nullable().describe('masked'),
    orgName: z.string().nullable(),
    uscc: z.string().nullable(),
    bankAccount: z.string().nullable().describe('masked'),
    licenceFileKey: z.string().nullable(),
    authorisationFileKey: z.string().nullable(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  }),
  history: z.array(
    z.object({
      fromStatus: z.string().nullable(),
      toStatus: z.string(),
      actorType: z.enum(['person', 'operator', 'system']),
      actorId: z.string().nullable(),
      actorName: z.string().nullable(),
      reason: z.string().nullable(),
      at: z.string(),
    }),
  ),
});

const changedItem = z.object({
  field: z.enum(['organizeName', 'legalName']),
  current: z.string(),
  registry: z.string(),
});
export const discoverChangedItemsResponse = z.object({
  discoverChangedItems: z.array(changedItem),
  legalChangedCurrentLoginUserHasChangePermission: z.boolean(),
  sandbox: z.boolean(),
});
export const confirmChangedItemsResponse = z.object({
  accountId: z.string(),
  changedBindAccessToken: z.string(),
  memberId: z.string().nullable(),
  changedItems: z.array(changedItem),
});
