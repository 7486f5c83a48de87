import { useQuery } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';
import { SESSION_QUERY_PREFIX, useAccessToken } from '../../../hooks/use-session';

/** How many signing tasks wait for the caller (POST /v1/sign/tasks, one row asked for: its total). */
export function useTodoCount(enabled: boolean) {
  const token = useAccessToken();
  return useQuery({
    queryKey: [SESSION_QUERY_PREFIX, 'sign', 'todoCount', token],
    queryFn: () => apiPost<{ total: number }>('/v1/sign/tasks', { status: 'todo', pageNum: 1, pageSize: 1 }),
    enabled: enabled && token !== null,
    select: (page) => page.total,
  });
}
