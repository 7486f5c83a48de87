import { describe, expect, it } from 'vitest';
import { auditQueryOf, isOperatorSessionEnd } from './operator-session';

describe('operator console session and audit filters', () => {
  it('ends the console session on 13001-13003 only', () => {
    expect([13001, 13002, 13003].every(isOperatorSessionEnd)).toBe(true);
    expect(isOperatorSessionEnd(13004)).toBe(false);
    expect(isOperatorSessionEnd(401)).toBe(false);
    expect(isOperatorSessionEnd(null)).toBe(false);
  });

  it('leaves out empty filters and makes the last day inclusive', () => {
    expect(auditQueryOf({ actor: '  ', action: '' }, 2, 20)).toEqual({ page: 2, size: 20 });
    const q = auditQueryOf(
      { actor: ' opr_1 ', action: 'operator', fromDay: '2026-01-01', toDay: '2026-01-31' },
      1,
      20,
    );
    expect(q.actor).toBe('opr_1');
    expect(q.action).toBe('operator');
    expect(Date.parse(String(q.to)) - Date.parse(String(q.from))).toBe(31 * 24 * 3600 * 1000);
  });
});
