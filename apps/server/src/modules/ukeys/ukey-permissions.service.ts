/**
 * UKey permission requests (POST /v1/ukey/user/operation/agentInsertUKeyPromotePermission): a member who is
 * not the legal representative (an agent) inserts a UKey bound to the organisation to operate it — unbind
 * it, change the seals it carries — and asks for the point the operation needs (seal.manage).
 *
 * - The agent first proves the key is in their hands (its signature over a challenge, as verifySign).
 * - Holding the point already, they are told so and nothing is recorded.
 * - Otherwise a request waits. The legal representative or the super administrator decides it, never
 *   their own, and approves only a point they hold themselves: nobody grants what they do not hold.
 * - An approval lets that member do that operation on that key once, within 30 minutes, while the request
 *   names the key in the permission-key header (x-key-serial): the grant travels with the key, not with
 *   the member's role. The operation takes the approval in its own transaction (ukeys.service).
 */
import { AppError, contracts, maskPhone } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { z } from 'zod';
import { newId } from '../../lib/ids';
import { callerPoints, requireOrg, requireRealName, type OrgContext } from '../../lib/permissions';
import { inTransaction } from '../../lib/tx';
import { recordAudit } from '../audit/audit.repository';
import type { AuthContext } from '../session/session.service';
import * as repo from './ukey-permissions.repository';
import type { UkeysService } from './ukeys.service';

type Out = z.infer<typeof contracts.ukeyPermissionRequestOut>;
type Operation = contracts.UkeyAgentOperation;

const DECIDER_ROLES = ['legalPerson', 'superAdmin'];
const isDecider = (ctx: AuthContext) => ctx.roles.some((r) => DECIDER_ROLES.includes(r));

export function createUkeyPermissionsService(deps: { ukeys: UkeysService; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());

  function out(r: repo.PermissionRequestRow): Out {
    const expired = r.status === 'approved' && !!r.expires_at && r.expires_at.getTime() <= now().getTime();
    return {
      requestNo: r.request_no,
      ukeySn: r.ukey_sn,
      operation: r.operation as Operation,
      point: r.point,
      status: expired ? 'expired' : r.status,
      applicantName: r.applicant_name,
      applicantMobile: maskPhone(r.applicant_mobile),
      reason: r.reason,
      deciderName: r.decider_name,
      rejectReason: r.reject_reason,
      createdAt: r.created_at.toISOString(),
      decidedAt: r.decided_at?.toISOString() ?? null,
      expiresAt: r.expires_at?.toISOString() ?? null,
    };
  }

  function member(ctx: AuthContext): OrgContext {
    const o = requireOrg(ctx);
    requireRealName(ctx);
    return o;
  }

  return {
    async promote(
      db: Db,
      ctx: AuthContext,
      input: z.infer<typeof contracts.agentPromoteRequest>,
      ip: string | null,
    ): Promise<z.infer<typeof contracts.agentPromoteResponse>> {
      const o = member(ctx);
      const point = contracts.OPERATION_POINTS[input.operation];
      // The key is bound in this organisation, its certificate good, and in the caller's hands now.
      await deps.ukeys.verifySign(
        db,
        ctx,
        { ukeySn: input.ukeySn, challengeId: input.challengeId, signature: input.signature },
        ip,
      );
      if ((await callerPoints(db, o)).has(point)) return { status: 'held', point, request: null };
      const q = { memberId: o.memberId, ukeySn: input.ukeySn, operation: input.operation, now: now() };
      return inTransaction(db, async (trx) => {
        let open = await repo.findOpenRequest(trx, q);
        if (!open) {
          const requestNo = newId('ukp');
          await repo.insertRequest(trx, {
            request_no: requestNo,
            organization_id: o.organizationId,
            member_id: o.memberId,
            person_id: o.personId,
            ukey_sn: input.ukeySn,
            operation: input.operation,
            point,
            status: 'pending',
            reason: input.reason?.trim() || null,
            decider_person_id: null,
            decider_name: null,
            reject_reason: null,
            decided_at: null,
            expires_at: null,
            used_at: null,
          });
          await recordAudit(trx, {
            actorPersonId: o.personId,
            organizationId: o.organizationId,
            action: 'ukey.permissionRequest',
            targetType: 'ukey',
            targetId: input.ukeySn,
            ip,
            detail: { requestNo, operation: input.operation, point },
          });
          open = await repo.findRequest(trx, o.organizationId, requestNo);
        }
        const request = out(open!);
        return { status: request.status === 'approved' ? 'approved' : 'pending', point, request };
      });
    },

    /** The deciders see the organisation's requests; everyone else their own. */
    async list(db: Db, ctx: AuthContext, q: z.infer<typeof contracts.ukeyPermissionListRequest>) {
      const o = member(ctx);
      const { total, rows } = await repo.listRequests(db, {
        organizationId: o.organizationId,
        ...(isDecider(o) ? {} : { personId: o.personId }),
        ...(q.status ? { status: q.status } : {}),
        now: now(),
        limit: q.pageSize,
        offset: (q.pageNum - 1) * q.pageSize,
      });
      return { total, list: rows.map(out) };
    },

    async decide(
      db: Db,
      ctx: AuthContext,
      input: z.infer<typeof contracts.ukeyPermissionDecisionRequest>,
      ip: string | null,
    ): Promise<Out> {
      const o = member(ctx);
      if (!isDecider(o)) throw new AppError('ukeyPermission.deciderOnly');
      if (input.action === 'reject' && !input.rejectReason?.trim())
        throw new AppError('authority.rejectReasonRequired');
      return inTransaction(db, async (trx) => {
        const r = await repo.findRequest(trx, o.organizationId, input.requestNo);
        if (!r) throw new AppError('ukeyPermission.notFound');
        if (r.person_id === o.personId) throw new AppError('member.self');
        if (r.status !== 'pending') throw new AppError('ukeyPermission.statusChange');
        if (input.action === 'approve') {
          const mine = await callerPoints(trx, o);
          if (!mine.has(r.point))
            throw new AppError('member.grantNotHeld', { details: { points: [r.point] } });
          // Only for a key still bound here: an unbound key grants nothing.
          await deps.ukeys.liveBinding(trx, o, r.ukey_sn);
        }
        const at = now();
        const approved = input.action === 'approve';
        if (
          !(await repo.decideRequest(trx, r.request_no, {
            status: approved ? 'approved' : 'rejected',
            decider_person_id: o.personId,
            decider_name: o.profile?.person.name ?? '',
            reject_reason: approved ? null : input.rejectReason!.trim(),
            decided_at: at,
            expires_at: approved
              ? new Date(at.getTime() + contracts.UKEY_PERMISSION_TTL_MINUTES * 60_000)
              : null,
          }))
        )
          throw new AppError('ukeyPermission.statusChange');
        await recordAudit(trx, {
          actorPersonId: o.personId,
          organizationId: o.organizationId,
          action: approved ? 'ukey.permissionApprove' : 'ukey.permissionReject',
          targetType: 'ukey',
          targetId: r.ukey_sn,
          ip,
          detail: { requestNo: r.request_no, operation: r.operation, point: r.point, applicant: r.person_id },
        });
        return out((await repo.findRequest(trx, o.organizationId, r.request_no))!);
      });
    },
  };
}

export type UkeyPermissionsService = ReturnType<typeof createUkeyPermissionsService>;
