import { describe, expect, it } from 'vitest';
import { describeUkeyError, detectionOf, keyChoosable, normaliseAgentUrl, pinError } from './ukey-problems';

const api = (code: number, data: unknown = null, message = `message ${code}`) => ({
  kind: 'api',
  code,
  message,
  data,
});

describe('describeUkeyError', () => {
  it('tells an agent that does not answer from one without a driver, and both need the agent', () => {
    const down = describeUkeyError({ kind: 'unreachable', code: null, message: 'unreachable' });
    expect(down).toMatchObject({
      kind: 'agentUnreachable',
      detail: null,
      needsAgent: true,
      canRedetect: true,
    });
    expect(down.titleKey).toBe('ukeyMng.problem.agentUnreachable');
    expect(down.hintKey).toBe('ukeyMng.problemHint.agentUnreachable');
    expect(describeUkeyError({ kind: 'timeout', code: null, message: '' }).kind).toBe('agentTimeout');
    const driver = describeUkeyError(api(7001, { reason: 'driverMissing' }, '未安装驱动或未插入UKey'));
    expect(driver).toMatchObject({
      kind: 'driverMissing',
      detail: '未安装驱动或未插入UKey',
      needsAgent: true,
    });
    const noKey = describeUkeyError(api(7001, { reason: 'notInserted' }));
    expect(noKey).toMatchObject({ kind: 'notInserted', needsAgent: false, canRedetect: true });
  });

  it('maps each UKey error of section 8 to its own headline', () => {
    expect(describeUkeyError(api(7002, { expected: 'A', inserted: ['B'] })).kind).toBe('wrongSerial');
    expect(describeUkeyError(api(7003, { inserted: ['A', 'B'] })).kind).toBe('multiple');
    expect(describeUkeyError(api(7005)).kind).toBe('locked');
    expect(describeUkeyError(api(7006)).kind).toBe('unavailable');
    expect(describeUkeyError(api(7007)).kind).toBe('holderMismatch');
    expect(describeUkeyError(api(7025)).kind).toBe('pinFormat');
    // Only detection problems offer to detect again; a locked key or another holder's does not help.
    expect(describeUkeyError(api(7005)).canRedetect).toBe(false);
    expect(describeUkeyError(api(7007)).canRedetect).toBe(false);
  });

  it('keeps the attempts left of a wrong PIN, and the catalogued text', () => {
    const wrong = describeUkeyError(api(7004, { attemptsLeft: 2 }, 'PIN码错误，还可尝试2次'));
    expect(wrong).toMatchObject({ kind: 'pinWrong', attemptsLeft: 2, detail: 'PIN码错误，还可尝试2次' });
    expect(describeUkeyError(api(7004, {})).attemptsLeft).toBeNull();
  });

  it('shows any other code with the message it came with', () => {
    const other = describeUkeyError(api(7016, null, '该UKey未在本平台绑定，不能编辑或解绑'));
    expect(other).toMatchObject({ kind: 'other', detail: '该UKey未在本平台绑定，不能编辑或解绑' });
    expect(other.needsAgent).toBe(false);
  });
});

describe('detectionOf', () => {
  const a = { serial: 'A1' };
  const b = { serial: 'B2' };
  it('finds none, one or several keys', () => {
    expect(detectionOf([])).toEqual({ state: 'none' });
    expect(detectionOf([a])).toEqual({ state: 'one', key: a });
    expect(detectionOf([a, b])).toEqual({ state: 'several', keys: [a, b] });
  });
  it('takes the wanted key among several, and says "wrong serial" when only others are in', () => {
    expect(detectionOf([a, b], 'B2')).toEqual({ state: 'one', key: b });
    expect(detectionOf([a, b], 'C3')).toEqual({ state: 'wrong', expected: 'C3', keys: [a, b] });
    expect(detectionOf([a], 'C3')).toEqual({ state: 'wrong', expected: 'C3', keys: [a] });
    expect(detectionOf([], 'C3')).toEqual({ state: 'none' });
  });
});

describe('keyChoosable', () => {
  it('refuses a locked key, and any key but the wanted one when one is wanted', () => {
    expect(keyChoosable({ serial: 'A1', locked: false })).toBe(true);
    expect(keyChoosable({ serial: 'A1', locked: true })).toBe(false);
    expect(keyChoosable({ serial: 'A1', locked: false }, 'A1')).toBe(true);
    expect(keyChoosable({ serial: 'B2', locked: false }, 'A1')).toBe(false);
    expect(keyChoosable({ serial: 'A1', locked: true }, 'A1')).toBe(false);
  });
});

describe('pinError', () => {
  const limits = { pinMin: 4, pinMax: 16 };
  it('needs a PIN of 4 to 16 characters', () => {
    expect(pinError('', limits)).toBe('required');
    expect(pinError(undefined, limits)).toBe('required');
    expect(pinError('123', limits)).toBe('length');
    expect(pinError('1'.repeat(17), limits)).toBe('length');
    expect(pinError('1234', limits)).toBeNull();
    expect(pinError('1'.repeat(16), limits)).toBeNull();
  });
});

describe('normaliseAgentUrl', () => {
  it('accepts loopback http origins only', () => {
    expect(normaliseAgentUrl(' http://127.0.0.1:17777/ ')).toBe('http://127.0.0.1:17777');
    expect(normaliseAgentUrl('http://localhost:1234')).toBe('http://localhost:1234');
    expect(normaliseAgentUrl('http://[::1]:17777')).toBe('http://[::1]:17777');
    expect(normaliseAgentUrl('http://example.com:17777')).toBeNull();
    expect(normaliseAgentUrl('http://127.0.0.1:17777/v1')).toBeNull();
    expect(normaliseAgentUrl('file:///tmp/x')).toBeNull();
    expect(normaliseAgentUrl('not a url')).toBeNull();
  });
});
