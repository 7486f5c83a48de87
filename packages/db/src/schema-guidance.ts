import type { ColumnType } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/**
 * The first-use guidance log (migration 0022): a person finished or closed the operation guide's tour of
 * a page, so it is not shown again. One row per person and page; the first answer stays.
 */
export interface GuidanceLogsTable {
  person_id: string;
  /** A page of contracts.GUIDE_PAGES (home, sealList, signList). */
  page: string;
  /** finished: went through every step; closed: left it early. */
  action: string;
  /** The step shown last (0-based). */
  step: ColumnType<number, number | undefined, never>;
  created_at: CreatedAt;
}

export interface GuidanceTables {
  guidance_logs: GuidanceLogsTable;
}
