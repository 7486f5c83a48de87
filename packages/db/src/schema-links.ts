import type { ColumnType } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/**
 * Short links sent in text messages (migration 0019-short-links): `/s/<code>` opens an address of this
 * site. The code is random (not a count), the target is a same-site path, and a link expires.
 */
export interface ShortLinksTable {
  /** 10 characters of base62 from 59 random bits. */
  code: string;
  /** A path of this site with its query, never another site. */
  target: string;
  /** What sent it: `signInvite`, `signUrge`, … */
  purpose: string;
  expires_at: Date;
  hits: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
}

export interface LinksTables {
  short_links: ShortLinksTable;
}
