import { sql, type Kysely } from 'kysely';

/**
 * Trust anchors an operator adds in the console (other platforms' CA certificates), trusted by the
 * verifier besides the platform root and TRUST_LIST while enabled. A removed anchor keeps its row, so the
 * audit trail can always name the certificate an act concerned; the fingerprint is unique among the
 * anchors not removed, so a removed one may be added again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trust_anchors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('der', 'bytea', (c) => c.notNull())
    .addColumn('fingerprint_sha256', 'text', (c) =>
      c.notNull().check(sql`char_length(fingerprint_sha256) = 64`),
    )
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('serial', 'text', (c) => c.notNull())
    .addColumn('not_before', 'timestamptz', (c) => c.notNull())
    .addColumn('not_after', 'timestamptz', (c) => c.notNull())
    .addColumn('key_algorithm', 'text', (c) => c.notNull())
    .addColumn('self_issued', 'boolean', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('enabled')
        .check(sql`status in ('enabled', 'disabled', 'removed')`),
    )
    .addColumn('added_by', 'text', (c) => c.notNull())
    .addColumn('added_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_by', 'text')
    .addColumn('changed_at', 'timestamptz')
    .execute();
  await sql`create unique index trust_anchors_fingerprint on trust_anchors (fingerprint_sha256) where status <> 'removed'`.execute(
    db,
  );
  await db.schema.createIndex('trust_anchors_status').on('trust_anchors').column('status').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trust_anchors').execute();
}
