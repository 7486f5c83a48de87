import { describe, expect, it } from 'vitest';
import { isAppError } from '@openseal/core';
import { createAdmission } from './admission';

const busy = (err: unknown) => isAppError(err) && err.key === 'work.busy';

describe('admission of expensive requests', () => {
  it('runs up to the limit, queues the next in arrival order, and refuses beyond the queue', async () => {
    const gate = createAdmission({ running: 2, waiting: 2, waitMs: 5_000 });
    const a = await gate.enter();
    const b = await gate.enter();
    const order: string[] = [];
    const c = gate.enter().then((leave) => (order.push('c'), leave));
    const d = gate.enter().then((leave) => (order.push('d'), leave));
    expect(gate.load()).toEqual({ running: 2, waiting: 2 });
    await expect(gate.enter()).rejects.toSatisfy(busy);

    a();
    a(); // leaving twice frees one turn only
    const leaveC = await c;
    expect(order).toEqual(['c']);
    expect(gate.load()).toEqual({ running: 2, waiting: 1 });
    b();
    const leaveD = await d;
    expect(order).toEqual(['c', 'd']);
    leaveC();
    leaveD();
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a request that waited too long, and forgets it', async () => {
    const gate = createAdmission({ running: 1, waiting: 4, waitMs: 30 });
    const first = await gate.enter();
    await expect(gate.enter()).rejects.toSatisfy(busy);
    expect(gate.load()).toEqual({ running: 1, waiting: 0 });
    first();
    const again = await gate.enter();
    expect(gate.load()).toEqual({ running: 1, waiting: 0 });
    again();
  });
});
