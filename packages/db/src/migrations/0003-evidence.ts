import { sql, type Kysely } from 'kysely';

/**
 * The evidence log (RFC 9162 Merkle tree): leaves, hashes of complete subtrees, signed tree heads, and a
 * one-row counter whose row lock serialises appends across server instances.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('evidence_state')
    .addColumn('id', 'smallint', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('tree_size', 'bigint', (c) => c.notNull().check(sql`tree_size >= 0`))
    .execute();
  await sql`insert into evidence_state (id, tree_size) values (1, 0)`.execute(db);

  await db.schema
    .createTable('evidence_leaves')
    .addColumn('idx', 'bigint', (c) => c.primaryKey().check(sql`idx >= 0`))
    .addColumn('leaf_hash', 'bytea', (c) => c.notNull().check(sql`octet_length(leaf_hash) = 32`))
    .addColumn('entry', 'bytea', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('evidence_leaves_subject')
    .on('evidence_leaves')
    .columns(['subject', 'idx'])
    .execute();

  await db.schema
    .createTable('evidence_nodes')
    .addColumn('level', 'smallint', (c) => c.notNull().check(sql`level between 1 and 62`))
    .addColumn('idx', 'bigint', (c) => c.notNull().check(sql`idx >= 0`))
    .addColumn('hash', 'bytea', (c) => c.notNull().check(sql`octet_length(hash) = 32`))
    .addPrimaryKeyConstraint('evidence_nodes_pkey', ['level', 'idx'])
    .execute();

  await db.schema
    .createTable('evidence_tree_heads')
    .addColumn('tree_size', 'bigint', (c) => c.primaryKey().check(sql`tree_size >= 0`))
    .addColumn('root_hash', 'bytea', (c) => c.notNull().check(sql`octet_length(root_hash) = 32`))
    .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('signature', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Append-only by construction: a changed leaf, subtree or tree head would make every later proof lie.
  // (Whoever owns the database can still drop the trigger; signed tree heads kept elsewhere catch that.)
  await sql`
    create function evidence_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'the evidence log is append-only (% on %)', tg_op, tg_table_name;
    end
    $$`.execute(db);
  for (const table of ['evidence_leaves', 'evidence_nodes', 'evidence_tree_heads']) {
    await sql`
      create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)}
      for each row execute function evidence_append_only()`.execute(db);
    await sql`
      create trigger ${sql.raw(`${table}_no_truncate`)} before truncate on ${sql.table(table)}
      for each statement execute function evidence_append_only()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['evidence_tree_heads', 'evidence_nodes', 'evidence_leaves', 'evidence_state']) {
    await db.schema.dropTable(t).execute();
  }
  await sql`drop function evidence_append_only()`.execute(db);
}
