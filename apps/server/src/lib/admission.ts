/**
 * Admission for expensive public requests, decided before their body is read: at most `running` at a
 * time, and up to `waiting` more wait their turn in arrival order (their uploads stay in the socket,
 * so waiting costs no memory and no CPU). A request beyond that, or one that waited `waitMs`, is refused
 * as `work.busy` at once. Without it, a burst beyond the worker pool's queue read every upload only to
 * refuse it, and clients retrying those refusals kept the main thread too busy to feed the pool.
 */
import { AppError } from '@openseal/core';

export interface AdmissionOptions {
  running: number;
  waiting: number;
  waitMs: number;
}

export interface Admission {
  /** Waits for a turn; the answer ends it (call it exactly once). Throws `work.busy`. */
  enter(): Promise<() => void>;
  /** Requests running and waiting now. */
  load(): { running: number; waiting: number };
}

export function createAdmission(options: AdmissionOptions): Admission {
  let running = 0;
  const queue: Array<{ admit(): void }> = [];

  function leave(): void {
    const next = queue.shift();
    if (next) next.admit();
    else running--;
  }

  function turn(): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      leave();
    };
  }

  return {
    async enter() {
      if (running < options.running) {
        running++;
        return turn();
      }
      if (queue.length >= options.waiting)
        throw new AppError('work.busy', { details: { waiting: queue.length } });
      return new Promise<() => void>((resolve, reject) => {
        const entry = {
          admit() {
            clearTimeout(timer);
            // The running count passes from the one that left to this one.
            resolve(turn());
          },
        };
        const timer = setTimeout(() => {
          queue.splice(queue.indexOf(entry), 1);
          reject(new AppError('work.busy', { details: { waitedMs: options.waitMs } }));
        }, options.waitMs);
        queue.push(entry);
      });
    },
    load: () => ({ running, waiting: queue.length }),
  };
}
