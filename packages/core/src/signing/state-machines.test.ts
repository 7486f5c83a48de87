import { describe, expect, it } from 'vitest';
import { allowedActions, nextStatus, type Machine } from '../seals/state-machines';
import {
  APPROVAL_MACHINE,
  APPROVAL_STATUSES,
  FLOW_MACHINE,
  FLOW_STATUSES,
  flowValidUntil,
  OPEN_FLOW_STATUSES,
  TASK_MACHINE,
  TASK_STATUSES,
} from './state-machines';

/** Every (status, action) pair of a table: the expected outcome, or null where the table refuses. */
function table<S extends string, A extends string>(machine: Machine<S, A>, statuses: readonly S[]) {
  const out: Record<string, S | null> = {};
  for (const s of statuses)
    for (const a of Object.keys(machine) as A[]) out[`${s} --${a}`] = nextStatus(machine, s, a);
  return out;
}

describe('sign flow states (spec 4)', () => {
  it('allows exactly these transitions and refuses every other', () => {
    const allowed = Object.entries(table(FLOW_MACHINE, FLOW_STATUSES)).filter(([, to]) => to !== null);
    expect(Object.fromEntries(allowed)).toEqual({
      'pendingSign --sign': 'signing',
      'pendingSign --complete': 'completed',
      'pendingSign --requestApproval': 'inApproval',
      'pendingSign --refuse': 'refused',
      'pendingSign --withdraw': 'withdrawn',
      'pendingSign --expire': 'terminated',
      'signing --sign': 'signing',
      'signing --complete': 'completed',
      'signing --requestApproval': 'inApproval',
      'signing --refuse': 'refused',
      'signing --withdraw': 'withdrawn',
      'signing --expire': 'terminated',
      'inApproval --closeApproval': 'signing',
      'inApproval --refuse': 'refused',
      'inApproval --withdraw': 'withdrawn',
      'inApproval --expire': 'terminated',
      'completed --void': 'voided',
    });
  });

  it('ends for good: terminated, refused, withdrawn and voided allow nothing', () => {
    for (const s of ['terminated', 'refused', 'withdrawn', 'voided'] as const)
      expect(allowedActions(FLOW_MACHINE, s)).toEqual([]);
    expect(allowedActions(FLOW_MACHINE, 'completed')).toEqual(['void']);
  });

  it('open statuses are the ones a signer, urge, withdrawal or expiry can act on', () => {
    for (const s of FLOW_STATUSES)
      expect(OPEN_FLOW_STATUSES.includes(s as never)).toBe(nextStatus(FLOW_MACHINE, s, 'withdraw') !== null);
  });
});

describe('signer task states', () => {
  it('allows exactly these transitions', () => {
    const allowed = Object.entries(table(TASK_MACHINE, TASK_STATUSES)).filter(([, to]) => to !== null);
    expect(Object.fromEntries(allowed)).toEqual({
      'waiting --activate': 'pending',
      'waiting --close': 'closed',
      'pending --requestApproval': 'inApproval',
      'pending --sign': 'signed',
      'pending --refuse': 'refused',
      'pending --close': 'closed',
      'inApproval --grantApproval': 'approved',
      'inApproval --denyApproval': 'pending',
      'inApproval --refuse': 'refused',
      'inApproval --close': 'closed',
      'approved --sign': 'signed',
      'approved --refuse': 'refused',
      'approved --close': 'closed',
    });
  });
  it('a waiting signer cannot sign, and nobody signs twice', () => {
    expect(nextStatus(TASK_MACHINE, 'waiting', 'sign')).toBeNull();
    expect(nextStatus(TASK_MACHINE, 'inApproval', 'sign')).toBeNull();
    for (const s of ['signed', 'refused', 'closed'] as const)
      expect(allowedActions(TASK_MACHINE, s)).toEqual([]);
  });
});

describe('seal-use approval states (spec 4)', () => {
  it('decides once: every action from in approval, none after', () => {
    for (const a of ['approve', 'refuse', 'return', 'withdraw', 'terminate'] as const)
      expect(nextStatus(APPROVAL_MACHINE, 'inApproval', a)).not.toBeNull();
    expect(nextStatus(APPROVAL_MACHINE, 'inApproval', 'approve')).toBe('approved');
    expect(nextStatus(APPROVAL_MACHINE, 'inApproval', 'refuse')).toBe('refused');
    expect(nextStatus(APPROVAL_MACHINE, 'inApproval', 'return')).toBe('returned');
    for (const s of APPROVAL_STATUSES.filter((x) => x !== 'inApproval'))
      expect(allowedActions(APPROVAL_MACHINE, s)).toEqual([]);
  });
});

describe('validity options (spec 9)', () => {
  const from = new Date('2026-01-31T08:00:00Z');
  it('adds calendar months, clamped to the month’s last day', () => {
    expect(flowValidUntil('1m', from).toISOString()).toBe('2026-02-28T08:00:00.000Z');
    expect(flowValidUntil('3m', from).toISOString()).toBe('2026-04-30T08:00:00.000Z');
    expect(flowValidUntil('6m', from).toISOString()).toBe('2026-07-31T08:00:00.000Z');
    expect(flowValidUntil('1y', from).toISOString()).toBe('2027-01-31T08:00:00.000Z');
  });
});
