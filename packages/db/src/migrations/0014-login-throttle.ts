import { sql, type Kysely } from 'kysely';

/**
 * Wrong passwords slow down one account from one client address, instead of locking the account for
 * everyone (which let anyone lock out anyone, the operator `admin` included). A row counts the recent
 * failures of one (scope, account, address) under a keyed hash of the three, so the table holds no
 * mobile number, username or address, and says until when that address must wait. The per-account lock
 * columns go. Also indexes for download access, which finds a flow or a seal by a stored file.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_throttles')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull().check(sql`failures >= 0`))
    .addColumn('last_failure_at', 'timestamptz', (c) => c.notNull())
    .addColumn('blocked_until', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('login_throttles_last_failure')
    .on('login_throttles')
    .column('last_failure_at')
    .execute();
  for (const table of ['persons', 'operators'])
    await db.schema.alterTable(table).dropColumn('failed_logins').dropColumn('locked_until').execute();

  await db.schema
    .createIndex('sign_flow_files_original')
    .on('sign_flow_files')
    .column('original_file_key')
    .execute();
  await db.schema.createIndex('seals_image_file').on('seals').column('image_file_key').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('seals_image_file').execute();
  await db.schema.dropIndex('sign_flow_files_original').execute();
  for (const table of ['persons', 'operators'])
    await db.schema
      .alterTable(table)
      .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('locked_until', 'timestamptz')
      .execute();
  await db.schema.dropTable('login_throttles').execute();
}
