import { sql, type Kysely } from 'kysely';

/**
 * Reports of the public verification service, kept so a result page can be reloaded and shared: the
 * uploaded file's name, hash and size, the whole report as JSON and the evidence leaf that records the
 * act. The file itself is not kept. The id is 128 random bits, so only whoever verified (or was given
 * the address) finds a report. Old reports may be pruned later by age (`created_at` is indexed for it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('verify_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull().check(sql`char_length(sha256) = 64`))
    .addColumn('size', 'bigint', (c) => c.notNull().check(sql`size >= 0`))
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('report', 'jsonb', (c) => c.notNull())
    .addColumn('evidence_index', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('verify_reports_created_at')
    .on('verify_reports')
    .column('created_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('verify_reports').execute();
}
