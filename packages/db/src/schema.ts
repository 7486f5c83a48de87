import type { EvidenceTables } from './schema-evidence';
import type { LinksTables } from './schema-links';
import type { FeedbackTables } from './schema-feedback';
import type { GuidanceTables } from './schema-guidance';
import type { PkiTables } from './schema-pki';
import type { RealnameTables } from './schema-realname';
import type { MembersTables } from './schema-members';
import type { OperatorsTables } from './schema-operators';
import type { SsoTables } from './schema-sso';
import type { SealsTables } from './schema-seals';
import type { SigningTables } from './schema-signing';
import type { UkeysTables } from './schema-ukeys';
import type { VerifyTables } from './schema-verify';
import type { AccessTables } from './schema-access';
import type { TrustAnchorsTables } from './schema-trust-anchors';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json = ColumnType<unknown, string | undefined, string>;

export interface PersonsTable {
  id: string;
  mobile: string;
  name: string;
  password_hash: string | null;
  real_name_status: Generated<number>;
  status: Generated<'active' | 'disabled'>;
  default_account_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  uscc: string;
  real_name_status: Generated<number>;
  created_by: string;
  created_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export type MemberRole = 'legalPerson' | 'superAdmin' | 'admin' | 'sealAdmin' | 'signAdmin' | 'staff';

export interface MembersTable {
  id: string;
  organization_id: string;
  person_id: string;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  status: Generated<'active' | 'paused' | 'removed'>;
  created_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  person_id: string;
  organization_id: string | null;
  member_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoked_reason: string | null;
  last_seen_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
}

export interface SmsFlowsTable {
  id: string;
  mobile: string;
  scene: string;
  code_hash: string;
  person_id: string | null;
  attempts: Generated<number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  verified_at: NullableTimestamp;
  consumed_at: NullableTimestamp;
}

export interface SmsMessagesTable {
  id: string;
  flow_id: string | null;
  mobile: string;
  scene: string;
  provider: string;
  body: string | null;
  status: Generated<'queued' | 'delivered' | 'failed'>;
  error: string | null;
  created_at: Timestamp;
  delivered_at: NullableTimestamp;
}

export interface FilesTable {
  sha256: string;
  size: ColumnType<number, number, number>;
  content_type: string;
  created_at: Timestamp;
}

export interface FileObjectsTable {
  key: string;
  sha256: string;
  name: string;
  purpose: string;
  owner_person_id: string | null;
  owner_org_id: string | null;
  /** The password of an encrypted PDF to sign, sealed (migration 0021); null for every other file. */
  password_sealed: Uint8Array | null;
  created_at: Timestamp;
}

export interface ConfigValuesTable {
  code: string;
  value: string | null;
  file_key: string | null;
  is_public: Generated<boolean>;
  scenes: ColumnType<string[], string[] | undefined, string[]>;
  updated_at: Timestamp;
}

export interface AuditLogsTable {
  id: Generated<number>;
  at: Timestamp;
  actor_person_id: string | null;
  organization_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  detail: Json;
}

export interface Database
  extends
    PkiTables,
    EvidenceTables,
    RealnameTables,
    MembersTables,
    OperatorsTables,
    SsoTables,
    SealsTables,
    SigningTables,
    UkeysTables,
    VerifyTables,
    AccessTables,
    TrustAnchorsTables,
    LinksTables,
    FeedbackTables,
    GuidanceTables {
  persons: PersonsTable;
  organizations: OrganizationsTable;
  members: MembersTable;
  sessions: SessionsTable;
  sms_flows: SmsFlowsTable;
  sms_messages: SmsMessagesTable;
  files: FilesTable;
  file_objects: FileObjectsTable;
  config_values: ConfigValuesTable;
  audit_logs: AuditLogsTable;
}

export type Person = Selectable<PersonsTable>;
export type NewPerson = Insertable<PersonsTable>;
export type PersonUpdate = Updateable<PersonsTable>;
export type Organization = Selectable<OrganizationsTable>;
export type Member = Selectable<MembersTable>;
export type Session = Selectable<SessionsTable>;
export type SmsFlow = Selectable<SmsFlowsTable>;
export type ConfigValue = Selectable<ConfigValuesTable>;

export type * from './schema-pki';
export type * from './schema-evidence';
export type * from './schema-realname';
export type * from './schema-members';
export type * from './schema-operators';
export type * from './schema-sso';
export type * from './schema-seals';
export type * from './schema-signing';
export type * from './schema-ukeys';
export type * from './schema-verify';
export type * from './schema-links';
export type * from './schema-feedback';
export type * from './schema-guidance';
export type * from './schema-access';
export type * from './schema-trust-anchors';
