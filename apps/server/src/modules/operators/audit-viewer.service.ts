import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import * as repo from './operators.repository';

export interface AuditLogQuery {
  actor?: string | undefined;
  action?: string | undefined;
  target?: string | undefined;
  org?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
  size: number;
}

function asObject(v: unknown): Record<string, unknown> {
  if (typeof v === 'string') {
    try {
      return asObject(JSON.parse(v));
    } catch {
      return {};
    }
  }
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The audit-log viewer of the operator console: who did what, when, from where. */
export function createAuditViewerService() {
  return {
    async list(db: Db, q: AuditLogQuery) {
      const from = q.from ? new Date(q.from) : undefined;
      const to = q.to ? new Date(q.to) : undefined;
      if (from && to && from >= to) throw new AppError('operator.auditRangeInvalid');
      const { total, rows } = await repo.listAuditLogs(db, {
        actor: q.actor,
        action: q.action,
        target: q.target,
        org: q.org,
        from,
        to,
        page: q.page,
        size: q.size,
      });
      return {
        total,
        page: q.page,
        size: q.size,
        list: rows.map((r) => {
          const detail = asObject(r.detail);
          const operatorId = typeof r.operator_id === 'string' ? r.operator_id : null;
          const actorType = r.actor_person_id ? 'person' : operatorId ? 'operator' : 'system';
          return {
            id: Number(r.id),
            at: new Date(r.at).toISOString(),
            actorType: actorType as 'person' | 'operator' | 'system',
            actorId: r.actor_person_id ?? operatorId,
            actorName: r.actor_person_id
              ? (r.person_name ?? null)
              : operatorId
                ? r.operator_name || r.operator_username || null
                : null,
            organizationId: r.organization_id,
            action: r.action,
            targetType: r.target_type,
            targetId: r.target_id,
            ip: r.ip,
            userAgent: typeof detail.userAgent === 'string' ? detail.userAgent : null,
            detail,
          };
        }),
      };
    },
  };
}

export type AuditViewerService = ReturnType<typeof createAuditViewerService>;
