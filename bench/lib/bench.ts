/** What a bench is, and the context the runner hands it. */
import type { LoadCase, LoadResult } from './load';
import type { BenchServer } from './server';

export interface LoadOptions {
  durationS: number;
  connections: number;
  warmupS: number;
  /** Benches whose requests each use up a prepared item (sign-flow: will-authed tasks) prepare this many. */
  prepared: number;
}

export interface BenchContext {
  server: BenchServer;
  options: LoadOptions;
  /**
   * Warms up, then measures one request shape against the server. `path` is relative to the
   * server's base URL; duration and connections come from the run's options unless given.
   */
  load(path: string, init?: Partial<Omit<LoadCase, 'url'>>): Promise<LoadResult>;
}

export interface BenchOutcome {
  /** Name in the output's "bench" field; one bench may report several cases. */
  bench: string;
  result: LoadResult;
  /** Extra fields for the output line (payload size, file size, …). */
  extra?: Record<string, unknown>;
}

export interface Bench {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<BenchOutcome[]>;
}
