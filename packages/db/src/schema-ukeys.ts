import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type UkeyBindingKind = 'online' | 'offline';
export type UkeyBindingStatus = 'bound' | 'unbound' | 'replaced';
export type UkeyApplyType = 'ukey_online' | 'ukey_offline' | 'ukey_offline_replace' | 'ukey_offline_renewal';
export type UkeyApplyStatus = 'toImport' | 'importing' | 'success' | 'failure' | 'revoked';

/** A hardware key bound to an organisation on this platform, with the certificate read from the key. */
export interface UkeyBindingsTable {
  id: string;
  organization_id: string;
  /** The token serial (CK_TOKEN_INFO.serialNumber); unique among live bindings. */
  ukey_sn: string;
  name: string;
  kind: UkeyBindingKind;
  status: Generated<UkeyBindingStatus>;
  cert_serial: string;
  certificate: Uint8Array;
  apply_no: string | null;
  bound_by_person_id: string;
  bound_at: Timestamp;
  unbound_by_person_id: string | null;
  unbound_at: NullableTimestamp;
  updated_at: Timestamp;
}

/** The seals a bound key carries, by seal code (the seals module owns the seals). */
export interface UkeyBindingSealsTable {
  binding_id: string;
  seal_code: string;
  position: number;
}

/** Single-use challenges a key signs to prove it holds the private key of its certificate. */
export interface UkeyChallengesTable {
  id: string;
  organization_id: string;
  person_id: string;
  ukey_sn: string;
  challenge: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

/** A UKey application and its seal import: to import, importing, success, failure (or revoked). */
export interface UkeyApplicationsTable {
  apply_no: string;
  organization_id: string;
  applicant_person_id: string;
  ukey_type: UkeyApplyType;
  ukey_name: string;
  /** JSON array of seal codes. */
  seal_codes: Generated<string>;
  target_ukey_sn: string | null;
  status: UkeyApplyStatus;
  ukey_sn: string | null;
  public_key: Uint8Array | null;
  cert_serial: string | null;
  failure_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: NullableTimestamp;
}

export interface UkeyApplicationEventsTable {
  id: Generated<number>;
  apply_no: string;
  opt: string;
  from_status: UkeyApplyStatus | null;
  to_status: UkeyApplyStatus;
  actor_person_id: string;
  reason: string | null;
  created_at: Timestamp;
}

export type UkeyPermissionRequestStatus = 'pending' | 'approved' | 'rejected' | 'used';

/**
 * A member's request for the permission point an operation on an inserted UKey needs (migration 0022):
 * the legal representative or the super administrator approves it (holding the point themselves); an
 * approval lets that member do that operation on that key once, before it expires.
 */
export interface UkeyPermissionRequestsTable {
  request_no: string;
  organization_id: string;
  member_id: string;
  person_id: string;
  ukey_sn: string;
  operation: string;
  point: string;
  status: UkeyPermissionRequestStatus;
  reason: string | null;
  decider_person_id: string | null;
  decider_name: string | null;
  reject_reason: string | null;
  decided_at: NullableTimestamp;
  expires_at: NullableTimestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

/** Tables of the ukeys module (migrations 0009, 0022). */
export interface UkeysTables {
  ukey_bindings: UkeyBindingsTable;
  ukey_binding_seals: UkeyBindingSealsTable;
  ukey_challenges: UkeyChallengesTable;
  ukey_applications: UkeyApplicationsTable;
  ukey_application_events: UkeyApplicationEventsTable;
  ukey_permission_requests: UkeyPermissionRequestsTable;
}
