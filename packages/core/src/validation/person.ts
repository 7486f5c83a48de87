import type { Check } from './org';

/** Mainland mobile numbers: 11 digits starting 1[3-9]. */
const MOBILE = /^1[3-9]\d{9}$/;
export const SMS_CODE_LENGTH = 6;

export function checkMobile(raw: string | null | undefined): Check {
  const value = (raw ?? '').trim();
  return MOBILE.test(value) ? { ok: true, value } : { ok: false, key: 'account.mobileFormat' };
}

export function checkSmsCode(raw: string | null | undefined): Check {
  const value = (raw ?? '').trim();
  return new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`).test(value)
    ? { ok: true, value }
    : { ok: false, key: 'account.codeFormat' };
}

/** 8-32 characters, at least one letter and one digit, no spaces. */
export function checkPassword(raw: string | null | undefined): Check {
  const value = raw ?? '';
  const ok =
    value.length >= 8 &&
    value.length <= 32 &&
    /[A-Za-z]/.test(value) &&
    /\d/.test(value) &&
    !/\s/.test(value);
  return ok ? { ok: true, value } : { ok: false, key: 'account.passwordWeak' };
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** Resident identity number (GB 11643-1999): 18 characters, a real birth date, and the check character. */
export function checkResidentId(raw: string | null | undefined): Check {
  const value = (raw ?? '').trim().toUpperCase();
  if (!/^\d{17}[\dX]$/.test(value)) return { ok: false, key: 'realName.idFormat' };
  const y = Number(value.slice(6, 10));
  const m = Number(value.slice(10, 12));
  const d = Number(value.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1800 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
    return { ok: false, key: 'realName.idFormat' };
  }
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(value[i]) * ID_WEIGHTS[i]!;
  return ID_CHECK[sum % 11] === value[17] ? { ok: true, value } : { ok: false, key: 'realName.idFormat' };
}

/**
 * Section 9: phone masking keeps the first 3 and last 4 digits. The one masking helper of the platform:
 * every page and answer that shows someone else's mobile (or the viewer's own in a header) uses it.
 */
export function maskPhone(phone: string | null | undefined): string {
  const value = phone ?? '';
  if (value.length <= 7) return value;
  return `${value.slice(0, 3)}${'*'.repeat(value.length - 7)}${value.slice(-4)}`;
}
