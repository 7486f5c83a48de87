import type { contracts } from '@openseal/core';
import type { z } from 'zod';

/**
 * Types of the API payloads the web app uses, derived from the shared zod contracts in @openseal/core
 * (types only: no schema code reaches the bundle).
 */
export type AccountInfo = contracts.AccountInfo;
export type AccountList = contracts.AccountList;
export type AccountListEntry = contracts.AccountListEntry;
export type LoginResponse = contracts.LoginResponse;
export type TokenResponse = contracts.TokenResponse;
export type ConfigCodeValue = contracts.ConfigCodeValue;

export type SendCodeRequest = z.input<typeof contracts.sendCodeRequest>;
export type SendCodeResponse = z.output<typeof contracts.sendCodeResponse>;
export type VerifyCodeRequest = z.input<typeof contracts.verifyCodeRequest>;
export type VerifyCodeResponse = z.output<typeof contracts.verifyCodeResponse>;
export type LoginRequest = z.input<typeof contracts.loginRequest>;
export type CheckLoginStatusResponse = z.output<typeof contracts.checkLoginStatusResponse>;
export type HandoverRequest = z.input<typeof contracts.handoverRequest>;
export type LogoutRequest = z.input<typeof contracts.logoutRequest>;
export type LogoutResponse = z.output<typeof contracts.logoutResponse>;
export type ChangeTokenResponse = z.output<typeof contracts.changeTokenResponse>;
export type UpdatePasswordRequest = z.input<typeof contracts.updatePasswordRequest>;

export type CreateOrgRequest = z.input<typeof contracts.createOrgRequest>;
export type CreateOrgResponse = z.output<typeof contracts.createOrgResponse>;
export type DeleteOrgRequest = z.input<typeof contracts.deleteOrgRequest>;
export type OrgHandoverRequest = z.input<typeof contracts.orgHandoverRequest>;
export type OwnOrganizes = z.output<typeof contracts.ownOrganizes>;
export type ConfigValues = z.output<typeof contracts.configValues>;
