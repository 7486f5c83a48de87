import { z } from 'zod';
import { id, identityType, realNameStatus } from './common';

export const mobile = z.string().trim().describe('mainland mobile number, 11 digits');

export const sendCodeRequest = z.object({ mobile });
export const sendCodeResponse = z.object({
  flowId: z.string(),
  expiresInSeconds: z.number().int(),
  resendAfterSeconds: z.number().int(),
  sandbox: z.boolean().describe('true while the sandbox SMS provider is active'),
});
export const verifyCodeRequest = z.object({ code: z.string().trim() });
export const verifyCodeResponse = z.object({ verified: z.literal(true), flowId: z.string() });

export const loginRequest = z.union([
  z.object({ mobile, code: z.string().trim() }),
  z.object({ mobile, password: z.string() }),
]);
export const tokenResponse = z.object({
  accessToken: z.string(),
  expiresAt: z.string().describe('ISO 8601'),
  accountId: z.string(),
  memberId: z.string().nullable(),
  identityType,
});
export const loginResponse = tokenResponse.extend({ isNewAccount: z.boolean() });

export const personInfo = z.object({
  accountId: z.string(),
  name: z.string(),
  hasRealName: z.boolean(),
  registerMobile: z.string().describe('masked: first 3 and last 4 digits'),
  hasPassword: z.boolean(),
});
export const orgInfo = z.object({
  organizeId: z.string(),
  organizeName: z.string(),
  uscc: z.string(),
  hasRealName: z.boolean(),
  orgGmtCreateTime: z.string(),
});
export const accountInfo = z.object({
  identityType,
  accountId: z.string(),
  memberId: z.string().nullable(),
  userInfoPerson: personInfo,
  userInfoOrg: orgInfo.nullable(),
  roles: z.array(z.object({ code: z.string(), name: z.string() })),
  realNameStatus,
});

export const accountListEntry = z.object({
  accountId: z.string(),
  organizeId: z.string().nullable(),
  type: identityType,
  name: z.string(),
  chooseStatus: z.boolean().describe('true for the space of the current token'),
  realNameStatus,
});
export const accountList = z.object({
  ownAccounts: z.array(accountListEntry),
  defaultChooseId: z.string(),
  personAccount: accountListEntry,
});

export const handoverRequest = z.object({ accountId: id });
export const checkLoginStatusResponse = z.object({
  valid: z.boolean(),
  accountId: z.string().nullable(),
  identityType: identityType.nullable(),
  expiresAt: z.string().nullable(),
});
export const logoutRequest = z.object({ redirectUrl: z.string().max(2048).optional() });
export const logoutResponse = z.object({ redirectUrl: z.string() });
export const changeTokenResponse = z.object({
  accountId: z.string(),
  changedBindAccessToken: z.string(),
  memberId: z.string().nullable(),
});
export const updatePasswordRequest = z.object({
  newPassword: z.string(),
  oldPassword: z.string().optional(),
  flowId: z.string().optional().describe('a verified mobileModify flow, instead of the old password'),
});

export type AccountInfo = z.infer<typeof accountInfo>;
export type AccountList = z.infer<typeof accountList>;
export type AccountListEntry = z.infer<typeof accountListEntry>;
export type LoginResponse = z.infer<typeof loginResponse>;
export type TokenResponse = z.infer<typeof tokenResponse>;
