import { readStorage, SESSION_STORAGE_KEYS, writeStorage } from './storage';

/** The mobile base path: the phone pages live under it (spec section 2). */
export const MOBILE_BASE = '/h5';

/** The mobile address of a desktop path and query. */
export function mobileHref(desktopPath: string, search = ''): string {
  return `${MOBILE_BASE}${desktopPath === '/' ? '/' : desktopPath}${search}`;
}

/** Chooses the desktop site for the rest of this browser session and opens a desktop address there. */
export function continueOnDesktop(target: string): void {
  writeStorage(SESSION_STORAGE_KEYS.forceDesktop, '1', 'session');
  window.location.assign(target.startsWith('/') && !target.startsWith('//') ? target : '/');
}

/** Whether this browser session chose the desktop site on a phone. */
export function desktopChosen(): boolean {
  return readStorage(SESSION_STORAGE_KEYS.forceDesktop, 'session') === '1';
}

/** Spec section 2: phone-sized screens or phone browsers get the mobile (H5) pages. */
export const MOBILE_MAX_WIDTH = 768;
const MOBILE_UA = /Android|webOS|iPhone|iPod|BlackBerry|IEMobile|Opera Mini|Mobile|HarmonyOS/i;
const TABLET_UA = /iPad|Tablet/i;

/**
 * Narrower than any real phone: a window reports such widths only transiently (while it is being created,
 * resized or captured), and acting on them would send a desktop browser to the mobile pages mid-session.
 */
export const MIN_REAL_WIDTH = 240;

export function isMobileClient(viewportWidth: number, userAgent: string): boolean {
  if (viewportWidth >= MIN_REAL_WIDTH && viewportWidth <= MOBILE_MAX_WIDTH) return true;
  return MOBILE_UA.test(userAgent) && !TABLET_UA.test(userAgent);
}
