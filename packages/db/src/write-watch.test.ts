import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema, migrateToLatest, openDatabase, type DatabaseHandle } from './connection';
import { writesOf, type TableWrite } from './write-watch';

describe('which tables a statement changes', () => {
  it('names the tables of updates and deletes, and the columns a plain update sets', () => {
    expect(writesOf('update "sessions" set "last_seen_at" = $1 where "id" = $2')).toEqual([
      { table: 'sessions', columns: ['last_seen_at'] },
    ]);
    expect(
      writesOf('update "sessions" set "revoked_at" = $1, "revoked_reason" = $2 where "person_id" = $3'),
    ).toEqual([{ table: 'sessions', columns: ['revoked_at', 'revoked_reason'] }]);
    expect(writesOf('update "members" as "m" set "roles" = $1 from "x" where "m"."id" = "x"."id"')).toEqual([
      { table: 'members', columns: ['roles'] },
    ]);
    expect(writesOf('delete from "persons" where "id" = $1')).toEqual([{ table: 'persons', columns: null }]);
    // A change inside a common table expression counts; its columns are not guessed.
    expect(
      writesOf(
        'with gone as (delete from "members" where "id" = $1 returning *) update "organizations" set "x" = 1',
      ),
    ).toEqual([
      { table: 'members', columns: null },
      { table: 'organizations', columns: null },
    ]);
    expect(writesOf('select * from "sessions" where "token_hash" = $1')).toEqual([]);
    expect(writesOf('insert into "sessions" ("id") values ($1)')).toEqual([]);
  });
});

async function collect(handle: DatabaseHandle): Promise<TableWrite[]> {
  const seen: TableWrite[] = [];
  handle.writes.onWrite((w) => seen.push(w));
  return seen;
}

describe('changes announced once visible', () => {
  it('announces a change after its statement, or after the commit of its transaction (PGlite)', async () => {
    const h = await openDatabase();
    try {
      await migrateToLatest(h.db);
      expect(h.writes.complete).toBe(true);
      const seen = await collect(h);
      await h.db.updateTable('persons').set({ name: 'x' }).where('id', '=', 'none').execute();
      expect(seen).toEqual([{ table: 'persons', columns: ['name'] }]);
      seen.length = 0;
      await h.db.transaction().execute(async (tx) => {
        await tx.deleteFrom('members').where('id', '=', 'none').execute();
        await tx.selectFrom('persons').select('id').execute();
        // Not yet: no one else can see the change before the commit.
        expect(seen).toEqual([]);
      });
      expect(seen).toEqual([{ table: 'members', columns: null }]);
    } finally {
      await h.close();
    }
    // A fresh database migrated from nothing: seconds on a busy machine.
  }, 60_000);
});

const url = process.env.DATABASE_URL;
describe.skipIf(!url)('changes of other processes, heard by notification (PostgreSQL)', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    await dropSchema(url!, schema);
  });

  it('hears another process change a watched table once it commits, and not its own twice', async () => {
    const a = await openDatabase({ databaseUrl: url, schema, poolSize: 2 });
    const b = await openDatabase({ databaseUrl: url, schema, poolSize: 2 });
    try {
      await migrateToLatest(a.db, schema);
      expect(b.writes.complete).toBe(false);
      await Promise.all([a.writes.listen(), b.writes.listen()]);
      expect(b.writes.complete).toBe(true);
      const heardByA = await collect(a);
      const heardByB = await collect(b);

      await a.db.transaction().execute(async (tx) => {
        await tx.updateTable('persons').set({ name: 'x' }).where('id', '=', 'none').execute();
        await new Promise((r) => setTimeout(r, 200));
        // Notifications wait for the commit.
        expect(heardByB).toEqual([]);
      });
      await waitFor(() => heardByB.some((w) => w.table === 'persons'));
      expect(heardByB).toEqual([{ table: 'persons', columns: null }]);
      // A announced its own change when it committed, and ignores the notification of it.
      await new Promise((r) => setTimeout(r, 200));
      expect(heardByA).toEqual([{ table: 'persons', columns: ['name'] }]);

      // The last-seen time of a session is no one's business.
      heardByB.length = 0;
      await a.db.updateTable('sessions').set({ last_seen_at: new Date() }).where('id', '=', 'none').execute();
      await a.db.updateTable('sessions').set({ revoked_at: new Date() }).where('id', '=', 'none').execute();
      await waitFor(() => heardByB.length > 0);
      await new Promise((r) => setTimeout(r, 200));
      expect(heardByB).toEqual([{ table: 'sessions', columns: null }]);

      // A lost listener: B stops answering from memory until it listens again, and says it missed things.
      heardByB.length = 0;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        expect(b.writes.listenerBackend).toEqual(expect.any(Number));
        await admin.query('select pg_terminate_backend($1)', [b.writes.listenerBackend]);
      } finally {
        await admin.end();
      }
      await waitFor(() => !b.writes.complete);
      await waitFor(() => b.writes.complete, 10_000);
      expect(heardByB.filter((w) => w.table === '*').length).toBeGreaterThanOrEqual(2);
    } finally {
      await a.close();
      await b.close();
    }
  }, 60_000);
});

async function waitFor(condition: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
