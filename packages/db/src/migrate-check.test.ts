import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dropSchema, isAtLatestMigration, migrateToLatest, openDatabase } from './connection';
import { migrations } from './migrations/index';

const url = process.env.DATABASE_URL;

const cases: Array<[string, string | undefined]> = [['PGlite', undefined]];
if (url) cases.push(['PostgreSQL', `t_${randomBytes(6).toString('hex')}`]);

describe.each(cases)('telling an up-to-date database by its migration table (%s)', (_name, schema) => {
  it('is false before migrating and after an unknown migration, true at the latest', async () => {
    const h = schema ? await openDatabase({ databaseUrl: url, schema, poolSize: 2 }) : await openDatabase();
    try {
      expect(await isAtLatestMigration(h.db, h.schema)).toBe(false);
      expect(await migrateToLatest(h.db, h.schema)).toEqual(Object.keys(migrations));
      expect(await isAtLatestMigration(h.db, h.schema)).toBe(true);
      expect(await migrateToLatest(h.db, h.schema)).toEqual([]);
      // A migration this code does not know (a newer release ran here): not up to date for this code.
      const table = schema ? sql.table(`${schema}.kysely_migration`) : sql.table('kysely_migration');
      await sql`insert into ${table} (name, timestamp) values ('9999-from-the-future', ${new Date().toISOString()})`.execute(
        h.db,
      );
      expect(await isAtLatestMigration(h.db, h.schema)).toBe(false);
    } finally {
      await h.close();
      if (schema) await dropSchema(url!, schema);
    }
  }, 60_000);
});
