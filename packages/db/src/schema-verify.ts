import type { ColumnType } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** One kept report of the public verification service (migration 0012-verify-reports). */
export interface VerifyReportsTable {
  /** `vr_` and 128 random bits, base64url: unguessable, so a report is reached only through its address. */
  id: string;
  file_name: string;
  sha256: string;
  size: number;
  verdict: string;
  /** The report as the API answers it, without the fields kept in their own columns. */
  report: ColumnType<unknown, string, never>;
  evidence_index: number;
  /** Who verified, when signed in (migration 0022): their verified records; null for anonymous callers. */
  person_id: ColumnType<string | null, string | null | undefined, never>;
  /** The space the person verified in (null: the personal space or anonymous). */
  organization_id: ColumnType<string | null, string | null | undefined, never>;
  created_at: CreatedAt;
}

/** Tables of the verification service. */
export interface VerifyTables {
  verify_reports: VerifyReportsTable;
}
