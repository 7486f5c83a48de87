/**
 * Seal applications (work orders): the kinds and drawing types on offer and a preview of the seal, the
 * application itself (a draft, or submitted for review), its list and detail, its revocation, another
 * try after production failed, the production's progress, and the operator's review queue.
 */
import { AppError, contracts, type Language } from '@openseal/core';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { inTransaction } from '../../lib/tx';
import { recordAudit } from '../audit/audit.repository';
import type { AuthContext } from '../session/session.service';
import { access, actorOf, pageArgs, recordChange } from './seal-context';
import { MAKE_JOB, type ClientInfo, type SealCore, type SealsDeps } from './seal-core';
import { makeTemplate, renderSeal, sealDisplayName, sealSpec, sealText } from './seal-render';
import { receiveOut, workOrderOut } from './seal-views';
import * as repo from './seals.repository';

type SealKind = contracts.SealKind;
type DrawType = contracts.SealDrawType;
type WorkOrderStatus = contracts.WorkOrderStatus;
const { SEAL_TYPE_SIZE_MM } = contracts;

export function createSealApplications(deps: SealsDeps, core: SealCore) {
  const { evidence, config, jobs } = deps;
  const {
    handDrawn,
    kindOptions,
    resolveKind,
    holderOf,
    ownWorkOrder,
    moveWorkOrder,
    hasLiveSealOrApplication,
    finishMaking,
  } = core;

  return {
    // --- kinds and previews ---

    async sealTypes(db: Db, ctx: AuthContext, lang: Language, only?: 'person') {
      const a = await access(db, ctx, 'seal.view');
      const subject = only ?? (a.organizationId ? 'organization' : 'person');
      return { list: (await kindOptions(subject, lang)).list };
    },

    async customSealList(db: Db, ctx: AuthContext, lang: Language) {
      const a = await access(db, ctx, 'seal.view');
      const { list, titleMaxLength } = await kindOptions(a.organizationId ? 'organization' : 'person', lang);
      return { list: list.filter((o) => o.custom), titleMaxLength };
    },

    /**
     * clearFreehandMoulage: discards the caller's hand-drawn pictures (their uploads of purpose sealImage
     * in this space) that no seal, change or application uses: the one named, or every one. A named one
     * of someone else (or of another space) is answered as absent; one in use is refused. Audited.
     */
    async clearFreehand(db: Db, ctx: AuthContext, fileKey: string | undefined, client: ClientInfo) {
      const a = await access(db, ctx, 'seal.view');
      if (fileKey) {
        const own = await deps.files.requireOwn(db, ctx, fileKey).catch((err: unknown) => {
          if (err instanceof AppError && err.key === 'file.accessDenied') return null;
          throw err;
        });
        if (!own || own.purpose !== 'sealImage') throw new AppError('seal.freehandNotFound');
      }
      const fileKeys = await inTransaction(db, async (trx) => {
        const keys = await repo.discardUnusedPictures(
          trx,
          { personId: a.personId, organizationId: a.organizationId },
          fileKey,
        );
        if (keys.length > 0)
          await recordAudit(trx, {
            actorPersonId: a.personId,
            organizationId: a.organizationId,
            action: 'sealPicture.clear',
            targetType: 'file',
            ...(fileKey ? { targetId: fileKey } : {}),
            ip: client.ip,
            detail: { fileKeys: keys },
          });
        return keys;
      });
      if (fileKey && fileKeys.length === 0) throw new AppError('seal.freehandInUse');
      return { cleared: fileKeys.length, fileKeys };
    },

    async preview(
      db: Db,
      ctx: AuthContext,
      input: {
        sealKind: SealKind;
        sealType?: DrawType | undefined;
        title?: string | undefined;
        title0?: string | undefined;
        securityLines?: boolean | undefined;
      },
    ) {
      const a = await access(db, ctx, 'seal.apply');
      const subject = a.organizationId ? 'organization' : 'person';
      if (input.sealKind === 'personalHandDrawn') throw new AppError('seal.handDrawnRequired');
      const { sealType } = await resolveKind(subject, input.sealKind, input.sealType, input);
      const holder = await holderOf(db, a);
      const text = sealText(input.sealKind, sealType, {
        name: holder.name,
        uscc: holder.uscc,
        title: input.title,
        title0: input.title0,
      });
      const size = SEAL_TYPE_SIZE_MM[sealType];
      const template = makeTemplate(sealSpec(sealType, text, size, input.securityLines ?? false));
      const png = await renderSeal(template);
      return {
        sealKind: input.sealKind,
        sealType,
        name: sealDisplayName(input.sealKind, text),
        title: text.title,
        ...size,
        template,
        image: `data:image/png;base64,${png.toString('base64')}`,
        imageBytes: png.length,
      };
    },

    // --- applications ---

    async apply(
      db: Db,
      ctx: AuthContext,
      input: {
        applyNo?: string | undefined;
        sealKind?: SealKind | undefined;
        sealType?: DrawType | undefined;
        carrier: 'cloud' | 'ukey';
        title?: string | undefined;
        title0?: string | undefined;
        securityLines?: boolean | undefined;
        handDrawnFileKey?: string | undefined;
        submit: boolean;
      },
      client: ClientInfo,
      lang: Language,
    ) {
      const a = await access(db, ctx, 'seal.apply');
      const actor = actorOf(a, client.ip);
      if (input.applyNo) {
        const applyNo = input.applyNo;
        await ownWorkOrder(db, a, applyNo);
        await inTransaction(db, async (trx) => {
          const w = await repo.lockWorkOrder(trx, applyNo);
          await moveWorkOrder(trx, w!, 'submit', actor, { submitted_at: new Date() });
        });
        return workOrderOut((await repo.findWorkOrder(db, applyNo))!, lang);
      }
      if (!input.sealKind)
        throw new AppError('request.invalid', { details: { reason: 'sealKind or applyNo is required' } });
      const kind = input.sealKind;
      const subject = a.organizationId ? 'organization' : 'person';
      const { sealType } = await resolveKind(subject, kind, input.sealType, input);
      if (subject === 'person' && input.carrier !== 'cloud') throw new AppError('seal.carrierNotAllowed');
      const holder = await holderOf(db, a);
      const text = sealText(kind, sealType, {
        name: holder.name,
        uscc: holder.uscc,
        title: input.title,
        title0: input.title0,
      });
      const size = SEAL_TYPE_SIZE_MM[sealType];
      // A hand-drawn picture is redrawn at the seal's size now: production and signing use that one.
      const handDrawnFileKey =
        kind === 'personalHandDrawn'
          ? (await handDrawn.fit(db, ctx, input.handDrawnFileKey, size)).fileKey
          : null;
      // Refuse now what production would refuse later (text the layout cannot hold).
      if (kind !== 'personalHandDrawn')
        makeTemplate(sealSpec(sealType, text, size, input.securityLines ?? false));
      const applyNo = newId('apl');
      await inTransaction(db, async (trx) => {
        if (await hasLiveSealOrApplication(trx, a.scope, kind)) throw new AppError('seal.duplicate');
        const status: WorkOrderStatus = input.submit ? 'pendingReview' : 'preCreated';
        await repo.insertWorkOrder(trx, {
          apply_no: applyNo,
          subject,
          organization_id: a.organizationId,
          person_id: a.personId,
          seal_kind: kind,
          seal_type: sealType,
          carrier: input.carrier,
          seal_name: sealDisplayName(kind, text),
          name_text: text.nameText,
          title: text.title,
          title0: text.title0,
          serial_text: text.serial,
          security_lines: input.securityLines ?? false,
          width_mm: size.widthMm,
          height_mm: size.heightMm,
          hand_drawn_file_key: handDrawnFileKey,
          status,
          reject_reason: null,
          reviewer_operator_id: null,
          reviewed_at: null,
          submitted_at: input.submit ? new Date() : null,
          claimed_by_person_id: null,
          claimed_at: null,
          make_job_id: null,
          seal_code: null,
          completed_at: null,
        });
        await recordChange(trx, evidence, {
          actor,
          organizationId: a.organizationId,
          action: 'sealApply.create',
          targetType: 'sealWorkOrder',
          targetId: applyNo,
          subject: `sealApply:${applyNo}`,
          detail: { to: status, sealKind: kind, sealType, carrier: input.carrier },
        });
      });
      return workOrderOut((await repo.findWorkOrder(db, applyNo))!, lang);
    },

    async workOrder(db: Db, ctx: AuthContext, applyNo: string, lang: Language) {
      const a = await access(db, ctx, 'seal.apply');
      return workOrderOut(await ownWorkOrder(db, a, applyNo), lang);
    },

    async workOrders(
      db: Db,
      ctx: AuthContext,
      q: {
        status?: WorkOrderStatus | undefined;
        carrier?: string | undefined;
        sealKind?: string | undefined;
        pageNum: number;
        pageSize: number;
      },
      lang: Language,
    ) {
      const a = await access(db, ctx, 'seal.apply');
      const page = pageArgs(q);
      const { rows, total } = await repo.listWorkOrders(db, {
        ...page,
        scope: a.scope,
        ...(q.status ? { statuses: [q.status] } : {}),
        carrier: q.carrier,
        sealKind: q.sealKind,
      });
      return { total, ...page, list: rows.map((w) => workOrderOut(w, lang)) };
    },

    async revoke(db: Db, ctx: AuthContext, applyNo: string, client: ClientInfo, lang: Language) {
      const a = await access(db, ctx, 'seal.apply');
      await ownWorkOrder(db, a, applyNo);
      await inTransaction(db, async (trx) => {
        const w = await repo.lockWorkOrder(trx, applyNo);
        await moveWorkOrder(trx, w!, 'revoke', actorOf(a, client.ip), { completed_at: new Date() });
      });
      return workOrderOut((await repo.findWorkOrder(db, applyNo))!, lang);
    },

    /** Retry after failed making: a new production job for a claimed order whose job failed. */
    async retry(db: Db, ctx: AuthContext, applyNo: string, client: ClientInfo) {
      const a = await access(db, ctx, 'seal.apply');
      const w = await ownWorkOrder(db, a, applyNo);
      if (w.status !== 'pendingProduction' || !w.claimed_at || w.job_status !== 'failed')
        throw new AppError('seal.retryNotAllowed');
      const jobId = await inTransaction(db, async (trx) => {
        const locked = await repo.lockWorkOrder(trx, applyNo);
        if (!locked || locked.status !== 'pendingProduction' || locked.make_job_id !== w.make_job_id)
          throw new AppError('seal.retryNotAllowed');
        const id = await jobs.enqueue(trx, MAKE_JOB, { applyNo }, { key: applyNo });
        await repo.updateWorkOrder(trx, applyNo, { make_job_id: id });
        await recordChange(trx, evidence, {
          actor: actorOf(a, client.ip),
          organizationId: w.organization_id,
          action: 'sealApply.retry',
          targetType: 'sealWorkOrder',
          targetId: applyNo,
          subject: `sealApply:${applyNo}`,
          detail: { previousJob: w.make_job_id, job: id, previousError: w.job_error },
        });
        return id;
      });
      const isAsync = await config.flag('ASYNCHRONOUS_SEAL_MAKE', false);
      await finishMaking([jobId], isAsync);
      return { async: isAsync, list: [receiveOut((await repo.findWorkOrder(db, applyNo))!)] };
    },

    /** The making job's state and progress, for the waiting page. */
    async checkAsync(db: Db, ctx: AuthContext, applyNo: string) {
      const a = await access(db, ctx, 'seal.view');
      return receiveOut(await ownWorkOrder(db, a, applyNo));
    },

    // --- operator review ---

    reviewQueue: {
      async list(
        db: Db,
        q: { status: 'pending' | 'approved' | 'rejected' | 'all'; page: number; size: number },
      ) {
        const statuses: Record<typeof q.status, readonly WorkOrderStatus[]> = {
          pending: ['pendingReview'],
          approved: ['pendingProduction', 'made'],
          rejected: ['rejected'],
          all: ['pendingReview', 'pendingProduction', 'made', 'rejected', 'withdrawn'],
        };
        const { rows, total } = await repo.listWorkOrders(db, {
          statuses: statuses[q.status],
          pageNum: Math.max(1, q.page),
          pageSize: Math.min(100, Math.max(1, q.size)),
          oldestFirst: q.status === 'pending',
        });
        return { total, list: rows.map((w) => ({ applicationId: w.apply_no, ...workOrderOut(w, 'zh-CN') })) };
      },
      async approve(db: Db, applyNo: string, operatorId: string) {
        return inTransaction(db, async (trx) => {
          const w = await repo.lockWorkOrder(trx, applyNo);
          if (!w) throw new AppError('seal.workOrderNotFound');
          await moveWorkOrder(
            trx,
            w,
            'approve',
            { personId: null, operatorId, ip: null },
            {
              reviewer_operator_id: operatorId,
              reviewed_at: new Date(),
            },
          );
          return { organizationId: w.organization_id };
        });
      },
      async reject(db: Db, applyNo: string, operatorId: string, reason: string) {
        const why = reason.trim().slice(0, 500);
        if (!why) throw new AppError('request.invalid', { details: { reason: 'a reason is required' } });
        return inTransaction(db, async (trx) => {
          const w = await repo.lockWorkOrder(trx, applyNo);
          if (!w) throw new AppError('seal.workOrderNotFound');
          await moveWorkOrder(
            trx,
            w,
            'reject',
            { personId: null, operatorId, ip: null },
            {
              reviewer_operator_id: operatorId,
              reviewed_at: new Date(),
              reject_reason: why,
              completed_at: new Date(),
            },
            { reason: why },
          );
          return { organizationId: w.organization_id };
        });
      },
    },
  };
}
