/**
 * What every sign-service function needs first and last: who the caller is in a flow (initiator, signer,
 * signing administrator of a party, seal administrator asked for an approval), the catalogued refusal of a
 * status change, and the record of an act — a sign-log row and, for acts that carry weight (signatures,
 * approvals, refusals, withdrawals, voids, expiry), an evidence leaf, both in the act's transaction.
 */
import { AppError, contracts, type ErrorKey } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { EvidenceEntry } from '@openseal/evidence';
import { newId } from '../../lib/ids';
import { hasOrgPermission } from '../../lib/permissions';
import type { EvidenceService } from '../evidence/evidence.service';
import type { AuthContext } from '../session/session.service';
import * as repo from './flows.repository';

export const OPEN = contracts.OPEN_FLOW_STATUSES as readonly string[];
export const isOpen = (status: string) => OPEN.includes(status);

/** A status change through a table of core/signing, or the table's catalogued refusal. */
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

/** The caller as a viewer; `person` when the caller's name and mobile were read already (with the flow). */
export async function viewerOf(
  db: Db,
  ctx: AuthContext,
  person?: { name: string; mobile: string } | null,
): Promise<repo.Viewer> {
  const found = person === undefined ? await repo.personById(db, ctx.personId) : person;
  if (!found) throw new AppError('session.missing');
  return {
    personId: ctx.personId,
    name: found.name,
    mobile: found.mobile,
    organizationId: ctx.organizationId,
    seesOrganization: await hasOrgPermission(db, ctx, 'sign.manage'),
  };
}

/** Whether a task is the viewer's in the current space (by person, or by mobile before they first acted). */
export function isViewerTask(v: repo.Viewer, t: repo.TaskRow): boolean {
  const who = t.person_id === v.personId || (t.person_id === null && t.mobile === v.mobile);
  const space = v.organizationId
    ? t.signer_type === 'organization' && t.organization_id === v.organizationId
    : t.signer_type === 'person';
  return who && space;
}

export interface Participation {
  /** The caller, as the session names them. */
  ctx: AuthContext;
  viewer: repo.Viewer;
  flow: repo.FlowRow;
  tasks: repo.TaskRow[];
  /** The caller started the flow (or administers signing in the organisation that did). */
  initiator: boolean;
  myTask: repo.TaskRow | null;
  /** A signing administrator of a signing organisation, or a seal administrator asked to approve. */
  partyAdmin: boolean;
}

/**
 * The caller's place in a flow, or a not-found refusal when they have none (no existence leak). `loaded`:
 * the flow and the caller's person as read already (findFlowFor), so neither is read again.
 */
export async function participation(
  db: Db,
  ctx: AuthContext,
  flowId: string,
  loaded?: { flow: repo.FlowRow; person: { name: string; mobile: string } | null },
): Promise<Participation> {
  const flow = loaded ? loaded.flow : await repo.findFlow(db, flowId);
  if (!flow) throw new AppError('sign.flowNotFound');
  const viewer = await viewerOf(db, ctx, loaded ? loaded.person : undefined);
  const tasks = await repo.tasksOf(db, flowId);
  const ownInitiation =
    flow.initiator_person_id === ctx.personId && flow.initiator_org_id === ctx.organizationId;
  const orgInitiation =
    !!ctx.organizationId && flow.initiator_org_id === ctx.organizationId && viewer.seesOrganization;
  const myTask = tasks.find((t) => isViewerTask(viewer, t)) ?? null;
  let partyAdmin = false;
  if (!myTask && ctx.organizationId && tasks.some((t) => t.organization_id === ctx.organizationId)) {
    partyAdmin =
      viewer.seesOrganization ||
      ((await hasOrgPermission(db, ctx, 'seal.manage')) &&
        (await repo.approvalsOfFlow(db, flowId)).some((a) => a.organization_id === ctx.organizationId));
  }
  const initiator = ownInitiation || orgInitiation;
  if (!initiator && !myTask && !partyAdmin) throw new AppError('sign.flowNotFound');
  return { ctx, viewer, flow, tasks, initiator, myTask, partyAdmin };
}

/** One sign-log row, with an evidence leaf when the act carries weight; in the act's transaction. */
export async function recordAct(
  trx: Db,
  evidence: EvidenceService,
  act: {
    flowId: string;
    taskId?: string | null;
    action: contracts.SignLogAction;
    actorPersonId: string | null;
    actorName: string;
    organizationId?: string | null;
    organizeName?: string | null;
    sealCode?: string | null;
    sealName?: string | null;
    fileId?: string | null;
    fileName?: string | null;
    /** Shown in the sign log (may hold names and reasons: the log is private to the flow). */
    detail?: Record<string, unknown>;
    /** Present: the act goes into the public evidence log (hashes and ids only, no names or reasons). */
    evidence?: { hashes?: Record<string, string>; data?: Record<string, unknown>; at?: Date };
  },
): Promise<number | null> {
  let index: number | null = null;
  if (act.evidence) {
    const entry: EvidenceEntry = {
      kind: `sign.${act.action}`,
      subject: `flow:${act.flowId}`,
      actor: act.actorPersonId ?? 'system',
      at: (act.evidence.at ?? new Date()).toISOString(),
      hashes: act.evidence.hashes ?? {},
      data: {
        flowId: act.flowId,
        ...(act.taskId ? { taskId: act.taskId } : {}),
        ...(act.sealCode ? { sealCode: act.sealCode } : {}),
        ...(act.fileId ? { fileId: act.fileId } : {}),
        ...(act.organizationId ? { organizationId: act.organizationId } : {}),
        ...(act.evidence.data ?? {}),
      },
    };
    index = (await evidence.append(trx, entry)).index;
  }
  await repo.insertLog(trx, {
    id: newId('slg'),
    flow_id: act.flowId,
    task_id: act.taskId ?? null,
    action: act.action,
    actor_person_id: act.actorPersonId,
    actor_name: act.actorName,
    organization_id: act.organizationId ?? null,
    organize_name: act.organizeName ?? null,
    seal_code: act.sealCode ?? null,
    seal_name: act.sealName ?? null,
    file_id: act.fileId ?? null,
    file_name: act.fileName ?? null,
    detail: JSON.stringify(act.detail ?? {}),
    evidence_index: index,
  });
  return index;
}

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** Placements as stored (jsonb) back to their contract shape. */
export function placementsOf(value: unknown): contracts.Placement[] {
  return Array.isArray(value) ? (value as contracts.Placement[]) : [];
}
