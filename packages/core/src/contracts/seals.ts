/** Request and response contracts of the seals module (seal service, changes, authorisations, expiry tip). */
import { z } from 'zod';
import {
  AUTH_STATUSES,
  CHANGE_STATUSES,
  RENEWAL_STATUSES,
  SEAL_STATUSES,
  WORK_ORDER_STATUSES,
} from '../seals/state-machines';
import { CERT_TYPES, REMIND_TYPES, SEAL_CARRIERS, SEAL_KINDS } from '../seals/kinds';

export * from '../seals/index';

export const sealKind = z.enum(SEAL_KINDS).describe('seal kind (spec section 1)');
export const sealDrawType = z
  .literal([0, 1, 2, 3, 4, 5])
  .describe('0/1 round, 2 ellipse, 3 personal square, 4 round with two titles, 5 square finance seal');
export const sealCarrier = z.enum(SEAL_CARRIERS).describe('cloud seal or UKey seal');
export const sealStatus = z.enum(SEAL_STATUSES);
export const workOrderStatus = z.enum(WORK_ORDER_STATUSES);
export const changeStatus = z.enum(CHANGE_STATUSES);
export const authStatus = z.enum(AUTH_STATUSES);
export const renewalStatus = z.enum(RENEWAL_STATUSES);
const sealCode = z.string().min(1).max(64);
const applyNo = z.string().min(1).max(64);
const iso = z.string().describe('ISO 8601');
const pageNum = z.number().int().min(1).max(100_000).default(1);
const pageSize = z.number().int().min(1).max(100).default(20);
const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    total: z.number().int(),
    pageNum: z.number().int(),
    pageSize: z.number().int(),
    list: z.array(item),
  });

/** Title text under the name: letters (Chinese included), digits, brackets, dot and middle dot. */
const sealText = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[\p{L}\p{N}()（）·. -]+$/u, 'letters, digits, brackets, dot');

// --- system config values (CONFIG_STANDARD_SEAL_TYPE, CUSTOM_SEAL_CONFIG) ---

export const standardSealTypeConfig = z.array(
  z.object({ kind: sealKind, sealTypes: z.array(sealDrawType).min(1) }),
);
export const customSealConfig = z.object({
  kinds: z.array(sealKind),
  sealTypes: z.array(sealDrawType).min(1),
  titleMaxLength: z.number().int().min(1).max(40),
});

// --- kinds and previews ---

export const sealKindOption = z.object({
  kind: sealKind,
  name: z.string().describe('kind name in the request language'),
  subject: z.enum(['organization', 'person']),
  custom: z.boolean().describe('the applicant writes the title (department, industry, practice seals)'),
  title: z.string().nullable().describe('fixed title of the kind'),
  sealTypes: z.array(sealDrawType).describe('drawing types allowed, the first the default'),
  sizes: z.array(z.object({ sealType: sealDrawType, widthMm: z.number(), heightMm: z.number() })),
  handDrawn: z.boolean().describe('the image is an uploaded transparent PNG'),
});
export const sealKindList = z.object({ list: z.array(sealKindOption) });
export const customSealList = z.object({
  list: z.array(sealKindOption),
  titleMaxLength: z.number().int(),
});

export const moulagePreviewRequest = z.object({
  sealKind,
  sealType: sealDrawType.optional().describe('defaults to the kind’s first type'),
  title: sealText.optional().describe('custom kinds: the title (e.g. the department)'),
  title0: sealText.optional().describe('type 4: the second title'),
  securityLines: z.boolean().optional(),
});
export const moulagePreview = z.object({
  sealKind,
  sealType: sealDrawType,
  name: z.string(),
  title: z.string().nullable(),
  widthMm: z.number(),
  heightMm: z.number(),
  template: z.unknown().describe('the seal template (spec section 3), to re-render or edit'),
  image: z.string().describe('data:image/png;base64,… transparent PNG at 400 dpi, at most 50 KB'),
  imageBytes: z.number().int(),
});

// --- work orders (applications) ---

export const sealApplyRequest = z.object({
  applyNo: applyNo.optional().describe('submit a saved (pre-created) application; nothing else is read'),
  sealKind: sealKind.optional(),
  sealType: sealDrawType.optional(),
  carrier: sealCarrier.default('cloud'),
  title: sealText.optional(),
  title0: sealText.optional(),
  securityLines: z.boolean().optional(),
  handDrawnFileKey: z
    .string()
    .max(128)
    .optional()
    .describe(
      'personalHandDrawn: an uploaded transparent PNG (≤ 50 KB, /v1/file/uploadPic?purpose=sealImage)',
    ),
  submit: z.boolean().default(true).describe('false saves the application as pre-created'),
});
export const makingState = z.object({
  jobId: z.string(),
  state: z.enum(['queued', 'running', 'done', 'failed']),
  progress: z.number().int().describe('0 to 100'),
  note: z.string().nullable(),
  attempts: z.number().int(),
  error: z.string().nullable(),
});
export const workOrder = z.object({
  applyNo: z.string(),
  status: workOrderStatus,
  sealKind,
  sealKindName: z.string(),
  sealType: sealDrawType,
  carrier: sealCarrier,
  sealName: z.string(),
  title: z.string().nullable(),
  title0: z.string().nullable(),
  widthMm: z.number(),
  heightMm: z.number(),
  organizeId: z.string().nullable(),
  organizeName: z.string().nullable(),
  applicantName: z.string().nullable(),
  applicantMobile: z.string().nullable().describe('masked'),
  rejectReason: z.string().nullable(),
  createTime: iso,
  submitTime: iso.nullable(),
  reviewTime: iso.nullable(),
  claimTime: iso.nullable(),
  completeTime: iso.nullable(),
  sealCode: z.string().nullable(),
  receiveStatus: z
    .enum(['unclaimed', 'making', 'made', 'failed', 'closed'])
    .describe('claim and production: closed when rejected or withdrawn'),
  making: makingState.nullable(),
  actions: z.array(z.string()).describe('what the work-order table allows from here'),
});
export const sealApplyListRequest = z.object({
  status: workOrderStatus.optional(),
  carrier: sealCarrier.optional(),
  sealKind: sealKind.optional(),
  pageNum,
  pageSize,
});
export const workOrderPage = pageOf(workOrder);
export const applyNoParams = z.object({ applyNo });
export const applyNoRequest = z.object({ applyNo });

// --- claim (seal collection) ---

export const claimLinkQuery = z.object({
  applyNos: z.string().min(1).max(1000).describe('comma-separated work orders to claim in one flow'),
});
export const claimLink = z.object({
  getSealFlowId: z.string(),
  url: z.string().describe('same-site address of /getSealFlow with the signed, expiring query'),
  expires: z.number().int().describe('seconds since the epoch'),
  sig: z.string(),
  expiresAt: iso,
});
export const claimFlowParams = z.object({ getSealFlowId: z.string().min(1).max(64) });
export const identityCheckParams = z.object({ flowId: z.string().min(1).max(64) });
export const claimFlowQuery = z.object({
  expires: z.coerce.number().int(),
  sig: z.string().min(1).max(128),
});
export const identityCheck = z.object({
  isLegalPerson: z.boolean(),
  canClaim: z.boolean().describe('legal representative holding the claim permission'),
  organizeName: z.string(),
  legalName: z.string().nullable().describe('masked'),
  flowStatus: z.enum(['open', 'done']),
  expiresAt: iso,
});
export const claimFlowSeals = z.object({
  getSealFlowId: z.string(),
  organizeId: z.string(),
  organizeName: z.string(),
  expiresAt: iso,
  isLegalPerson: z.boolean(),
  list: z.array(workOrder),
});
export const receiveStatusRequest = z.object({
  applyNo: applyNo.optional(),
  getSealFlowId: z.string().max(64).optional(),
  expires: z.number().int().optional(),
  sig: z.string().max(128).optional(),
});
export const receiveStatus = z.object({
  isLegalPerson: z.boolean(),
  canClaim: z.boolean(),
  list: z.array(
    z.object({
      applyNo: z.string(),
      status: workOrderStatus,
      receiveStatus: workOrder.shape.receiveStatus,
      sealCode: z.string().nullable(),
      making: makingState.nullable(),
    }),
  ),
});
export const activeFlowRequest = z.object({
  getSealFlowId: z.string().max(64).optional().describe('claim through a link'),
  expires: z.number().int().optional(),
  sig: z.string().max(128).optional(),
  applyNos: z
    .array(applyNo)
    .min(1)
    .max(20)
    .optional()
    .describe('claim directly (legal representative, person)'),
  agreementAccepted: z.literal(true).describe('the seal-use agreement was read and accepted'),
});
export const activeFlowResponse = z.object({
  async: z.boolean().describe('true: production runs as a job; poll checkSealAsync'),
  list: receiveStatus.shape.list,
});
export const checkSealAsync = z.object({
  applyNo: z.string(),
  status: workOrderStatus,
  receiveStatus: workOrder.shape.receiveStatus,
  sealCode: z.string().nullable(),
  making: makingState.nullable(),
});

// --- seals ---

export const sealListQuery = z.object({
  status: sealStatus.optional(),
  sealKind: sealKind.optional(),
  carrier: sealCarrier.optional(),
  keyword: z.string().trim().max(50).optional(),
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const seal = z.object({
  sealCode: z.string(),
  sealKind,
  sealKindName: z.string(),
  sealType: sealDrawType,
  carrier: sealCarrier,
  name: z.string(),
  status: sealStatus.describe('as the user sees it: a normal seal past its validity is expired'),
  widthMm: z.number(),
  heightMm: z.number(),
  validFrom: iso.nullable(),
  validTo: iso.nullable(),
  certSerial: z.string().nullable(),
  certHolder: z.string().nullable(),
  certHolderId: z.string().nullable().describe('credit code, or the hash of the ID number'),
  certStatus: z.enum(['good', 'hold', 'revoked']).nullable(),
  imageUrl: z.string().nullable().describe('signed, expiring download address of the PNG'),
  template: z.unknown().nullable(),
  organizeId: z.string().nullable(),
  organizeName: z.string().nullable(),
  holderName: z.string().nullable(),
  applyNo: z.string(),
  createTime: iso,
  actions: z.array(z.string()).describe('what the seal table allows from here'),
});
export const sealPage = pageOf(seal);
export const sealCodeParams = z.object({ sealCode });
export const sealDetail = seal.extend({
  pendingChangeNo: z.string().nullable(),
  renewals: z.array(
    z.object({
      renewNo: z.string(),
      status: renewalStatus,
      oldSerial: z.string(),
      newSerial: z.string().nullable(),
      error: z.string().nullable(),
      createTime: iso,
    }),
  ),
});
export const sealKindStatusParams = z.object({ sealType: sealKind.describe('the seal kind') });
export const sealKindStatus = z.object({
  sealKind,
  seals: z.array(z.object({ sealCode: z.string(), name: z.string(), status: sealStatus })),
  openApplyNos: z.array(z.string()).describe('applications not yet closed'),
  canApply: z.boolean(),
});
export const sealBatchRequest = z.object({ sealCodes: z.array(sealCode).min(1).max(50) });
export const sealDisableRequest = sealBatchRequest.extend({
  freeze: z.boolean().default(false).describe('true freezes instead of disabling'),
});
export const sealBatchResponse = z.object({
  list: z.array(
    z.object({ sealCode: z.string(), status: sealStatus, certStatus: z.enum(['good', 'hold', 'revoked']) }),
  ),
});
export const sealCodeRequest = z.object({ sealCode });
export const certRenewalResponse = z.object({
  renewNo: z.string(),
  status: renewalStatus,
  sealCode: z.string(),
  certSerial: z.string().nullable(),
  validFrom: iso.nullable(),
  validTo: iso.nullable(),
});
export const sealAvailable = z.object({
  sealCode: z.string(),
  available: z.boolean(),
  reason: z.string().nullable().describe('the catalogued key of why not'),
});

// --- changes ---

export const changeType = z.enum(['ordinary', 'personal', 'handPainted']);
export const applySealChangeRequest = z.object({
  sealCode,
  sealType: sealDrawType.optional(),
  title: sealText.optional(),
  title0: sealText.optional(),
  securityLines: z.boolean().optional(),
  reason: z.string().trim().max(200).default(''),
});
export const personSealChangeRequest = z.object({ sealCode, reason: z.string().trim().max(200).default('') });
export const handPaintedSealChangeRequest = z.object({
  sealCode,
  handDrawnFileKey: z.string().min(1).max(128),
  reason: z.string().trim().max(200).default(''),
});
const changeSide = z.object({
  name: z.string(),
  sealType: sealDrawType,
  title: z.string().nullable(),
  title0: z.string().nullable(),
});
export const sealChange = z.object({
  changeNo: z.string(),
  sealCode: z.string(),
  changeType,
  status: changeStatus,
  before: changeSide,
  after: changeSide,
  reason: z.string(),
  rejectReason: z.string().nullable(),
  applicantName: z.string().nullable(),
  createTime: iso,
  reviewTime: iso.nullable(),
  previewUrl: z.string().nullable().describe('the new image'),
  beforeImageUrl: z
    .string()
    .nullable()
    .describe('the image as it was when the change was applied for, kept in every status'),
  actions: z.array(z.string()),
});
export const sealChangeListRequest = z.object({
  status: changeStatus.optional(),
  sealCode: sealCode.optional(),
  pageNum,
  pageSize,
});
export const sealChangePage = pageOf(sealChange);
export const changeNoParams = z.object({ changeNo: z.string().min(1).max(64) });
export const checkPersonSealNew = z.object({
  list: z.array(
    z.object({
      sealCode: z.string(),
      sealName: z.string(),
      personName: z.string(),
      needsChange: z.boolean(),
    }),
  ),
});

// --- authorisations ---

const grantee = z.object({
  type: z.enum(['member', 'app']),
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/),
});
export const addSealAuthRequest = z.object({
  sealCode,
  grantees: z.array(grantee).min(1).max(50),
  usesLimit: z.number().int().min(1).max(1_000_000).nullable().default(null).describe('null: unlimited'),
  validFrom: z.string().datetime({ offset: true }).optional().describe('defaults to now'),
  validTo: z.string().datetime({ offset: true }).nullable().default(null).describe('null: permanent'),
  appRange: z
    .array(
      z
        .string()
        .min(1)
        .max(64)
        .regex(/^[A-Za-z0-9_-]+$/),
    )
    .max(20)
    .default([])
    .describe('apps through which a member may use the seal; empty: any'),
});
export const editSealAuthRequest = z.object({
  authCode: z.string().min(1).max(64),
  usesLimit: z.number().int().min(1).max(1_000_000).nullable().optional(),
  validTo: z.string().datetime({ offset: true }).nullable().optional(),
  appRange: addSealAuthRequest.shape.appRange.optional(),
});
export const sealAuthorization = z.object({
  authCode: z.string(),
  sealCode: z.string(),
  sealName: z.string(),
  authoriserName: z.string().nullable(),
  granteeType: z.enum(['member', 'app']),
  granteeId: z.string(),
  granteeName: z.string().nullable(),
  usesLimit: z.number().int().nullable(),
  usesRemaining: z.number().int().nullable(),
  validFrom: iso,
  validTo: iso.nullable(),
  appRange: z.array(z.string()),
  status: authStatus,
  usable: z.boolean().describe('in effect, inside its validity, uses left'),
  createTime: iso,
  terminateTime: iso.nullable(),
});
export const addSealAuthResponse = z.object({ list: z.array(sealAuthorization) });
export const sealAuthListRequest = z.object({
  sealCode: sealCode.optional(),
  status: authStatus.optional(),
  granteeType: z.enum(['member', 'app']).optional(),
  mine: z
    .boolean()
    .default(false)
    .describe('only the grants to the caller as a member, whatever the permissions'),
  pageNum,
  pageSize,
});
export const sealAuthPage = pageOf(sealAuthorization);
export const authCodeParams = z.object({ authCode: z.string().min(1).max(64) });

// --- expiry tip ---

export const sealRemind = z
  .object({
    certId: z.string(),
    certType: z.enum(CERT_TYPES),
    remindType: z.enum(REMIND_TYPES),
    message: z.string().describe('days count'),
    sealCode: z.string(),
    sealName: z.string(),
    validTo: iso,
  })
  .nullable();
export const saveRemindLogRequest = z.object({ certId: z.string().min(1).max(64) });

// --- what a space holds and may use (valid/seal, usable/info, getCustomSealListV2) ---

export const validSeal = z.object({
  subject: z.enum(['organization', 'person']),
  hasValidSeal: z.boolean().describe('at least one seal usable now (normal, in validity, certificate good)'),
  usable: z.number().int().describe('seals usable now'),
  held: z.number().int().describe('seals held, usable or not (all but voided and scrapped)'),
  openApplications: z
    .number()
    .int()
    .describe('applications not yet closed (saved, in review, awaiting the claim or production)'),
  mayApply: z.boolean().describe('the caller may apply for seals in this space (seal.apply)'),
  kinds: z.array(
    z.object({
      sealKind,
      sealKindName: z.string(),
      offered: z
        .boolean()
        .describe('the kind is on offer to this space (CONFIG_STANDARD_SEAL_TYPE, CUSTOM_SEAL_CONFIG)'),
      usable: z.number().int(),
      held: z.number().int(),
      openApplications: z.number().int(),
      canApply: z
        .boolean()
        .describe(
          'on offer, the caller may apply, and no seal or open application of a one-per-space kind is in the way',
        ),
    }),
  ),
});

export const usableInfoRequest = z.object({
  sealKind: sealKind.optional(),
  carrier: sealCarrier.optional(),
  appId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional()
    .describe(
      'the app the seal would be used through: grants limited to an app range count only for their apps',
    ),
});
export const usableSeal = z.object({
  sealCode: z.string(),
  name: z.string(),
  sealKind,
  sealKindName: z.string(),
  sealType: sealDrawType,
  carrier: sealCarrier,
  widthMm: z.number(),
  heightMm: z.number(),
  imageUrl: z.string().nullable().describe('signed, expiring download address of the PNG'),
  validTo: iso.nullable().describe('the seal’s own validity'),
  access: z
    .enum(['direct', 'authorised'])
    .describe(
      'direct: the caller’s own seal, or an organisation seal they manage; authorised: under authorisations to the caller',
    ),
  authCodes: z.array(z.string()).describe('authorised: the grants in effect the use would be taken from'),
  usesRemaining: z
    .number()
    .int()
    .nullable()
    .describe('authorised: uses left over those grants; null when unlimited or direct'),
  authValidTo: iso
    .nullable()
    .describe('authorised: when the last of those grants ends; null when permanent or direct'),
});
export const usableInfo = z.object({ total: z.number().int(), list: z.array(usableSeal) });

export const customSealListV2Request = z.object({
  sealKind: sealKind.optional().describe('one custom kind (department, industry, practice)'),
  status: sealStatus.optional(),
  carrier: sealCarrier.optional(),
  keyword: z.string().trim().max(50).optional().describe('in the seal name (its title included)'),
  holder: z.string().trim().max(50).optional().describe('in the name of the member who applied for the seal'),
  pageNum,
  pageSize,
});
export const customSealListV2 = pageOf(seal).extend({
  kinds: z
    .array(sealKindOption)
    .describe('the custom kinds on offer (CUSTOM_SEAL_CONFIG), as getCustomSealList'),
  titleMaxLength: z.number().int(),
});

// --- pictures: the claim page, hand-drawn pictures, refreshed impressions ---

export const receiveMoulagesRequest = z.object({
  getSealFlowId: z.string().max(64).optional().describe('the seals of a claim link'),
  expires: z.number().int().optional(),
  sig: z.string().max(128).optional(),
  applyNos: z.array(applyNo).min(1).max(20).optional().describe('applications of the current space'),
});
export const receiveMoulages = z.object({
  organizeName: z.string().nullable(),
  isLegalPerson: z.boolean(),
  canClaim: z.boolean(),
  list: z.array(
    z.object({
      applyNo: z.string(),
      status: workOrderStatus,
      receiveStatus: workOrder.shape.receiveStatus,
      sealCode: z.string().nullable(),
      sealKind,
      sealKindName: z.string(),
      sealType: sealDrawType,
      carrier: sealCarrier,
      sealName: z.string(),
      title: z.string().nullable(),
      widthMm: z.number(),
      heightMm: z.number(),
      image: z
        .string()
        .nullable()
        .describe('data:image/png;base64,… the impression the seal gets (the made seal’s own once made)'),
      imageBytes: z.number().int(),
    }),
  ),
});

export const clearFreehandQuery = z.object({
  fileKey: z.string().min(1).max(128).optional().describe('one picture; omitted: every unused one'),
});
export const clearFreehandResult = z.object({
  cleared: z.number().int(),
  fileKeys: z.array(z.string()),
});

export const tempHandPaintedPicRequest = z.object({
  handDrawnFileKey: z
    .string()
    .min(1)
    .max(128)
    .describe('an uploaded transparent PNG (≤ 50 KB, /v1/file/uploadPic?purpose=sealImage)'),
  sealCode: sealCode
    .optional()
    .describe('the hand-drawn seal to change (its size); omitted: the size a new hand-drawn seal gets'),
});
export const tempHandPaintedPic = z.object({
  sealCode: z.string().nullable(),
  widthMm: z.number(),
  heightMm: z.number(),
  widthPx: z.number().int(),
  heightPx: z.number().int(),
  image: z
    .string()
    .describe('data:image/png;base64,… the upload fitted to the seal’s size at 400 dpi; not stored'),
  imageBytes: z.number().int(),
  sha256: z.string(),
  sameAsCurrent: z.boolean().describe('the seal already has this picture (a change would be refused)'),
});

export const refreshMoulageRequest = z.object({
  sealCode,
  securityLines: z.boolean().optional().describe('defaults to the current impression’s'),
});
export const refreshMoulagePreview = z.object({
  sealCode: z.string(),
  sealKind,
  sealType: sealDrawType,
  current: z.object({ name: z.string(), title: z.string().nullable(), imageUrl: z.string().nullable() }),
  preview: z.object({
    name: z.string(),
    title: z.string().nullable(),
    template: z.unknown().describe('the redrawn template (spec section 3)'),
    image: z.string().describe('data:image/png;base64,… transparent PNG at 400 dpi, at most 50 KB'),
    imageBytes: z.number().int(),
  }),
  nameChanged: z.boolean().describe('the holder’s registered name differs from the seal’s'),
  pictureChanged: z.boolean().describe('the redrawn picture differs from the seal’s'),
  pendingChangeNo: z.string().nullable(),
});
export const pushRefreshMoulageRequest = z.object({
  sealCodes: z
    .array(sealCode)
    .min(1)
    .max(50)
    .optional()
    .describe('omitted: every normal seal of the space whose name no longer matches its holder’s'),
  reason: z.string().trim().max(200).default(''),
});
export const pushRefreshMoulageResult = z.object({
  submitted: z.number().int(),
  list: z.array(
    z.object({
      sealCode: z.string(),
      sealName: z.string(),
      outcome: z.enum(['submitted', 'skipped']),
      changeNo: z.string().nullable().describe('the change submitted for review'),
      reason: z.string().nullable().describe('skipped: the catalogued key of why'),
    }),
  ),
});
