import { sql, type Kysely } from 'kysely';

/** Operator accounts and sessions, and the indexes the audit-log viewer reads by. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('operators')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_login_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('operator_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_reason', 'text')
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema
    .createIndex('operator_sessions_operator')
    .on('operator_sessions')
    .column('operator_id')
    .execute();

  // The viewer pages the whole log newest first and filters by actor or action; without these every
  // page would sort the table.
  await db.schema.createIndex('audit_logs_at').on('audit_logs').columns(['at', 'id']).execute();
  await db.schema
    .createIndex('audit_logs_actor_at')
    .on('audit_logs')
    .columns(['actor_person_id', 'at'])
    .execute();
  await db.schema.createIndex('audit_logs_action_at').on('audit_logs').columns(['action', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const i of ['audit_logs_action_at', 'audit_logs_actor_at', 'audit_logs_at']) {
    await db.schema.dropIndex(i).execute();
  }
  await db.schema.dropTable('operator_sessions').execute();
  await db.schema.dropTable('operators').execute();
}
