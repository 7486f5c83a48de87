import { sql, type Kysely } from 'kysely';

/** Real-name applications of persons and organisations, their history, materials and verified profiles. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('realname_applications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id'))
    .addColumn('method', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('redirect_url', 'text')
    .addColumn('name', 'text')
    .addColumn('id_number', 'text')
    .addColumn('mobile', 'text')
    .addColumn('org_name', 'text')
    .addColumn('uscc', 'text')
    .addColumn('bank_account', 'text')
    .addColumn('sms_flow_id', 'text')
    .addColumn('amount_hash', 'text')
    .addColumn('amount_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('licence_file_key', 'text')
    .addColumn('authorisation_file_key', 'text')
    .addColumn('reason', 'text')
    .addColumn('provider', 'text')
    .addColumn('sandbox', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('realname_applications_person')
    .on('realname_applications')
    .columns(['person_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('realname_applications_org')
    .on('realname_applications')
    .columns(['organization_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('realname_applications_queue')
    .on('realname_applications')
    .columns(['method', 'status', 'created_at'])
    .execute();

  await db.schema
    .createTable('realname_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('application_id', 'text', (c) => c.notNull().references('realname_applications.id'))
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('actor_person_id', 'text')
    .addColumn('actor_operator_id', 'text')
    .addColumn('reason', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('realname_events_application')
    .on('realname_events')
    .columns(['application_id', 'id'])
    .execute();

  await db.schema
    .createTable('realname_materials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('file_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('organization_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('realname_org_profiles')
    .addColumn('organization_id', 'text', (c) => c.primaryKey().references('organizations.id'))
    .addColumn('legal_name', 'text', (c) => c.notNull())
    .addColumn('legal_id_number', 'text', (c) => c.notNull())
    .addColumn('application_id', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['realname_org_profiles', 'realname_materials', 'realname_events', 'realname_applications'])
    await db.schema.dropTable(t).execute();
}
