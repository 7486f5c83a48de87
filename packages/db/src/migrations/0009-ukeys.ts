import { sql, type Kysely } from 'kysely';

/** UKeys: bindings of hardware keys to organisations and their seals, UKey applications, seal import. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;

  // A certificate for a key generated on a UKey has no platform-held key.
  await sql`alter table certificates alter column key_id drop not null`.execute(db);

  await db.schema
    .createTable('ukey_bindings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('ukey_sn', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('bound'))
    .addColumn('cert_serial', 'text', (c) => c.notNull())
    .addColumn('certificate', 'bytea', (c) => c.notNull())
    .addColumn('apply_no', 'text')
    .addColumn('bound_by_person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('bound_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('unbound_by_person_id', 'text', (c) => c.references('persons.id'))
    .addColumn('unbound_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  // A key is bound to at most one organisation at a time; its history stays.
  await sql`create unique index ukey_bindings_live_sn on ukey_bindings (ukey_sn) where status = 'bound'`.execute(
    db,
  );
  await db.schema
    .createIndex('ukey_bindings_org')
    .on('ukey_bindings')
    .columns(['organization_id', 'status', 'kind'])
    .execute();

  await db.schema
    .createTable('ukey_binding_seals')
    .addColumn('binding_id', 'text', (c) => c.notNull().references('ukey_bindings.id'))
    .addColumn('seal_code', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ukey_binding_seals_pk', ['binding_id', 'seal_code'])
    .execute();

  await db.schema
    .createTable('ukey_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('ukey_sn', 'text', (c) => c.notNull())
    .addColumn('challenge', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('ukey_challenges_expires').on('ukey_challenges').column('expires_at').execute();

  await db.schema
    .createTable('ukey_applications')
    .addColumn('apply_no', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('applicant_person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('ukey_type', 'text', (c) => c.notNull())
    .addColumn('ukey_name', 'text', (c) => c.notNull())
    .addColumn('seal_codes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('target_ukey_sn', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('ukey_sn', 'text')
    .addColumn('public_key', 'bytea')
    .addColumn('cert_serial', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('ukey_applications_org')
    .on('ukey_applications')
    .columns(['organization_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('ukey_application_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('apply_no', 'text', (c) => c.notNull().references('ukey_applications.apply_no'))
    .addColumn('opt', 'text', (c) => c.notNull())
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('actor_person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('ukey_application_events_apply')
    .on('ukey_application_events')
    .columns(['apply_no', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'ukey_application_events',
    'ukey_applications',
    'ukey_challenges',
    'ukey_binding_seals',
    'ukey_bindings',
  ])
    await db.schema.dropTable(t).ifExists().execute();
}
