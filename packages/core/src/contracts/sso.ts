import { z } from 'zod';
import { identityType, realNameStatus } from './common';
import { mobile } from './accounts';

export const ssoLoginType = z.enum(['person', 'organization']);
const flowId = z.string().min(1).max(64);

export const ssoBeforeLoginRequest = z.object({
  loginType: ssoLoginType.default('person'),
  redirectUrl: z
    .string()
    .max(1024)
    .optional()
    .describe('same-site path the browser returns to; flowId is appended'),
  source: z.string().max(64).optional(),
  loginClientSource: z.string().max(64).optional(),
  signTaskId: z.string().max(64).optional(),
});
export const ssoBeforeLoginResponse = z.object({
  flowId: z.string(),
  url: z.string().describe('the identity provider authorization address to open'),
});

export const ssoStatus = z.object({
  enabled: z
    .boolean()
    .describe('true when an OpenID provider is configured, so the login page offers single sign-on'),
});

export const ssoOwnOrganize = z.object({
  organizeId: z.string(),
  organizeName: z.string(),
  realNameStatus,
});

export const ssoResult = z.object({
  flowId: z.string(),
  operateType: z
    .number()
    .int()
    .min(0)
    .max(6)
    .describe(
      '0 log in with the token; 1 choose the account source (bind a mobile); 2 choose the organisation; ' +
        '3 organisation already verified, an administrator must add the member; 4 login exception; ' +
        '5 success with message; 6 warning with message',
    ),
  loginType: ssoLoginType,
  token: z.string().nullable().describe('the access token, answered once'),
  expiresAt: z.string().nullable(),
  accountId: z.string().nullable(),
  memberId: z.string().nullable(),
  identityType: identityType.nullable(),
  orgName: z.string().nullable(),
  ownOrganizes: z.array(ssoOwnOrganize),
  message: z.string().nullable(),
  exceptionMsg: z.string().nullable(),
  nextPath: z.string().nullable().describe('"/selectSpace" when the person should pick a space next'),
});

export const ssoCheckMobileRequest = z.object({
  flowId,
  mobile,
  code: z.string().trim().describe('the loginRegister SMS code sent to that mobile'),
});
export const ssoFlowRequest = z.object({ flowId });
export const ssoAgentInfo = z.object({
  flowId: z.string(),
  loginType: ssoLoginType,
  operateType: z.number().int(),
  name: z.string().nullable(),
  mobile: z.string().nullable().describe('masked'),
  orgName: z.string().nullable(),
  ownOrganizes: z.array(ssoOwnOrganize),
});
export const ssoAgentConfirmRequest = z.object({
  flowId,
  organizeId: z.string().max(64).nullable().describe('null chooses the personal space'),
});
