import { isApiError } from './api-client';
import { decideErrorReaction } from './api-error-reaction';
import { emitRealNameRequired } from './events';
import { toastError } from './feedback';
import { getLanguage } from './language';
import { loginAddress, navigateTo } from './navigation';
import { clearSession } from './session';

/**
 * The one place where failed requests turn into toasts, session clearing and redirects (spec section 8).
 * Queries and mutations reach it through the query cache; direct calls pass their errors in themselves.
 */
let leavingForLogin = false;

export function handleApiError(error: unknown): void {
  if (!isApiError(error)) return;
  const reaction = decideErrorReaction(error, getLanguage());

  // Several requests can fail with an expired session at once: react to the first only.
  const isSessionEnd = reaction.goLoginAfterMs !== null;
  if (isSessionEnd && leavingForLogin) return;

  if (reaction.toast) toastError(reaction.toast.text, reaction.toast.durationMs);
  if (reaction.realNameDialog) emitRealNameRequired();

  if (isSessionEnd) {
    leavingForLogin = true;
    const target = loginAddress();
    window.setTimeout(() => {
      if (reaction.clearSession) clearSession();
      navigateTo(target, { replace: true });
      leavingForLogin = false;
    }, reaction.goLoginAfterMs ?? 0);
  }
  if (reaction.goHomeAfterMs !== null) {
    window.setTimeout(() => window.location.assign(window.location.origin), reaction.goHomeAfterMs);
  }
}
