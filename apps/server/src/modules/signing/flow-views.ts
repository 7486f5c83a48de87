/**
 * How flows are shown: a flow's summary (lists) and detail (its files, signers, approvals and the acts
 * open to the caller), and an approval as the flow detail and the approvals service show it.
 */
import { maskPhone, type contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { z } from 'zod';
import type { FilesService } from '../files/files.service';
import type { AuthContext } from '../session/session.service';
import { iso, isOpen, isViewerTask, placementsOf, type Participation } from './flow-context';
import { flowPictureUrl } from './file-access';
import * as repo from './flows.repository';

type FlowStatus = contracts.FlowStatus;
type TaskStatus = contracts.TaskStatus;

export function summaryOf(
  f: repo.FlowRow,
  counts: { signers: number; signed: number; files: number } | undefined,
  mine: { id: string; status: string } | undefined,
): z.infer<typeof contracts.flowSummary> {
  return {
    flowId: f.id,
    name: f.name,
    scene: f.scene,
    status: f.status as FlowStatus,
    order: f.sign_order,
    initiatorName: f.initiator_name,
    initiatorOrganizeName: f.initiator_org_name,
    createdAt: f.created_at.toISOString(),
    validUntil: new Date(f.valid_until).toISOString(),
    finishedAt: iso(f.finished_at),
    fileCount: counts?.files ?? 0,
    signerCount: counts?.signers ?? 0,
    signedCount: counts?.signed ?? 0,
    myTaskId: mine?.id ?? null,
    myTaskStatus: (mine?.status as TaskStatus | undefined) ?? null,
  };
}

function actionsOf(p: Participation): z.infer<typeof contracts.flowAction>[] {
  const out: z.infer<typeof contracts.flowAction>[] = ['download'];
  const open = isOpen(p.flow.status);
  const t = p.myTask;
  if (open && t && (t.status === 'pending' || t.status === 'approved')) out.push('sign');
  if (open && t && t.status === 'pending' && t.signer_type === 'organization') out.push('requestApproval');
  if (open && t && ['pending', 'inApproval', 'approved'].includes(t.status)) out.push('refuse');
  if (p.initiator && open) {
    if (p.tasks.some((x) => ['pending', 'approved'].includes(x.status) && x.id !== t?.id)) out.push('urge');
    out.push('withdraw');
  }
  if (p.initiator && p.flow.status === 'completed') out.push('void');
  return out;
}

export async function detailOf(
  db: Db,
  files: Pick<FilesService, 'urlThrough' | 'passwordOf'>,
  p: Participation,
): Promise<contracts.FlowDetail> {
  const [flowFiles, approvals] = await Promise.all([
    repo.filesOf(db, p.flow.id),
    repo.approvalsOfFlow(db, p.flow.id),
  ]);
  const signed = p.tasks.filter((t) => t.status === 'signed').length;
  const me = p.viewer;
  return {
    ...summaryOf(
      p.flow,
      { signers: p.tasks.length, signed, files: flowFiles.length },
      p.myTask ? { id: p.myTask.id, status: p.myTask.status } : undefined,
    ),
    remark: p.flow.remark,
    reason: p.flow.reason,
    files: flowFiles.map((f) => ({
      fileId: f.id,
      name: f.name,
      role: f.role,
      format: f.format,
      size: Number(f.current_size),
      pages: f.pages,
      originalSha256: f.original_sha256,
      currentSha256: f.current_sha256,
      signatures: f.signatures,
      pageSizes: (f.page_sizes as { widthMm: number; heightMm: number }[] | null) ?? null,
      // Whoever sees the flow sees its files: a password-protected one is opened in their viewer with it.
      password: files.passwordOf({ key: f.original_file_key, password_sealed: f.password_sealed }),
    })),
    signers: p.tasks.map((t) => ({
      taskId: t.id,
      order: t.position,
      type: t.signer_type,
      name: t.name,
      mobile: isViewerTask(me, t) ? t.mobile : maskPhone(t.mobile),
      organizeName: t.organize_name,
      isInitiator: t.is_initiator,
      status: t.status as TaskStatus,
      needSignature: t.need_signature,
      placements: placementsOf(t.placements),
      sealCode: t.seal_code,
      sealName: t.seal_name,
      signedAt: iso(t.signed_at),
      refuseReason: t.refuse_reason,
      urgedAt: iso(t.urged_at),
      urgeCount: t.urge_count,
    })),
    actions: actionsOf(p),
    approvals: approvals.map((a) => approvalOut(a, [], files, p.ctx)),
  };
}

export function approvalOut(
  a: repo.ApprovalView,
  actions: z.infer<typeof contracts.approvalSummary>['actions'],
  files: Pick<FilesService, 'urlThrough'>,
  ctx: AuthContext,
): contracts.ApprovalSummary {
  return {
    approvalId: a.id,
    flowId: a.flow_id,
    flowName: a.flow_name,
    taskId: a.task_id,
    status: a.status as contracts.ApprovalStatus,
    sealCode: a.seal_code,
    sealName: a.seal_name,
    sealImageUrl: a.image_file_key ? flowPictureUrl(files, ctx, a.image_file_key, a.flow_id) : null,
    applicantName: a.applicant_name,
    organizeName: a.org_name,
    reason: a.reason,
    decisionReason: a.decision_reason,
    deciderName: a.decider_name,
    placements: placementsOf(a.placements),
    createdAt: a.created_at.toISOString(),
    decidedAt: iso(a.decided_at),
    actions,
  };
}
