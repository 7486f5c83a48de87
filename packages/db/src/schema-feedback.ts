import type { ColumnType } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/**
 * A rating of one act of service (migration 0020-service-ratings): after signing, verifying or receiving a
 * seal, the person may give 1–5 stars and a comment, or close the prompt (score null). One row per
 * (scene, act, person): the prompt shows once per act. The regulator's dashboard reads these.
 */
export interface ServiceRatingsTable {
  id: string;
  scene: string;
  /** The act rated: a flow id, a verification report id, a seal code. */
  biz_id: string;
  /** Null for an anonymous visitor (verification needs no login). */
  person_id: string | null;
  organization_id: string | null;
  /** 1–5, or null when the prompt was closed without rating. */
  score: number | null;
  comment: string | null;
  created_at: CreatedAt;
}

export interface FeedbackTables {
  service_ratings: ServiceRatingsTable;
}
