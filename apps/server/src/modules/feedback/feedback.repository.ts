import type { Db } from '@openseal/db';
import { sql } from 'kysely';

export interface RatingKey {
  scene: string;
  bizId: string;
  personId: string | null;
}

export async function findRating(db: Db, k: RatingKey) {
  return db
    .selectFrom('service_ratings')
    .select(['id', 'score'])
    .where('scene', '=', k.scene)
    .where('biz_id', '=', k.bizId)
    .where(sql<string>`coalesce(person_id, '')`, '=', k.personId ?? '')
    .executeTakeFirst();
}

/** Records a rating once; a second one for the same act and person is ignored (false). */
export async function insertRating(
  db: Db,
  row: RatingKey & {
    id: string;
    organizationId: string | null;
    score: number | null;
    comment: string | null;
  },
): Promise<boolean> {
  const r = await db
    .insertInto('service_ratings')
    .values({
      id: row.id,
      scene: row.scene,
      biz_id: row.bizId,
      person_id: row.personId,
      organization_id: row.organizationId,
      score: row.score,
      comment: row.comment,
    })
    .onConflict((oc) => oc.expression(sql`scene, biz_id, coalesce(person_id, '')`).doNothing())
    .returning('id')
    .executeTakeFirst();
  return r !== undefined;
}

/** Per scene and score over a period: how many ratings (score null: prompts closed). */
export async function countRatings(db: Db, from: Date, to: Date) {
  return db
    .selectFrom('service_ratings')
    .select(['scene', 'score', (eb) => eb.fn.countAll<string>().as('n')])
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy(['scene', 'score'])
    .execute();
}
