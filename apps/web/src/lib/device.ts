/** Spec section 2: phone-sized screens or phone browsers get the mobile (H5) pages. */
export const MOBILE_MAX_WIDTH = 768;
const MOBILE_UA = /Android|webOS|iPhone|iPod|BlackBerry|IEMobile|Opera Mini|Mobile|HarmonyOS/i;
const TABLET_UA = /iPad|Tablet/i;

export function isMobileClient(viewportWidth: number, userAgent: string): boolean {
  if (viewportWidth > 0 && viewportWidth <= MOBILE_MAX_WIDTH) return true;
  return MOBILE_UA.test(userAgent) && !TABLET_UA.test(userAgent);
}
