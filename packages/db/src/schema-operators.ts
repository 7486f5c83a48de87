import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** Platform operators (the regulator's staff): accounts of their own, never persons. */
export interface OperatorsTable {
  id: string;
  username: string;
  name: string;
  password_hash: string;
  status: Generated<'active' | 'disabled'>;
  last_login_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Operator sessions: opaque tokens, only their SHA-256 stored, separate from user sessions. */
export interface OperatorSessionsTable {
  id: string;
  token_hash: string;
  operator_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoked_reason: string | null;
  last_seen_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
}

/** Tables of migration 0006-operators. */
export interface OperatorsTables {
  operators: OperatorsTable;
  operator_sessions: OperatorSessionsTable;
}
