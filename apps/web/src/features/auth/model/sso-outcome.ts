import { entryForCode } from '@openseal/core';
import { afterLoginTarget } from './redirect';

/**
 * Spec section 4 "SSO result operateType" and section 8 (315) as pure decisions: what the single
 * sign-on return page does with an answer, and where the browser goes once logged in.
 */
export interface SsoAnswer {
  operateType: number;
  token: string | null;
  message: string | null;
  exceptionMsg: string | null;
}

export type SsoDialog = 'notInEnterprise' | 'loginException';

export type SsoStep =
  /** Log in with the token; 5 adds a success message, 6 a warning. */
  | { kind: 'login'; token: string; notice: { level: 'success' | 'warning'; text: string | null } | null }
  /** 1: the account source needs a mobile proven by SMS. */
  | { kind: 'bindMobile' }
  /** 2: the person chooses one of their organisations. */
  | { kind: 'chooseOrg' }
  /** 3 and 4 (and a login answer without a token): a warning dialog; text null means the default. */
  | { kind: 'dialog'; dialog: SsoDialog; text: string | null };

const nonEmpty = (s: string | null | undefined): string | null => (s && s.trim() ? s : null);

export function decideSsoStep(answer: SsoAnswer): SsoStep {
  switch (answer.operateType) {
    case 1:
      return { kind: 'bindMobile' };
    case 2:
      return { kind: 'chooseOrg' };
    case 3:
      return { kind: 'dialog', dialog: 'notInEnterprise', text: nonEmpty(answer.message) };
    case 4:
      return {
        kind: 'dialog',
        dialog: 'loginException',
        text: nonEmpty(answer.exceptionMsg) ?? nonEmpty(answer.message),
      };
    default: {
      // Any other type logs in with the token; without one there is nothing to log in with.
      if (!answer.token)
        return { kind: 'dialog', dialog: 'loginException', text: nonEmpty(answer.exceptionMsg) };
      const text = nonEmpty(answer.message);
      const notice =
        answer.operateType === 5
          ? ({ level: 'success', text } as const)
          : answer.operateType === 6
            ? ({ level: 'warning', text } as const)
            : null;
      return { kind: 'login', token: answer.token, notice };
    }
  }
}

/** A failed call of the flow that the spec answers with the login-exception dialog (315), else null. */
export function loginExceptionOf(error: { code: number | null; message: string; data?: unknown }): {
  text: string | null;
} | null {
  if (error.code === null || entryForCode(error.code)?.handling !== 'loginException') return null;
  const data = error.data as { exceptionMsg?: unknown } | null | undefined;
  const fromData = typeof data?.exceptionMsg === 'string' ? nonEmpty(data.exceptionMsg) : null;
  return { text: fromData ?? nonEmpty(error.message) };
}

export interface SsoNextInput {
  loginType: 'person' | 'organization';
  identityType: 1 | 2 | null;
  /** PSN_EP_SWITCH */
  personOrgSwitch: boolean;
  /** PERSON_SSO_SPACE */
  personSsoSpace: readonly string[];
  /** The saved in-app address the login started from. */
  redirect: string | null;
}

export const SELECT_SPACE_PATH = '/selectSpace';

/**
 * Spec section 4: a person with the organisation switch on and PERSON_SSO_SPACE including org goes to
 * /selectSpace; everyone else goes to the saved address or home.
 */
export function nextPathAfterSso(input: SsoNextInput): string {
  const isPerson = input.loginType === 'person' && input.identityType !== 1;
  if (isPerson && input.personOrgSwitch && input.personSsoSpace.includes('org')) return SELECT_SPACE_PATH;
  const target = afterLoginTarget(input.redirect);
  // A flow's result is answered once: going back to a return address could only fail.
  return isSsoReturn(target) ? '/' : target;
}

/** The same-site address the provider's callback returns the browser to (the server appends flowId). */
export const SSO_RETURN_PATH = '/ssoResult';

function isSsoReturn(path: string): boolean {
  const p = path.split(/[?#]/)[0]!.replace(/\/+$/, '').toLowerCase();
  return p === SSO_RETURN_PATH.toLowerCase();
}

export function ssoReturnAddress(target: string): string {
  const safe = afterLoginTarget(target);
  return safe === '/' || isSsoReturn(safe)
    ? SSO_RETURN_PATH
    : `${SSO_RETURN_PATH}?redirect=${encodeURIComponent(safe)}`;
}

/** Only an address on the web is opened: the server names the provider, but a bad value must not run. */
export function isWebAddress(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
