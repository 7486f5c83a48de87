import { describe, expect, it } from 'vitest';
import {
  afterClaim,
  decideFlow,
  entryQuery,
  flowEntryOf,
  formatFlowTime,
  outcomeAddress,
  outcomeOfError,
  parseApplyNos,
  percentOf,
  reasonOf,
  resultVariantOf,
  waitStateOf,
  type FlowItem,
} from './flow-outcome';

const item = (over: Partial<FlowItem> = {}): FlowItem => ({
  applyNo: 'a1',
  status: 'pendingProduction',
  receiveStatus: 'unclaimed',
  ...over,
});
const who = { isLegalPerson: true, canClaim: true };

describe('seal flow: the entry', () => {
  it('reads application numbers, trimmed and without repeats', () => {
    expect(parseApplyNos(' a1, a2,,a1 ')).toEqual(['a1', 'a2']);
    expect(parseApplyNos(null)).toEqual([]);
    expect(parseApplyNos(Array.from({ length: 30 }, (_, i) => `n${i}`).join(','))).toHaveLength(20);
    expect(flowEntryOf(new URLSearchParams('applyNo=a1,a2'))).toEqual({
      kind: 'apply',
      applyNos: ['a1', 'a2'],
    });
  });
  it('a claim link wins, and an incomplete one is still a link for the server to judge', () => {
    expect(
      flowEntryOf(new URLSearchParams('getSealFlowId=gsf1&expires=1700000000&sig=abc&applyNo=a1')),
    ).toEqual({ kind: 'link', link: { getSealFlowId: 'gsf1', expires: 1700000000, sig: 'abc' } });
    expect(flowEntryOf(new URLSearchParams('getSealFlowId=gsf1&expires=soon'))).toEqual({
      kind: 'link',
      link: { getSealFlowId: 'gsf1', expires: 0, sig: '' },
    });
    expect(flowEntryOf(new URLSearchParams(''))).toBeNull();
  });
  it('carries the entry to the result pages, so a reload asks the server again', () => {
    const link = { kind: 'link' as const, link: { getSealFlowId: 'g', expires: 5, sig: 's' } };
    expect(entryQuery(link)).toBe('getSealFlowId=g&expires=5&sig=s');
    expect(flowEntryOf(new URLSearchParams(entryQuery(link)))).toEqual(link);
    const apply = { kind: 'apply' as const, applyNos: ['a', 'b'] };
    expect(outcomeAddress({ kind: 'made' }, apply)).toBe('/getSealResult?applyNo=a%2Cb');
    expect(outcomeAddress({ kind: 'none', reason: 'linkInvalid' }, link)).toBe(
      '/noGetSealResult?getSealFlowId=g&expires=5&sig=s&reason=linkInvalid',
    );
    expect(outcomeAddress({ kind: 'onlyLegal' }, apply)).toBe('/getSealResultOnlyLegal?applyNo=a%2Cb');
    expect(outcomeAddress({ kind: 'waiting' }, apply)).toBe('/getSealWaitResult?applyNo=a%2Cb');
  });
  it('knows each result route', () => {
    expect(resultVariantOf('/getSealResult')).toBe('made');
    expect(resultVariantOf('/getSealWaitResult')).toBe('waiting');
    expect(resultVariantOf('/getArtificialSealtResult')).toBe('manualReview');
    expect(resultVariantOf('/getSealResultOnlyLegal')).toBe('onlyLegal');
    expect(resultVariantOf('/noGetSealAuthResult')).toBe('noAuth');
    expect(resultVariantOf('/noGetSealResult')).toBe('none');
    expect(resultVariantOf('/getSealFlow')).toBeNull();
  });
});

describe('seal flow: what to show', () => {
  it('the legal representative with the permission claims the approved, unclaimed seals', () => {
    expect(
      decideFlow({ ...who, items: [item(), item({ applyNo: 'a2', receiveStatus: 'made', status: 'made' })] }),
    ).toEqual({ kind: 'claim', claimable: ['a1'] });
  });
  it('anyone else is told only the legal representative claims', () => {
    expect(decideFlow({ isLegalPerson: false, canClaim: false, items: [item()] })).toEqual({
      kind: 'onlyLegal',
    });
  });
  it('a legal representative without the claim permission is refused', () => {
    expect(decideFlow({ isLegalPerson: true, canClaim: false, items: [item()] })).toEqual({
      kind: 'noAuth',
      reason: 'noClaimPermission',
    });
  });
  it('claimed seals lead to waiting, then to the result', () => {
    expect(decideFlow({ ...who, items: [item({ receiveStatus: 'making' })] })).toEqual({ kind: 'waiting' });
    expect(decideFlow({ ...who, items: [item({ receiveStatus: 'failed' })] })).toEqual({ kind: 'waiting' });
    expect(decideFlow({ ...who, items: [item({ status: 'made', receiveStatus: 'made' })] })).toEqual({
      kind: 'made',
    });
    // Non-legal callers see the result of a finished claim too.
    expect(
      decideFlow({
        isLegalPerson: false,
        canClaim: false,
        items: [item({ status: 'made', receiveStatus: 'made' })],
      }),
    ).toEqual({ kind: 'made' });
  });
  it('applications still under review wait for the operator', () => {
    expect(decideFlow({ ...who, items: [item({ status: 'pendingReview' })] })).toEqual({
      kind: 'manualReview',
    });
  });
  it('a used link or closed applications offer nothing', () => {
    expect(decideFlow({ ...who, flowStatus: 'done', items: [item()] })).toEqual({
      kind: 'none',
      reason: 'flowDone',
    });
    expect(decideFlow({ ...who, items: [item({ status: 'rejected', receiveStatus: 'closed' })] })).toEqual({
      kind: 'none',
      reason: 'closed',
    });
    expect(decideFlow({ ...who, items: [] })).toEqual({ kind: 'none', reason: 'nothingToClaim' });
  });
  it('turns the catalogued refusals into outcomes', () => {
    expect(outcomeOfError(6111)).toEqual({ kind: 'none', reason: 'linkInvalid' });
    expect(outcomeOfError(6112)).toEqual({ kind: 'none', reason: 'nothingToClaim' });
    expect(outcomeOfError(6109)).toEqual({ kind: 'none', reason: 'notFound' });
    expect(outcomeOfError(11002)).toEqual({ kind: 'noAuth', reason: 'noClaimPermission' });
    expect(outcomeOfError(500)).toBeNull();
    expect(outcomeOfError(null)).toBeNull();
    expect(reasonOf('flowDone', 'closed')).toBe('flowDone');
    expect(reasonOf('<script>', 'closed')).toBe('closed');
  });
});

describe('seal flow: after the claim', () => {
  it('a job waits; seals made at once show the result', () => {
    expect(afterClaim({ async: true, list: [item({ receiveStatus: 'making' })] })).toBe('waiting');
    expect(afterClaim({ async: false, list: [item({ receiveStatus: 'made', status: 'made' })] })).toBe(
      'made',
    );
    expect(afterClaim({ async: false, list: [item({ receiveStatus: 'failed' })] })).toBe('waiting');
  });
  it('measures progress per seal and over all', () => {
    expect(percentOf({ applyNo: 'a', receiveStatus: 'made', making: null })).toBe(100);
    expect(
      percentOf({ applyNo: 'a', receiveStatus: 'making', making: { state: 'running', progress: 40 } }),
    ).toBe(40);
    expect(
      percentOf({ applyNo: 'a', receiveStatus: 'making', making: { state: 'done', progress: 100 } }),
    ).toBe(99);
    expect(percentOf({ applyNo: 'a', receiveStatus: 'making', making: null })).toBe(0);
    const made = { applyNo: 'a', receiveStatus: 'made' as const, making: null };
    const making = {
      applyNo: 'b',
      receiveStatus: 'making' as const,
      making: { state: 'queued' as const, progress: 0 },
    };
    const failed = {
      applyNo: 'c',
      receiveStatus: 'failed' as const,
      making: { state: 'failed' as const, progress: 30 },
    };
    expect(waitStateOf([made])).toBe('done');
    expect(waitStateOf([made, making])).toBe('making');
    expect(waitStateOf([made, failed])).toBe('failed');
    expect(waitStateOf([])).toBe('making');
  });
});

describe('seal flow: times', () => {
  it('shows a time in the reader language, and a dash for nothing', () => {
    const iso = '2030-05-06T07:08:00.000Z';
    const d = new Date(iso);
    expect(formatFlowTime(iso, 'zh-CN')).toContain(String(d.getFullYear()));
    expect(formatFlowTime(iso, 'zh-CN')).toContain(String(d.getMinutes()).padStart(2, '0'));
    expect(formatFlowTime(iso, 'en')).toMatch(/\d{2}\/\d{2}\/2030/);
    expect(formatFlowTime(null, 'en')).toBe('-');
    expect(formatFlowTime('not a time', 'en')).toBe('-');
  });
});
