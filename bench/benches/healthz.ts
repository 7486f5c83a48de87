import type { Bench } from '../lib/bench';

/** The baseline: the same server and HTTP stack, no database, no auth. Every other figure is read against it. */
export const healthz: Bench = {
  name: 'healthz',
  description: 'GET /healthz: HTTP round trip with no database work',
  async run(ctx) {
    return [{ bench: 'healthz', result: await ctx.load('/healthz') }];
  },
};
