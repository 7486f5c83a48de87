import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/**
 * Recent wrong passwords of one account from one client address (migration 0014-login-throttle). The
 * key is an HMAC of scope, account and address: the table names no one.
 */
export interface LoginThrottlesTable {
  key: string;
  failures: number;
  last_failure_at: Timestamp;
  /** Until when this address must wait before trying this account again; null while it need not. */
  blocked_until: NullableTimestamp;
}

/** Tables of login throttling. */
export interface AccessTables {
  login_throttles: LoginThrottlesTable;
}
