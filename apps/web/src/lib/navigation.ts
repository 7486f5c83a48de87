/**
 * Navigation for code outside React (the error handler). The router registers itself; before that, or
 * without a router, a full page load does the same job.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigateFn: Navigate | null = null;

export function registerNavigate(fn: Navigate | null): void {
  navigateFn = fn;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  if (navigateFn) navigateFn(to, options);
  else window.location.assign(to);
}

/** The current in-app address, used as the redirect target after logging in. */
export function currentAddress(): string {
  return `${window.location.pathname}${window.location.search}`;
}

export function loginAddress(redirect: string = currentAddress()): string {
  if (redirect.startsWith('/login')) return '/login';
  return `/login?redirect=${encodeURIComponent(redirect)}`;
}

/** Reload the whole app at an address: used after a token change so every cached query starts fresh. */
export function reloadTo(address: string): void {
  window.location.assign(address);
}
