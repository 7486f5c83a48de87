import pkcs11js, { type PKCS11 } from 'pkcs11js';
import { AppError, contracts } from '@openseal/core';
import { pkcs11Code } from './module';
import { AGENT_APPLICATION, dataObjects, tokenFailure, writeDataObject, type Token } from './token';

/**
 * Wrong-PIN counting kept on the token itself, so it follows the key from computer to computer. Real
 * UKeys count in their chip and lock by themselves (CKF_USER_PIN_LOCKED is honoured too); SoftHSM2 and
 * some modules never lock, so the agent keeps the count in a public data object and refuses once it
 * reaches the limit, until the seal maker resets it with the SO PIN. A public object can be deleted by
 * anyone who holds the key, so on such tokens this is a guard against guessing, not a hardware lock.
 */
const COUNTER_LABEL = 'pin-failures';

export function readFailures(lib: PKCS11, session: Buffer): number {
  const [counter] = dataObjects(lib, session, AGENT_APPLICATION, COUNTER_LABEL);
  const n = counter ? Number.parseInt(counter.value.toString('ascii'), 10) : 0;
  return Number.isInteger(n) && n > 0 ? n : 0;
}

function writeFailures(lib: PKCS11, session: Buffer, failures: number): void {
  writeDataObject(lib, session, {
    application: AGENT_APPLICATION,
    label: COUNTER_LABEL,
    value: Buffer.from(String(failures), 'ascii'),
  });
}

export function isLocked(token: Token, failures: number, maxTries: number): boolean {
  return (token.flags & pkcs11js.CKF_USER_PIN_LOCKED) !== 0 || failures >= maxTries;
}

export function checkPinFormat(pin: string): void {
  if (pin.length < contracts.UKEY_LIMITS.pinMin || pin.length > contracts.UKEY_LIMITS.pinMax)
    throw new AppError('ukey.pinFormat');
}

function locked(): AppError {
  return new AppError('ukey.locked', { details: { attemptsLeft: 0 } });
}

/**
 * Logs the user in with `pin`, counting a wrong PIN on the token; answers the attempts left (the full
 * allowance after a success). The caller logs out.
 */
export function loginUser(lib: PKCS11, session: Buffer, token: Token, pin: string, maxTries: number): number {
  checkPinFormat(pin);
  const failures = readFailures(lib, session);
  if (isLocked(token, failures, maxTries)) throw locked();
  try {
    lib.C_Login(session, pkcs11js.CKU_USER, pin);
  } catch (cause) {
    const code = pkcs11Code(cause);
    if (code === pkcs11js.CKR_USER_ALREADY_LOGGED_IN) {
      // Another application on this computer holds the login; the PIN must still be proven here.
      lib.C_Logout(session);
      return loginUser(lib, session, token, pin, maxTries);
    }
    if (code === pkcs11js.CKR_PIN_LOCKED) throw locked();
    if (code === pkcs11js.CKR_PIN_INCORRECT || code === pkcs11js.CKR_PIN_LEN_RANGE) {
      const now = failures + 1;
      writeFailures(lib, session, now);
      if (now >= maxTries) throw locked();
      const remaining = maxTries - now;
      throw new AppError('ukey.pinWrong', { params: { remaining }, details: { attemptsLeft: remaining } });
    }
    throw tokenFailure(cause);
  }
  if (failures > 0) writeFailures(lib, session, 0);
  return maxTries;
}

export function logout(lib: PKCS11, session: Buffer): void {
  try {
    lib.C_Logout(session);
  } catch {
    // Not logged in, or the key is gone: either way nobody is logged in any more.
  }
}

/**
 * The seal maker's reset: log in as security officer, optionally set a new user PIN, and clear the
 * count. A wrong SO PIN is refused (the token counts SO failures itself).
 */
export function resetPin(lib: PKCS11, session: Buffer, soPin: string, newPin: string | undefined): void {
  checkPinFormat(soPin);
  if (newPin !== undefined) checkPinFormat(newPin);
  try {
    lib.C_Login(session, pkcs11js.CKU_SO, soPin);
  } catch (cause) {
    const code = pkcs11Code(cause);
    if (code === pkcs11js.CKR_PIN_INCORRECT || code === pkcs11js.CKR_PIN_LEN_RANGE)
      throw new AppError('ukey.soPinWrong');
    if (code === pkcs11js.CKR_PIN_LOCKED)
      throw new AppError('ukey.unavailable', { details: { reason: 'soLocked' } });
    throw tokenFailure(cause);
  }
  try {
    if (newPin !== undefined) lib.C_InitPIN(session, newPin);
    writeFailures(lib, session, 0);
  } finally {
    logout(lib, session);
  }
}
