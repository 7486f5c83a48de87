import type { contracts } from '@openseal/core';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet } from '../lib/api-client';
import { SESSION_QUERY_PREFIX, useAccessToken } from './use-session';

export type Permissions = z.output<typeof contracts.permissionsOut>;

/**
 * The caller's roles and permission points (GET /v1/permissions), one cached query for every page: the UI
 * offers management buttons only for the points held (the server checks every call anyway). The key sits
 * under the members prefix, so any member or role change that refreshes members refreshes it too.
 */
export const PERMISSIONS_KEY = [SESSION_QUERY_PREFIX, 'members', 'permissions'] as const;

export function usePermissions(enabled = true) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [...PERMISSIONS_KEY, token],
    queryFn: () => apiGet<Permissions>('/v1/permissions'),
    enabled: enabled && token !== null,
    staleTime: 30_000,
  });
}

/** Whether the caller holds a permission point (false while unknown). */
export function hasPoint(permissions: Permissions | undefined, point: string): boolean {
  return (permissions?.points ?? []).includes(point);
}
