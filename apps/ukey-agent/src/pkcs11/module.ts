import { existsSync } from 'node:fs';
import pkcs11js, { type PKCS11 } from 'pkcs11js';
import { AppError } from '@openseal/core';

let queue: Promise<unknown> = Promise.resolve();

export function pkcs11Code(error: unknown): number | undefined {
  return error instanceof pkcs11js.Pkcs11Error ? error.code : undefined;
}

/**
 * Runs `fn` with the module freshly loaded and initialised, one call at a time in this process, and
 * finalises it afterwards. Many modules (SoftHSM among them) list only the tokens present at
 * C_Initialize, so a fresh initialisation per call is what lets the agent see a key inserted or removed
 * since the last call; serialising keeps one call's C_Finalize from closing another's session.
 */
export function withModule<T>(modulePath: string | undefined, fn: (lib: PKCS11) => T): Promise<T> {
  const run = queue.then(() => runLoaded(modulePath, fn));
  queue = run.catch(() => undefined);
  return run;
}

function driverMissing(modulePath: string | undefined, cause?: unknown): AppError {
  return new AppError('ukey.notInserted', {
    details: { reason: 'driverMissing', module: modulePath ?? null },
    cause,
  });
}

function runLoaded<T>(modulePath: string | undefined, fn: (lib: PKCS11) => T): T {
  if (!modulePath || !existsSync(modulePath)) throw driverMissing(modulePath);
  const lib = new pkcs11js.PKCS11();
  try {
    lib.load(modulePath);
  } catch (cause) {
    throw driverMissing(modulePath, cause);
  }
  let ownsInit = true;
  try {
    try {
      lib.C_Initialize({ flags: pkcs11js.CKF_OS_LOCKING_OK });
    } catch (cause) {
      // Someone else in this process (a key store) holds the module: use it, and leave it initialised.
      if (pkcs11Code(cause) !== pkcs11js.CKR_CRYPTOKI_ALREADY_INITIALIZED)
        throw driverMissing(modulePath, cause);
      ownsInit = false;
    }
    return fn(lib);
  } finally {
    try {
      if (ownsInit) lib.C_Finalize();
    } finally {
      lib.close();
    }
  }
}
