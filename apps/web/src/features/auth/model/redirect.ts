/** The in-app address to continue to after login: only paths of this site, never back to /login. */
export function afterLoginTarget(redirect: string | null): string {
  if (!redirect) return '/';
  if (!redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\')) return '/';
  if (redirect === '/login' || redirect.startsWith('/login?') || redirect.startsWith('/login/')) return '/';
  return redirect;
}
