import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

/**
 * The session as the browser keeps it: the access token (and the UKey serial of a key login) in local storage.
 * Components subscribe to changes so that logging in or out anywhere re-renders what depends on it.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

function emit(): void {
  for (const listener of listeners) listener();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getAccessToken(): string | null {
  const token = readStorage(STORAGE_KEYS.accessToken);
  return token && token.length > 0 ? token : null;
}

export function getKeySerial(): string {
  return readStorage(STORAGE_KEYS.keySerial) ?? '';
}

export function storeAccessToken(token: string): void {
  writeStorage(STORAGE_KEYS.accessToken, token);
  emit();
}

/** Forget everything that belongs to the signed-in user. */
export function clearSession(): void {
  writeStorage(STORAGE_KEYS.accessToken, null);
  writeStorage(STORAGE_KEYS.keySerial, null);
  emit();
}

// Another tab logging in or out changes the same storage.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEYS.accessToken || event.key === null) emit();
  });
}
