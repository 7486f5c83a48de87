/**
 * Seal-use approvals: a member who is not a seal's administrator asks to use it in a flow; one of the
 * organisation's seal administrators approves (the member may then sign once with it), refuses (not
 * again for this seal in this flow), or returns it (the member may correct and ask again); the applicant
 * may withdraw, and a signing administrator or the end of the flow terminates it. Every decision is a
 * sign-log row and an evidence leaf in the decision's transaction; the applicant hears by SMS.
 */
import { AppError, contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { z } from 'zod';
import { newId } from '../../lib/ids';
import { hasOrgPermission, pointsOfRoles, requireOrg, requireRealName } from '../../lib/permissions';
import type { EvidenceService } from '../evidence/evidence.service';
import type { FilesService } from '../files/files.service';
import type { MsgsService } from '../msgs/msgs.service';
import type { AuthContext } from '../session/session.service';
import { isOpen, isViewerTask, recordAct, transition } from './flow-context';
import * as repo from './flows.repository';
import { approvalOut } from './flow-views';
import type { FlowsService } from './flows.service';

const { APPROVAL_MACHINE, FLOW_MACHINE, TASK_MACHINE } = contracts;
type Decision = z.infer<typeof contracts.approvalDecisionRequest>['action'];

const LOG_ACTION: Record<Decision, contracts.SignLogAction> = {
  approve: 'approve',
  refuse: 'refuseApproval',
  return: 'returnApproval',
  withdraw: 'withdrawApproval',
  terminate: 'terminateApproval',
};
const RESULT_TEXT: Record<Decision, string> = {
  approve: '通过',
  refuse: '被拒绝',
  return: '被退回',
  withdraw: '撤回',
  terminate: '被终止',
};

export function createApprovalsService(deps: {
  evidence: EvidenceService;
  files: FilesService;
  msgs: MsgsService;
  flows: FlowsService;
}) {
  const { evidence, files, msgs } = deps;

  /** What the caller may do with an approval now. */
  async function actionsFor(db: Db, ctx: AuthContext, a: repo.ApprovalRow): Promise<Decision[]> {
    if (a.status !== 'inApproval') return [];
    const out: Decision[] = [];
    const sameOrg = ctx.organizationId === a.organization_id;
    if (sameOrg && a.applicant_person_id !== ctx.personId && (await hasOrgPermission(db, ctx, 'seal.manage')))
      out.push('approve', 'refuse', 'return');
    if (a.applicant_person_id === ctx.personId && sameOrg) out.push('withdraw');
    if (
      sameOrg &&
      ((await hasOrgPermission(db, ctx, 'sign.manage')) || (await hasOrgPermission(db, ctx, 'seal.manage')))
    )
      out.push('terminate');
    return out;
  }

  async function view(db: Db, ctx: AuthContext, id: string) {
    const a = await repo.findApproval(db, id);
    if (!a) throw new AppError('approval.notFound');
    return approvalOut(a, await actionsFor(db, ctx, a), files, ctx);
  }

  /** Seal administrators of the organisation, who hear of a new request. */
  async function sealAdmins(db: Db, organizationId: string) {
    const out = [];
    for (const m of await repo.activeMembersWithRoles(db, organizationId))
      if ((await pointsOfRoles(db, organizationId, m.roles)).has('seal.manage')) out.push(m);
    return out;
  }

  async function request(
    db: Db,
    ctx: AuthContext,
    flowId: string,
    taskId: string,
    input: z.infer<typeof contracts.requestApprovalRequest>,
  ) {
    requireRealName(ctx);
    const org = requireOrg(ctx);
    const p = await deps.flows.load(db, ctx, flowId);
    const task = p.tasks.find((t) => t.id === taskId && isViewerTask(p.viewer, t));
    if (!task || task.signer_type !== 'organization') throw new AppError('sign.taskNotFound');
    if (!isOpen(p.flow.status)) throw new AppError('sign.flowStatusInvalid');
    if (task.status === 'waiting') throw new AppError('sign.notYourTurn');
    const seal = await repo.sealForSigning(db, input.sealCode);
    if (!seal || seal.organization_id !== task.organization_id) throw new AppError('sign.sealNotAllowed');
    if (
      contracts.effectiveSealStatus(seal.status as contracts.SealStatus, seal.valid_to) !== 'normal' ||
      seal.cert_status !== 'good'
    )
      throw new AppError('seal.notUsable');
    if (await hasOrgPermission(db, ctx, 'seal.manage')) throw new AppError('approval.notNeeded');
    const earlier = await repo.approvalsOfTask(db, task.id);
    if (earlier.some((a) => a.seal_code === seal.seal_code && a.status === 'refused'))
      throw new AppError('approval.refusedBefore');
    const flowFiles = await repo.filesOf(db, flowId);
    for (const pl of input.placements)
      if (!flowFiles.some((f) => f.id === pl.fileId))
        throw new AppError('sign.placementInvalid', { params: { reason: 'unknown file' } });
    const me = (await repo.personById(db, ctx.personId))?.name ?? '';
    const id = newId('apv');
    await db.transaction().execute(async (trx) => {
      const flow = await repo.lockFlow(trx, flowId);
      if (!flow || !isOpen(flow.status)) throw new AppError('sign.flowStatusInvalid');
      const taskTo = transition(
        TASK_MACHINE,
        task.status as contracts.TaskStatus,
        'requestApproval',
        'sign.taskStatusInvalid',
      );
      if (
        !(await repo.moveTask(trx, task.id, task.status, taskTo, {
          person_id: ctx.personId,
          seal_code: seal.seal_code,
          seal_name: seal.name,
        }))
      )
        throw new AppError('sign.taskStatusInvalid');
      if (flow.status !== 'inApproval')
        await repo.moveFlow(
          trx,
          flow.id,
          flow.status,
          transition(
            FLOW_MACHINE,
            flow.status as contracts.FlowStatus,
            'requestApproval',
            'sign.flowStatusInvalid',
          ),
        );
      await repo.insertApproval(trx, {
        id,
        flow_id: flowId,
        task_id: task.id,
        organization_id: org.organizationId,
        seal_code: seal.seal_code,
        applicant_person_id: ctx.personId,
        applicant_member_id: org.memberId,
        applicant_name: me,
        reason: input.reason ?? null,
        placements: JSON.stringify(input.placements),
        status: 'inApproval',
      });
      await recordAct(trx, evidence, {
        flowId,
        taskId: task.id,
        action: 'requestApproval',
        actorPersonId: ctx.personId,
        actorName: me,
        organizationId: org.organizationId,
        organizeName: task.organize_name,
        sealCode: seal.seal_code,
        sealName: seal.name,
        detail: { approvalId: id, reason: input.reason ?? null },
        evidence: { data: { approvalId: id } },
      });
    });
    for (const admin of await sealAdmins(db, org.organizationId))
      await msgs.notify(db, {
        mobile: admin.mobile,
        scene: 'approvalRequest',
        params: { applicant: me, flow: p.flow.name, seal: seal.name },
      });
    return view(db, ctx, id);
  }

  async function decide(
    db: Db,
    ctx: AuthContext,
    id: string,
    input: z.infer<typeof contracts.approvalDecisionRequest>,
  ) {
    requireRealName(ctx);
    const found = await repo.findApproval(db, id);
    if (!found || found.organization_id !== ctx.organizationId) throw new AppError('approval.notFound');
    const allowed = await actionsFor(db, ctx, found);
    if (found.status !== 'inApproval') throw new AppError('approval.statusInvalid');
    if (!allowed.includes(input.action))
      throw new AppError(input.action === 'withdraw' ? 'perm.none' : 'approval.notApprover');
    if ((input.action === 'refuse' || input.action === 'return') && !input.reason)
      throw new AppError('request.invalid', { details: { reason: 'a reason is required' } });
    const me = (await repo.personById(db, ctx.personId))?.name ?? '';
    await db.transaction().execute(async (trx) => {
      const flow = await repo.lockFlow(trx, found.flow_id);
      const a = await repo.lockApproval(trx, id);
      if (!flow || !a) throw new AppError('approval.notFound');
      if (!isOpen(flow.status)) throw new AppError('sign.flowStatusInvalid');
      const to = transition(
        APPROVAL_MACHINE,
        a.status as contracts.ApprovalStatus,
        input.action,
        'approval.statusInvalid',
      );
      const decidedAt = new Date();
      if (
        !(await repo.moveApproval(trx, id, a.status, to, {
          decider_person_id: ctx.personId,
          decider_name: me,
          decision_reason: input.reason ?? null,
          decided_at: decidedAt,
        }))
      )
        throw new AppError('approval.statusInvalid');
      const task = (await repo.tasksOf(trx, flow.id)).find((t) => t.id === a.task_id);
      if (task) {
        const action = input.action === 'approve' ? 'grantApproval' : 'denyApproval';
        const taskTo = transition(
          TASK_MACHINE,
          task.status as contracts.TaskStatus,
          action,
          'sign.taskStatusInvalid',
        );
        await repo.moveTask(
          trx,
          task.id,
          task.status,
          taskTo,
          action === 'denyApproval' ? { seal_code: null, seal_name: null } : {},
        );
      }
      const stillOpen = (await repo.approvalsOfFlow(trx, flow.id)).some((x) => x.status === 'inApproval');
      if (flow.status === 'inApproval' && !stillOpen)
        await repo.moveFlow(
          trx,
          flow.id,
          flow.status,
          transition(FLOW_MACHINE, 'inApproval', 'closeApproval', 'sign.flowStatusInvalid'),
        );
      await recordAct(trx, evidence, {
        flowId: flow.id,
        taskId: a.task_id,
        action: LOG_ACTION[input.action],
        actorPersonId: ctx.personId,
        actorName: me,
        organizationId: a.organization_id,
        organizeName: found.org_name,
        sealCode: a.seal_code,
        sealName: found.seal_name,
        detail: { approvalId: id, reason: input.reason ?? null, applicant: a.applicant_name },
        evidence: { data: { approvalId: id, status: to }, at: decidedAt },
      });
    });
    const applicant = await repo.personById(db, found.applicant_person_id);
    if (applicant && input.action !== 'withdraw')
      await msgs.notify(db, {
        mobile: applicant.mobile,
        scene: 'approvalDecided',
        params: { flow: found.flow_name, seal: found.seal_name, result: RESULT_TEXT[input.action] },
      });
    return view(db, ctx, id);
  }

  async function list(
    db: Db,
    ctx: AuthContext,
    kind: 'receive' | 'start',
    q: z.infer<typeof contracts.approvalListQuery>,
  ) {
    requireRealName(ctx);
    const org = requireOrg(ctx);
    if (
      kind === 'receive' &&
      !(await hasOrgPermission(db, ctx, 'seal.manage')) &&
      !(await hasOrgPermission(db, ctx, 'sign.manage'))
    )
      throw new AppError('perm.sealManage');
    const { total, rows } = await repo.listApprovals(db, {
      organizationId: org.organizationId,
      ...(kind === 'start' ? { applicantPersonId: ctx.personId } : {}),
      status: q.status,
      offset: (q.pageNum - 1) * q.pageSize,
      limit: q.pageSize,
    });
    const list = [];
    for (const a of rows) list.push(approvalOut(a, await actionsFor(db, ctx, a), files, ctx));
    return { total, pageNum: q.pageNum, pageSize: q.pageSize, list };
  }

  return {
    request,
    decide,
    list,
    /**
     * The latest approval of a task, for its flow's participants; null when none was raised (every sign
     * page asks, and most tasks never need one). A task of another flow is not found.
     */
    async ofTask(db: Db, ctx: AuthContext, flowId: string, taskId: string) {
      const p = await deps.flows.load(db, ctx, flowId);
      if (!p.tasks.some((t) => t.id === taskId)) throw new AppError('sign.taskNotFound');
      const a = await repo.latestApprovalOfTask(db, taskId);
      if (!a || a.flow_id !== flowId) return null;
      return approvalOut(a, await actionsFor(db, ctx, a), files, ctx);
    },
  };
}

export type ApprovalsService = ReturnType<typeof createApprovalsService>;
