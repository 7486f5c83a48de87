import type { Bench } from '../lib/bench';

/** The baseline: the same server and HTTP stack, no database, no auth. Every other figure is read against it. */
export const livez: Bench = {
  name: 'livez',
  description: 'GET /livez: HTTP round trip with no database work',
  async run(ctx) {
    return [{ bench: 'livez', result: await ctx.load('/livez') }];
  },
};
