import type { contracts } from '@openseal/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet, apiPost, apiUpload } from '../../../lib/api-client';
import { SESSION_QUERY_PREFIX, useAccessToken } from '../../../hooks/use-session';

/**
 * Members, roles, permissions, holder changes and authority applications of the current organisation
 * (spec sections 3 and 6). Every call goes through the one transport; the server checks every permission.
 */
export type Member = z.output<typeof contracts.memberOut>;
export type MemberPage = z.output<typeof contracts.memberPage>;
export type MemberStatus = Member['status'];
export type MemberAddRequest = z.input<typeof contracts.memberAddRequest>;
export type MemberModifyRequest = z.input<typeof contracts.memberModifyRequest>;
export type Role = z.output<typeof contracts.roleOut>;
export type PermissionNode = z.output<typeof contracts.permissionNode>;
export type RoleSaveRequest = z.input<typeof contracts.roleSaveRequest>;
/** GET /v1/roles: the organisation's roles and the permission tree custom roles choose from. */
export interface RoleList {
  roles: Role[];
  tree: PermissionNode[];
}
export type Permissions = z.output<typeof contracts.permissionsOut>;
export type Holders = z.output<typeof contracts.holdersOut>;
export type HolderRole = z.output<typeof contracts.roleChangeType>;
export type RoleChangeSent = z.output<typeof contracts.roleChangeSendResponse>;
export type RoleChangeDone = z.output<typeof contracts.roleChangeDone>;
export type AuthorityRecord = z.output<typeof contracts.authorityDetail>;
export type AuthorityPage = z.output<typeof contracts.authorityPage>;
export type AuthorityStatus = AuthorityRecord['applyStatus'];
export type AuthorityScope = 'mine' | 'organization';
export type UploadedFile = z.output<typeof contracts.uploadedFile>;

const KEY = [SESSION_QUERY_PREFIX, 'members'] as const;
export const MEMBERS_KEY = KEY;

// --- permissions and roles ---

/** The caller's roles and permission points (the shared hook). */
export { usePermissions } from '../../../hooks/use-permissions';

/** Roles of the organisation (built-in and custom) with the permission tree; only asked inside an organisation. */
export function useRoles(enabled: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...KEY, 'roles', token],
    queryFn: () => apiGet<RoleList>('/v1/roles'),
    enabled: enabled && token !== null,
    staleTime: 60_000,
  });
}

export function createRole(request: RoleSaveRequest) {
  return apiPost<{ code: string }>('/v1/organizes/roles', request);
}

export function modifyRole(code: string, request: RoleSaveRequest) {
  return apiPost<{ code: string }>(`/v1/organizes/roles/${encodeURIComponent(code)}/modify`, request);
}

export function deleteRole(code: string) {
  return apiPost<{ code: string; deleted: true }>(
    `/v1/organizes/roles/${encodeURIComponent(code)}/delete`,
    {},
  );
}

// --- members ---

export interface MemberFilter {
  keyword?: string;
  status?: MemberStatus;
  pageNum: number;
  pageSize: number;
}

export function useMembers(filter: MemberFilter, enabled: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...KEY, 'list', token, filter],
    queryFn: () => apiPost<MemberPage>('/v1/organizes/members/accounts', filter),
    enabled: enabled && token !== null,
    placeholderData: keepPreviousData,
  });
}

export function addMember(request: MemberAddRequest) {
  return apiPost<{ memberId: string | null; inviteId: string | null; status: 'active' | 'invited' }>(
    '/v1/organizes/members',
    request,
  );
}

/** Edits a member, or an invitation (its inviteId stands in the memberId place). */
export function modifyMember(id: string, request: MemberModifyRequest) {
  return apiPost<unknown>(`/v1/organizes/members/modify/${encodeURIComponent(id)}`, request);
}

export function pauseMember(memberId: string, pause: boolean) {
  return apiPost<unknown>('/v1/organizes/membersPause', { memberId, pause });
}

/** Removes a member, or cancels an invitation. */
export function deleteMember(id: string) {
  return apiPost<unknown>(`/v1/organizes/members/delete/${encodeURIComponent(id)}`, {});
}

// --- holder change ---

export function useHolders(enabled: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...KEY, 'holders', token],
    queryFn: () => apiPost<Holders>('/v1/organizes/legalPerson', {}),
    enabled: enabled && token !== null,
  });
}

export function sendOldHolderCode(changeType: HolderRole) {
  return apiPost<RoleChangeSent>('/v1/msgs/adminModify/send', { changeType });
}

export function verifyOldHolderCode(changeNo: string, code: string) {
  return apiPost<RoleChangeDone>('/v1/msgs/adminModify/verify', { changeNo, code });
}

export function sendNewHolderCode(changeNo: string, mobile: string) {
  return apiPost<RoleChangeSent>('/v1/msgs/newAdmin/send', { changeNo, mobile });
}

export function verifyNewHolderCode(changeNo: string, code: string) {
  return apiPost<RoleChangeDone>('/v1/msgs/newAdmin/verify', { changeNo, code });
}

// --- authority applications ---

export function useAuthorityRecords(
  scope: AuthorityScope,
  filter: { applyStatus?: AuthorityStatus; pageNum: number; pageSize: number },
  enabled: boolean,
) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...KEY, 'authority', scope, token, filter],
    queryFn: () => apiPost<AuthorityPage>('/v1/organizes/authority/records', { scope, ...filter }),
    enabled: enabled && token !== null,
    placeholderData: keepPreviousData,
  });
}

export function applyAuthority(request: { roles: string[]; applyFileKey: string; remark?: string }) {
  return apiPost<{ applyNo: string; applyStatus: AuthorityStatus }>('/v1/organizes/authority/apply', request);
}

export function approveAuthority(applyNo: string) {
  return apiPost<unknown>(`/v1/organizes/authority/${encodeURIComponent(applyNo)}/approve`, {});
}

export function rejectAuthority(applyNo: string, rejectReason: string) {
  return apiPost<unknown>(`/v1/organizes/authority/${encodeURIComponent(applyNo)}/reject`, { rejectReason });
}

export function withdrawAuthority(applyNo: string) {
  return apiPost<unknown>(`/v1/organizes/authority/${encodeURIComponent(applyNo)}/withdraw`, {});
}

export function fileUrl(fileKey: string) {
  return apiPost<{ url: string; expiresAt: string }>('/v1/file/url', { fileKey });
}

/** Uploads one application file (purpose `material`). */
export function uploadMaterial(file: File): Promise<UploadedFile> {
  return apiUpload<UploadedFile>('/v1/file/uploadInside', { purpose: 'material' }, file, file.name);
}
