/**
 * The import (making) of a UKey for an application (spec sections 3 and 4): the steps the page walks
 * through and how each one shows, given the application's import state on the server and how far this
 * page got. The server's state machine (to import → importing → success | failure → to import) decides
 * what is allowed; this only mirrors it for the screen.
 */
import type { contracts } from '@openseal/core';

type ApplyStatus = contracts.UkeyApplyStatus;

/** detect the key → PIN → key pair and certificate (makingData) → write into the key → prove and bind (done). */
export const MAKING_STEPS = ['detect', 'pin', 'certify', 'write', 'prove'] as const;
export type MakingStep = (typeof MAKING_STEPS)[number];
export type StepShow = 'wait' | 'process' | 'finish' | 'error';

export interface MakingProgress {
  /** The step being worked on (or failed on). */
  step: MakingStep;
  /** The step failed; the page shows the reason and offers to try it again. */
  failed: boolean;
  /** Whether the step is running now. */
  running: boolean;
}

export const START: MakingProgress = { step: 'detect', failed: false, running: false };

export function stepIndex(step: MakingStep): number {
  return MAKING_STEPS.indexOf(step);
}

/** The step after `step`, or null after the last. */
export function nextStep(step: MakingStep): MakingStep | null {
  return MAKING_STEPS[stepIndex(step) + 1] ?? null;
}

/** How each step shows: finished before the current one, current in progress or in error, waiting after. */
export function stepShows(status: ApplyStatus, progress: MakingProgress): StepShow[] {
  if (status === 'success') return MAKING_STEPS.map(() => 'finish');
  const current = stepIndex(progress.step);
  return MAKING_STEPS.map((_, i) =>
    i < current ? 'finish' : i === current ? (progress.failed ? 'error' : 'process') : 'wait',
  );
}

/**
 * What the page offers for an application in `status`, knowing whether this page holds the public key it
 * had certified (`inSession`): an application importing elsewhere (or before a reload) cannot be resumed,
 * since its key pair's public key is only known to the page that generated it — it is marked failed and
 * retried instead.
 */
export type MakingAction = 'make' | 'resume' | 'markFailed' | 'retry' | 'none';

export function makingActions(status: ApplyStatus, inSession: boolean): MakingAction[] {
  switch (status) {
    case 'toImport':
      return ['make'];
    case 'importing':
      return inSession ? ['resume', 'markFailed'] : ['markFailed'];
    case 'failure':
      return ['retry'];
    case 'success':
    case 'revoked':
      return ['none'];
    default: {
      const never: never = status;
      return never;
    }
  }
}

/** The step a failure on the server side sends the page back to: before a certificate, or after it. */
export function stepAfterServerState(status: ApplyStatus, inSession: boolean): MakingStep {
  if (status === 'importing' && inSession) return 'write';
  return 'detect';
}
