import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type RealnameSubject = 'person' | 'organization';
export type RealnameMethod = 'sms' | 'legalSms' | 'bank' | 'manual';
/**
 * draft: created by POST /auth/flow, details not yet given; awaitingCode / awaitingAmount: the proof
 * step; verifying: the identity provider has the request; awaitingReview: manual path, an operator
 * decides; success / failure are final (a failed flow is retried with a new flow).
 */
export type RealnameStatus =
  'draft' | 'awaitingCode' | 'awaitingAmount' | 'verifying' | 'awaitingReview' | 'success' | 'failure';

/** One real-name application (the flow of /v1/accounts/auth/flow), person or organisation. */
export interface RealnameApplicationsTable {
  id: string;
  subject: RealnameSubject;
  person_id: string;
  organization_id: string | null;
  method: RealnameMethod | null;
  status: RealnameStatus;
  redirect_url: string | null;
  /** Person: the person's name; organisation: the legal representative's name. */
  name: string | null;
  id_number: string | null;
  mobile: string | null;
  org_name: string | null;
  uscc: string | null;
  bank_account: string | null;
  sms_flow_id: string | null;
  amount_hash: string | null;
  amount_attempts: Generated<number>;
  licence_file_key: string | null;
  authorisation_file_key: string | null;
  reason: string | null;
  provider: string | null;
  sandbox: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: NullableTimestamp;
}

/** Every status change of an application: who (person or operator), when, why. */
export interface RealnameEventsTable {
  id: Generated<number>;
  application_id: string;
  from_status: string | null;
  to_status: string;
  actor_person_id: string | null;
  actor_operator_id: string | null;
  reason: string | null;
  at: Timestamp;
}

/** Real-name materials uploaded for the manual path, before an application uses them. */
export interface RealnameMaterialsTable {
  id: string;
  file_key: string;
  kind: 'licence' | 'authorisation';
  content_type: string;
  person_id: string;
  organization_id: string | null;
  created_at: Timestamp;
}

/** The verified registry data of an organisation that the organisations table does not hold. */
export interface RealnameOrgProfilesTable {
  organization_id: string;
  legal_name: string;
  legal_id_number: string;
  application_id: string;
  updated_at: Timestamp;
}

/** Tables of migration 0004-realname. */
export interface RealnameTables {
  realname_applications: RealnameApplicationsTable;
  realname_events: RealnameEventsTable;
  realname_materials: RealnameMaterialsTable;
  realname_org_profiles: RealnameOrgProfilesTable;
}
