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

export async function listAudit(
  db: Db,
  filter: { organizationId?: string; actorPersonId?: string; limit?: number },
) {
  let q = db
    .selectFrom('audit_logs')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(filter.limit ?? 100);
  if (filter.organizationId) q = q.where('organization_id', '=', filter.organizationId);
  if (filter.actorPersonId) q = q.where('actor_person_id', '=', filter.actorPersonId);
  return q.execute();
}
