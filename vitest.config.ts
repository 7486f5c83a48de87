import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One test command for everything: unit tests next to the code, server tests through inject(),
// browser tests in e2e/. Each project runs on PGlite, and on PostgreSQL too when DATABASE_URL is set.
export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores, so one on a two-core machine. The server
    // suites spend much of their time waiting on PostgreSQL, pdfsig, qpdf and openssl, so two workers
    // take about two thirds of the time of one there. (Browser files still run one at a time.)
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default', './scripts/summary-reporter.ts'],
    projects: [
      { test: { name: 'unit', include: ['packages/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['apps/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'ukey-agent',
          include: ['apps/ukey-agent/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      { test: { name: 'web', include: ['apps/web/src/**/*.test.{ts,tsx}'], environment: 'node' } },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          // A page renders and settles in well under a second on an idle machine, but on a loaded
          // two-core CI machine a step was seen to take over 10 s: polls wait up to 20 s by default (a
          // wait, not a weaker assertion: a poll that succeeds returns at once).
          expect: { poll: { timeout: 20_000 } },
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
