/** Tables of the seals module and the durable jobs (migration 0008). */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type TextArray = ColumnType<string[], string[] | undefined, string[]>;

/** The wire values are defined with their transition tables in @openseal/core (seals/state-machines). */
export type SealWorkOrderStatus =
  'preCreated' | 'pendingReview' | 'pendingProduction' | 'made' | 'rejected' | 'withdrawn';
export type SealRowStatus =
  | 'normal'
  | 'scrapped'
  | 'frozen'
  | 'changeInApproval'
  | 'making'
  | 'expired'
  | 'disabled'
  | 'voided'
  | 'renewing';

/** A seal application (work order): what is to be made, for whom, and where it stands. */
export interface SealWorkOrdersTable {
  apply_no: string;
  subject: 'organization' | 'person';
  organization_id: string | null;
  /** The applicant (a member of the organisation, or the person applying for their own seal). */
  person_id: string;
  seal_kind: string;
  seal_type: number;
  carrier: 'cloud' | 'ukey';
  seal_name: string;
  name_text: string;
  title: string | null;
  title0: string | null;
  serial_text: string | null;
  security_lines: Generated<boolean>;
  width_mm: number;
  height_mm: number;
  hand_drawn_file_key: string | null;
  status: SealWorkOrderStatus;
  reject_reason: string | null;
  reviewer_operator_id: string | null;
  reviewed_at: NullableTimestamp;
  submitted_at: NullableTimestamp;
  claimed_by_person_id: string | null;
  claimed_at: NullableTimestamp;
  make_job_id: string | null;
  seal_code: string | null;
  completed_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SealsTable {
  seal_code: string;
  subject: 'organization' | 'person';
  organization_id: string | null;
  /** The holder person of a personal seal; the applicant of an organisation's seal. */
  person_id: string;
  seal_kind: string;
  seal_type: number;
  carrier: 'cloud' | 'ukey';
  name: string;
  name_text: string;
  title: string | null;
  title0: string | null;
  /** The seal template (spec section 3) as JSON, so the image can be redrawn and edited; null for hand-drawn seals. */
  template: string | null;
  image_file_key: string | null;
  image_sha256: string | null;
  width_mm: number;
  height_mm: number;
  status: SealRowStatus;
  cert_serial: string | null;
  valid_from: NullableTimestamp;
  valid_to: NullableTimestamp;
  apply_no: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A signed, expiring claim link: the legal representative opens it to claim the listed work orders. */
export interface SealClaimFlowsTable {
  id: string;
  organization_id: string;
  apply_nos: TextArray;
  created_by_person_id: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface SealChangesTable {
  change_no: string;
  seal_code: string;
  organization_id: string | null;
  person_id: string;
  change_type: 'ordinary' | 'personal' | 'handPainted';
  old_name: string;
  old_seal_type: number;
  old_title: string | null;
  old_title0: string | null;
  /** The seal's template and image when the change was applied for; null on records older than this. */
  old_template: string | null;
  old_image_file_key: string | null;
  old_image_sha256: string | null;
  new_name: string;
  new_name_text: string;
  new_seal_type: number;
  new_title: string | null;
  new_title0: string | null;
  new_template: string | null;
  new_image_file_key: string;
  new_image_sha256: string;
  reason: string;
  status: 'pendingReview' | 'changed' | 'returned' | 'revoked';
  reject_reason: string | null;
  reviewer_operator_id: string | null;
  reviewed_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SealAuthorizationsTable {
  auth_code: string;
  seal_code: string;
  organization_id: string;
  granted_by_person_id: string;
  grantee_type: 'member' | 'app';
  grantee_id: string;
  uses_limit: number | null;
  uses_remaining: number | null;
  valid_from: Timestamp;
  valid_to: NullableTimestamp;
  app_range: TextArray;
  status: 'inEffect' | 'terminated';
  terminated_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One use of an authorisation (the signing module consumes one per signature). */
export interface SealAuthUsesTable {
  id: Generated<number>;
  auth_code: string;
  used_at: Timestamp;
  app_id: string | null;
  reference: string | null;
}

export interface SealRenewalsTable {
  renew_no: string;
  seal_code: string;
  old_serial: string;
  new_serial: string | null;
  status: 'inProgress' | 'success' | 'failed';
  error: string | null;
  requested_by_person_id: string;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
}

/** Expiry tips a person closed, per certificate and tip type; a tip of another type shows again. */
export interface SealRemindClosuresTable {
  person_id: string;
  cert_serial: string;
  remind_type: string;
  closed_at: Timestamp;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

/** Durable jobs: claimed with a lease, retried with backoff, progress visible to the page that waits. */
export interface JobsTable {
  id: string;
  kind: string;
  /** Deduplication: one queued or running job per key. */
  key: string | null;
  payload: string;
  status: JobStatus;
  attempts: Generated<number>;
  max_attempts: number;
  run_at: Timestamp;
  locked_by: string | null;
  locked_until: NullableTimestamp;
  progress: Generated<number>;
  note: string | null;
  result: string | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface SealsTables {
  seal_work_orders: SealWorkOrdersTable;
  seals: SealsTable;
  seal_claim_flows: SealClaimFlowsTable;
  seal_changes: SealChangesTable;
  seal_authorizations: SealAuthorizationsTable;
  seal_auth_uses: SealAuthUsesTable;
  seal_renewals: SealRenewalsTable;
  seal_remind_closures: SealRemindClosuresTable;
  jobs: JobsTable;
}
