/**
 * Signing a task: which seals the signer may use and how (direct, under an authorisation, after an
 * approval), then each placement as its own incremental PAdES signature with the certificate of the seal
 * it shows. The will-auth is taken first (given back if the act fails); the signatures are built outside
 * the transaction, straight into the file store; the transaction takes the authorisation's use, checks
 * each file is still the version they were built on (building again on the new one otherwise), records
 * every signature and moves the flow on.
 */
import { AppError, contracts, maskPhone } from '@openseal/core';
import type { Db } from '@openseal/db';
import { LruCache } from '@openseal/pki';
import { access } from 'node:fs/promises';
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
import { checkPlacement, type FlowCore, type FlowsDeps } from './flow-core';
import { sealPictureUrl } from './file-access';
import * as repo from './flows.repository';
import type { BlobDraft } from '../files/file-store';
import type { PdfSigning, SignerCertificate, SignRequest } from './pdf-signing';

const { FLOW_MACHINE, TASK_MACHINE } = contracts;
type FlowStatus = contracts.FlowStatus;
type TaskStatus = contracts.TaskStatus;
type Placement = contracts.Placement;

const SIGN_ATTEMPTS = 3;
const WILL_SIGN = contracts.WILL_SOURCES.sign;

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

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

  /** One placement's signature request, with what its record needs. */
  interface Step {
    kind: contracts.PlacementKind;
    sealCode: string;
    request: SignRequest;
  }

  interface Built {
    fileId: string;
    fileName: string;
    fromSha: string;
    /** The signed version, in the file store already (its row is written with the act). */
    sha256: string;
    size: number;
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

  /** Seal pictures by file key (a file object never changes): read once, not per signature. */
  const images = new LruCache<string, Uint8Array>(256);
  async function imageOf(db: Db, s: repo.SealForSigning): Promise<Uint8Array> {
    let png = images.get(s.image_file_key!);
    if (!png) {
      const stored = await files.readInternal(db, s.image_file_key!);
      if (!stored) throw new AppError('seal.notUsable');
      png = new Uint8Array(stored.bytes);
      images.set(s.image_file_key!, png);
    }
    return png;
  }

  /** What the signer needs of a seal's certificate, read with the seal (none: the signer reads it). */
  /** The password of a flow file's upload, when it needed one (sealed under the upload's key). */
  const pdfPasswordOf = (file: repo.FlowFileRow): string | null =>
    files.passwordOf({ key: file.original_file_key, password_sealed: file.password_sealed });

  const certificateOf = (s: repo.SealForSigning): SignerCertificate | undefined =>
    s.cert_der && s.cert_status && s.cert_not_before && s.cert_not_after
      ? {
          der: s.cert_der,
          key_id: s.cert_key_id,
          status: s.cert_status,
          not_before: s.cert_not_before,
          not_after: s.cert_not_after,
        }
      : undefined;

  /**
   * Builds the signed versions of the files (outside any transaction): one incremental signature per
   * placement, from the file store straight into it. The signer reads a file up to 8 MB whole and writes
   * its output in one write (WHOLE_FILE_MAX_BYTES), and streams a larger one; the hashes before and after
   * come from its own pass over the bytes.
   */
  async function buildSignatures(
    db: Db,
    flowFiles: repo.FlowFileRow[],
    placements: Placement[],
    seals: { seal?: repo.SealForSigning; signature?: repo.SealForSigning },
    signerName: string,
    /** Other signers of the flow still to sign after this one. */
    othersFollow: boolean,
  ): Promise<Built[]> {
    const built: Built[] = [];
    for (const file of flowFiles) {
      const mine = placements.filter((p) => p.fileId === file.id);
      if (mine.length === 0) continue;
      const steps: Step[] = [];
      // A password-protected file is opened with its upload's password; the update is encrypted with its key.
      const password = pdfPasswordOf(file);
      for (const [i, p] of mine.entries()) {
        const seal = p.kind === 'signature' ? seals.signature! : seals.seal!;
        const png = await imageOf(db, seal);
        const size = { width: seal.width_mm, height: seal.height_mm };
        const certificate = certificateOf(seal);
        steps.push({
          kind: p.kind,
          sealCode: seal.seal_code,
          request: {
            serial: seal.cert_serial!,
            ...(certificate ? { certificate } : {}),
            level: 'B-T',
            reason: p.kind === 'signature' ? `${signerName} 签名` : `${seal.name}`,
            ...(p.kind === 'ridingSeam'
              ? { ridingSeam: { png, y: p.y, ...size, ...(p.pages ? { pages: p.pages } : {}) } }
              : { appearance: { png, page: p.page, x: p.x, y: p.y, ...size } }),
            skipEvidence: true,
            moreToFollow: othersFollow || i < mine.length - 1,
            ...(password ? { password } : {}),
          },
        });
      }
      const signed = await signInStore(db, file, steps);
      built.push({ fileId: file.id, fileName: file.name, fromSha: file.current_sha256, ...signed });
    }
    return built;
  }

  type Signed = Awaited<ReturnType<PdfSigning['signFile']>>;
  const signatureOf = (step: Step, r: Signed): Built['signatures'][number] => ({
    kind: step.kind,
    field: r.fieldName,
    serial: r.serial,
    sealCode: step.sealCode,
    certificateSha256: r.certificateSha256,
    before: r.sha256Before,
    after: r.sha256After,
  });

  /**
   * Signs a file placement after placement, each signature from the store's file (or the draft before)
   * into a draft in the store; the last draft is kept under the hash its signer computed, the others go.
   */
  async function signInStore(db: Db, file: repo.FlowFileRow, steps: Step[]) {
    let inPath = files.blobPath(file.current_sha256);
    if (!(await exists(inPath))) throw new AppError('file.notFound');
    const drafts: BlobDraft[] = [];
    try {
      let size = 0;
      const signatures: Built['signatures'] = [];
      for (const step of steps) {
        const draft = await files.draftBlob();
        drafts.push(draft);
        const r = await deps.signing.signFile(db, { ...step.request, inPath, outPath: draft.path });
        signatures.push(signatureOf(step, r));
        inPath = draft.path;
        size = r.size;
      }
      const sha256 = signatures.at(-1)!.after;
      await drafts.at(-1)!.keep(sha256);
      return { sha256, size, signatures };
    } finally {
      for (const d of drafts) await d.discard().catch(() => {});
    }
  }

  async function sign(
    db: Db,
    ctx: AuthContext,
    input: z.infer<typeof contracts.signTaskRequest>,
  ): Promise<z.infer<typeof contracts.signTaskResponse>> {
    requireRealName(ctx);
    const p = await load(db, ctx, input.flowId);
    const task = myOpenTask(p, input.taskId);
    if (task.status === 'waiting') throw new AppError('sign.notYourTurn');
    if (task.status !== 'pending' && task.status !== 'approved') throw new AppError('sign.taskStatusInvalid');
    let flowFiles = await repo.filesOf(db, p.flow.id);
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

    // The will-auth is taken before the work (one statement: two requests with it cannot both sign),
    // and given back if the signature is not recorded in the end.
    const taken = await will.take(db, {
      willBizId: input.willBizId,
      personId: ctx.personId,
      source: WILL_SIGN,
      bizId: task.id,
    });
    let recorded = false;
    try {
      // The seal and how the signer may use it.
      let seal: repo.SealForSigning | undefined;
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
      let signature: repo.SealForSigning | undefined;
      if (needsSignature) {
        if (!input.signatureCode) throw new AppError('sign.signatureRequired');
        signature = await repo.sealForSigning(db, input.signatureCode);
        if (!signature || signature.organization_id !== null || signature.person_id !== ctx.personId)
          throw new AppError('sign.sealNotAllowed');
        if (!repo.sealUsable(signature)) throw new AppError('seal.notUsable');
      }

      const act = { p, task, input, seal, signature, mode, me: p.viewer.name };
      for (let attempt = 1; ; attempt++) {
        const othersFollow = p.tasks.some(
          (t) => t.id !== task.id && !['signed', 'refused', 'closed'].includes(t.status),
        );
        const built = await buildSignatures(
          db,
          flowFiles,
          placements,
          { seal, signature },
          act.me,
          othersFollow,
        );
        const result = await record(db, ctx, act, built).catch((err: unknown) => {
          if (err instanceof AppError && err.key === 'sign.fileChanged' && attempt < SIGN_ATTEMPTS)
            return null;
          throw err;
        });
        if (result) {
          recorded = true;
          await invite(db, result.activated, result.initiator, result.flowName);
          return { flowId: p.flow.id, taskId: task.id, flowStatus: result.flowTo, signatures: result.out };
        }
        // Another signer of a parallel flow changed a file meanwhile: build on the new version.
        flowFiles = await repo.filesOf(db, p.flow.id);
      }
    } catch (err) {
      if (!recorded) await will.giveBack(db, taken).catch(() => {});
      throw err;
    }
  }

  /**
   * The transaction of a signature: locks the flow with its tasks, takes the authorisation's use or the
   * approval, checks each file is still the version the signatures were built on (else sign.fileChanged,
   * and the caller builds again), records every signature and moves the task and the flow on.
   */
  async function record(
    db: Db,
    ctx: AuthContext,
    act: {
      p: Participation;
      task: repo.TaskRow;
      input: z.infer<typeof contracts.signTaskRequest>;
      seal: repo.SealForSigning | undefined;
      signature: repo.SealForSigning | undefined;
      mode: Awaited<ReturnType<typeof sealAccess>> | undefined;
      me: string;
    },
    built: Built[],
  ) {
    const { p, task, input, seal, signature, mode, me } = act;
    const signedAt = new Date();
    return db.transaction().execute(async (trx) => {
      const locked = await repo.lockFlowWithTasks(trx, p.flow.id);
      const head = locked[0];
      if (!head || !isOpen(head.flow_status)) throw new AppError('sign.flowStatusInvalid');
      const flow = {
        id: p.flow.id,
        status: head.flow_status,
        name: head.flow_name,
        initiator_name: head.flow_initiator_name,
      };
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
            sha256: b.sha256,
            size: b.size,
            signatures: b.signatures.length,
            contentType: 'application/pdf',
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
      // The flow moves on: completed when every signer signed, else the next signers' turn. The tasks
      // are as the lock read them, with this one signed now.
      const tasks = locked.map(({ flow_status: _s, flow_name: _n, flow_initiator_name: _i, ...t }) =>
        t.id === task.id ? { ...t, status: taskTo } : t,
      );
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
    });
  }

  return { options, sign };
}
