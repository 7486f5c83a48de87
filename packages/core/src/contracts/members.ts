import { z } from 'zod';
import { id, realNameStatus } from './common';

/**
 * Function permissions as data (spec 6): a tree of groups and points, which built-in role holds which
 * point, and the scene codes the web asks about. Custom roles choose points from the same tree.
 */
export const PERMISSION_TREE = [
  {
    code: 'member',
    zh: '成员与权限',
    en: 'Members and permissions',
    children: [
      { code: 'member.view', zh: '查看成员', en: 'View members' },
      { code: 'member.manage', zh: '管理成员', en: 'Manage members' },
      { code: 'role.manage', zh: '管理角色', en: 'Manage roles' },
      { code: 'authority.review', zh: '审核权限申请', en: 'Review authority applications' },
    ],
  },
  {
    code: 'seal',
    zh: '印章',
    en: 'Seals',
    children: [
      { code: 'seal.view', zh: '查看印章', en: 'View seals' },
      { code: 'seal.apply', zh: '申请印章', en: 'Apply for seals' },
      { code: 'seal.manage', zh: '管理印章', en: 'Manage seals' },
      { code: 'seal.authorise', zh: '印章授权', en: 'Authorise seal use' },
      { code: 'seal.claim', zh: '领取印章', en: 'Claim seals' },
    ],
  },
  {
    code: 'sign',
    zh: '签署',
    en: 'Signing',
    children: [
      { code: 'sign.launch', zh: '发起签署', en: 'Start signing' },
      { code: 'sign.view', zh: '查看签署', en: 'View signing' },
      { code: 'sign.manage', zh: '签署管理', en: 'Manage signing' },
    ],
  },
  {
    code: 'ukey',
    zh: 'UKey',
    en: 'UKeys',
    children: [
      { code: 'ukey.receive', zh: '领取UKey', en: 'Receive UKeys' },
      { code: 'ukey.manage', zh: '管理UKey', en: 'Manage UKeys' },
    ],
  },
  {
    code: 'order',
    zh: '订单',
    en: 'Orders',
    children: [
      { code: 'order.view', zh: '查看本人订单', en: 'View own orders' },
      { code: 'order.viewAll', zh: '查看全部订单', en: 'View all orders' },
      { code: 'order.pay', zh: '下单与支付', en: 'Order and pay' },
    ],
  },
  {
    code: 'open',
    zh: '开放平台',
    en: 'Open platform',
    children: [{ code: 'open.manage', zh: '开放平台管理', en: 'Manage the open platform' }],
  },
] as const;

export type PermissionPoint = (typeof PERMISSION_TREE)[number]['children'][number]['code'];
export const PERMISSION_POINTS: readonly PermissionPoint[] = PERMISSION_TREE.flatMap((g) =>
  g.children.map((p) => p.code),
);
export function isPermissionPoint(p: string): p is PermissionPoint {
  return (PERMISSION_POINTS as readonly string[]).includes(p);
}

const ALL = PERMISSION_POINTS;
const without = (...drop: PermissionPoint[]) => ALL.filter((p) => !drop.includes(p));

/** Points of the built-in roles. Only the legal representative claims seals (spec 6). */
export const BUILTIN_ROLE_POINTS: Record<
  'legalPerson' | 'superAdmin' | 'admin' | 'sealAdmin' | 'signAdmin' | 'staff',
  readonly PermissionPoint[]
> = {
  legalPerson: ALL,
  superAdmin: without('seal.claim'),
  admin: without('seal.claim'),
  sealAdmin: [
    'member.view',
    'seal.view',
    'seal.apply',
    'seal.manage',
    'seal.authorise',
    'ukey.receive',
    'ukey.manage',
    'sign.launch',
    'sign.view',
    'order.view',
    'order.pay',
  ],
  signAdmin: ['member.view', 'seal.view', 'sign.launch', 'sign.view', 'sign.manage', 'order.view'],
  staff: ['seal.view', 'sign.launch', 'sign.view', 'order.view'],
};
export const BUILTIN_ROLES = Object.keys(BUILTIN_ROLE_POINTS) as (keyof typeof BUILTIN_ROLE_POINTS)[];
/** Roles that move only through the SMS-confirmed change (or a platform-reviewed application). */
export const HOLDER_ROLES = ['legalPerson', 'superAdmin'] as const;

/**
 * Points that come only with a built-in holder role and are never granted through a custom role: only the
 * legal representative claims seals (spec 6), whatever a role says. A custom role may not hold one, and one
 * stored in a custom role anyway counts for nothing.
 */
export const RESERVED_POINTS: readonly PermissionPoint[] = ['seal.claim'];
export function isReservedPoint(p: string): boolean {
  return (RESERVED_POINTS as readonly string[]).includes(p);
}

/** Scene permissions (GET /v1/permission/scene/{sceneCode}): which point each scene needs. */
export const PERMISSION_SCENES = {
  sealManage: 'seal.manage',
  receiveUkey: 'ukey.receive',
  sealApply: 'seal.apply',
  sealAuthorise: 'seal.authorise',
  sealClaim: 'seal.claim',
  signLaunch: 'sign.launch',
  signManage: 'sign.manage',
  memberManage: 'member.manage',
  roleManage: 'role.manage',
  orderViewAll: 'order.viewAll',
  openPlatform: 'open.manage',
} as const satisfies Record<string, PermissionPoint>;
export type PermissionScene = keyof typeof PERMISSION_SCENES;

/** Authority application statuses (applyStatus). */
export const AUTHORITY_STATUS = ['pending', 'approved', 'rejected', 'withdrawn'] as const;

// --- requests and responses ---

const roleCode = z.string().min(1).max(64);
export const roleRef = z.object({ code: z.string(), name: z.string() });

export const memberAddRequest = z.object({
  mobile: z.string(),
  nickname: z.string().max(50).optional(),
  roles: z.array(roleCode).max(20).optional(),
});
export const memberModifyRequest = z.object({
  nickname: z.string().max(50).optional(),
  roles: z.array(roleCode).max(20).optional(),
});
export const memberPauseRequest = z.object({
  memberId: id,
  pause: z.boolean().default(true).describe('true pauses the member, false resumes'),
});
export const memberListRequest = z.object({
  keyword: z.string().max(50).optional(),
  roleCode: roleCode.optional(),
  status: z.enum(['active', 'paused', 'invited']).optional(),
  pageNum: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});
export const memberOut = z.object({
  memberId: z.string().nullable(),
  inviteId: z.string().nullable(),
  nickname: z.string(),
  name: z.string(),
  mobile: z.string().describe('masked'),
  roles: z.array(roleRef),
  status: z.enum(['active', 'paused', 'invited']),
  realNameStatus,
  createTime: z.string(),
});
export const memberPage = z.object({ total: z.number().int(), list: z.array(memberOut) });
export const existAccountRequest = z.object({ mobile: z.string() });

export const permissionNode = z.object({
  code: z.string(),
  name: z.string(),
  checked: z.boolean(),
  children: z.array(z.object({ code: z.string(), name: z.string(), checked: z.boolean() })),
});
export const roleOut = z.object({
  code: z.string(),
  name: z.string(),
  description: z.string(),
  builtIn: z.boolean(),
  points: z.array(z.string()),
});
export const roleDetail = roleOut.extend({ tree: z.array(permissionNode) });
export const roleSaveRequest = z.object({
  name: z.string().trim().min(1).max(30),
  description: z.string().max(200).optional(),
  points: z.array(z.string().max(64)).max(100),
});
export const permissionsOut = z.object({
  identityType: z.union([z.literal(1), z.literal(2)]),
  roles: z.array(roleRef),
  points: z.array(z.string()),
  grantable: z
    .array(z.string())
    .describe(
      'points the caller may put into a role or grant to a member: their own points, never a reserved one (seal.claim); empty in the personal space',
    ),
});
export const sceneOut = z.object({ sceneCode: z.string(), allowed: z.boolean() });

export const holderOut = z.object({
  memberId: z.string(),
  name: z.string(),
  mobile: z.string().describe('masked'),
});
export const holdersOut = z.object({ legalPerson: holderOut.nullable(), superAdmin: holderOut.nullable() });

export const roleChangeType = z.enum(['superAdmin', 'legalPerson']);
export const adminModifySendRequest = z.object({ changeType: roleChangeType.default('superAdmin') });
export const roleChangeSendResponse = z.object({
  changeNo: z.string(),
  flowId: z.string(),
  mobile: z.string().describe('masked; where the code went'),
  expiresInSeconds: z.number().int(),
  resendAfterSeconds: z.number().int(),
  sandbox: z.boolean(),
});
export const roleChangeVerifyRequest = z.object({ changeNo: id, code: z.string() });
export const newAdminSendRequest = z.object({ changeNo: id, mobile: z.string() });
export const roleChangeDone = z.object({
  changeNo: z.string(),
  changeType: roleChangeType,
  status: z.string(),
});

export const authorityApplyRequest = z.object({
  roles: z.array(roleCode).min(1).max(10),
  applyFileKey: z.string().max(128),
  remark: z.string().max(500).optional(),
});
export const authorityListRequest = z.object({
  scope: z.enum(['mine', 'organization']).default('mine'),
  applyStatus: z.enum(AUTHORITY_STATUS).optional(),
  pageNum: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});
export const authorityRejectRequest = z.object({ rejectReason: z.string().max(500) });
export const authorityDetail = z.object({
  applyNo: z.string(),
  applyStatus: z.enum(AUTHORITY_STATUS),
  statusText: z.string(),
  messageFlag: z.boolean(),
  applyType: z.string(),
  orgUscc: z.string(),
  orgName: z.string(),
  auditName: z.string().nullable(),
  createTime: z.string(),
  completeTime: z.string().nullable(),
  applierName: z.string(),
  applierPhone: z.string().describe('masked'),
  applyFileKey: z.string(),
  rejectReason: z.string().nullable(),
  remark: z.string(),
  roles: z.array(roleRef),
});
export const authorityPage = z.object({ total: z.number().int(), list: z.array(authorityDetail) });
