import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type TextArray = ColumnType<string[], string[] | undefined, string[]>;

/** What an organisation records about a member beside the 0001 `members` row. */
export interface MemberProfilesTable {
  member_id: string;
  nickname: Generated<string>;
  updated_at: Timestamp;
}

/** An organisation's own role; its points live in `org_role_permissions`. */
export interface OrgRolesTable {
  id: string;
  organization_id: string;
  code: string;
  name: string;
  description: Generated<string>;
  created_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface OrgRolePermissionsTable {
  role_id: string;
  point: string;
}

export type MemberInviteStatus = 'pending' | 'accepted' | 'cancelled';

/** A member added by a mobile that has no account yet; it becomes a member row on that person's login. */
export interface MemberInvitesTable {
  id: string;
  organization_id: string;
  mobile: string;
  nickname: Generated<string>;
  roles: TextArray;
  status: Generated<MemberInviteStatus>;
  invited_by: string;
  member_id: string | null;
  created_at: Timestamp;
  accepted_at: NullableTimestamp;
}

export type AuthorityApplyStatus = 'pending' | 'approved' | 'rejected' | 'withdrawn';

export interface AuthorityApplicationsTable {
  apply_no: string;
  organization_id: string;
  member_id: string;
  person_id: string;
  apply_type: Generated<string>;
  roles: TextArray;
  apply_file_key: string;
  remark: Generated<string>;
  status: Generated<AuthorityApplyStatus>;
  reject_reason: string | null;
  auditor_person_id: string | null;
  auditor_operator_id: string | null;
  auditor_name: string | null;
  message_flag: Generated<boolean>;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
}

export type RoleChangeStatus = 'oldPending' | 'oldVerified' | 'newPending' | 'done' | 'cancelled';

/** A super-administrator or legal-representative change, confirmed by the old and the new holder. */
export interface OrgRoleChangesTable {
  change_no: string;
  organization_id: string;
  role: 'superAdmin' | 'legalPerson';
  initiator_person_id: string;
  from_member_id: string | null;
  old_flow_id: string;
  old_verified_at: NullableTimestamp;
  to_member_id: string | null;
  new_flow_id: string | null;
  status: Generated<RoleChangeStatus>;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
}

/** Tables of migration 0005-members. */
export interface MembersTables {
  member_profiles: MemberProfilesTable;
  org_roles: OrgRolesTable;
  org_role_permissions: OrgRolePermissionsTable;
  member_invites: MemberInvitesTable;
  authority_applications: AuthorityApplicationsTable;
  org_role_changes: OrgRoleChangesTable;
}
