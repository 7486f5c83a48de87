import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import {
  DEFAULT_MIGRATION_TABLE,
  Kysely,
  Migrator,
  PostgresDialect,
  sql,
  type MigrationProvider,
} from 'kysely';
import { migrations } from './migrations/index';
import { lockDataDir } from './dir-lock';
import { PGliteDialect } from './pglite-dialect';
import { preparingClient } from './prepared';
import { WriteWatch } from './write-watch';
import type { Database } from './schema';

export type DialectName = 'pglite' | 'postgres';

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent, embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; absent means in memory. */
  dataDir?: string | undefined;
  /** PostgreSQL schema to work in (created if missing). Lets test runs share one database. */
  schema?: string | undefined;
  /** A PGlite data-directory dump to start from (tests clone one migrated template). */
  loadDataDir?: Blob | undefined;
  poolSize?: number | undefined;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  schema: string | null;
  close(): Promise<void>;
  /** The PGlite instance, for dumps; null on PostgreSQL. */
  pglite: PGlite | null;
  /**
   * Changes to tables as they become visible: this process's own, and on PostgreSQL other processes'
   * once `writes.listen()` runs.
   */
  writes: WriteWatch;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The PostgreSQL client, loaded only for a PostgreSQL database; PGlite likewise only for PGlite. */
const loadPg = async () => (await import('pg')).default;

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pg = await loadPg();
    const schema = options.schema ?? null;
    if (schema !== null && !SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${schema}`);
    if (schema) {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      try {
        await client.query(`create schema if not exists "${schema}"`);
      } finally {
        await client.end();
      }
    }
    const writes = new WriteWatch('shared', {
      connect: () => new pg.Client({ connectionString: options.databaseUrl }),
      schema: schema ?? 'public',
    });
    const pool = new pg.Pool({
      Client: preparingClient(pg, writes),
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      ...(schema ? { options: `-c search_path="${schema}"` } : {}),
      types: {
        getTypeParser: (oid: number, format?: string) =>
          // int8 comes back as a string from pg and as a number from PGlite: normalise to number.
          oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text'),
      },
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      schema,
      pglite: null,
      writes,
      close: async () => {
        await writes.close();
        await db.destroy();
      },
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const unlock = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const pglite = new PGlite({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    await pglite.waitReady;
    const writes = new WriteWatch('local');
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite, writes) });
    return {
      db,
      dialect: 'pglite',
      schema: null,
      pglite,
      writes,
      close: async () => {
        try {
          await db.destroy();
        } finally {
          unlock();
        }
      },
    };
  } catch (e) {
    unlock();
    throw e;
  }
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Kysely looks for its migration table by introspecting every table of every schema, calling
 * pg_get_serial_sequence on each: when another schema is dropped meanwhile (another tenant, another test
 * run) that call fails with invalid_schema_name for the other schema. Nothing was applied then; a
 * fresh look succeeds.
 */
export function isOtherSchemaGone(error: unknown, schema?: string | null): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || e.code !== '3F000' || typeof e.message !== 'string') return false;
  return !schema || !e.message.includes(`"${schema}"`);
}

const MIGRATE_ATTEMPTS = 10;

/**
 * True when every migration this code knows is recorded as applied, and no other: one read of the
 * migration table, where kysely's migrator first introspects every table of every schema and takes a
 * lock. False when the table is missing or differs: the migrator then applies or reports.
 */
export async function isAtLatestMigration(db: Kysely<Database>, schema?: string | null): Promise<boolean> {
  const table = schema
    ? sql.table(`${schema}.${DEFAULT_MIGRATION_TABLE}`)
    : sql.table(DEFAULT_MIGRATION_TABLE);
  let applied: string[];
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db);
    applied = rows.map((r) => r.name);
  } catch {
    return false;
  }
  const known = Object.keys(migrations);
  return applied.length === known.length && known.every((name) => applied.includes(name));
}

/**
 * Applies pending migrations; answers their names. With a schema, the migration bookkeeping lives in that
 * schema too. A database already at the latest version costs one query.
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string | null): Promise<string[]> {
  if (await isAtLatestMigration(db, schema)) return [];
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (error && attempt < MIGRATE_ATTEMPTS && isOtherSchemaGone(error, schema)) {
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80 * attempt));
      continue;
    }
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  }
}

export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}
