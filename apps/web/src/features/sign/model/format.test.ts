import { describe, expect, it } from 'vitest';
import { detailPath, formatTime, shortHash, signTaskPath } from './format';

describe('sign formatting', () => {
  it('prints local times and dates, and nothing for none', () => {
    const iso = new Date(2031, 0, 2, 3, 4).toISOString();
    expect(formatTime(iso)).toBe('2031-01-02 03:04');
    expect(formatTime(iso, true)).toBe('2031-01-02');
    expect(formatTime(null)).toBe('');
    expect(formatTime('nonsense')).toBe('');
  });

  it('shortens hashes and builds addresses', () => {
    expect(shortHash('a'.repeat(64))).toBe(`${'a'.repeat(8)}…${'a'.repeat(8)}`);
    expect(shortHash('abc')).toBe('abc');
    expect(detailPath('f 1')).toBe('/signService/signRecordDetail?flowId=f%201');
    expect(signTaskPath('f', 't')).toBe('/signService/signByMe?flowId=f&taskId=t');
  });
});
