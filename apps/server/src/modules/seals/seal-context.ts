/**
 * What every seal function does first and last: who the caller is and whose seals they reach (an
 * organisation's, or a person's own), the permission point and real-name check, the catalogued refusal
 * of a status change, and the audit record plus evidence leaf of each change, in the change's transaction.
 */
import { createHash } from 'node:crypto';
import { AppError, IDENTITY, contracts, type ErrorKey } from '@openseal/core';
import type { Db } from '@openseal/db';
import { requireOrgPermission, requireRealName } from '../../lib/permissions';
import { recordAudit } from '../audit/audit.repository';
import type { EvidenceService } from '../evidence/evidence.service';
import type { AuthContext } from '../session/session.service';
import type { Scope } from './seals.repository';

export interface Access {
  ctx: AuthContext;
  scope: Scope;
  personId: string;
  organizationId: string | null;
  memberId: string | null;
}

/** Real name first (spec 6), then the permission point in an organisation; a person acts for themselves. */
export async function access(db: Db, ctx: AuthContext, point: contracts.PermissionPoint): Promise<Access> {
  requireRealName(ctx);
  if (!ctx.organizationId) {
    return {
      ctx,
      scope: { personId: ctx.personId },
      personId: ctx.personId,
      organizationId: null,
      memberId: null,
    };
  }
  const org = await requireOrgPermission(db, ctx, point);
  return {
    ctx,
    scope: { organizationId: org.organizationId },
    personId: org.personId,
    organizationId: org.organizationId,
    memberId: org.memberId,
  };
}

/** Whether an object belongs to the caller's space: the organisation's, or the person's own personal one. */
export function inScope(
  a: Pick<Access, 'scope'>,
  row: { organization_id: string | null; person_id: string; subject?: string | null },
): boolean {
  if (a.scope.organizationId) return row.organization_id === a.scope.organizationId;
  return row.organization_id === null && row.person_id === a.scope.personId;
}

/** A status change through a table of core/seals, or the table's catalogued refusal. */
export function transition<S extends string, A extends string>(
  machine: contracts.Machine<S, A>,
  from: S,
  action: A,
  refusal: ErrorKey,
): S {
  const to = contracts.nextStatus(machine, from, action);
  if (to === null) throw new AppError(refusal, { details: { from, action } });
  return to;
}

export interface Actor {
  personId: string | null;
  operatorId: string | null;
  ip: string | null;
}

export const systemActor: Actor = { personId: null, operatorId: null, ip: null };

export function actorOf(a: Access, ip: string | null): Actor {
  return { personId: a.personId, operatorId: null, ip };
}

/** The evidence log is public: actors are opaque ids, never names. */
function evidenceActor(actor: Actor): string {
  if (actor.operatorId) return `operator:${actor.operatorId}`;
  return actor.personId ?? 'system';
}

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** Free text and names stay in the audit log: the evidence log is public (a personal seal's name is a person's). */
const PRIVATE_DETAIL = new Set(['reason', 'newName']);

/** One audit record and one evidence leaf for a change, in the transaction that makes it. */
export async function recordChange(
  trx: Db,
  evidence: EvidenceService,
  e: {
    actor: Actor;
    organizationId: string | null;
    action: string;
    targetType: string;
    targetId: string;
    detail?: Record<string, unknown>;
    /** The evidence subject, e.g. seal:<code> or sealApply:<applyNo>. */
    subject: string;
    hashes?: Record<string, string>;
  },
): Promise<void> {
  const detail = { ...(e.detail ?? {}), ...(e.actor.operatorId ? { operatorId: e.actor.operatorId } : {}) };
  await recordAudit(trx, {
    actorPersonId: e.actor.personId,
    organizationId: e.organizationId,
    action: e.action,
    targetType: e.targetType,
    targetId: e.targetId,
    ip: e.actor.ip,
    detail,
  });
  await evidence.append(trx, {
    kind: e.action,
    subject: e.subject,
    actor: evidenceActor(e.actor),
    at: new Date().toISOString(),
    hashes: e.hashes ?? {},
    data: Object.fromEntries(Object.entries(e.detail ?? {}).filter(([k]) => !PRIVATE_DETAIL.has(k))),
  });
}

/**
 * The owner of a file the platform writes for someone (a seal image made by a job has no session):
 * the files module files it under that person and organisation, as if they had uploaded it.
 */
export function ownerContext(personId: string, organizationId: string | null): AuthContext {
  return {
    sessionId: 'system',
    personId,
    organizationId,
    memberId: null,
    roles: [],
    identityType: organizationId ? IDENTITY.organization : IDENTITY.person,
    accountId: organizationId ?? personId,
    expiresAt: new Date(8.64e15),
    realName: { person: true, organization: organizationId ? true : null },
  };
}

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function pageArgs(q: { pageNum?: number; pageSize?: number }) {
  return { pageNum: Math.max(1, q.pageNum ?? 1), pageSize: Math.min(100, Math.max(1, q.pageSize ?? 20)) };
}
