import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type TrustAnchorStatus = 'enabled' | 'disabled' | 'removed';

/** A CA certificate an operator added as a trust anchor (migration 0015-trust-anchors). */
export interface TrustAnchorsTable {
  id: string;
  der: Uint8Array;
  fingerprint_sha256: string;
  subject: string;
  issuer: string;
  serial: string;
  not_before: Timestamp;
  not_after: Timestamp;
  key_algorithm: string;
  self_issued: boolean;
  label: string;
  note: string | null;
  status: ColumnType<TrustAnchorStatus, TrustAnchorStatus | undefined, TrustAnchorStatus>;
  /** The operator who added it. */
  added_by: string;
  added_at: Timestamp;
  changed_by: string | null;
  changed_at: NullableTimestamp;
}

/** Tables of the operator-managed trust anchors. */
export interface TrustAnchorsTables {
  trust_anchors: TrustAnchorsTable;
}
