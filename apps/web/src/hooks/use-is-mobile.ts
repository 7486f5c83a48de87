import { useSyncExternalStore } from 'react';
import { desktopChosen, isMobileClient, MOBILE_MAX_WIDTH } from '../lib/device';

const QUERY = `(max-width: ${MOBILE_MAX_WIDTH}px)`;

function subscribe(callback: () => void): () => void {
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', callback);
  return () => media.removeEventListener('change', callback);
}

function snapshot(): boolean {
  // A visitor who chose the desktop site on the mobile page keeps it for this browser session.
  if (desktopChosen()) return false;
  return isMobileClient(window.innerWidth, navigator.userAgent);
}

export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, snapshot, () => false);
}
