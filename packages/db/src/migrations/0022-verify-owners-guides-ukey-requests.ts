import { sql, type Kysely } from 'kysely';

/**
 * Four small additions of issue 15:
 * - who verified a file (`verify_reports.person_id`, `organization_id`): a signed-in person's
 *   verifications are their verified records (GET /v1/verifiedRecord/*); anonymous ones stay null;
 * - how a will-auth was confirmed (`will_auths.method`: sms, password, face, ukey);
 * - the first-use guidance log: one row per person and page once the tour was finished or closed;
 * - UKey permission requests: a member who is not the legal representative inserts a bound UKey and asks
 *   for the point an operation on it needs; the legal representative or super administrator decides.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('verify_reports').addColumn('person_id', 'text').execute();
  await db.schema.alterTable('verify_reports').addColumn('organization_id', 'text').execute();
  await db.schema
    .createIndex('verify_reports_person')
    .on('verify_reports')
    .columns(['person_id', 'created_at'])
    .execute();

  await db.schema.alterTable('will_auths').addColumn('method', 'text').execute();

  await db.schema
    .createTable('guidance_logs')
    .addColumn('person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('step', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('guidance_logs_pk', ['person_id', 'page'])
    .execute();

  await db.schema
    .createTable('ukey_permission_requests')
    .addColumn('request_no', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('ukey_sn', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('point', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('decider_person_id', 'text')
    .addColumn('decider_name', 'text')
    .addColumn('reject_reason', 'text')
    .addColumn('decided_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One open request per member, key and operation: asking again answers the one already waiting.
  await sql`create unique index ukey_permission_requests_open on ukey_permission_requests (member_id, ukey_sn, operation) where status = 'pending'`.execute(
    db,
  );
  await db.schema
    .createIndex('ukey_permission_requests_org')
    .on('ukey_permission_requests')
    .columns(['organization_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ukey_permission_requests').execute();
  await db.schema.dropTable('guidance_logs').execute();
  await db.schema.alterTable('will_auths').dropColumn('method').execute();
  await db.schema.dropIndex('verify_reports_person').execute();
  await db.schema.alterTable('verify_reports').dropColumn('organization_id').execute();
  await db.schema.alterTable('verify_reports').dropColumn('person_id').execute();
}
