import type { Kysely } from 'kysely';

/**
 * The evidence log's right edge beside its size: the hashes of the complete subtrees of leaves
 * [0, tree_size), largest first, 32 bytes each. An append reads it with the lock on the counter row and
 * writes it back with the new size, so it needs no other read. A log from before has none (null): its
 * first append reads the edge from the stored subtrees and writes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('evidence_state').addColumn('frontier', 'bytea').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('evidence_state').dropColumn('frontier').execute();
}
