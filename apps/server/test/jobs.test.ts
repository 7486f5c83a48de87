import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@openseal/core';
import { dropSchema, migrateToLatest, openDatabase, type DatabaseHandle, type Db } from '@openseal/db';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createJobRunner, type JobRunner } from '../src/modules/jobs/jobs.service';
import { DIALECTS, openTestDatabase, type ApiBody, type TestApp } from './harness';
import { sealFixtures, type FixtureApp } from './seals-fixtures';

const quiet = { warn: () => {}, error: () => {}, info: () => {} };
const until = async <T>(what: () => Promise<T>, done: (v: T) => boolean, ms = 30_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe.each(DIALECTS)('durable jobs [%s]', (dialect) => {
  let handle: DatabaseHandle & { dispose(): Promise<void> };
  let db: Db;
  const runners: JobRunner[] = [];
  const runner = (o: { leaseMs?: number; pollMs?: number } = {}) => {
    const r = createJobRunner({ db, log: quiet, pollMs: o.pollMs ?? 50, leaseMs: o.leaseMs ?? 5_000 });
    runners.push(r);
    return r;
  };

  beforeAll(async () => {
    handle = await openTestDatabase(dialect);
    db = handle.db;
    // A PostgreSQL test schema starts empty (the PGlite template is migrated already).
    await migrateToLatest(db, handle.schema);
  });
  afterAll(async () => {
    for (const r of runners) await r.stop();
    await handle?.dispose();
  });

  it('a job exists only if the transaction that queued it commits; it runs, reports progress and its result', async () => {
    const r = runner();
    const seen: unknown[] = [];
    r.register('test.echo', async (payload, ctx) => {
      await ctx.progress(50, 'half way');
      seen.push(payload);
      return { echoed: payload };
    });
    await db
      .transaction()
      .execute(async (tx) => {
        await r.enqueue(tx, 'test.echo', { n: 1 });
        throw new Error('rolled back');
      })
      .catch(() => {});
    const id = await db.transaction().execute((tx) => r.enqueue(tx, 'test.echo', { n: 2 }));
    expect((await r.find(db, id))?.state).toBe('queued');
    r.start();
    const job = await until(
      () => r.find(db, id),
      (j) => j?.state === 'done',
    );
    expect(job).toMatchObject({
      state: 'done',
      progress: 100,
      attempts: 1,
      result: { echoed: { n: 2 } },
      error: null,
    });
    expect(seen).toEqual([{ n: 2 }]);
    await r.stop();
  });

  it('retries failures with backoff, fails a catalogued refusal at once, and gives up after the last attempt', async () => {
    const r = runner();
    let calls = 0;
    r.register(
      'test.flaky',
      async () => {
        calls++;
        if (calls < 3) throw new Error(`flake ${calls}`);
        return 'ok';
      },
      { maxAttempts: 5, backoffMs: () => 100 },
    );
    r.register('test.refused', async () => {
      throw new AppError('seal.makeFailed');
    });
    r.register(
      'test.broken',
      async () => {
        throw new Error('always');
      },
      { maxAttempts: 2, backoffMs: () => 50 },
    );
    const [flaky, refused, broken] = await db
      .transaction()
      .execute(async (tx) => [
        await r.enqueue(tx, 'test.flaky', {}),
        await r.enqueue(tx, 'test.refused', {}),
        await r.enqueue(tx, 'test.broken', {}),
      ]);
    r.start();
    expect(
      await until(
        () => r.find(db, flaky),
        (j) => j?.state === 'done',
      ),
    ).toMatchObject({ attempts: 3, result: 'ok' });
    expect(
      await until(
        () => r.find(db, refused),
        (j) => j?.state === 'failed',
      ),
    ).toMatchObject({
      attempts: 1,
      error: 'seal.makeFailed',
    });
    expect(
      await until(
        () => r.find(db, broken),
        (j) => j?.state === 'failed',
      ),
    ).toMatchObject({
      attempts: 2,
      error: 'always',
    });
    await r.stop();
  });

  it('one queued job per key; several runners never run a job twice; a dead worker’s job is taken over', async () => {
    const counts = new Map<number, number>();
    const handler = async (payload: unknown) => {
      const n = (payload as { n: number }).n;
      counts.set(n, (counts.get(n) ?? 0) + 1);
      await new Promise((res) => setTimeout(res, 20));
    };
    const [r1, r2] = [runner(), runner()];
    r1.register('test.count', handler);
    r2.register('test.count', handler);
    const ids = await db.transaction().execute(async (tx) => {
      const out: string[] = [];
      for (let n = 0; n < 12; n++) out.push(await r1.enqueue(tx, 'test.count', { n }, { key: `k${n}` }));
      // The same key while the first is queued: the same job.
      expect(await r1.enqueue(tx, 'test.count', { n: 0 }, { key: 'k0' })).toBe(out[0]);
      return out;
    });
    r1.start();
    r2.start();
    for (const id of ids)
      await until(
        () => r1.find(db, id),
        (j) => j?.state === 'done',
      );
    expect([...counts.values()]).toEqual(Array(12).fill(1));
    await r1.stop();
    await r2.stop();

    // A worker that died holding a job: its lease runs out, another runner finishes it.
    const r3 = runner({ leaseMs: 1_000 });
    let ran = 0;
    r3.register('test.orphan', async () => void ran++);
    const id = await db.transaction().execute((tx) => r3.enqueue(tx, 'test.orphan', {}));
    await db
      .updateTable('jobs')
      .set({
        status: 'running',
        locked_by: 'dead-worker',
        locked_until: new Date(Date.now() - 1000),
        attempts: 1,
      })
      .where('id', '=', id)
      .execute();
    r3.start();
    expect(
      await until(
        () => r3.find(db, id),
        (j) => j?.state === 'done',
      ),
    ).toMatchObject({ attempts: 2 });
    expect(ran).toBe(1);
    await r3.stop();
  });
});

/** An app over a database it does not own, so the database outlives the app (a restart). */
async function bootApp(database: DatabaseHandle, dataDir: string) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_SECRET: 'test-secret-0123456789-abcdefghijklmnop',
    LOG_LEVEL: 'silent',
    SMS_SANDBOX_DELAY_MS: '10',
    SMS_RESEND_SECONDS: '0',
    RATE_LIMIT_LOGIN_PER_MINUTE: '10000',
    RATE_LIMIT_SMS_PER_MINUTE: '10000',
    RATE_LIMIT_GLOBAL_PER_MINUTE: '100000',
    WEB_DIST: join(dataDir, 'no-web'),
    REDIS_URL: '',
  });
  const app = await buildApp({ config, database });
  await app.ready();
  return app;
}

function asTestApp(app: FastifyInstance, db: Db): FixtureApp {
  const call: TestApp['call'] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = { 'x-owner-switch': 'PROMOTE', ...(opts.headers ?? {}) };
    if (opts.token) headers['x-access-token'] = opts.token;
    const res = await app.inject({
      method: method as InjectOptions['method'],
      url,
      headers,
      ...(opts.body !== undefined ? { payload: opts.body as never } : {}),
    });
    let body: ApiBody;
    try {
      body = res.json();
    } catch {
      body = null as unknown as ApiBody;
    }
    return { status: res.statusCode, body, headers: res.headers, raw: res.body };
  };
  const smsCode = async (mobile: string) => {
    for (let i = 0; i < 200; i++) {
      const code = (await call('GET', `/v1/dev/sms-outbox?mobile=${mobile}`)).body?.data?.messages?.[0]?.code;
      if (code) return code as string;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('no SMS');
  };
  return {
    app,
    db,
    call,
    async loginBySms(mobile) {
      await call('POST', '/v1/msgs/loginRegister/send', { body: { mobile } });
      const r = await call('POST', '/v1/accounts/login', { body: { mobile, code: await smsCode(mobile) } });
      return r.body.data.accessToken;
    },
  };
}

describe.each(DIALECTS)('seal production survives a restart [%s]', (dialect) => {
  let dataDir: string;
  let t: FixtureApp;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const open = async (): Promise<DatabaseHandle> => {
    if (dialect === 'postgres')
      return openDatabase({ databaseUrl: process.env.DATABASE_URL!, schema, poolSize: 4 });
    return openDatabase({ dataDir: join(dataDir, 'pglite') });
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'openseal-jobs-'));
  });
  afterAll(async () => {
    if (dialect === 'postgres') await dropSchema(process.env.DATABASE_URL!, schema);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a claim queued with ASYNCHRONOUS_SEAL_MAKE is made by the next instance after the first closed', async () => {
    let database = await open();
    await migrateToLatest(database.db, database.schema);
    await database.db
      .insertInto('config_values')
      .values({ code: 'ASYNCHRONOUS_SEAL_MAKE', value: 'true', file_key: null, is_public: false })
      .execute();
    t = asTestApp(await bootApp(database, dataDir), database.db);
    const f = sealFixtures(() => t);
    const op = await f.operator();
    const o = await f.org();
    const applied = await f.post('/v1/seals/sealApply', o.admin, { sealKind: 'contract' });
    const applyNo = applied.body.data.applyNo as string;
    await f.approve(op, 'sealApply', applyNo);
    // This instance stops taking jobs, as one that is about to go down.
    await t.app.jobs.stop();
    const claimed = await f.post('/v1/seals/activeFlow', o.legal, {
      applyNos: [applyNo],
      agreementAccepted: true,
    });
    expect(claimed.body.data).toMatchObject({ async: true, list: [{ applyNo, receiveStatus: 'making' }] });
    const waiting = await f.post('/v1/seals/checkSealAsync', o.legal, { applyNo });
    expect(waiting.body.data).toMatchObject({
      status: 'pendingProduction',
      making: { state: 'queued', progress: 0 },
    });
    await t.app.close();
    await database.close();

    // A new process on the same data.
    database = await open();
    t = asTestApp(await bootApp(database, dataDir), database.db);
    const done = await until(
      () => f.post('/v1/seals/checkSealAsync', o.legal, { applyNo }),
      // The seal is committed a moment before the job row records its end: wait for the job itself.
      (r) => r.body.data?.making?.state === 'done',
      60_000,
    );
    expect(done.body.data).toMatchObject({
      status: 'made',
      receiveStatus: 'made',
      making: { state: 'done', progress: 100, attempts: 1, error: null },
    });
    const seal = await f.get(`/v1/seals/${done.body.data.sealCode}`, o.admin);
    expect(seal.body.data).toMatchObject({ status: 'normal', certStatus: 'good' });
    await t.app.close();
    await database.close();
  });

  it('a failed production is retried by hand (selfRetry) once its cause is gone', async () => {
    const database = await open();
    t = asTestApp(await bootApp(database, dataDir), database.db);
    const f = sealFixtures(() => t);
    const op = await f.operator();
    const p = await f.person('孙七');
    const { transparentPng } = await import('./seals-fixtures');
    const up = await f.uploadPng(p.token, transparentPng(180));
    const applied = await f.post('/v1/seals/sealApply', p.token, {
      sealKind: 'personalHandDrawn',
      handDrawnFileKey: up.body.data.fileKey,
    });
    const applyNo = applied.body.data.applyNo;
    await f.approve(op, 'sealApply', applyNo);
    // The image goes missing from the store before production: the picture redrawn at the seal's size
    // when it was applied for (seals/hand-drawn.ts), which production uses.
    const { sha256: sha } = await t.db
      .selectFrom('seal_work_orders')
      .innerJoin('file_objects', 'file_objects.key', 'seal_work_orders.hand_drawn_file_key')
      .select('file_objects.sha256')
      .where('seal_work_orders.apply_no', '=', applyNo)
      .executeTakeFirstOrThrow();
    const blob = join(dataDir, 'files', sha.slice(0, 2), sha.slice(2, 4), sha);
    const { readFile, writeFile, unlink } = await import('node:fs/promises');
    const bytes = await readFile(blob);
    await unlink(blob);
    const claimed = await f.post('/v1/seals/activeFlow', p.token, {
      applyNos: [applyNo],
      agreementAccepted: true,
    });
    const failed = await until(
      () => f.post('/v1/seals/checkSealAsync', p.token, { applyNo }),
      (r) => r.body.data?.receiveStatus === 'failed',
    );
    expect(claimed.body.code).toBe(0);
    expect(failed.body.data).toMatchObject({
      status: 'pendingProduction',
      making: { state: 'failed', error: 'seal.handDrawnRequired' },
    });
    await writeFile(blob, bytes);
    const retried = await f.post('/v1/seals/selfRetry', p.token, { applyNo });
    expect(retried.body.code, JSON.stringify(retried.body)).toBe(0);
    const made = await until(
      () => f.post('/v1/seals/checkSealAsync', p.token, { applyNo }),
      (r) => r.body.data?.receiveStatus === 'made',
    );
    expect(made.body.data.making).toMatchObject({ state: 'done', progress: 100 });
    expect((await f.post('/v1/seals/selfRetry', p.token, { applyNo })).body.code).toBe(6113);
    const kinds = await t.db
      .selectFrom('evidence_leaves')
      .select('kind')
      .where('subject', '=', `sealApply:${applyNo}`)
      .orderBy('idx')
      .execute();
    expect(kinds.map((k) => k.kind)).toEqual([
      'sealApply.create',
      'sealApply.approve',
      'sealApply.claim',
      'sealApply.retry',
      'sealApply.make',
    ]);
    await t.app.close();
    await database.close();
  });
});
