import { sql, type Kysely } from 'kysely';

/** Ratings of acts of service (sign, verify, receive a seal): one per act and person, for the dashboard. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_ratings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('scene', 'text', (c) => c.notNull())
    .addColumn('biz_id', 'text', (c) => c.notNull())
    .addColumn('person_id', 'text')
    .addColumn('organization_id', 'text')
    .addColumn('score', 'smallint', (c) => c.check(sql`score between 1 and 5`))
    .addColumn('comment', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // Once per act and person; anonymous visitors count as one person per act.
  await sql`create unique index service_ratings_once on service_ratings (scene, biz_id, coalesce(person_id, ''))`.execute(
    db,
  );
  await db.schema
    .createIndex('service_ratings_scene_time')
    .on('service_ratings')
    .columns(['scene', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('service_ratings').execute();
}
