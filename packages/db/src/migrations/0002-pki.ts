import { sql, type Kysely } from 'kysely';

/** Platform keys, the platform's authorities and the certificates they issue. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  await db.schema
    .createTable('pki_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('store', 'text', (c) => c.notNull())
    .addColumn('public_key', 'bytea', (c) => c.notNull())
    .addColumn('wrapped_key', 'bytea')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('pki_authorities')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull().references('pki_keys.id'))
    .addColumn('certificate', 'bytea')
    .addColumn('serial', 'text')
    .addColumn('crl_number', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('certificates')
    .addColumn('serial', 'text', (c) => c.primaryKey())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('profile', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('subject_spec', 'text', (c) => c.notNull())
    .addColumn('common_name', 'text', (c) => c.notNull())
    .addColumn('der', 'bytea', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull().references('pki_keys.id'))
    .addColumn('not_before', 'timestamptz', (c) => c.notNull())
    .addColumn('not_after', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('good'))
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revocation_reason', 'text')
    .addColumn('owner_type', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('seal_code', 'text')
    .addColumn('renewed_from', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('certificates_owner')
    .on('certificates')
    .columns(['owner_type', 'owner_id'])
    .execute();
  await db.schema.createIndex('certificates_seal').on('certificates').column('seal_code').execute();
  // The CRL lists what is not good; keep that scan small.
  await sql`create index certificates_not_good on certificates (issuer) where status <> 'good'`.execute(db);
}
