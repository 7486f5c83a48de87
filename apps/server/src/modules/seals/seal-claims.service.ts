/**
 * The claim of made-to-order seals: only the legal representative claims (a person claims their own
 * seals), after accepting the agreement; anyone else of the organisation sends them a signed, expiring
 * claim link. The claim starts production at once, inline or as a job (ASYNCHRONOUS_SEAL_MAKE).
 */
import { AppError, type contracts, type Language } from '@openseal/core';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { requireOrgPermission, requireRealName } from '../../lib/permissions';
import { hmac, safeEqual } from '../../lib/secrets';
import { inTransaction } from '../../lib/tx';
import type { AuthContext } from '../session/session.service';
import { access, actorOf, inScope, recordChange } from './seal-context';
import { DAY, MAKE_JOB, type ClientInfo, type SealCore, type SealsDeps } from './seal-core';
import { makeTemplate, renderSeal, sealSpec } from './seal-render';
import { receiveOut, workOrderOut } from './seal-views';
import * as repo from './seals.repository';

/** How long a claim link stays valid. */
export const CLAIM_LINK_DAYS = 7;

export function createSealClaims(deps: SealsDeps, core: SealCore) {
  const { evidence, config, jobs } = deps;
  const { ownWorkOrder, finishMaking } = core;
  const claimSig = (id: string, expires: number) => hmac(deps.secret, 'seal-claim', id, String(expires));

  async function openClaimFlow(
    db: Db,
    ctx: AuthContext,
    flowId: string,
    expires: number | undefined,
    sig: string | undefined,
  ) {
    const flow = await repo.findClaimFlow(db, flowId);
    const exp = flow ? Math.floor(flow.expires_at.getTime() / 1000) : 0;
    if (
      !flow ||
      flow.organization_id !== ctx.organizationId ||
      expires !== exp ||
      !sig ||
      !safeEqual(sig, claimSig(flow.id, exp)) ||
      exp * 1000 < Date.now()
    )
      throw new AppError('seal.claimLinkInvalid');
    return flow;
  }

  function isLegal(ctx: AuthContext): boolean {
    return ctx.organizationId === null || ctx.roles.includes('legalPerson');
  }

  /** Spec 6: the legal representative claims, whatever a role says (a person claims their own seals). */
  async function mayClaim(db: Db, ctx: AuthContext): Promise<boolean> {
    if (!ctx.organizationId) return true;
    if (!isLegal(ctx)) return false;
    try {
      await requireOrgPermission(db, ctx, 'seal.claim');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The impression a work order's seal gets: the made seal's own picture, the hand-drawn picture fitted
   * when it was applied for, or drawn now from the order's texts (as production will draw it).
   */
  async function pictureOf(db: Db, w: repo.WorkOrderView): Promise<Buffer | null> {
    const stored = async (key: string | null | undefined) =>
      key ? ((await deps.files.readInternal(db, key))?.bytes ?? null) : null;
    if (w.status === 'made' && w.seal_code) {
      const made = await stored((await repo.findSeal(db, w.seal_code))?.image_file_key);
      if (made) return made;
    }
    if (w.seal_kind === 'personalHandDrawn') return stored(w.hand_drawn_file_key);
    const text = { nameText: w.name_text, title: w.title, title0: w.title0, serial: w.serial_text };
    const size = { widthMm: w.width_mm, heightMm: w.height_mm };
    try {
      return await renderSeal(
        makeTemplate(sealSpec(w.seal_type as contracts.SealDrawType, text, size, w.security_lines)),
      );
    } catch (err) {
      if (err instanceof AppError) return null;
      throw err;
    }
  }

  return {
    /**
     * receiveSeal/moulages: the pictures of the seals a claim page offers (through a claim link, or the
     * applications of the caller's space), those approved and waiting for their claim or already made.
     */
    async receiveMoulages(
      db: Db,
      ctx: AuthContext,
      q: {
        getSealFlowId?: string | undefined;
        expires?: number | undefined;
        sig?: string | undefined;
        applyNos?: string[] | undefined;
      },
      lang: Language,
    ) {
      let rows: repo.WorkOrderView[];
      let organizeName: string | null;
      if (q.getSealFlowId) {
        requireRealName(ctx);
        const flow = await openClaimFlow(db, ctx, q.getSealFlowId, q.expires, q.sig);
        rows = await repo.findWorkOrders(db, flow.apply_nos);
        organizeName = flow.org_name;
      } else if (q.applyNos) {
        const a = await access(db, ctx, 'seal.view');
        const unique = [...new Set(q.applyNos)];
        rows = await repo.findWorkOrders(db, unique);
        if (rows.length !== unique.length || rows.some((w) => !inScope(a, w)))
          throw new AppError('seal.workOrderNotFound');
        organizeName = rows[0]?.org_name ?? null;
      } else
        throw new AppError('request.invalid', {
          details: { reason: 'getSealFlowId or applyNos is required' },
        });
      const offered = rows.filter((w) => w.status === 'pendingProduction' || w.status === 'made');
      if (offered.length === 0) throw new AppError('seal.nothingToClaim');
      const list = [];
      for (const w of offered) {
        const o = workOrderOut(w, lang);
        const png = await pictureOf(db, w);
        list.push({
          applyNo: o.applyNo,
          status: o.status,
          receiveStatus: o.receiveStatus,
          sealCode: o.sealCode,
          sealKind: o.sealKind,
          sealKindName: o.sealKindName,
          sealType: o.sealType,
          carrier: o.carrier,
          sealName: o.sealName,
          title: o.title,
          widthMm: o.widthMm,
          heightMm: o.heightMm,
          image: png ? `data:image/png;base64,${png.toString('base64')}` : null,
          imageBytes: png?.length ?? 0,
        });
      }
      return { organizeName, isLegalPerson: isLegal(ctx), canClaim: await mayClaim(db, ctx), list };
    },

    /** A signed, expiring link for the legal representative (only an organisation's seals need one). */
    async claimLink(db: Db, ctx: AuthContext, applyNos: string[], client: ClientInfo) {
      const a = await access(db, ctx, 'seal.apply');
      if (!a.organizationId) throw new AppError('perm.personNotAllowed');
      const unique = [...new Set(applyNos)].slice(0, 20);
      const rows = await repo.findWorkOrders(db, unique);
      if (rows.length !== unique.length || rows.some((w) => !inScope(a, w)))
        throw new AppError('seal.workOrderNotFound');
      if (rows.some((w) => w.status !== 'pendingProduction' || w.claimed_at))
        throw new AppError('seal.nothingToClaim');
      const id = newId('gsf');
      const expiresAt = new Date(Math.floor((Date.now() + CLAIM_LINK_DAYS * DAY) / 1000) * 1000);
      const expires = Math.floor(expiresAt.getTime() / 1000);
      await inTransaction(db, async (trx) => {
        await repo.insertClaimFlow(trx, {
          id,
          organizationId: a.organizationId!,
          applyNos: unique,
          createdBy: a.personId,
          expiresAt,
        });
        await recordChange(trx, evidence, {
          actor: actorOf(a, client.ip),
          organizationId: a.organizationId,
          action: 'sealClaim.link',
          targetType: 'sealClaimFlow',
          targetId: id,
          subject: `sealClaim:${id}`,
          detail: { applyNos: unique, expiresAt: expiresAt.toISOString() },
        });
      });
      const sig = claimSig(id, expires);
      return {
        getSealFlowId: id,
        url: `/getSealFlow?getSealFlowId=${id}&expires=${expires}&sig=${sig}`,
        expires,
        sig,
        expiresAt: expiresAt.toISOString(),
      };
    },

    async identityCheck(db: Db, ctx: AuthContext, flowId: string, q: { expires: number; sig: string }) {
      requireRealName(ctx);
      const flow = await openClaimFlow(db, ctx, flowId, q.expires, q.sig);
      const legal = await repo.legalRepresentative(db, flow.organization_id);
      return {
        isLegalPerson: isLegal(ctx),
        canClaim: isLegal(ctx) && (await mayClaim(db, ctx)),
        organizeName: flow.org_name,
        legalName: legal
          ? `${[...legal.name][0] ?? ''}${'*'.repeat(Math.max(1, [...legal.name].length - 1))}`
          : null,
        flowStatus: flow.used_at ? ('done' as const) : ('open' as const),
        expiresAt: flow.expires_at.toISOString(),
      };
    },

    async claimFlowSeals(
      db: Db,
      ctx: AuthContext,
      flowId: string,
      q: { expires: number; sig: string },
      lang: Language,
    ) {
      requireRealName(ctx);
      const flow = await openClaimFlow(db, ctx, flowId, q.expires, q.sig);
      const rows = await repo.findWorkOrders(db, flow.apply_nos);
      return {
        getSealFlowId: flow.id,
        organizeId: flow.organization_id,
        organizeName: flow.org_name,
        expiresAt: flow.expires_at.toISOString(),
        isLegalPerson: isLegal(ctx),
        list: rows.map((w) => workOrderOut(w, lang)),
      };
    },

    async receiveStatus(
      db: Db,
      ctx: AuthContext,
      q: {
        applyNo?: string | undefined;
        getSealFlowId?: string | undefined;
        expires?: number | undefined;
        sig?: string | undefined;
      },
    ) {
      const a = await access(db, ctx, 'seal.view');
      let rows: repo.WorkOrderView[];
      if (q.getSealFlowId) {
        const flow = await openClaimFlow(db, ctx, q.getSealFlowId, q.expires, q.sig);
        rows = await repo.findWorkOrders(db, flow.apply_nos);
      } else if (q.applyNo) rows = [await ownWorkOrder(db, a, q.applyNo)];
      else
        throw new AppError('request.invalid', {
          details: { reason: 'applyNo or getSealFlowId is required' },
        });
      return { isLegalPerson: isLegal(ctx), canClaim: await mayClaim(db, ctx), list: rows.map(receiveOut) };
    },

    /**
     * The claim: only the legal representative (a person for their own seal), after accepting the
     * agreement. Production starts at once: inline, or as a job when ASYNCHRONOUS_SEAL_MAKE is on.
     */
    async claim(
      db: Db,
      ctx: AuthContext,
      input: {
        getSealFlowId?: string | undefined;
        expires?: number | undefined;
        sig?: string | undefined;
        applyNos?: string[] | undefined;
      },
      client: ClientInfo,
    ) {
      requireRealName(ctx);
      let flowId: string | null = null;
      let applyNos: string[];
      if (input.getSealFlowId) {
        const flow = await openClaimFlow(db, ctx, input.getSealFlowId, input.expires, input.sig);
        flowId = flow.id;
        applyNos = flow.apply_nos;
      } else if (input.applyNos) applyNos = [...new Set(input.applyNos)];
      else
        throw new AppError('request.invalid', {
          details: { reason: 'getSealFlowId or applyNos is required' },
        });
      const a = await access(db, ctx, 'seal.claim');
      if (!(await mayClaim(db, ctx))) throw new AppError('perm.sealClaim');
      const rows = await repo.findWorkOrders(db, applyNos);
      if (rows.length !== applyNos.length || rows.some((w) => !inScope(a, w)))
        throw new AppError('seal.workOrderNotFound');
      const claimable = rows.filter((w) => w.status === 'pendingProduction' && !w.claimed_at);
      if (claimable.length === 0) throw new AppError('seal.nothingToClaim');
      const actor = actorOf(a, client.ip);
      const jobIds = await inTransaction(db, async (trx) => {
        const ids: string[] = [];
        for (const c of claimable) {
          const w = await repo.lockWorkOrder(trx, c.apply_no);
          if (!w || w.status !== 'pendingProduction' || w.claimed_at)
            throw new AppError('seal.workOrderStatus');
          const sealCode = newId('seal');
          await repo.insertSeal(trx, {
            seal_code: sealCode,
            subject: w.subject,
            organization_id: w.organization_id,
            person_id: w.person_id,
            seal_kind: w.seal_kind,
            seal_type: w.seal_type,
            carrier: w.carrier,
            name: w.seal_name,
            name_text: w.name_text,
            title: w.title,
            title0: w.title0,
            template: null,
            image_file_key: null,
            image_sha256: null,
            width_mm: w.width_mm,
            height_mm: w.height_mm,
            status: 'making',
            cert_serial: null,
            valid_from: null,
            valid_to: null,
            apply_no: w.apply_no,
          });
          const jobId = await jobs.enqueue(trx, MAKE_JOB, { applyNo: w.apply_no }, { key: w.apply_no });
          await repo.updateWorkOrder(trx, w.apply_no, {
            claimed_by_person_id: a.personId,
            claimed_at: new Date(),
            seal_code: sealCode,
            make_job_id: jobId,
          });
          await recordChange(trx, evidence, {
            actor,
            organizationId: w.organization_id,
            action: 'sealApply.claim',
            targetType: 'sealWorkOrder',
            targetId: w.apply_no,
            subject: `sealApply:${w.apply_no}`,
            detail: { sealCode, agreementAccepted: true, ...(flowId ? { getSealFlowId: flowId } : {}) },
          });
          ids.push(jobId);
        }
        if (flowId) await repo.markClaimFlowUsed(trx, flowId);
        return ids;
      });
      const isAsync = await config.flag('ASYNCHRONOUS_SEAL_MAKE', false);
      await finishMaking(jobIds, isAsync);
      return { async: isAsync, list: (await repo.findWorkOrders(db, applyNos)).map(receiveOut) };
    },
  };
}
