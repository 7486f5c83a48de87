/**
 * The address to go to after logout: a path of this site, or an http(s) address the server returned
 * (a single-sign-on logout page, say). Anything else (javascript:, data:, protocol-relative) goes home.
 */
export function safeRedirect(target: string | null | undefined): string {
  if (!target) return '/';
  if (target.startsWith('/') && !target.startsWith('//')) return target;
  try {
    const url = new URL(target);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : '/';
  } catch {
    return '/';
  }
}
