/**
 * Signing a task: which seals the signer may use and how (direct, under an authorisation, after an
 * approval), then each placement as its own incremental PAdES signature with the certificate of the seal
 * it shows. The signatures are built outside the transaction; the transaction takes the will-auth and the
 * authorisation's use, checks each file is still the version they were built on (building again on the
 * new one otherwise), records every signature and moves the flow on.
 */
import { AppError, contracts, maskPhone } from '@openseal/core';
import type { Db } from '@openseal/db';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { hasOrgPermission, requireRealName } from '../../lib/permissions';
import { consumeAuthorization } from '../seals/seal-authorizations.service';
import type { AuthContext } from '../session/session.service';
import {
  isOpen,
  isViewerTask,
  placementsOf,
  recordAct,
  transition,
  type Participation,
} from './flow-context';
import { checkPlacement, personName, sha256, type FlowCore, type FlowsDeps } from './flow-core';
import { sealPictureUrl } from './file-access';
import * as repo from './flows.repository';

const { FLOW_MACHINE, TASK_MACHINE } = contracts;
type FlowStatus = contracts.FlowStatus;
type TaskStatus = contracts.TaskStatus;
type Placement = contracts.Placement;

const SIGN_ATTEMPTS = 3;
const WILL_SIGN = contracts.WILL_SOURCES.sign;

export function createFlowSigning(deps: FlowsDeps, core: FlowCore) {
  const { evidence, files, will } = deps;
  const { load, invite } = core;

  /** Which seals a task's signer may use, and how (direct, under an authorisation, after an approval). */
  async function sealAccess(
    db: Db,
    ctx: AuthContext,
    task: repo.TaskRow,
    seal: repo.SignableSealRow,
  ): Promise<{
    access: 'direct' | 'authorised' | 'approval' | 'approved' | 'refused';
    usesRemaining: number | null;
    approvalId?: string;
  }> {
    if (task.signer_type === 'person') return { access: 'direct', usesRemaining: null };
    if (await hasOrgPermission(db, ctx, 'seal.manage')) return { access: 'direct', usesRemaining: null };
    const approvals = (await repo.approvalsOfTask(db, task.id)).filter((a) => a.seal_code === seal.seal_code);
    const approved = approvals.find((a) => a.status === 'approved' && !a.used_at);
    if (approved) return { access: 'approved', usesRemaining: null, approvalId: approved.id };
    if (approvals.some((a) => a.status === 'refused')) return { access: 'refused', usesRemaining: null };
    const now = new Date();
    const grants = ctx.memberId ? await repo.memberGrants(db, seal.seal_code, ctx.memberId) : [];
    const usable = grants.filter(
      (g) =>
        g.valid_from <= now &&
        (g.valid_to === null || g.valid_to > now) &&
        (g.uses_remaining === null || g.uses_remaining > 0) &&
        g.app_range.length === 0,
    );
    if (usable.length > 0) {
      const remaining = usable.some((g) => g.uses_remaining === null)
        ? null
        : usable.reduce((n, g) => n + (g.uses_remaining ?? 0), 0);
      return { access: 'authorised', usesRemaining: remaining };
    }
    return { access: 'approval', usesRemaining: null };
  }

  function sealOut(
    ctx: AuthContext,
    s: repo.SignableSealRow,
    a: { access: z.infer<typeof contracts.signableSeal>['access']; usesRemaining: number | null },
  ) {
    return {
      sealCode: s.seal_code,
      name: s.name,
      kind: s.seal_kind,
      imageUrl: sealPictureUrl(files, ctx, s.image_file_key!, s.seal_code),
      widthMm: s.width_mm,
      heightMm: s.height_mm,
      access: a.access,
      usesRemaining: a.usesRemaining,
    };
  }

  function myOpenTask(p: Participation, taskId: string) {
    const t =
      p.myTask && p.myTask.id === taskId
        ? p.myTask
        : p.tasks.find((x) => x.id === taskId && isViewerTask(p.viewer, x));
    if (!t) throw new AppError('sign.taskNotFound');
    if (!isOpen(p.flow.status))
      throw new AppError(p.flow.status === 'terminated' ? 'sign.flowExpired' : 'sign.flowStatusInvalid');
    return t;
  }

  async function options(db: Db, ctx: AuthContext, flowId: string, taskId: string) {
    requireRealName(ctx);
    const p = await load(db, ctx, flowId);
    const task = myOpenTask(p, taskId);
    if (task.status === 'waiting') throw new AppError('sign.notYourTurn');
    const own = await repo.signableSeals(db, { personId: ctx.personId });
    const sealRows =
      task.signer_type === 'organization' && task.organization_id
        ? await repo.signableSeals(db, { organizationId: task.organization_id })
        : own;
    const seals = [];
    for (const s of sealRows.filter(repo.sealUsable))
      seals.push(sealOut(ctx, s, await sealAccess(db, ctx, task, s)));
    return {
      flowId,
      taskId,
      seals,
      signatures: own
        .filter(repo.sealUsable)
        .map((s) => sealOut(ctx, s, { access: 'direct', usesRemaining: null })),
      fixedPlacements: placementsOf(task.placements),
      needSignature: task.need_signature,
      mobile: maskPhone(p.viewer.mobile),
    };
  }

  interface Built {
    fileId: string;
    fileName: string;
    fromSha: string;
    out: Buffer;
    signatures: {
      kind: contracts.PlacementKind;
      field: string;
      serial: string;
      sealCode: string;
      certificateSha256: string;
      before: string;
      after: string;
    }[];
  }

  /** Builds the signed versions of the files (outside any transaction): one incremental signature per placement. */
  async function buildSignatures(
    db: Db,
    flowFiles: repo.FlowFileRow[],
    placements: Placement[],
    seals: { seal?: repo.SignableSealRow; signature?: repo.SignableSealRow },
    signerName: string,
  ): Promise<Built[]> {
    const images = new Map<string, Buffer>();
    const imageOf = async (s: repo.SignableSealRow) => {
      let png = images.get(s.seal_code);
      if (!png) {
        const stored = await files.readInternal(db, s.image_file_key!);
        if (!stored) throw new AppError('seal.notUsable');
        png = stored.bytes;
        images.set(s.seal_code, png);
      }
      return png;
    };
    const dir = await mkdtemp(join(tmpdir(), 'openseal-sign-'));
    try {
      const built: Built[] = [];
      for (const file of flowFiles) {
        const mine = placements.filter((p) => p.fileId === file.id);
        if (mine.length === 0) continue;
        const original = await files.getBlob(file.current_sha256);
        if (!original) throw new AppError('file.notFound');
        let current = join(dir, `${file.id}-0.pdf`);
        await writeFile(current, original);
        let before = file.current_sha256;
        const signatures: Built['signatures'] = [];
        for (const [i, p] of mine.entries()) {
          const seal = p.kind === 'signature' ? seals.signature! : seals.seal!;
          const png = new Uint8Array(await imageOf(seal));
          const next = join(dir, `${file.id}-${i + 1}.pdf`);
          const size = { width: seal.width_mm, height: seal.height_mm };
          const result = await deps.signing.signFile(db, {
            inPath: current,
            outPath: next,
            serial: seal.cert_serial!,
            level: 'B-T',
            reason: p.kind === 'signature' ? `${signerName} 签名` : `${seal.name}`,
            ...(p.kind === 'ridingSeam'
              ? { ridingSeam: { png, y: p.y, ...size, ...(p.pages ? { pages: p.pages } : {}) } }
              : { appearance: { png, page: p.page, x: p.x, y: p.y, ...size } }),
            skipEvidence: true,
          });
          const after = sha256(await readFile(next));
          signatures.push({
            kind: p.kind,
            field: result.fieldName,
            serial: result.serial,
            sealCode: seal.seal_code,
            certificateSha256: result.certificateSha256,
            before,
            after,
          });
          before = after;
          current = next;
        }
        built.push({
          fileId: file.id,
          fileName: file.name,
          fromSha: file.current_sha256,
          out: await readFile(current),
          signatures,
        });
      }
      return built;
    } finally {
      await rm(dir, { recursive: true, force: true }).catch(() => {});
    }
  }

  async function sign(
    db: Db,
    ctx: AuthContext,
    input: z.infer<typeof contracts.signTaskRequest>,
    attempt = 1,
  ): Promise<z.infer<typeof contracts.signTaskResponse>> {
    requireRealName(ctx);
    const p = await load(db, ctx, input.flowId);
    const task = myOpenTask(p, input.taskId);
    if (task.status === 'waiting') throw new AppError('sign.notYourTurn');
    if (task.status !== 'pending' && task.status !== 'approved') throw new AppError('sign.taskStatusInvalid');
    const flowFiles = await repo.filesOf(db, p.flow.id);
    const byId = new Map(flowFiles.map((f) => [f.id, f]));

    // Placements: the initiator's fixed ones, or the signer's own.
    const fixed = placementsOf(task.placements);
    const placements = fixed.length > 0 ? fixed : input.placements;
    for (const pl of placements) {
      const f = byId.get(pl.fileId);
      if (!f) throw new AppError('sign.placementInvalid', { params: { reason: 'unknown file' } });
      checkPlacement(pl, {
        format: f.format,
        pageSizes: f.page_sizes as { widthMm: number; heightMm: number }[] | null,
      });
    }
    const needsSeal = placements.some((pl) => pl.kind !== 'signature');
    const needsSignature = placements.some((pl) => pl.kind === 'signature');
    if (task.need_signature && !needsSignature) throw new AppError('sign.signatureNeeded');

    await will.check(db, {
      willBizId: input.willBizId,
      personId: ctx.personId,
      source: WILL_SIGN,
      bizId: task.id,
    });

    // The seal and how the signer may use it.
    let seal: repo.SignableSealRow | undefined;
    let mode: Awaited<ReturnType<typeof sealAccess>> | undefined;
    if (needsSeal) {
      if (!input.sealCode) throw new AppError('sign.sealRequired');
      seal = await repo.sealForSigning(db, input.sealCode);
      const ours =
        !!seal &&
        (task.signer_type === 'organization'
          ? seal.organization_id === task.organization_id
          : seal.organization_id === null && seal.person_id === ctx.personId);
      if (!seal || !ours) throw new AppError('sign.sealNotAllowed');
      if (!repo.sealUsable(seal)) throw new AppError('seal.notUsable');
      mode = await sealAccess(db, ctx, task, seal);
      if (task.status === 'approved' && mode.access !== 'approved' && mode.access !== 'direct')
        throw new AppError('sign.sealNotAllowed');
      if (mode.access === 'approval') throw new AppError('sign.approvalRequired');
      if (mode.access === 'refused') throw new AppError('approval.refusedBefore');
    }
    let signature: repo.SignableSealRow | undefined;
    if (needsSignature) {
      if (!input.signatureCode) throw new AppError('sign.signatureRequired');
      signature = await repo.sealForSigning(db, input.signatureCode);
      if (!signature || signature.organization_id !== null || signature.person_id !== ctx.personId)
        throw new AppError('sign.sealNotAllowed');
      if (!repo.sealUsable(signature)) throw new AppError('seal.notUsable');
    }

    const me = await personName(db, ctx.personId);
    const built = await buildSignatures(db, flowFiles, placements, { seal, signature }, me);
    const shas = new Map<string, string>();
    for (const b of built) shas.set(b.fileId, await files.putBlob(db, b.out, 'application/pdf'));

    const signedAt = new Date();
    const result = await db
      .transaction()
      .execute(async (trx) => {
        const flow = await repo.lockFlow(trx, p.flow.id);
        if (!flow || !isOpen(flow.status)) throw new AppError('sign.flowStatusInvalid');
        await will.consume(trx, {
          willBizId: input.willBizId,
          personId: ctx.personId,
          source: WILL_SIGN,
          bizId: task.id,
        });
        if (seal && mode?.access === 'authorised')
          await consumeAuthorization(trx, evidence, {
            sealCode: seal.seal_code,
            organizationId: task.organization_id!,
            grantee: { type: 'member', id: ctx.memberId! },
            reference: flow.id,
            at: signedAt,
          });
        if (seal && mode?.access === 'approved' && mode.approvalId)
          if (!(await repo.markApprovalUsed(trx, mode.approvalId, signedAt)))
            throw new AppError('approval.statusInvalid');
        for (const b of built)
          if (
            !(await repo.advanceFile(trx, b.fileId, b.fromSha, {
              sha256: shas.get(b.fileId)!,
              size: b.out.length,
              signatures: b.signatures.length,
            }))
          )
            throw new AppError('sign.fileChanged');
        const taskTo = transition(TASK_MACHINE, task.status as TaskStatus, 'sign', 'sign.taskStatusInvalid');
        if (
          !(await repo.moveTask(trx, task.id, task.status, taskTo, {
            person_id: ctx.personId,
            seal_code: seal?.seal_code ?? signature?.seal_code ?? null,
            seal_name: seal?.name ?? signature?.name ?? null,
            signed_at: signedAt,
          }))
        )
          throw new AppError('sign.taskStatusInvalid');
        const out: z.infer<typeof contracts.signTaskResponse>['signatures'] = [];
        for (const b of built)
          for (const s of b.signatures) {
            const index = await recordAct(trx, evidence, {
              flowId: flow.id,
              taskId: task.id,
              action: 'sign',
              actorPersonId: ctx.personId,
              actorName: me,
              organizationId: task.organization_id,
              organizeName: task.organize_name,
              sealCode: s.sealCode,
              sealName: s.sealCode === seal?.seal_code ? seal.name : (signature?.name ?? null),
              fileId: b.fileId,
              fileName: b.fileName,
              detail: {
                kind: s.kind,
                field: s.field,
                serial: s.serial,
                access: mode?.access ?? 'direct',
                fileAfter: s.after,
              },
              evidence: {
                hashes: { fileBefore: s.before, fileAfter: s.after, certificate: s.certificateSha256 },
                data: { field: s.field, serial: s.serial, placement: s.kind, willBizId: input.willBizId },
                at: signedAt,
              },
            });
            out.push({
              fileId: b.fileId,
              kind: s.kind,
              field: s.field,
              serial: s.serial,
              evidenceIndex: index!,
            });
          }
        // The flow moves on: completed when every signer signed, else the next signers' turn.
        const tasks = await repo.tasksOf(trx, flow.id);
        const activated: repo.TaskRow[] = [];
        let flowTo: FlowStatus = flow.status as FlowStatus;
        if (tasks.every((t) => t.status === 'signed')) {
          flowTo = transition(FLOW_MACHINE, flow.status as FlowStatus, 'complete', 'sign.flowStatusInvalid');
          await repo.moveFlow(trx, flow.id, flow.status, flowTo, { finished_at: signedAt });
        } else {
          if (flow.status !== 'inApproval') {
            flowTo = transition(FLOW_MACHINE, flow.status as FlowStatus, 'sign', 'sign.flowStatusInvalid');
            if (flowTo !== flow.status) await repo.moveFlow(trx, flow.id, flow.status, flowTo);
          }
          const current = tasks.filter((t) => t.status !== 'signed');
          const busy = current.some((t) => t.status !== 'waiting');
          if (!busy) {
            const nextPos = Math.min(...current.map((t) => t.position));
            for (const t of current.filter((x) => x.position === nextPos)) {
              await repo.moveTask(
                trx,
                t.id,
                t.status,
                transition(TASK_MACHINE, t.status as TaskStatus, 'activate', 'sign.taskStatusInvalid'),
              );
              activated.push(t);
            }
          }
        }
        return { out, flowTo, activated, flowName: flow.name, initiator: flow.initiator_name };
      })
      .catch(async (err: unknown) => {
        if (err instanceof AppError && err.key === 'sign.fileChanged' && attempt < SIGN_ATTEMPTS) return null;
        throw err;
      });
    // Another signer of a parallel flow changed a file meanwhile: build on the new version.
    if (!result) return sign(db, ctx, input, attempt + 1);
    await invite(db, result.activated, result.initiator, result.flowName);
    return { flowId: p.flow.id, taskId: task.id, flowStatus: result.flowTo, signatures: result.out };
  }

  return { options, sign };
}
