import { sql, type Kysely } from 'kysely';

/**
 * The sign service: flows with their files and signer tasks, the sign log (one row per act, pointing at
 * its evidence leaf), seal-use approvals and will-auth records (intent confirmed by SMS before signing).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('sign_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scene', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('sign_order', 'text', (c) => c.notNull())
    .addColumn('initiator_person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('initiator_org_id', 'text', (c) => c.references('organizations.id'))
    .addColumn('initiator_member_id', 'text')
    .addColumn('initiator_name', 'text', (c) => c.notNull())
    .addColumn('initiator_org_name', 'text')
    .addColumn('remark', 'text')
    .addColumn('reason', 'text')
    .addColumn('valid_until', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('sign_flows_initiator')
    .on('sign_flows')
    .columns(['initiator_person_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('sign_flows_org')
    .on('sign_flows')
    .columns(['initiator_org_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('sign_flows_open')
    .on('sign_flows')
    .columns(['status', 'valid_until'])
    .execute();

  await db.schema
    .createTable('sign_flow_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('flow_id', 'text', (c) => c.notNull().references('sign_flows.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('original_file_key', 'text', (c) => c.notNull())
    .addColumn('original_sha256', 'text', (c) => c.notNull())
    .addColumn('current_sha256', 'text', (c) => c.notNull())
    .addColumn('current_size', 'bigint', (c) => c.notNull())
    .addColumn('pages', 'integer')
    .addColumn('page_sizes', 'jsonb')
    .addColumn('signatures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('sign_flow_files_flow')
    .on('sign_flow_files')
    .columns(['flow_id', 'position'])
    .execute();

  await db.schema
    .createTable('sign_tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('flow_id', 'text', (c) => c.notNull().references('sign_flows.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('signer_type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mobile', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id'))
    .addColumn('organize_name', 'text')
    .addColumn('person_id', 'text', (c) => c.references('persons.id'))
    .addColumn('is_initiator', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('need_signature', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('placements', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('seal_code', 'text')
    .addColumn('seal_name', 'text')
    .addColumn('signed_at', 'timestamptz')
    .addColumn('refuse_reason', 'text')
    .addColumn('urged_at', 'timestamptz')
    .addColumn('urge_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('sign_tasks_flow').on('sign_tasks').columns(['flow_id', 'position']).execute();
  await db.schema.createIndex('sign_tasks_mobile').on('sign_tasks').columns(['mobile', 'status']).execute();

  await db.schema
    .createTable('sign_logs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('flow_id', 'text', (c) => c.notNull().references('sign_flows.id'))
    .addColumn('task_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_person_id', 'text')
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text')
    .addColumn('organize_name', 'text')
    .addColumn('seal_code', 'text')
    .addColumn('seal_name', 'text')
    .addColumn('file_id', 'text')
    .addColumn('file_name', 'text')
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('evidence_index', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('sign_logs_flow').on('sign_logs').columns(['flow_id', 'created_at']).execute();
  await db.schema
    .createIndex('sign_logs_seal')
    .on('sign_logs')
    .columns(['seal_code', 'created_at'])
    .execute();

  await db.schema
    .createTable('seal_approvals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('flow_id', 'text', (c) => c.notNull().references('sign_flows.id'))
    .addColumn('task_id', 'text', (c) => c.notNull().references('sign_tasks.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('seal_code', 'text', (c) => c.notNull().references('seals.seal_code'))
    .addColumn('applicant_person_id', 'text', (c) => c.notNull())
    .addColumn('applicant_member_id', 'text', (c) => c.notNull())
    .addColumn('applicant_name', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('placements', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('decider_person_id', 'text')
    .addColumn('decider_name', 'text')
    .addColumn('decision_reason', 'text')
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('decided_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('seal_approvals_org')
    .on('seal_approvals')
    .columns(['organization_id', 'status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('seal_approvals_task')
    .on('seal_approvals')
    .columns(['task_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('will_auths')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('mobile', 'text', (c) => c.notNull())
    .addColumn('source', 'integer', (c) => c.notNull())
    .addColumn('biz_id', 'text', (c) => c.notNull())
    .addColumn('redirect_url', 'text')
    .addColumn('sms_flow_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('front_data', 'text')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('verified_at', 'timestamptz')
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('will_auths_person')
    .on('will_auths')
    .columns(['person_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'will_auths',
    'seal_approvals',
    'sign_logs',
    'sign_tasks',
    'sign_flow_files',
    'sign_flows',
  ])
    await db.schema.dropTable(t).ifExists().execute();
}
