import { sql, type Kysely } from 'kysely';

/**
 * Members, roles and authority: member nicknames, custom roles and their permission points,
 * invitations for mobiles that have no account yet, authority applications and role-holder changes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  // The 0001 members table stays as it is; what an organisation says about a member lives beside it.
  await db.schema
    .createTable('member_profiles')
    .addColumn('member_id', 'text', (c) => c.primaryKey().references('members.id'))
    .addColumn('nickname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('members_org').on('members').columns(['organization_id', 'status']).execute();

  await db.schema
    .createTable('org_roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  await sql`create unique index org_roles_code_live on org_roles (organization_id, code) where deleted_at is null`.execute(
    db,
  );
  await sql`create unique index org_roles_name_live on org_roles (organization_id, name) where deleted_at is null`.execute(
    db,
  );

  await db.schema
    .createTable('org_role_permissions')
    .addColumn('role_id', 'text', (c) => c.notNull().references('org_roles.id'))
    .addColumn('point', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('org_role_permissions_pk', ['role_id', 'point'])
    .execute();

  await db.schema
    .createTable('member_invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('mobile', 'text', (c) => c.notNull())
    .addColumn('nickname', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('roles', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('accepted_at', 'timestamptz')
    .execute();
  await sql`create unique index member_invites_pending on member_invites (organization_id, mobile) where status = 'pending'`.execute(
    db,
  );
  await db.schema
    .createIndex('member_invites_mobile')
    .on('member_invites')
    .columns(['mobile', 'status'])
    .execute();

  await db.schema
    .createTable('authority_applications')
    .addColumn('apply_no', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('apply_type', 'text', (c) => c.notNull().defaultTo('role'))
    .addColumn('roles', sql`text[]`, (c) => c.notNull())
    .addColumn('apply_file_key', 'text', (c) => c.notNull())
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('reject_reason', 'text')
    .addColumn('auditor_person_id', 'text')
    .addColumn('auditor_operator_id', 'text')
    .addColumn('auditor_name', 'text')
    .addColumn('message_flag', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('authority_applications_org')
    .on('authority_applications')
    .columns(['organization_id', 'status', 'created_at'])
    .execute();
  // One open application per member at a time.
  await sql`create unique index authority_applications_one_pending on authority_applications (member_id) where status = 'pending'`.execute(
    db,
  );

  await db.schema
    .createTable('org_role_changes')
    .addColumn('change_no', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('initiator_person_id', 'text', (c) => c.notNull())
    .addColumn('from_member_id', 'text')
    .addColumn('old_flow_id', 'text', (c) => c.notNull())
    .addColumn('old_verified_at', 'timestamptz')
    .addColumn('to_member_id', 'text')
    .addColumn('new_flow_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('oldPending'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('completed_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'org_role_changes',
    'authority_applications',
    'member_invites',
    'org_role_permissions',
    'org_roles',
    'member_profiles',
  ])
    await db.schema.dropTable(t).execute();
  await db.schema.dropIndex('members_org').execute();
}
