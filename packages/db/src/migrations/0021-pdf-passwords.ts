import type { Kysely } from 'kysely';

/**
 * The password a user gave for an encrypted PDF to sign, sealed at rest (AES-256-GCM under a key derived
 * from the platform secret, bound to the upload's key): on the upload, and on each flow file made from it,
 * so the signer opens the file without asking again and the flow's participants can view it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('file_objects').addColumn('password_sealed', 'bytea').execute();
  await db.schema.alterTable('sign_flow_files').addColumn('password_sealed', 'bytea').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sign_flow_files').dropColumn('password_sealed').execute();
  await db.schema.alterTable('file_objects').dropColumn('password_sealed').execute();
}
