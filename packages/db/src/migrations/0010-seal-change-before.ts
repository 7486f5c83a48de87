import { sql, type Kysely } from 'kysely';

/**
 * Seal changes keep the seal's look as it was when the change was applied for (its image file and
 * template), so an approved change still shows what it replaced. Files are content-addressed and never
 * deleted, so the kept key stays readable.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('seal_changes')
    .addColumn('old_template', 'text')
    .addColumn('old_image_file_key', 'text')
    .addColumn('old_image_sha256', 'text')
    .execute();

  await backfillChangeBefore(db);
}

/**
 * Fills the kept look of records made before it was kept. A seal has at most one pending change, so its
 * look when a change was applied for is the new look of its latest approved change before that one, or,
 * when no change of it was approved since, its current look. Records whose look was the seal's original,
 * since replaced, stay empty: nothing else holds it.
 */
export async function backfillChangeBefore(db: Kysely<unknown>): Promise<void> {
  await sql`
    update seal_changes ch
       set old_template = prev.new_template,
           old_image_file_key = prev.new_image_file_key,
           old_image_sha256 = prev.new_image_sha256
      from seal_changes prev
     where ch.old_image_file_key is null
       and prev.change_no = (
             select p.change_no from seal_changes p
              where p.seal_code = ch.seal_code and p.status = 'changed' and p.created_at < ch.created_at
              order by p.created_at desc, p.change_no desc
              limit 1)
  `.execute(db);
  await sql`
    update seal_changes ch
       set old_template = s.template,
           old_image_file_key = s.image_file_key,
           old_image_sha256 = s.image_sha256
      from seals s
     where ch.old_image_file_key is null
       and s.seal_code = ch.seal_code
       and not exists (
             select 1 from seal_changes later
              where later.seal_code = ch.seal_code and later.status = 'changed'
                and later.created_at >= ch.created_at)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('seal_changes')
    .dropColumn('old_template')
    .dropColumn('old_image_file_key')
    .dropColumn('old_image_sha256')
    .execute();
}
