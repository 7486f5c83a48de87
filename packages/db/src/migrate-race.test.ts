import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { dropSchema, isOtherSchemaGone, migrateToLatest, openDatabase } from './connection';

describe('migrating beside schemas that come and go', () => {
  it('retries only when another schema vanished mid-look, never when its own did', () => {
    const gone = (name: string) =>
      Object.assign(new Error(`schema "${name}" does not exist`), { code: '3F000' });
    expect(isOtherSchemaGone(gone('t_other'), 't_mine')).toBe(true);
    expect(isOtherSchemaGone(gone('t_other'), null)).toBe(true);
    expect(isOtherSchemaGone(gone('t_mine'), 't_mine')).toBe(false);
    expect(isOtherSchemaGone(new Error('relation "x" does not exist'), 't_mine')).toBe(false);
    expect(isOtherSchemaGone(null, 't_mine')).toBe(false);
  });

  // Kysely finds its migration table by reading every schema's tables; other test files drop their schemas
  // while this runs, as they do in a parallel test run.
  it.skipIf(!process.env.DATABASE_URL)(
    'migrates a new schema while other schemas with serial columns are dropped around it',
    { timeout: 120_000 },
    async () => {
      const url = process.env.DATABASE_URL!;
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const churn = new pg.Client({ connectionString: url });
      await churn.connect();
      let running = true;
      const churning = (async () => {
        while (running) {
          const other = `t_${randomBytes(6).toString('hex')}`;
          await churn.query(`create schema "${other}"`);
          await churn.query(`create table "${other}".t (id serial primary key)`);
          await churn.query(`drop schema "${other}" cascade`);
          // A drop every few tens of milliseconds: far more often than parallel test files drop theirs.
          await new Promise((resolve) => setTimeout(resolve, 30));
        }
      })();
      const h = await openDatabase({ databaseUrl: url, schema, poolSize: 2 });
      try {
        for (let i = 0; i < 3; i++) expect(Array.isArray(await migrateToLatest(h.db, schema))).toBe(true);
      } finally {
        running = false;
        await churning;
        await churn.end();
      }
      try {
        const tables = await h.db.introspection.getTables({ withInternalKyselyTables: true });
        const mine = tables.filter((t) => t.schema === schema).map((t) => t.name);
        expect(mine).toContain('kysely_migration');
        expect(mine).toContain('persons');
      } finally {
        await h.close();
        await dropSchema(url, schema);
      }
    },
  );
});
