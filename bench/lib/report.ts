/**
 * Output contract of `npm run bench`: stdout carries JSON lines only, one object per measurement;
 * everything meant for a person goes to stderr. The suite writes records to the descriptor that
 * bench/run.ts names in BENCH_RESULTS_FD, because the server it hosts logs to its own stdout.
 */
import { writeSync } from 'node:fs';

const RESULTS_FD = Number(process.env.BENCH_RESULTS_FD) || 1;

export interface Measurement {
  bench: string;
  db: string;
  [key: string]: unknown;
}

export function emit(record: Measurement): void {
  writeSync(RESULTS_FD, `${JSON.stringify(record)}\n`);
}

export function note(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

/** Rounds for display without pretending to more precision than a benchmark on a shared box has. */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
