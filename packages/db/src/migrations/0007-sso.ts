import { sql, type Kysely } from 'kysely';

/** Single sign-on: OpenID Connect login flows and the links from provider subjects to persons. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('sso_flows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull().unique())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('binding_hash', 'text', (c) => c.notNull())
    .addColumn('login_type', 'text', (c) => c.notNull())
    .addColumn('redirect_url', 'text', (c) => c.notNull())
    .addColumn('source', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('outcome', 'text')
    .addColumn('issuer', 'text')
    .addColumn('subject', 'text')
    .addColumn('person_id', 'text', (c) => c.references('persons.id'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id'))
    .addColumn('member_id', 'text', (c) => c.references('members.id'))
    .addColumn('display_name', 'text')
    .addColumn('org_uscc', 'text')
    .addColumn('org_name', 'text')
    .addColumn('failure', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_flows_expires').on('sso_flows').column('expires_at').execute();

  await db.schema
    .createTable('sso_links')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('person_id', 'text', (c) => c.notNull().references('persons.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('sso_links_pk', ['issuer', 'subject'])
    .execute();
  // One subject per issuer and person: a second provider identity cannot silently take over an account.
  await db.schema
    .createIndex('sso_links_issuer_person')
    .on('sso_links')
    .columns(['issuer', 'person_id'])
    .unique()
    .execute();
}
