import { sql, type Kysely } from 'kysely';

/**
 * Seal claiming belongs to the legal representative alone (spec 6), so no custom role may hold the
 * `seal.claim` point. Roles made before that rule could; the server already ignores the point in a custom
 * role, and this removes it so such roles show what they grant and can be edited again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from org_role_permissions where point = 'seal.claim'`.execute(db);
}

/** Nothing to restore: the removed rows granted nothing. */
export async function down(): Promise<void> {}
