import type { Db } from '@openseal/db';

export interface AuditEntry {
  actorPersonId: string | null;
  organizationId: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

/** Appends one audit record. Call it with the transaction that made the change it records. */
export async function recordAudit(db: Db, e: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_logs')
    .values({
      actor_person_id: e.actorPersonId,
      organization_id: e.organizationId,
      action: e.action,
      target_type: e.targetType ?? null,
      target_id: e.targetId ?? null,
      ip: e.ip ?? null,
      detail: JSON.stringify(e.detail ?? {}),
    })
    .execute();
}
