import { existsSync } from 'node:fs';

const SOFTHSM_PATHS = [
  '/usr/lib/softhsm/libsofthsm2.so',
  '/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so',
  '/usr/lib/aarch64-linux-gnu/softhsm/libsofthsm2.so',
  '/usr/local/lib/softhsm/libsofthsm2.so',
];

/** Where Debian-family systems install the SoftHSM v2 PKCS#11 module, if it is present. */
export function findSoftHsmModule(): string | undefined {
  return SOFTHSM_PATHS.find((p) => existsSync(p));
}
