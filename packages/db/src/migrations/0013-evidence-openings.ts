import { sql, type Kysely } from 'kysely';

/**
 * Evidence without metadata. From here on a leaf commits to each field by a salted hash; this table keeps
 * the openings (salt and value per field), which are private: the operator reads them, and hands them to
 * the parties of an act in their proof bundles. The file-hash index finds the leaves that name a file's
 * SHA-256 (e.g. the output of a signing) without reading or serving any leaf.
 *
 * Leaves written before this migration stay as they are, in clear: the log is append-only and its signed
 * tree heads cover their bytes, so they cannot be rewritten. The public entries endpoint serves only their
 * leaf hashes from now on. Their file hashes are copied into the index here, so a file signed before the
 * change is still found.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('evidence_openings')
    .addColumn('idx', 'bigint', (c) => c.primaryKey().references('evidence_leaves.idx'))
    // Canonical JSON, field → { salt, value }: text, so the bytes come back exactly as committed.
    .addColumn('openings', 'text', (c) => c.notNull())
    .execute();
  // An opening never changes (it would no longer fit its leaf). Deleting one is allowed: it makes that
  // leaf unreadable for good, which is how a record is erased from a log that cannot forget.
  await sql`
    create trigger evidence_openings_no_update before update on evidence_openings
    for each row execute function evidence_append_only()`.execute(db);

  await db.schema
    .createTable('evidence_file_hashes')
    .addColumn('digest', 'bytea', (c) => c.notNull().check(sql`octet_length(digest) = 32`))
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('idx', 'bigint', (c) => c.notNull().references('evidence_leaves.idx'))
    .addPrimaryKeyConstraint('evidence_file_hashes_pkey', ['digest', 'field', 'idx'])
    .execute();

  await sql`
    insert into evidence_file_hashes (digest, field, idx)
    select decode(h.value, 'hex'), 'hashes.' || h.key, l.idx
    from evidence_leaves l,
      jsonb_each_text(convert_from(l.entry, 'UTF8')::jsonb -> 'hashes') h
    where convert_from(l.entry, 'UTF8')::jsonb ->> 'v' = '1'
      and h.key in ('file', 'fileBefore', 'fileAfter')
      and h.value ~ '^[0-9a-f]{64}$'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('evidence_file_hashes').execute();
  await db.schema.dropTable('evidence_openings').execute();
}
