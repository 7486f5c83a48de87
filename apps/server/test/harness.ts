import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  dropSchema,
  migrateToLatest,
  openDatabase,
  type DatabaseHandle,
  type DialectName,
} from '@openseal/db';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { REAL_NAME_STATUS, usccCheckChar } from '@openseal/core';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { hashToken } from '../src/lib/secrets';

/** Every suite runs on embedded PGlite, and on PostgreSQL too when DATABASE_URL is set. */
export const DIALECTS: DialectName[] = [
  'pglite',
  ...(process.env.DATABASE_URL ? (['postgres'] as const) : []),
];

let template: Promise<Blob> | null = null;
/** One migrated PGlite per worker, dumped once and cloned per app: a fresh database in ~0.5 s. */
function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const h = await openDatabase();
    await migrateToLatest(h.db);
    const dump = await h.pglite!.dumpDataDir('none');
    await h.close();
    return dump;
  })();
  return template;
}

export async function openTestDatabase(
  dialect: DialectName,
): Promise<DatabaseHandle & { dispose(): Promise<void> }> {
  if (dialect === 'postgres') {
    const url = process.env.DATABASE_URL!;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const h = await openDatabase({ databaseUrl: url, schema, poolSize: 4 });
    return { ...h, dispose: async () => (await h.close(), await dropSchema(url, schema)) };
  }
  const h = await openDatabase({ loadDataDir: await pgliteTemplate() });
  return { ...h, dispose: () => h.close() };
}

/** A response envelope as tests read it; `data` is whatever the endpoint answers. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests probe arbitrary response shapes
export type ApiBody = { code: number; message: string; data: any };

export interface TestApp {
  app: FastifyInstance;
  db: DatabaseHandle['db'];
  dataDir: string;
  call(
    method: InjectOptions['method'],
    url: string,
    opts?: { token?: string | null; body?: unknown; headers?: Record<string, string>; lang?: string },
  ): Promise<{
    status: number;
    body: ApiBody;
    headers: Record<string, unknown>;
    raw: string;
  }>;
  loginBySms(mobile: string): Promise<string>;
  loginByPassword(mobile: string, password: string): Promise<string>;
  smsCode(mobile: string): Promise<string>;
  /**
   * Fixture: marks the token's person, and its organisation in an organisation space, as real-named,
   * for tests of functions that come after the real-name flows (those flows have tests of their own).
   */
  markRealNamed(token: string): Promise<void>;
  close(): Promise<void>;
}

export async function startTestApp(
  dialect: DialectName,
  env: Record<string, string> = {},
  /** Adds test-only routes or hooks before the app is ready. */
  beforeReady?: (app: FastifyInstance) => void,
  /** Kysely plugins on the app's database handle (a query counter, query-counter.ts); the test's own `db` has none. */
  plugins: KyselyPlugin[] = [],
): Promise<TestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'openseal-test-'));
  const database = await openTestDatabase(dialect);
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
    // Rate limits count in memory per test app, so parallel suites never share counters; the Redis
    // store has a test of its own (platform.test.ts) with a prefix of its own.
    REDIS_URL: '',
    ...env,
  });
  const appDb = plugins.reduce((db, plugin) => db.withPlugin(plugin), database.db);
  const app = await buildApp({ config, database: { ...database, db: appDb } });
  beforeReady?.(app);
  await app.ready();

  const call: TestApp['call'] = async (method, url, opts = {}) => {
    const headers: Record<string, string> = {
      'x-owner-switch': 'PROMOTE',
      ...(opts.lang ? { 'x-language': opts.lang } : {}),
      ...(opts.headers ?? {}),
    };
    if (opts.token) headers['x-access-token'] = opts.token;
    const res = await app.inject({
      method,
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

  async function smsCode(mobile: string): Promise<string> {
    for (let i = 0; i < 200; i++) {
      const r = await call('GET', `/v1/dev/sms-outbox?mobile=${mobile}`);
      const code = r.body?.data?.messages?.[0]?.code;
      if (code) return code;
      await new Promise((res) => setTimeout(res, 10));
    }
    throw new Error(`no SMS arrived for ${mobile}`);
  }

  async function loginBySms(mobile: string): Promise<string> {
    const sent = await call('POST', '/v1/msgs/loginRegister/send', { body: { mobile } });
    if (sent.body.code !== 0) throw new Error(`send failed: ${JSON.stringify(sent.body)}`);
    const code = await smsCode(mobile);
    const r = await call('POST', '/v1/accounts/login', { body: { mobile, code } });
    if (r.body.code !== 0) throw new Error(`login failed: ${JSON.stringify(r.body)}`);
    return r.body.data.accessToken;
  }

  async function loginByPassword(mobile: string, password: string): Promise<string> {
    const r = await call('POST', '/v1/accounts/login', { body: { mobile, password } });
    if (r.body.code !== 0) throw new Error(`login failed: ${JSON.stringify(r.body)}`);
    return r.body.data.accessToken;
  }

  async function markRealNamed(token: string): Promise<void> {
    const row = await database.db
      .selectFrom('sessions')
      .select(['person_id', 'organization_id'])
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirstOrThrow();
    await database.db
      .updateTable('persons')
      .set({ real_name_status: REAL_NAME_STATUS.verified })
      .where('id', '=', row.person_id)
      .execute();
    if (row.organization_id)
      await database.db
        .updateTable('organizations')
        .set({ real_name_status: REAL_NAME_STATUS.verified })
        .where('id', '=', row.organization_id)
        .execute();
  }

  return {
    app,
    db: database.db,
    dataDir,
    call,
    smsCode,
    loginBySms,
    loginByPassword,
    markRealNamed,
    close: async () => {
      await app.close();
      await database.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Unique test mobiles per call, so suites never collide. */
let seq = 0;
export function mobile(): string {
  seq = (seq + 1) % 10000;
  return `137${String(process.pid % 10000).padStart(4, '0')}${String(seq).padStart(4, '0')}`;
}

/** A valid, unique unified social credit code. */
export function uscc(): string {
  // 2 register characters, 6 region digits, 9 body characters (hex is inside the alphabet), check character.
  const first17 = `9133${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}MA${randomBytes(4).toString('hex').toUpperCase().slice(0, 7)}`;
  return first17 + usccCheckChar(first17);
}

/** A resident ID number with a valid GB 11643-1999 check character; sequence `999` is on the sandbox deny list. */
export function residentId(sequence = String(100 + Math.floor(Math.random() * 800))): string {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const first17 = `11010119900307${sequence}`;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * weights[i]!;
  return first17 + '10X98765432'[sum % 11];
}
