/**
 * Sessions are judged from memory for the requests that follow one another, and never after a change
 * that decides them: logout, a disabled account, changed roles. On PostgreSQL another process (here a
 * second app on the same database) hears the change by notification.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@openseal/db';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { DIALECTS, mobile, startTestApp, type TestApp } from './harness';
import { createQueryCounter } from './query-counter';

describe.each(DIALECTS)('the session cache on %s', (dialect) => {
  let t: TestApp;
  const counter = createQueryCounter();
  beforeAll(async () => {
    t = await startTestApp(dialect, {}, undefined, [counter.plugin]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const info = (token: string) => t.call('GET', '/v1/accounts/info', { token });
  const sessionReads = async (fn: () => Promise<unknown>) =>
    (await counter.during(fn)).filter((s) => s.tables[0] === 'sessions' && s.kind === 'SelectQueryNode')
      .length;

  it('answers repeated requests of a session from memory', async () => {
    const token = await t.loginBySms(mobile());
    expect(await sessionReads(() => info(token))).toBeLessThanOrEqual(1);
    expect(await sessionReads(async () => expect((await info(token)).body.code).toBe(0))).toBe(0);
  });

  it('refuses a token at once after logout', async () => {
    const token = await t.loginBySms(mobile());
    expect((await info(token)).body.code).toBe(0);
    expect((await info(token)).body.code).toBe(0);
    expect((await t.call('POST', '/v1/accounts/logout', { token, body: {} })).body.code).toBe(0);
    expect((await info(token)).body.code).toBe(225);
  });

  it('refuses a disabled account at once, even when disabled straight in the database', async () => {
    const m = mobile();
    const token = await t.loginBySms(m);
    expect((await info(token)).body.code).toBe(0);
    await t.db.updateTable('persons').set({ status: 'disabled' }).where('mobile', '=', m).execute();
    expect((await info(token)).body.code).toBe(310);
  });

  it('shows changed roles and names at once', async () => {
    const token = await t.loginByPassword('13800000001', 'Demo1234');
    const org = (await t.call('POST', '/v1/accounts', { token })).body.data.ownAccounts.find(
      (a: { type: number }) => a.type === 1,
    );
    const inOrg = (
      await t.call('POST', '/v1/accounts/handover/login', { token, body: { accountId: org.accountId } })
    ).body.data.accessToken as string;
    const before = (await info(inOrg)).body.data;
    expect(before.userInfoOrg.organizeName).toBe(org.name);
    await t.db
      .updateTable('organizations')
      .set({ name: `${org.name}（改）` })
      .where('id', '=', org.accountId)
      .execute();
    try {
      expect((await info(inOrg)).body.data.userInfoOrg.organizeName).toBe(`${org.name}（改）`);
    } finally {
      await t.db
        .updateTable('organizations')
        .set({ name: org.name })
        .where('id', '=', org.accountId)
        .execute();
      await t.call('POST', '/v1/accounts/handover/login', {
        token: inOrg,
        body: { accountId: before.userInfoPerson.accountId },
      });
    }
  });

  it.skipIf(dialect !== 'postgres')(
    'another process refuses a token within moments of a logout elsewhere',
    { timeout: 60_000 },
    async () => {
      const otherCounter = createQueryCounter();
      const database = await openDatabase({
        databaseUrl: process.env.DATABASE_URL,
        schema: t.app.database.schema!,
        poolSize: 2,
      });
      const other = await buildApp({
        config: loadConfig({
          DATA_DIR: t.dataDir,
          APP_SECRET: 'test-secret-0123456789-abcdefghijklmnop',
          LOG_LEVEL: 'silent',
          WEB_DIST: join(t.dataDir, 'no-web'),
          REDIS_URL: '',
          RATE_LIMIT_GLOBAL_PER_MINUTE: '100000',
        }),
        database: { ...database, db: database.db.withPlugin(otherCounter.plugin) },
      });
      try {
        await other.ready();
        const token = await t.loginBySms(mobile());
        const otherInfo = async () =>
          (
            await other.inject({
              method: 'GET',
              url: '/v1/accounts/info',
              headers: { 'x-access-token': token, 'x-owner-switch': 'PROMOTE' },
            })
          ).json().code as number;
        expect(await otherInfo()).toBe(0);
        // The other process answers from memory now.
        const reads = await otherCounter.during(async () => expect(await otherInfo()).toBe(0));
        expect(reads.filter((s) => s.tables[0] === 'sessions')).toEqual([]);
        expect((await t.call('POST', '/v1/accounts/logout', { token, body: {} })).body.code).toBe(0);
        const loggedOut = Date.now();
        let code = await otherInfo();
        while (code === 0 && Date.now() - loggedOut < 5_000) {
          await new Promise((r) => setTimeout(r, 5));
          code = await otherInfo();
        }
        expect(code).toBe(225);
        // A notification takes milliseconds; the cache's own limit is 5 s.
        expect(Date.now() - loggedOut).toBeLessThan(1_000);
      } finally {
        await other.close();
        await database.close();
      }
    },
  );
});
