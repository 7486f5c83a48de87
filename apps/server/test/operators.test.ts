import { createFilesService } from '../src/modules/files/files.service';
import { createLocalBlobStore } from '../src/modules/files/file-store';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import authPlugin from '../src/plugins/auth';
import dbPlugin from '../src/plugins/db';
import errorsPlugin from '../src/plugins/errors';
import requestContext from '../src/plugins/request-context';
import { loadConfig } from '../src/config';
import { createSessionService } from '../src/modules/session/session.service';
import operatorsRoutes from '../src/modules/operators/operators.routes';
import { createLoginThrottle } from '../src/modules/login-throttle/login-throttle.service';
import { createOperator } from '../src/modules/operators/operators.service';
import { DEMO_OPERATOR, seedOperator } from '../src/modules/operators/seed-operator';
import type { ReviewQueueQuery, ReviewQueues } from '../src/modules/operators/review-queues';
import { DIALECTS, mobile, openTestDatabase, startTestApp, type ApiBody, type TestApp } from './harness';
import { createInlineWorkPool } from '../src/workers/work-pool';

const UA = 'ConsoleTest/1.0';
const system = { operatorId: null, client: { ip: null, userAgent: null } };
const uniqueName = (p: string) => `${p}${Math.random().toString(36).slice(2, 8)}`;

async function auditRows(db: Db, action: string, targetId?: string) {
  let q = db.selectFrom('audit_logs').selectAll().where('action', '=', action);
  if (targetId) q = q.where('target_id', '=', targetId);
  return q.orderBy('id').execute();
}

describe.each(DIALECTS)('operator console [%s]', (dialect) => {
  let t: TestApp;
  let adminToken: string;
  let adminId: string;
  const operators = { createOperator };

  const op = (method: 'GET' | 'POST', url: string, token: string | null, body?: unknown) =>
    t.call(method, url, {
      headers: { 'user-agent': UA, ...(token ? { 'x-operator-token': token } : {}) },
      ...(body !== undefined ? { body } : {}),
    });
  const login = (username: string, password: string) =>
    op('POST', '/manage/api/v1/login', null, { username, password });

  beforeAll(async () => {
    t = await startTestApp(dialect);
    await seedOperator(t.db, { demo: true });
    const r = await login(DEMO_OPERATOR.username, DEMO_OPERATOR.password);
    expect(r.body.code).toBe(0);
    adminToken = r.body.data.operatorToken;
    adminId = r.body.data.operator.operatorId;
  });
  afterAll(async () => t?.close());

  describe('accounts and sessions', () => {
    it('logs in with the right password, answers me, and audits the login with ip and user agent', async () => {
      const r = await login(DEMO_OPERATOR.username, DEMO_OPERATOR.password);
      expect(r.body.code).toBe(0);
      expect(r.body.data.operatorToken).toMatch(/^opt_/);
      expect(r.body.data.operator).toMatchObject({
        username: 'admin',
        operatorId: expect.stringMatching(/^opr_/),
      });
      const me = await op('GET', '/manage/api/v1/me', r.body.data.operatorToken);
      expect(me.body.code).toBe(0);
      expect(me.body.data).toMatchObject({ username: 'admin', operatorId: adminId });
      expect(me.body.data.lastLoginAt).not.toBeNull();
      const audits = await auditRows(t.db, 'operator.login', adminId);
      expect(audits.length).toBeGreaterThanOrEqual(2);
      const last = audits.at(-1)!;
      expect(last.actor_person_id).toBeNull();
      expect(last.ip).toBeTruthy();
      expect(last.detail).toMatchObject({ operatorId: adminId, userAgent: UA });
      // Only the hash of the token is stored.
      const stored = await t.db.selectFrom('operator_sessions').select('token_hash').execute();
      expect(stored.some((s) => s.token_hash === r.body.data.operatorToken)).toBe(false);
    });

    it('refuses a wrong password and an unknown username alike', async () => {
      const wrong = await login(DEMO_OPERATOR.username, 'Wrong1234');
      const unknown = await login(uniqueName('nobody'), 'Wrong1234');
      expect([wrong.status, wrong.body.code]).toEqual([400, 13004]);
      expect([unknown.status, unknown.body.code]).toEqual([400, 13004]);
      // The right password afterwards still works and clears this address's count.
      expect((await login(DEMO_OPERATOR.username, DEMO_OPERATOR.password)).body.code).toBe(0);
      // One count is left: the unknown username's, counted like any other so waiting tells no one exists.
      expect(await t.db.selectFrom('login_throttles').selectAll().execute()).toHaveLength(1);
    });

    it('slows down the address that guesses, never the operator admin from another address (2102)', async () => {
      const from = (ip: string, password: string) =>
        t.app.inject({
          method: 'POST',
          url: '/manage/api/v1/login',
          remoteAddress: ip,
          headers: { 'user-agent': UA },
          payload: { username: DEMO_OPERATOR.username, password },
        });
      // Time stands still (only Date is faked), so the waits are exact on a busy machine.
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(new Date());
        const attacker = '203.0.113.7';
        const codes: number[] = [];
        for (let i = 0; i < 8; i++) codes.push((await from(attacker, `Wrong${i}xyz`)).json().code);
        // Five failures are free; then the attacker's address waits, and its guesses are not even checked.
        expect(codes).toEqual([13004, 13004, 13004, 13004, 13004, 2102, 2102, 2102]);
        const slowed = await from(attacker, DEMO_OPERATOR.password);
        expect(slowed.statusCode).toBe(429);
        expect(slowed.json()).toMatchObject({ code: 2102, data: { retryAfterSeconds: 30 } });
        expect(slowed.json().message).toContain('30');
        // The operator, from their own address (IPv4 or IPv6), logs in at once.
        expect((await from('198.51.100.20', DEMO_OPERATOR.password)).json().code).toBe(0);
        expect((await from('2001:db8:1:2::5', DEMO_OPERATOR.password)).json().code).toBe(0);
        const failures = await auditRows(t.db, 'operator.loginFailed', adminId);
        expect(failures.filter((a) => a.ip === attacker)).toHaveLength(5);
        expect(failures.at(-1)!.detail).toMatchObject({ failures: 5, waitSeconds: 30 });
        // The counts name no one: keyed hashes only.
        const rows = await t.db.selectFrom('login_throttles').selectAll().execute();
        expect(rows.some((r) => r.failures === 5 && r.blocked_until !== null)).toBe(true);
        expect(JSON.stringify(rows)).not.toMatch(/admin|203\.0\.113/);
      } finally {
        vi.useRealTimers();
      }
    });

    it('doubles the wait with each further failure up to the cap; a right password or a quiet day clears it', async () => {
      const username = uniqueName('auditor');
      await operators.createOperator(t.db, { username, password: 'Auditor1234', name: '审计员' }, system);
      const from = async (password: string) =>
        (
          await t.app.inject({
            method: 'POST',
            url: '/manage/api/v1/login',
            remoteAddress: '192.0.2.44',
            payload: { username, password },
          })
        ).json() as ApiBody;
      const later = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(new Date());
        for (let i = 0; i < 5; i++) expect((await from(`Wrong${i}xyz`)).code).toBe(13004);
        const waits: number[] = [];
        for (let i = 0; i < 7; i++) {
          const refused = await from('Auditor1234');
          expect(refused.code).toBe(2102);
          waits.push(refused.data.retryAfterSeconds);
          later(refused.data.retryAfterSeconds);
          expect((await from(`Again${i}xyz`)).code).toBe(13004);
        }
        expect(waits).toEqual([30, 60, 120, 240, 480, 900, 900]);
        later(900);
        expect((await from('Auditor1234')).code).toBe(0);
        // Cleared: five free failures again.
        for (let i = 0; i < 5; i++) expect((await from(`Fresh${i}xyz`)).code).toBe(13004);
        expect((await from('Auditor1234')).code).toBe(2102);
        // A day without failures and the count starts again.
        later(25 * 3600);
        for (let i = 0; i < 4; i++) expect((await from(`Day${i}xyz`)).code).toBe(13004);
        expect((await from('Auditor1234')).code).toBe(0);
      } finally {
        vi.useRealTimers();
      }
    });

    it('refuses a disabled operator', async () => {
      const username = uniqueName('retired');
      await operators.createOperator(t.db, { username, password: 'Retired1234', name: '' }, system);
      const r = await login(username, 'Retired1234');
      await t.db
        .updateTable('operators')
        .set({ status: 'disabled' })
        .where('username', '=', username)
        .execute();
      expect((await op('GET', '/manage/api/v1/me', r.body.data.operatorToken)).body.code).toBe(13006);
      expect((await login(username, 'Retired1234')).body.code).toBe(13006);
    });

    it('ends the session on logout, and refuses expired and idle sessions', async () => {
      const r = await login(DEMO_OPERATOR.username, DEMO_OPERATOR.password);
      const token = r.body.data.operatorToken;
      expect((await op('POST', '/manage/api/v1/logout', token)).body.code).toBe(0);
      expect((await op('GET', '/manage/api/v1/me', token)).body.code).toBe(13002);
      expect(await auditRows(t.db, 'operator.logout', adminId)).not.toHaveLength(0);

      const expiring = (await login(DEMO_OPERATOR.username, DEMO_OPERATOR.password)).body.data.operatorToken;
      await t.db
        .updateTable('operator_sessions')
        .set({ last_seen_at: new Date(Date.now() - 31 * 60_000) })
        .where('revoked_at', 'is', null)
        .where('operator_id', '=', adminId)
        .where('created_at', '>', new Date(Date.now() - 60_000))
        .execute();
      expect((await op('GET', '/manage/api/v1/me', expiring)).body.code).toBe(13003);
      // The shared session of this suite is refreshed: it was caught by the update above.
      adminToken = (await login(DEMO_OPERATOR.username, DEMO_OPERATOR.password)).body.data.operatorToken;
    });
  });

  describe('separation of user and operator sessions', () => {
    it('never opens an operator route with a user token', async () => {
      const user = await t.loginBySms(mobile());
      expect((await t.call('GET', '/v1/accounts/info', { token: user })).body.code).toBe(0);
      for (const [method, url] of [
        ['GET', '/manage/api/v1/me'],
        ['GET', '/manage/api/v1/audit-logs'],
        ['GET', '/manage/api/v1/queues/realname'],
        ['POST', '/manage/api/v1/logout'],
      ] as const) {
        // In the user header: there is no operator session at all.
        const asUser = await t.call(method, url, { token: user });
        expect([asUser.status, asUser.body.code]).toEqual([401, 13001]);
        // In the operator header: not an operator token.
        const smuggled = await op(method, url, user);
        expect([smuggled.status, smuggled.body.code]).toEqual([401, 13002]);
      }
      const bearer = await t.call('GET', '/manage/api/v1/me', {
        headers: { authorization: `Bearer ${user}` },
      });
      expect(bearer.body.code).toBe(13001);
    });

    it('never opens a user route with an operator token', async () => {
      const inOwnHeader = await op('GET', '/v1/accounts/info', adminToken);
      expect([inOwnHeader.status, inOwnHeader.body.code]).toEqual([401, 102]);
      const inUserHeader = await t.call('GET', '/v1/accounts/info', { token: adminToken });
      expect([inUserHeader.status, inUserHeader.body.code]).toEqual([401, 201]);
      const asBearer = await t.call('GET', '/v1/accounts/info', {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(asBearer.body.code).toBe(201);
      expect((await t.call('POST', '/v1/accounts', { token: adminToken })).body.code).toBe(201);
      // The operator session still works afterwards.
      expect((await op('GET', '/manage/api/v1/me', adminToken)).body.code).toBe(0);
    });

    it('refuses anonymous callers and garbage tokens', async () => {
      expect((await op('GET', '/manage/api/v1/me', null)).body.code).toBe(13001);
      expect((await op('GET', '/manage/api/v1/me', 'opt_not-a-real-token')).body.code).toBe(13002);
      expect((await op('GET', '/manage/api/v1/me', 'x'.repeat(300))).body.code).toBe(13002);
    });

    it('documents the console routes in the OpenAPI document', async () => {
      const r = await t.call('GET', '/openapi.json');
      expect(r.status).toBe(200);
      const paths = Object.keys(JSON.parse(r.raw).paths as object);
      expect(paths).toEqual(
        expect.arrayContaining(['/manage/api/v1/login', '/manage/api/v1/audit-logs', '/manage/api/v1/me']),
      );
    });

    it("reaches the real queues: an unknown application gets its owner's answer, and nothing is decided", async () => {
      const r = await op('POST', '/manage/api/v1/queues/realname/app_1/approve', adminToken);
      expect(r.body.code).toBe(4101);
      const list = await op('GET', '/manage/api/v1/queues/realname?status=all&page=1&size=10', adminToken);
      expect(list.body.code).toBe(0);
      expect(Array.isArray(list.body.data.list)).toBe(true);
      const authority = await op(
        'GET',
        '/manage/api/v1/queues/authority?status=pending&page=1&size=10',
        adminToken,
      );
      expect(authority.body.code).toBe(0);
    });
  });

  describe('audit-log viewer', () => {
    it('shows user acts with the person, the organisation and the address, newest first', async () => {
      const m = mobile();
      const user = await t.loginBySms(m);
      const info = await t.call('GET', '/v1/accounts/info', { token: user });
      const personId = info.body.data.accountId as string;
      const orgName = `测试审计科技（${Math.random().toString(36).slice(2, 8)}）有限公司`;
      const { uscc } = await import('./harness');
      const created = await t.call('POST', '/v1/organizes/add', {
        token: user,
        body: { organizeName: orgName, uscc: uscc() },
      });
      expect(created.body.code).toBe(0);
      const orgId = created.body.data.organizeId as string;

      const r = await op('GET', `/manage/api/v1/audit-logs?actor=${personId}`, adminToken);
      expect(r.body.code).toBe(0);
      const list = r.body.data.list as ApiBody['data'][];
      expect(list.length).toBeGreaterThanOrEqual(2);
      expect(list.every((e) => e.actorId === personId && e.actorType === 'person')).toBe(true);
      expect(list[0].actorName).toBeTruthy();
      expect(list.map((e) => e.action)).toContain('organization.create');
      expect(list.map((e) => e.action)).toContain('account.register');
      expect(list.find((e) => e.action === 'account.register').ip).toBeTruthy();
      const ats = list.map((e) => Date.parse(e.at));
      expect([...ats].sort((a, b) => b - a)).toEqual(ats);

      const byOrg = await op('GET', `/manage/api/v1/audit-logs?org=${orgId}`, adminToken);
      expect(byOrg.body.data.list.every((e: { organizationId: string }) => e.organizationId === orgId)).toBe(
        true,
      );
      expect(byOrg.body.data.total).toBeGreaterThanOrEqual(1);
      const byTarget = await op('GET', `/manage/api/v1/audit-logs?target=${orgId}`, adminToken);
      expect(byTarget.body.data.list.map((e: { action: string }) => e.action)).toContain(
        'organization.create',
      );
    });

    it('shows operator acts as the operator, with the user agent, and filters by action prefix', async () => {
      const r = await op('GET', `/manage/api/v1/audit-logs?actor=${adminId}&action=operator`, adminToken);
      expect(r.body.code).toBe(0);
      const list = r.body.data.list;
      expect(list.length).toBeGreaterThan(0);
      for (const e of list) {
        expect(e).toMatchObject({ actorType: 'operator', actorId: adminId, actorName: DEMO_OPERATOR.name });
        expect(e.action.startsWith('operator.')).toBe(true);
      }
      expect(list.find((e: { action: string }) => e.action === 'operator.login').userAgent).toBe(UA);
      const exact = await op('GET', `/manage/api/v1/audit-logs?action=operator.logout`, adminToken);
      expect(exact.body.data.list.every((e: { action: string }) => e.action === 'operator.logout')).toBe(
        true,
      );
      // A prefix ends at a dot, and LIKE wildcards are literal.
      expect((await op('GET', '/manage/api/v1/audit-logs?action=operat', adminToken)).body.data.total).toBe(
        0,
      );
      expect((await op('GET', '/manage/api/v1/audit-logs?action=%25', adminToken)).body.data.total).toBe(0);
    });

    it('pages without overlap and filters by time', async () => {
      const all = await op('GET', '/manage/api/v1/audit-logs?size=100', adminToken);
      const total = all.body.data.total as number;
      expect(total).toBeGreaterThan(4);
      const p1 = await op('GET', '/manage/api/v1/audit-logs?page=1&size=2', adminToken);
      const p2 = await op('GET', '/manage/api/v1/audit-logs?page=2&size=2', adminToken);
      expect(p1.body.data).toMatchObject({ total, page: 1, size: 2 });
      expect(p1.body.data.list).toHaveLength(2);
      expect(p2.body.data.list).toHaveLength(2);
      const ids = [...p1.body.data.list, ...p2.body.data.list].map((e: { id: number }) => e.id);
      expect(new Set(ids).size).toBe(4);
      expect(ids).toEqual(all.body.data.list.slice(0, 4).map((e: { id: number }) => e.id));

      // The login-throttle tests above move the clock on by a day, so some entries are dated ahead:
      // "the future" starts an hour after the latest of them.
      const times = (all.body.data.list as { at: string }[]).map((e) => Date.parse(e.at));
      const future = new Date(Math.max(Date.now(), ...times) + 3_600_000).toISOString();
      const none = await op(
        'GET',
        `/manage/api/v1/audit-logs?from=${encodeURIComponent(future)}`,
        adminToken,
      );
      expect(none.body.data).toMatchObject({ total: 0, list: [] });
      const past = new Date(Date.now() - 3_600_000).toISOString();
      const some = await op(
        'GET',
        `/manage/api/v1/audit-logs?from=${encodeURIComponent(past)}&to=${encodeURIComponent(future)}`,
        adminToken,
      );
      expect(some.body.data.total).toBe(
        (await op('GET', '/manage/api/v1/audit-logs', adminToken)).body.data.total,
      );
      const upToPast = await op(
        'GET',
        `/manage/api/v1/audit-logs?to=${encodeURIComponent(past)}`,
        adminToken,
      );
      expect(upToPast.body.data.total).toBe(0);

      const bad = await op(
        'GET',
        `/manage/api/v1/audit-logs?from=${encodeURIComponent(future)}&to=${encodeURIComponent(past)}`,
        adminToken,
      );
      expect(bad.body.code).toBe(13008);
      expect((await op('GET', '/manage/api/v1/audit-logs?size=1000', adminToken)).body.code).toBe(1001);
      expect((await op('GET', '/manage/api/v1/audit-logs?from=yesterday', adminToken)).body.code).toBe(1001);
    });
  });
});

/** A stand-in for the real-name and members services: records calls, writes nothing of its own. */
function fakeQueues() {
  const calls: Array<{ fn: string; args: unknown[] }> = [];
  const list = (kind: string) => async (_db: Db, q: ReviewQueueQuery) => {
    calls.push({ fn: `list:${kind}`, args: [q] });
    return { total: 1, list: [{ applicationId: `${kind}_1`, status: q.status }] };
  };
  const decide =
    (fn: string) =>
    async (_db: Db, applicationId: string, ...rest: unknown[]) => {
      calls.push({ fn, args: [applicationId, ...rest] });
      if (applicationId === 'missing') throw new AppError('request.notFound');
      return { organizationId: 'org_reviewed' };
    };
  const queues: ReviewQueues = {
    listManualQueue: list('realname'),
    approveManual: decide('approveManual'),
    rejectManual: decide('rejectManual'),
    listAuthorityQueue: list('authority'),
    approveAuthority: decide('approveAuthority'),
    rejectAuthority: decide('rejectAuthority'),
  };
  return { queues, calls };
}

describe.each(DIALECTS)('operator review queues [%s]', (dialect) => {
  let app: FastifyInstance;
  let dispose: () => Promise<void>;
  let db: Db;
  let token: string;
  let operatorId: string;
  const fake = fakeQueues();

  const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: { 'x-operator-token': token, 'user-agent': UA },
      ...(body !== undefined ? { payload: body as never } : {}),
    });
    return { status: res.statusCode, body: res.json() as ApiBody };
  };

  beforeAll(async () => {
    const handle = await openTestDatabase(dialect);
    dispose = handle.dispose;
    db = handle.db;
    app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(requestContext);
    await app.register(errorsPlugin);
    await app.register(dbPlugin, { handle, dataDir: '.' });
    await app.register(authPlugin, { sessions: createSessionService({ ttlHours: 1 }) });
    await app.register(operatorsRoutes, {
      appConfig: loadConfig({ LOG_LEVEL: 'silent' }),
      files: createFilesService({
        store: createLocalBlobStore(join(tmpdir(), 'openseal-operators-files')),
        secret: 'operators-test-secret-0123456789abcdef',
        fileSizeLimitMb: 20,
        urlTtlSeconds: 300,
        contextOf: async () => null,
        work: createInlineWorkPool(),
      }),
      loginThrottle: createLoginThrottle({
        secret: 'operators-test-secret-0123456789abcdef',
        settings: { freeFailures: 5, backoffSeconds: 30, maxBackoffSeconds: 900 },
        log: { warn: () => {} },
      }),
      reviewQueues: fake.queues,
    });
    await app.ready();
    await seedOperator(db, { demo: true });
    const r = await app.inject({
      method: 'POST',
      url: '/manage/api/v1/login',
      payload: { username: DEMO_OPERATOR.username, password: DEMO_OPERATOR.password },
    });
    token = r.json().data.operatorToken;
    operatorId = r.json().data.operator.operatorId;
  });
  afterAll(async () => {
    await app?.close();
    await dispose?.();
  });

  it('lists each queue through its owner with status and paging', async () => {
    const r = await call('GET', '/manage/api/v1/queues/realname?status=pending&page=2&size=5');
    expect(r.body).toMatchObject({ code: 0, data: { total: 1, page: 2, size: 5 } });
    expect(fake.calls.at(-1)).toEqual({
      fn: 'list:realname',
      args: [{ status: 'pending', page: 2, size: 5 }],
    });
    const a = await call('GET', '/manage/api/v1/queues/authority');
    expect(a.body.data.list[0].applicationId).toBe('authority_1');
    expect(fake.calls.at(-1)).toEqual({
      fn: 'list:authority',
      args: [{ status: 'pending', page: 1, size: 20 }],
    });
    expect((await call('GET', '/manage/api/v1/queues/seals')).body.code).toBe(1001);
    expect((await call('GET', '/manage/api/v1/queues/realname?status=odd')).body.code).toBe(1001);
  });

  it.each([
    ['realname', 'approve', 'approveManual', 'realnameApplication'],
    ['realname', 'reject', 'rejectManual', 'realnameApplication'],
    ['authority', 'approve', 'approveAuthority', 'authorityApplication'],
    ['authority', 'reject', 'rejectAuthority', 'authorityApplication'],
  ])('%s %s goes through %s with the operator id and is audited', async (queue, decision, fn, targetType) => {
    const applicationId = `app_${Math.random().toString(36).slice(2, 10)}`;
    const r = await call(
      'POST',
      `/manage/api/v1/queues/${queue}/${applicationId}/${decision}`,
      decision === 'reject' ? { reason: '营业执照模糊' } : undefined,
    );
    expect(r.body).toMatchObject({
      code: 0,
      data: { applicationId, decision: decision === 'approve' ? 'approved' : 'rejected' },
    });
    expect(fake.calls.at(-1)).toEqual({
      fn,
      args:
        decision === 'approve' ? [applicationId, operatorId] : [applicationId, operatorId, '营业执照模糊'],
    });
    const audits = await auditRows(db, `operator.${queue}.${decision}`, applicationId);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor_person_id: null,
      organization_id: 'org_reviewed',
      target_type: targetType,
    });
    expect(audits[0]!.detail).toMatchObject({
      operatorId,
      userAgent: UA,
      ...(decision === 'reject' ? { reason: '营业执照模糊' } : {}),
    });
  });

  it('needs a reason to reject, and audits nothing when the owner refuses', async () => {
    const before = fake.calls.length;
    expect(
      (await call('POST', '/manage/api/v1/queues/realname/app_x/reject', { reason: '  ' })).body.code,
    ).toBe(1001);
    expect((await call('POST', '/manage/api/v1/queues/realname/app_x/reject', {})).body.code).toBe(1001);
    expect(fake.calls.length).toBe(before);
    const refused = await call('POST', '/manage/api/v1/queues/realname/missing/approve');
    expect(refused.body.code).not.toBe(0);
    expect(await auditRows(db, 'operator.realname.approve', 'missing')).toHaveLength(0);
  });

  it('refuses every queue route without an operator token', async () => {
    const saved = token;
    token = '';
    try {
      expect((await call('GET', '/manage/api/v1/queues/realname')).body.code).toBe(13001);
      expect((await call('POST', '/manage/api/v1/queues/realname/app_1/approve')).body.code).toBe(13001);
    } finally {
      token = saved;
    }
    expect(fake.calls.some((c) => c.args[0] === 'app_1')).toBe(false);
  });
});
