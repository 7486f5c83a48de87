import pkcs11js, { type PKCS11 } from 'pkcs11js';
import { createHash } from 'node:crypto';
import { KeyStoreError } from './key-store-error';

/**
 * A PKCS#11 module can be initialised once per process: a second C_Initialize fails and the first
 * C_Finalize would pull the library from under every other user. Stores therefore share one
 * loaded module per path and finalise it when the last one closes.
 */
interface LoadedModule {
  lib: PKCS11;
  users: number;
  /** Per token label: who logged in (PIN digest) and how many of our sessions share that login. */
  logins: Map<string, { pinDigest: string; sessions: number }>;
}

const modules = new Map<string, LoadedModule>();

export function acquireModule(modulePath: string): PKCS11 {
  const existing = modules.get(modulePath);
  if (existing) {
    existing.users++;
    return existing.lib;
  }
  const lib = new pkcs11js.PKCS11();
  try {
    lib.load(modulePath);
  } catch (cause) {
    throw new KeyStoreError('module-not-found', `cannot load PKCS#11 module ${modulePath}`, { cause });
  }
  try {
    lib.C_Initialize({ flags: pkcs11js.CKF_OS_LOCKING_OK });
  } catch (cause) {
    if (!isPkcs11Code(cause, pkcs11js.CKR_CRYPTOKI_ALREADY_INITIALIZED)) {
      lib.close();
      throw new KeyStoreError('pkcs11-error', `C_Initialize failed for ${modulePath}`, { cause });
    }
  }
  modules.set(modulePath, { lib, users: 1, logins: new Map() });
  return lib;
}

export function releaseModule(modulePath: string): void {
  const entry = modules.get(modulePath);
  if (!entry) return;
  entry.users--;
  if (entry.users > 0) return;
  modules.delete(modulePath);
  try {
    entry.lib.C_Finalize();
  } finally {
    entry.lib.close();
  }
}

export function isPkcs11Code(error: unknown, code: number): boolean {
  return error instanceof pkcs11js.Pkcs11Error && error.code === code;
}

/**
 * Logs a fresh session in. PKCS#11 login is per token and application, so a second store on a token
 * would get CKR_USER_ALREADY_LOGGED_IN whatever PIN it holds; it is admitted only with the same PIN.
 */
export function loginSession(modulePath: string, tokenLabel: string, session: Buffer, pin: string): void {
  const entry = modules.get(modulePath);
  if (!entry) throw new KeyStoreError('not-open', `module ${modulePath} is not loaded`);
  const pinDigest = createHash('sha256').update(`${tokenLabel}\0${pin}`).digest('hex');
  const existing = entry.logins.get(tokenLabel);
  if (existing) {
    if (existing.pinDigest !== pinDigest) {
      throw new KeyStoreError('login-failed', `login to token "${tokenLabel}" failed: wrong PIN`);
    }
    existing.sessions++;
    return;
  }
  try {
    entry.lib.C_Login(session, pkcs11js.CKU_USER, pin);
  } catch (cause) {
    if (!isPkcs11Code(cause, pkcs11js.CKR_USER_ALREADY_LOGGED_IN)) {
      throw new KeyStoreError('login-failed', `login to token "${tokenLabel}" failed`, { cause });
    }
  }
  entry.logins.set(tokenLabel, { pinDigest, sessions: 1 });
}

/** Forgets one session's share of the login; the token drops the login itself with the last session. */
export function logoutSession(modulePath: string, tokenLabel: string): void {
  const login = modules.get(modulePath)?.logins.get(tokenLabel);
  if (!login) return;
  login.sessions--;
  if (login.sessions <= 0) modules.get(modulePath)?.logins.delete(tokenLabel);
}
