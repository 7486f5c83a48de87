import { AppError } from '@openseal/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireRealName } from '../src/lib/permissions';
import { createSessionService } from '../src/modules/session/session.service';
import { DIALECTS, mobile, residentId, startTestApp, uscc, type TestApp } from './harness';

/**
 * Real name first (spec section 6): the session carries the person's and the organisation's real-name
 * state, read on every request, and `requireRealName` refuses with -999 until both are proven. The person
 * here proves their name through the real flow (sandbox verifier), so the state comes from the flow itself.
 */
describe.each(DIALECTS)('real-name gate [%s]', (dialect) => {
  let t: TestApp;
  const sessions = createSessionService({ ttlHours: 1 });
  beforeAll(async () => {
    process.env.REALNAME_SANDBOX_DELAY_MS = '20';
    t = await startTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const refusal = (token: string) =>
    sessions.resolve(t.db, token).then(
      (ctx) => {
        try {
          requireRealName(ctx);
          return null;
        } catch (error) {
          return error instanceof AppError ? error.code : error;
        }
      },
      (error: unknown) => error,
    );

  async function provePerson(token: string, mob: string) {
    const flow = await t.call('POST', '/v1/accounts/auth/flow', { token, body: { organizeType: 2 } });
    const flowId = flow.body.data.flowId as string;
    const sent = await t.call('POST', `/v1/accounts/auth/${flowId}/person`, {
      token,
      body: { name: '李四', idNumber: residentId(), mobile: mob },
    });
    expect(sent.body.code).toBe(0);
    const code = await t.smsCode(mob);
    expect(
      (await t.call('POST', `/v1/accounts/auth/${flowId}/confirmCode`, { token, body: { code } })).body.code,
    ).toBe(0);
    await expect
      .poll(
        async () => (await t.call('GET', `/v1/accounts/auth/${flowId}/result`, { token })).body.data.status,
        {
          timeout: 10_000,
          interval: 20,
        },
      )
      .toBe('success');
  }

  it('refuses an unverified person, then lets the same token through once the flow succeeds', async () => {
    const mob = mobile();
    const token = await t.loginBySms(mob);
    const before = await sessions.resolve(t.db, token);
    expect(before.realName).toEqual({ person: false, organization: null });
    expect(await refusal(token)).toBe(-999);

    await provePerson(token, mob);
    expect((await sessions.resolve(t.db, token)).realName).toEqual({ person: true, organization: null });
    expect(await refusal(token)).toBeNull();
  });

  it('in an organisation space, refuses until the organisation is real-named too', async () => {
    const mob = mobile();
    const personToken = await t.loginBySms(mob);
    await provePerson(personToken, mob);
    const created = await t.call('POST', '/v1/organizes/add', {
      token: personToken,
      body: { organizeName: `门禁测试（${Math.random().toString(36).slice(2, 8)}）有限公司`, uscc: uscc() },
    });
    expect(created.body.code).toBe(0);
    const orgToken = created.body.data.accessToken as string;
    expect((await sessions.resolve(t.db, orgToken)).realName).toEqual({ person: true, organization: false });
    expect(await refusal(orgToken)).toBe(-999);

    await t.markRealNamed(orgToken);
    const after = await sessions.resolve(t.db, orgToken);
    expect(after.realName).toEqual({ person: true, organization: true });
    expect(await refusal(orgToken)).toBeNull();
  });
});
