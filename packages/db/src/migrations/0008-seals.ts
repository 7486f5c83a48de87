import { sql, type Kysely } from 'kysely';

/** Seals: work orders, seals, claim links, changes, authorisations, renewals, expiry-tip closures; durable jobs. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'timestamptz')
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('note', 'text')
    .addColumn('result', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('finished_at', 'timestamptz')
    .execute();
  // The poller's question: what is due, oldest first; and what ran out of its lease.
  await sql`create index jobs_due on jobs (run_at) where status = 'queued'`.execute(db);
  await sql`create index jobs_leased on jobs (locked_until) where status = 'running'`.execute(db);
  await sql`create unique index jobs_key_open on jobs (kind, key) where key is not null and status in ('queued', 'running')`.execute(
    db,
  );

  await db.schema
    .createTable('seal_work_orders')
    .addColumn('apply_no', 'text', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id'))
    .addColumn('person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('seal_kind', 'text', (c) => c.notNull())
    .addColumn('seal_type', 'integer', (c) => c.notNull())
    .addColumn('carrier', 'text', (c) => c.notNull())
    .addColumn('seal_name', 'text', (c) => c.notNull())
    .addColumn('name_text', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('title0', 'text')
    .addColumn('serial_text', 'text')
    .addColumn('security_lines', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('width_mm', 'real', (c) => c.notNull())
    .addColumn('height_mm', 'real', (c) => c.notNull())
    .addColumn('hand_drawn_file_key', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reject_reason', 'text')
    .addColumn('reviewer_operator_id', 'text')
    .addColumn('reviewed_at', 'timestamptz')
    .addColumn('submitted_at', 'timestamptz')
    .addColumn('claimed_by_person_id', 'text')
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('make_job_id', 'text')
    .addColumn('seal_code', 'text')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('seal_work_orders_org')
    .on('seal_work_orders')
    .columns(['organization_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('seal_work_orders_person')
    .on('seal_work_orders')
    .columns(['person_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('seal_work_orders_status')
    .on('seal_work_orders')
    .columns(['status', 'created_at'])
    .execute();

  await db.schema
    .createTable('seals')
    .addColumn('seal_code', 'text', (c) => c.primaryKey())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id'))
    .addColumn('person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('seal_kind', 'text', (c) => c.notNull())
    .addColumn('seal_type', 'integer', (c) => c.notNull())
    .addColumn('carrier', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_text', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('title0', 'text')
    .addColumn('template', 'text')
    .addColumn('image_file_key', 'text')
    .addColumn('image_sha256', 'text')
    .addColumn('width_mm', 'real', (c) => c.notNull())
    .addColumn('height_mm', 'real', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cert_serial', 'text')
    .addColumn('valid_from', 'timestamptz')
    .addColumn('valid_to', 'timestamptz')
    .addColumn('apply_no', 'text', (c) => c.notNull().references('seal_work_orders.apply_no'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('seals_org').on('seals').columns(['organization_id', 'created_at']).execute();
  await db.schema.createIndex('seals_person').on('seals').columns(['person_id', 'subject']).execute();
  await db.schema.createIndex('seals_apply').on('seals').column('apply_no').unique().execute();
  await db.schema.createIndex('seals_cert').on('seals').column('cert_serial').execute();

  await db.schema
    .createTable('seal_claim_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('apply_nos', sql`text[]`, (c) => c.notNull())
    .addColumn('created_by_person_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('seal_changes')
    .addColumn('change_no', 'text', (c) => c.primaryKey())
    .addColumn('seal_code', 'text', (c) => c.notNull().references('seals.seal_code'))
    .addColumn('organization_id', 'text')
    .addColumn('person_id', 'text', (c) => c.notNull())
    .addColumn('change_type', 'text', (c) => c.notNull())
    .addColumn('old_name', 'text', (c) => c.notNull())
    .addColumn('old_seal_type', 'integer', (c) => c.notNull())
    .addColumn('old_title', 'text')
    .addColumn('old_title0', 'text')
    .addColumn('new_name', 'text', (c) => c.notNull())
    .addColumn('new_name_text', 'text', (c) => c.notNull())
    .addColumn('new_seal_type', 'integer', (c) => c.notNull())
    .addColumn('new_title', 'text')
    .addColumn('new_title0', 'text')
    .addColumn('new_template', 'text')
    .addColumn('new_image_file_key', 'text', (c) => c.notNull())
    .addColumn('new_image_sha256', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reject_reason', 'text')
    .addColumn('reviewer_operator_id', 'text')
    .addColumn('reviewed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('seal_changes_seal')
    .on('seal_changes')
    .columns(['seal_code', 'created_at'])
    .execute();
  await db.schema
    .createIndex('seal_changes_status')
    .on('seal_changes')
    .columns(['status', 'created_at'])
    .execute();

  await db.schema
    .createTable('seal_authorizations')
    .addColumn('auth_code', 'text', (c) => c.primaryKey())
    .addColumn('seal_code', 'text', (c) => c.notNull().references('seals.seal_code'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('granted_by_person_id', 'text', (c) => c.notNull())
    .addColumn('grantee_type', 'text', (c) => c.notNull())
    .addColumn('grantee_id', 'text', (c) => c.notNull())
    .addColumn('uses_limit', 'integer')
    .addColumn('uses_remaining', 'integer')
    .addColumn('valid_from', 'timestamptz', (c) => c.notNull())
    .addColumn('valid_to', 'timestamptz')
    .addColumn('app_range', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('terminated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('seal_authorizations_org')
    .on('seal_authorizations')
    .columns(['organization_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('seal_authorizations_grantee')
    .on('seal_authorizations')
    .columns(['seal_code', 'grantee_type', 'grantee_id', 'status'])
    .execute();

  await db.schema
    .createTable('seal_auth_uses')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('auth_code', 'text', (c) => c.notNull().references('seal_authorizations.auth_code'))
    .addColumn('used_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('app_id', 'text')
    .addColumn('reference', 'text')
    .execute();
  await db.schema.createIndex('seal_auth_uses_auth').on('seal_auth_uses').column('auth_code').execute();

  await db.schema
    .createTable('seal_renewals')
    .addColumn('renew_no', 'text', (c) => c.primaryKey())
    .addColumn('seal_code', 'text', (c) => c.notNull().references('seals.seal_code'))
    .addColumn('old_serial', 'text', (c) => c.notNull())
    .addColumn('new_serial', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('requested_by_person_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('seal_renewals_seal')
    .on('seal_renewals')
    .columns(['seal_code', 'created_at'])
    .execute();

  await db.schema
    .createTable('seal_remind_closures')
    .addColumn('person_id', 'text', (c) => c.notNull())
    .addColumn('cert_serial', 'text', (c) => c.notNull())
    .addColumn('remind_type', 'text', (c) => c.notNull())
    .addColumn('closed_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('seal_remind_closures_pk', ['person_id', 'cert_serial', 'remind_type'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'seal_remind_closures',
    'seal_renewals',
    'seal_auth_uses',
    'seal_authorizations',
    'seal_changes',
    'seal_claim_flows',
    'seals',
    'seal_work_orders',
    'jobs',
  ])
    await db.schema.dropTable(t).ifExists().execute();
}
