/**
 * Request and response contracts of the sign service: quick sign and multi-party flows, signer tasks,
 * seal-use approvals, will-auth (intent confirmed by SMS), the sign log and the evidence (notary) records.
 */
import { z } from 'zod';
import {
  APPROVAL_STATUSES,
  FLOW_STATUSES,
  FLOW_VALIDITY_OPTIONS,
  PLACEMENT_KINDS,
  SIGN_LOG_ACTIONS,
  SIGN_ORDERS,
  TASK_STATUSES,
  WILL_STATUSES,
} from '../signing/state-machines';

export * from '../signing/index';

export const flowStatus = z.enum(FLOW_STATUSES);
export const taskStatus = z.enum(TASK_STATUSES);
export const approvalStatus = z.enum(APPROVAL_STATUSES);
export const signOrder = z.enum(SIGN_ORDERS);
export const flowValidity = z.enum(FLOW_VALIDITY_OPTIONS).describe('1m, 3m, 6m or 1y (spec section 9)');
export const placementKind = z.enum(PLACEMENT_KINDS);
export const signLogAction = z.enum(SIGN_LOG_ACTIONS);

const id = z.string().min(1).max(64);
const iso = z.string().describe('ISO 8601');
const reason = z.string().trim().min(1).max(200);
const pageNum = z.number().int().min(1).max(100_000).default(1);
const pageSize = z.number().int().min(1).max(100).default(20);
const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    total: z.number().int(),
    pageNum: z.number().int(),
    pageSize: z.number().int(),
    list: z.array(item),
  });

// --- placements ---

/**
 * Where a seal or signature goes: the page (1-based) and the centre of the image in millimetres from the
 * page's left and top edges as the page is displayed. A riding seam is split over `pages` (default all)
 * along the right edge at height `y`; its `x` is ignored.
 */
export const placement = z.object({
  fileId: id,
  kind: placementKind,
  page: z.number().int().min(1).max(100_000),
  x: z.number().min(0).max(5000),
  y: z.number().min(0).max(5000),
  pages: z.array(z.number().int().min(1).max(100_000)).max(2000).optional(),
});
export type Placement = z.infer<typeof placement>;

// --- creating a flow ---

export const signerInput = z.object({
  type: z.enum(['person', 'organization']),
  /** The signatory (the person, or the organisation's signatory). */
  name: z.string().trim().min(1).max(50),
  mobile: z.string().trim().min(1).max(20),
  /** Organisations: the exact registered name (or the USCC) of an organisation verified on the platform. */
  organizeName: z.string().trim().min(1).max(100).optional(),
  /** Sequential flows: signers sign in ascending order; equal numbers sign in parallel. Default: list order. */
  order: z.number().int().min(1).max(50).optional(),
  /** Where the initiator wants this signer's seal and signature; empty: the signer places them. */
  placements: z
    .array(placement.omit({ fileId: true }).extend({ fileIndex: z.number().int().min(0).max(9) }))
    .max(50)
    .default([]),
  /** Organisations: the signatory's personal signature is required beside the seal. */
  needSignature: z.boolean().default(false),
});
export type SignerInput = z.infer<typeof signerInput>;

export const createFlowRequest = z.object({
  name: z.string().trim().min(1).max(100),
  /** quick: the caller is the first signer and signs at once; flow: the caller sends to the signers. */
  scene: z.enum(['quick', 'flow']).default('flow'),
  files: z
    .array(
      z.object({
        fileKey: z.string().min(1).max(128),
        role: z.enum(['contract', 'attachment']).default('contract'),
      }),
    )
    .min(1)
    .max(10),
  order: signOrder.default('sequential'),
  validity: flowValidity.default('1m'),
  /** Whether the caller signs too (always true for quick); they sign first. */
  initiatorSigns: z.boolean().default(false),
  signers: z.array(signerInput).max(20).default([]),
  remark: z.string().trim().max(500).optional(),
});
export type CreateFlowRequest = z.infer<typeof createFlowRequest>;

/**
 * POST /v1/sign/internalFlow: a flow inside the caller's organisation. Every signer is an active member of
 * it, named by member id or by mobile, and signs for the organisation (its seals, under the usual
 * authorisations and seal-use approvals).
 */
export const internalSignerInput = z
  .object({
    memberId: id.optional(),
    mobile: z.string().trim().min(1).max(20).optional(),
    order: z.number().int().min(1).max(50).optional(),
    placements: signerInput.shape.placements,
    needSignature: z.boolean().default(false),
  })
  .refine((s) => s.memberId !== undefined || s.mobile !== undefined, {
    message: 'name the member by memberId or mobile',
  });
export const internalFlowRequest = createFlowRequest.omit({ scene: true, signers: true }).extend({
  signers: z.array(internalSignerInput).max(20).default([]),
});
export type InternalFlowRequest = z.infer<typeof internalFlowRequest>;

// --- views ---

export const flowFile = z.object({
  fileId: id,
  name: z.string(),
  role: z.enum(['contract', 'attachment']),
  format: z.enum(['pdf', 'ofd']),
  size: z.number().int(),
  pages: z.number().int().nullable().describe('null for OFD (not read yet)'),
  originalSha256: z.string(),
  currentSha256: z.string(),
  signatures: z.number().int().describe('signatures this flow has added to the file'),
  /** Page sizes in millimetres as displayed (PDF only), for placing seals before the file is loaded. */
  pageSizes: z.array(z.object({ widthMm: z.number(), heightMm: z.number() })).nullable(),
  password: z
    .string()
    .nullable()
    .describe(
      "the password its uploader gave for a password-protected PDF, for the participants' viewers; null otherwise",
    ),
});

export const flowSigner = z.object({
  taskId: id,
  order: z.number().int(),
  type: z.enum(['person', 'organization']),
  name: z.string(),
  mobile: z.string().describe('masked unless it is the caller'),
  organizeName: z.string().nullable(),
  isInitiator: z.boolean(),
  status: taskStatus,
  needSignature: z.boolean(),
  placements: z.array(placement),
  sealCode: z.string().nullable().describe('the seal used (or being approved)'),
  sealName: z.string().nullable(),
  signedAt: iso.nullable(),
  refuseReason: z.string().nullable(),
  urgedAt: iso.nullable(),
  urgeCount: z.number().int(),
});

export const flowSummary = z.object({
  flowId: id,
  name: z.string(),
  scene: z.enum(['quick', 'flow', 'internal']),
  status: flowStatus,
  order: signOrder,
  initiatorName: z.string(),
  initiatorOrganizeName: z.string().nullable(),
  createdAt: iso,
  validUntil: iso,
  finishedAt: iso.nullable(),
  fileCount: z.number().int(),
  signerCount: z.number().int(),
  signedCount: z.number().int(),
  /** The caller's own task in the flow, if any. */
  myTaskId: z.string().nullable(),
  myTaskStatus: taskStatus.nullable(),
});

export const flowListRequest = z.object({
  /** initiated: flows the caller (or their organisation) started; participated: flows with a task of theirs. */
  role: z.enum(['all', 'initiated', 'participated']).default('all'),
  status: flowStatus.optional(),
  keyword: z.string().trim().max(100).optional(),
  pageNum,
  pageSize,
});
export const flowListResponse = pageOf(flowSummary);

export const taskListRequest = z.object({
  /** todo: the caller's turn (pending or approved); done: signed or refused; all. */
  status: z.enum(['todo', 'waiting', 'done', 'all']).default('todo'),
  keyword: z.string().trim().max(100).optional(),
  pageNum,
  pageSize,
});
export const taskListResponse = pageOf(flowSummary);

// --- signing ---

export const signableSeal = z.object({
  sealCode: z.string(),
  name: z.string(),
  kind: z.string(),
  imageUrl: z.string(),
  widthMm: z.number(),
  heightMm: z.number(),
  /** direct: the caller administers the seal; authorised: an authorisation in effect (a use is counted); approval: a seal-use approval is needed first; refused: approval refused in this flow. */
  access: z.enum(['direct', 'authorised', 'approval', 'approved', 'refused']),
  usesRemaining: z.number().int().nullable(),
});
export const signOptionsResponse = z.object({
  flowId: id,
  taskId: id,
  /** Seals the signer may put on the page (organisation seals in an organisation task, own seals otherwise). */
  seals: z.array(signableSeal),
  /** The signatory's personal signatures (personal seals). */
  signatures: z.array(signableSeal),
  /** The placements the initiator fixed; empty: place freely. */
  fixedPlacements: z.array(placement),
  needSignature: z.boolean(),
  mobile: z.string().describe('masked mobile the will-auth code goes to'),
});

export const signTaskRequest = z.object({
  flowId: id,
  taskId: id,
  /** The will-auth record confirmed by SMS for this task (source sign=3). */
  willBizId: id,
  sealCode: z.string().min(1).max(64).optional().describe('the seal for seal and riding-seam placements'),
  signatureCode: z.string().min(1).max(64).optional().describe('the personal seal for signature placements'),
  placements: z.array(placement).min(1).max(50),
});
export const signTaskResponse = z.object({
  flowId: id,
  taskId: id,
  flowStatus,
  signatures: z.array(
    z.object({
      fileId: id,
      kind: placementKind,
      field: z.string(),
      serial: z.string(),
      evidenceIndex: z.number().int(),
    }),
  ),
});

export const reasonRequest = z.object({ reason: reason });
export const optionalReasonRequest = z.object({ reason: z.string().trim().max(200).optional() });

export const urgeRequest = z.object({ flowId: id, taskId: id.optional() });
export const urgeResponse = z.object({
  urged: z.number().int().describe('signers sent a reminder'),
  skipped: z.number().int().describe('signers reminded too recently'),
});
export const oneKeyUrgeRequest = z.object({ flowIds: z.array(id).max(100).optional() });

// --- sign log ---

export const signLogEntry = z.object({
  id: id,
  flowId: id,
  flowName: z.string(),
  taskId: z.string().nullable(),
  action: signLogAction,
  actorName: z.string(),
  organizeName: z.string().nullable(),
  sealCode: z.string().nullable(),
  sealName: z.string().nullable(),
  fileName: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  evidenceIndex: z.number().int().nullable(),
  at: iso,
});
export const signLogListRequest = z.object({
  flowId: id.optional(),
  action: signLogAction.optional(),
  pageNum,
  pageSize,
});
export const signLogListResponse = pageOf(signLogEntry);
export const flowLogRequest = z.object({ flowId: id });
export const flowLogResponse = z.object({ list: z.array(signLogEntry) });

// --- approvals ---

export const approvalSummary = z.object({
  approvalId: id,
  flowId: id,
  flowName: z.string(),
  taskId: id,
  status: approvalStatus,
  sealCode: z.string(),
  sealName: z.string(),
  sealImageUrl: z.string().nullable(),
  applicantName: z.string(),
  organizeName: z.string(),
  reason: z.string().nullable().describe('why the applicant needs the seal'),
  decisionReason: z.string().nullable(),
  deciderName: z.string().nullable(),
  placements: z.array(placement),
  createdAt: iso,
  decidedAt: iso.nullable(),
  /** What the caller may do with it now. */
  actions: z.array(z.enum(['approve', 'refuse', 'return', 'withdraw', 'terminate'])),
});
export type ApprovalSummary = z.infer<typeof approvalSummary>;
export const flowAction = z.enum([
  'sign',
  'refuse',
  'requestApproval',
  'urge',
  'withdraw',
  'void',
  'download',
]);
export const flowDetail = flowSummary.extend({
  remark: z.string().nullable(),
  reason: z.string().nullable().describe('refusal, withdrawal or void reason'),
  files: z.array(flowFile),
  signers: z.array(flowSigner),
  /** What the caller may do now. */
  actions: z.array(flowAction),
  approvals: z.array(approvalSummary),
});
export type FlowDetail = z.infer<typeof flowDetail>;

export const approvalListQuery = z.object({
  status: approvalStatus.optional(),
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const approvalListResponse = pageOf(approvalSummary);
export const requestApprovalRequest = z.object({
  sealCode: z.string().min(1).max(64),
  placements: z.array(placement).min(1).max(50),
  reason: z.string().trim().max(200).optional(),
});
export const approvalDecisionRequest = z.object({
  action: z.enum(['approve', 'refuse', 'return', 'withdraw', 'terminate']),
  reason: z.string().trim().max(200).optional(),
});

// --- will-auth ---

export const createWillRequest = z.object({
  /** auth=1, getSeal=2 (renewSeal=2), sign=3. */
  source: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  bizId: id.describe('the task (sign) or other business the intent is for'),
  /** Same-site path to return to with willAuth and willBizId appended. */
  redirectUrl: z.string().max(1000).optional(),
});
export const createWillResponse = z.object({
  willBizId: id,
  url: z.string().describe('/willAuthPage?willBizId=…'),
  mobile: z.string().describe('masked mobile the code goes to'),
  expiresAt: iso,
});
export const willSendCodeResponse = z.object({
  sandbox: z.boolean(),
  messageId: z.string().describe('the text message, as the SMS gateway tracks its delivery'),
  resendAfterSeconds: z.number().int(),
  expiresInSeconds: z.number().int(),
});
export const willVerifyRequest = z.object({ code: z.string().trim().min(4).max(8) });
export const willStatusQuery = z.object({ willBizId: id });
export const willStatusResponse = z.object({
  willBizId: id,
  status: z.enum(WILL_STATUSES),
  source: z.number().int(),
  bizId: z.string(),
  mobile: z.string(),
  /** How the intent was confirmed (sms, password, face, ukey); null until it is. */
  method: z.string().nullable(),
  /** Where to go after confirming: the redirect with willAuth and willBizId appended. */
  redirectUrl: z.string().nullable(),
  expiresAt: iso,
});
export const willFrontDataRequest = z.object({
  willBizId: id,
  data: z.string().max(65_536).describe('opaque page state to restore after the will-auth page'),
});
export const willFrontDataResponse = z.object({ data: z.string().nullable() });

// --- evidence (chain record, notary logs) ---

/** Spec section 3 evidence record: seal, sign flow, certificate, file hash, on-chain hash and time. */
export const notaryRecord = z.object({
  notaryLogId: z.string().describe('the evidence-log leaf index'),
  scene: z.string(),
  kind: z.string(),
  bizNo: z.string(),
  flowId: z.string().nullable(),
  sealCode: z.string().nullable(),
  certificate: z.string().nullable().describe('SHA-256 fingerprint of the certificate'),
  certificateSerial: z.string().nullable(),
  fileHashBefore: z.string().nullable(),
  fileHash: z.string().nullable().describe('the file after the act'),
  chainHash: z.string().describe('the leaf hash in the evidence log'),
  chainTime: iso,
  actor: z.string().describe('opaque id in the public log'),
  /** The actor's name, for the flow's participants (never in the public log itself). */
  actorName: z.string().nullable(),
});
export const chainRecordResponse = z.object({
  flowId: id,
  treeHead: z.object({
    treeSize: z.number().int(),
    rootHash: z.string(),
    timestamp: z.number(),
    signature: z.string(),
    keyId: z.string(),
  }),
  records: z.array(
    notaryRecord.extend({
      /** The proof bundle (version 1), checkable offline with `openseal evidence verify`. */
      bundle: z.record(z.string(), z.unknown()),
    }),
  ),
});
export const notaryScene = z.enum(['signFlow', 'seal', 'file']);
export const notaryListResponse = z.object({ list: z.array(notaryRecord) });

export const signInfoRequest = z.object({
  fileHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/i)
    .describe('SHA-256 of a signed file version'),
});
