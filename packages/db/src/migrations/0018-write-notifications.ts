import { sql, type Kysely } from 'kysely';

/**
 * Changes that decide who a session is, announced to every process: an update or delete of persons,
 * members, organizations, or of what judges a session (not its last-seen time), notifies channel
 * `openseal_writes` with `schema.table.pid` when the transaction commits (pid: the writing connection's
 * backend, so a process can tell its own changes, which it announced already, from others'). Processes that cache sessions
 * listen, so a logout, a removal or a disabled account takes effect in every process at once.
 */
const WATCHED: Array<{ table: string; of?: string[] }> = [
  { table: 'persons' },
  { table: 'members' },
  { table: 'organizations' },
  {
    table: 'sessions',
    of: [
      'token_hash',
      'person_id',
      'organization_id',
      'member_id',
      'expires_at',
      'revoked_at',
      'revoked_reason',
    ],
  },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function openseal_notify_write() returns trigger language plpgsql as $$
    begin
      perform pg_notify('openseal_writes', tg_table_schema || '.' || tg_table_name || '.' || pg_backend_pid());
      return null;
    end
    $$`.execute(db);
  for (const { table, of } of WATCHED) {
    const update = of ? `update of ${of.join(', ')}` : 'update';
    await sql
      .raw(
        `create trigger ${table}_notify_write after ${update} or delete on ${table} ` +
          `for each statement execute function openseal_notify_write()`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { table } of WATCHED)
    await sql.raw(`drop trigger ${table}_notify_write on ${table}`).execute(db);
  await sql`drop function openseal_notify_write()`.execute(db);
}
