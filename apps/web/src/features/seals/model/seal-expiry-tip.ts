import { contracts } from '@openseal/core';

type CertType = contracts.CertType;
type RemindType = contracts.RemindType;

/**
 * Rules of the seal-expiry tip (spec sections 3, 4 and 6): when it may load, where it is hidden, which
 * words it shows and where its renew button leads.
 */
export interface ExpiryTip {
  certId: string;
  certType: CertType;
  remindType: RemindType;
  /** The days count, as the server sends it (a string). */
  message: string;
  sealCode: string;
  sealName: string;
  validTo: string;
}

/** Order, pay, make-UKey, change-UKey-seal and createOrder pages: the tip would get in the way. */
export const TIP_HIDDEN_PATHS = [
  '/sealOrderInfo',
  '/sealPayTransit',
  '/commonPay',
  '/commonPayResult',
  '/makeUKey',
  '/ChangeUkeySeal',
  '/createOrder',
] as const;

export const MY_SEAL_LIST_PATH = '/sealService/mySealList';
export const UKEY_MANAGE_PATH = '/sealService/ukeyManage';

/** Paths compare without a trailing slash; the route table spells them exactly. */
function samePath(a: string, b: string): boolean {
  const norm = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);
  return norm(a) === norm(b);
}

/** Hidden on the listed pages and inside an iframe. */
export function isTipHidden(pathname: string, inIframe: boolean): boolean {
  return inIframe || TIP_HIDDEN_PATHS.some((p) => samePath(p, pathname));
}

/**
 * Loads only for a person, or in an organisation for a member holding the sealManage or receiveUkey
 * scene (the server refuses the others); never before the space is real-named, which the server needs.
 */
export function mayLoadTip(input: {
  identity: 1 | 2 | null;
  realNamed: boolean;
  sealManage: boolean | undefined;
  receiveUkey: boolean | undefined;
}): boolean {
  if (input.identity === null || !input.realNamed) return false;
  if (input.identity === 2) return true;
  return input.sealManage === true || input.receiveUkey === true;
}

/** The days count; a message that is not a whole number reads as null. */
export function daysOf(message: string): number | null {
  const text = message.trim();
  return /^-?\d+$/.test(text) ? Number(text) : null;
}

/** A zero-day tip takes its TODAY_ form (IN_OF_DATE → TODAY_IN_OF_DATE, the others TODAY_OUT_OF_DATE). */
export function effectiveRemindType(tip: Pick<ExpiryTip, 'remindType' | 'message'>): RemindType {
  const days = daysOf(tip.message);
  return days === null ? tip.remindType : contracts.todayRemindType(tip.remindType, days);
}

/** The i18n key of the tip's sentence (under `sealRemind.text`). */
export function tipTextKey(tip: Pick<ExpiryTip, 'remindType' | 'message'>): string {
  return `sealRemind.text.${effectiveRemindType(tip)}`;
}

/** Cloud certificates renew in my seal list (at the seal when known), UKey ones on the offline tab. */
export function renewTarget(tip: Pick<ExpiryTip, 'certType' | 'sealCode'>): string {
  if (tip.certType === 'UKEY_CERT') return `${UKEY_MANAGE_PATH}?tab=offline`;
  return tip.sealCode
    ? `${MY_SEAL_LIST_PATH}?sealCode=${encodeURIComponent(tip.sealCode)}`
    : MY_SEAL_LIST_PATH;
}

/** No renew button for an invalid certificate, nor on the page where the renewal happens. */
export function showsRenewButton(
  tip: Pick<ExpiryTip, 'certType' | 'sealCode' | 'remindType' | 'message'>,
  pathname: string,
): boolean {
  if (effectiveRemindType(tip) === 'CERT_INVALID') return false;
  const target = renewTarget(tip).split('?')[0] ?? '';
  return !samePath(target, pathname);
}

/** The tip's words take the days count as `days` (never negative: an expired seal counts days since). */
export function tipTextParams(tip: Pick<ExpiryTip, 'message' | 'sealName'>): {
  days: number;
  name: string;
} {
  return { days: Math.abs(daysOf(tip.message) ?? 0), name: tip.sealName };
}
