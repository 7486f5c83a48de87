/**
 * Browser storage keys the app keeps (spec section 3: accessToken, ukeyPermissonSn, plugin configs, language)
 * and safe accessors: storage can be unavailable (private mode, sandboxed iframes) and must never crash a page.
 */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  keySerial: 'ukeyPermissonSn',
  language: 'language',
  systemConfigPrefix: 'systemConfig:',
  pluginRoutes: 'pluginConfigs',
} as const;

export const SESSION_STORAGE_KEYS = {
  announcementShown: 'announcementShown',
  forceDesktop: 'forceDesktop',
} as const;

function pick(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
  } catch {
    return null;
  }
}

export function readStorage(key: string, kind: 'local' | 'session' = 'local'): string | null {
  try {
    return pick(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null, kind: 'local' | 'session' = 'local'): void {
  try {
    const store = pick(kind);
    if (!store) return;
    if (value === null) store.removeItem(key);
    else store.setItem(key, value);
  } catch {
    // Quota or access errors: the value is only a cache, so losing it is acceptable.
  }
}
