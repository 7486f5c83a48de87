/**
 * How a flow ends before it completes: a signer refuses, the initiator withdraws it (or voids it once
 * completed), or its validity runs out (on the next look at it, or the sweeper's). What stays open is
 * closed, and every ending is a sign-log row and an evidence leaf.
 */
import { AppError, contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { AuthContext } from '../session/session.service';
import { isOpen, participation, recordAct, transition } from './flow-context';
import { personName, sha256, type FlowCore, type FlowsDeps } from './flow-core';
import { detailOf } from './flow-views';
import * as repo from './flows.repository';

const { FLOW_MACHINE, TASK_MACHINE } = contracts;
type FlowStatus = contracts.FlowStatus;
type TaskStatus = contracts.TaskStatus;

export function createFlowEndings(deps: FlowsDeps, core: FlowCore) {
  const { evidence, files } = deps;
  const { load, endOpenWork, expireIfDue } = core;

  async function refuse(db: Db, ctx: AuthContext, flowId: string, reason: string) {
    const p = await load(db, ctx, flowId);
    const task = p.myTask;
    if (!task) throw new AppError('sign.taskNotFound');
    if (!isOpen(p.flow.status)) throw new AppError('sign.flowStatusInvalid');
    const me = await personName(db, ctx.personId);
    await db.transaction().execute(async (trx) => {
      const flow = await repo.lockFlow(trx, flowId);
      if (!flow) throw new AppError('sign.flowNotFound');
      const flowTo = transition(FLOW_MACHINE, flow.status as FlowStatus, 'refuse', 'sign.flowStatusInvalid');
      const taskTo = transition(TASK_MACHINE, task.status as TaskStatus, 'refuse', 'sign.taskStatusInvalid');
      if (
        !(await repo.moveTask(trx, task.id, task.status, taskTo, {
          person_id: ctx.personId,
          refuse_reason: reason,
        }))
      )
        throw new AppError('sign.taskStatusInvalid');
      await repo.moveFlow(trx, flow.id, flow.status, flowTo, { reason, finished_at: new Date() });
      await endOpenWork(trx, flow.id, task.id, me);
      await recordAct(trx, evidence, {
        flowId,
        taskId: task.id,
        action: 'refuse',
        actorPersonId: ctx.personId,
        actorName: me,
        organizationId: task.organization_id,
        organizeName: task.organize_name,
        detail: { reason },
        evidence: { data: { reasonSha256: sha256(Buffer.from(reason)) } },
      });
    });
    return detailOf(db, files, await participation(db, ctx, flowId));
  }

  async function endByInitiator(
    db: Db,
    ctx: AuthContext,
    flowId: string,
    action: 'withdraw' | 'void',
    reason: string,
  ) {
    const p = await load(db, ctx, flowId);
    if (!p.initiator) throw new AppError('sign.notInitiator');
    const me = await personName(db, ctx.personId);
    await db.transaction().execute(async (trx) => {
      const flow = await repo.lockFlow(trx, flowId);
      if (!flow) throw new AppError('sign.flowNotFound');
      const to = transition(FLOW_MACHINE, flow.status as FlowStatus, action, 'sign.flowStatusInvalid');
      await repo.moveFlow(trx, flow.id, flow.status, to, {
        reason,
        ...(action === 'withdraw' ? { finished_at: new Date() } : {}),
      });
      if (action === 'withdraw') await endOpenWork(trx, flow.id, null, me);
      const flowFiles = await repo.filesOf(trx, flow.id);
      await recordAct(trx, evidence, {
        flowId,
        action,
        actorPersonId: ctx.personId,
        actorName: me,
        organizationId: ctx.organizationId,
        organizeName: flow.initiator_org_name,
        detail: { reason },
        evidence: {
          hashes: Object.fromEntries(flowFiles.map((f) => [`file${f.position}`, f.current_sha256])),
          data: { reasonSha256: sha256(Buffer.from(reason)) },
        },
      });
    });
    return detailOf(db, files, await participation(db, ctx, flowId));
  }

  return {
    refuse,
    withdraw: (db: Db, ctx: AuthContext, flowId: string, reason: string) =>
      endByInitiator(db, ctx, flowId, 'withdraw', reason),
    void: (db: Db, ctx: AuthContext, flowId: string, reason: string) =>
      endByInitiator(db, ctx, flowId, 'void', reason),

    /** Ends the flows whose validity ran out; the sweeper calls it on a cadence. */
    async sweepExpired(db: Db, limit = 100) {
      let n = 0;
      for (const { id } of await repo.expiredOpenFlows(db, new Date(), limit))
        if (await expireIfDue(db, id)) n++;
      return n;
    },
  };
}
