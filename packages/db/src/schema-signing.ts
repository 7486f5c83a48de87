/** Tables of the sign service (migration 0011). Status wire values live in @openseal/core (signing). */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb: read as parsed JSON, written as a JSON string. */
type Json = ColumnType<unknown, string | undefined, string>;
type NullableJson = ColumnType<unknown, string | null | undefined, string | null>;

export interface SignFlowsTable {
  id: string;
  name: string;
  /** internal (issue 15): every signer a member of the initiating organisation. */
  scene: 'quick' | 'flow' | 'internal';
  status: string;
  sign_order: 'sequential' | 'parallel';
  initiator_person_id: string;
  initiator_org_id: string | null;
  initiator_member_id: string | null;
  initiator_name: string;
  initiator_org_name: string | null;
  remark: string | null;
  reason: string | null;
  valid_until: Timestamp;
  finished_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SignFlowFilesTable {
  id: string;
  flow_id: string;
  position: number;
  role: 'contract' | 'attachment';
  format: 'pdf' | 'ofd';
  name: string;
  original_file_key: string;
  original_sha256: string;
  /** The blob of the latest signed version (content-addressed in the file store). */
  current_sha256: string;
  current_size: number;
  pages: number | null;
  page_sizes: NullableJson;
  /** The upload's sealed PDF password (bound to original_file_key), null when none was needed. */
  password_sealed: Uint8Array | null;
  signatures: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SignTasksTable {
  id: string;
  flow_id: string;
  position: number;
  /** The order the initiator listed the signers in (signers of one position sign in parallel). */
  seq: number;
  signer_type: 'person' | 'organization';
  name: string;
  mobile: string;
  organization_id: string | null;
  organize_name: string | null;
  person_id: string | null;
  is_initiator: Generated<boolean>;
  need_signature: Generated<boolean>;
  placements: Json;
  status: string;
  seal_code: string | null;
  seal_name: string | null;
  signed_at: NullableTimestamp;
  refuse_reason: string | null;
  urged_at: NullableTimestamp;
  urge_count: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface SignLogsTable {
  id: string;
  flow_id: string;
  task_id: string | null;
  action: string;
  actor_person_id: string | null;
  actor_name: string;
  organization_id: string | null;
  organize_name: string | null;
  seal_code: string | null;
  seal_name: string | null;
  file_id: string | null;
  file_name: string | null;
  detail: Json;
  evidence_index: number | null;
  created_at: Generated<Date>;
}

export interface SealApprovalsTable {
  id: string;
  flow_id: string;
  task_id: string;
  organization_id: string;
  seal_code: string;
  applicant_person_id: string;
  applicant_member_id: string;
  applicant_name: string;
  reason: string | null;
  placements: Json;
  status: string;
  decider_person_id: string | null;
  decider_name: string | null;
  decision_reason: string | null;
  used_at: NullableTimestamp;
  created_at: Generated<Date>;
  decided_at: NullableTimestamp;
}

export interface WillAuthsTable {
  id: string;
  person_id: string;
  mobile: string;
  source: number;
  biz_id: string;
  redirect_url: string | null;
  sms_flow_id: string | null;
  status: 'created' | 'verified' | 'used' | 'expired';
  front_data: string | null;
  /** How the intent was confirmed (migration 0022): sms, password, face or ukey; null until verified. */
  method: ColumnType<string | null, string | null | undefined, string | null>;
  expires_at: Timestamp;
  verified_at: NullableTimestamp;
  used_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface SigningTables {
  sign_flows: SignFlowsTable;
  sign_flow_files: SignFlowFilesTable;
  sign_tasks: SignTasksTable;
  sign_logs: SignLogsTable;
  seal_approvals: SealApprovalsTable;
  will_auths: WillAuthsTable;
}
