import type { Bench } from '../lib/bench';
import { loginBySms } from '../lib/auth';
import { callApi } from '../lib/http';

/** An authenticated read: token lookup, space resolution and one account row per request. */
export const accountInfo: Bench = {
  name: 'account-info',
  description: 'GET /v1/accounts/info with a session token',
  async run(ctx) {
    const session = await loginBySms(ctx.server.baseUrl);
    // Fail loudly if the request does not succeed at all, rather than measuring error answers.
    await callApi(ctx.server.baseUrl, 'GET', '/v1/accounts/info', { headers: session.headers });
    return [
      { bench: 'account-info', result: await ctx.load('/v1/accounts/info', { headers: session.headers }) },
    ];
  },
};
