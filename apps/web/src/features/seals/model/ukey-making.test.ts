import { describe, expect, it } from 'vitest';
import {
  makingActions,
  nextStep,
  START,
  stepAfterServerState,
  stepShows,
  type MakingStep,
} from './ukey-making';

describe('making steps', () => {
  it('walks detect → PIN → certify → write → prove, then ends', () => {
    const walked: string[] = [];
    for (let s: MakingStep | null = 'detect'; s; s = nextStep(s)) walked.push(s);
    expect(walked).toEqual(['detect', 'pin', 'certify', 'write', 'prove']);
  });

  it('shows steps before the current one finished, the current one in progress or in error, the rest waiting', () => {
    expect(stepShows('toImport', START)).toEqual(['process', 'wait', 'wait', 'wait', 'wait']);
    expect(stepShows('importing', { step: 'write', failed: false, running: true })).toEqual([
      'finish',
      'finish',
      'finish',
      'process',
      'wait',
    ]);
    expect(stepShows('importing', { step: 'prove', failed: true, running: false })).toEqual([
      'finish',
      'finish',
      'finish',
      'finish',
      'error',
    ]);
  });

  it('shows every step finished once the import succeeded', () => {
    expect(stepShows('success', START)).toEqual(['finish', 'finish', 'finish', 'finish', 'finish']);
  });
});

describe('making actions follow the import state machine', () => {
  it('makes an application to import, retries a failed one, and nothing after success or revocation', () => {
    expect(makingActions('toImport', false)).toEqual(['make']);
    expect(makingActions('failure', false)).toEqual(['retry']);
    expect(makingActions('success', true)).toEqual(['none']);
    expect(makingActions('revoked', false)).toEqual(['none']);
  });

  it('resumes an import only where its key pair was generated; elsewhere it is marked failed', () => {
    expect(makingActions('importing', true)).toEqual(['resume', 'markFailed']);
    expect(makingActions('importing', false)).toEqual(['markFailed']);
    expect(stepAfterServerState('importing', true)).toBe('write');
    expect(stepAfterServerState('importing', false)).toBe('detect');
    expect(stepAfterServerState('toImport', false)).toBe('detect');
  });
});
