import { AppError, contracts, maskPhone, type Language } from '@openseal/core';
import { isUniqueViolation, type AuthorityApplyStatus, type Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import {
  callerPoints,
  hasOrgPermission,
  lackingPoints,
  pointsOfRoles,
  requireOrg,
  requireOrgPermission,
} from '../../lib/permissions';
import { recordAudit } from '../audit/audit.repository';
import type { AuthContext } from '../session/session.service';
import * as repo from './members.repository';
import { isHolderRole, normaliseRoles, roleRefs } from './role-rules';

type Action = 'approve' | 'reject' | 'withdraw';

/** applyStatus transitions, checked in one place. */
export const AUTHORITY_TRANSITIONS: Record<Action, { from: AuthorityApplyStatus; to: AuthorityApplyStatus }> =
  {
    approve: { from: 'pending', to: 'approved' },
    reject: { from: 'pending', to: 'rejected' },
    withdraw: { from: 'pending', to: 'withdrawn' },
  };

const STATUS_TEXT: Record<AuthorityApplyStatus, { zh: string; en: string }> = {
  pending: { zh: '审核中', en: 'Under review' },
  approved: { zh: '已通过', en: 'Approved' },
  rejected: { zh: '已驳回', en: 'Rejected' },
  withdrawn: { zh: '已撤回', en: 'Withdrawn' },
};

/** Who decides: an organisation administrator (a session) or a platform operator (the console). */
export type Decider =
  { kind: 'member'; ctx: AuthContext } | { kind: 'operator'; operatorId: string; name: string };

export function createAuthorityService(deps: {
  /** Throws unless the caller uploaded the file (an application attaches the applicant's own upload). */
  checkFile: (db: Db, ctx: AuthContext, fileKey: string) => Promise<void>;
}) {
  async function out(db: Db, a: repo.ApplicationRow, lang: Language) {
    return {
      applyNo: a.apply_no,
      applyStatus: a.status,
      statusText: lang === 'en' ? STATUS_TEXT[a.status].en : STATUS_TEXT[a.status].zh,
      messageFlag: a.message_flag,
      applyType: a.apply_type,
      orgUscc: a.org_uscc,
      orgName: a.org_name,
      auditName: a.auditor_name,
      createTime: a.created_at.toISOString(),
      completeTime: a.completed_at?.toISOString() ?? null,
      applierName: a.applier_name,
      applierPhone: maskPhone(a.applier_mobile),
      applyFileKey: a.apply_file_key,
      rejectReason: a.reject_reason,
      remark: a.remark,
      roles: await roleRefs(db, a.organization_id, a.roles, lang),
    };
  }

  /**
   * Roles one may apply for: any role the organisation knows except the legal representative; the super
   * administrator only while the organisation has none, and then the platform decides.
   */
  async function checkApplicable(db: Db, organizationId: string, roles: string[]) {
    const wanted = normaliseRoles(roles).filter((r) => r !== 'staff');
    if (wanted.length === 0) throw new AppError('member.roleNotAssignable');
    const custom = await repo.listCustomRoles(db, organizationId);
    for (const r of wanted) {
      if (r === 'legalPerson') throw new AppError('member.roleNotAssignable');
      if (r === 'superAdmin') {
        if ((await repo.membersWithRole(db, organizationId, 'superAdmin')).length)
          throw new AppError('member.roleNotAssignable');
        continue;
      }
      if (!Object.hasOwn(contracts.BUILTIN_ROLE_POINTS, r) && !custom.some((c) => c.code === r))
        throw new AppError('role.notFound');
    }
    return wanted;
  }

  async function decide(
    db: Db,
    who: Decider,
    applyNo: string,
    action: 'approve' | 'reject',
    rejectReason: string | null,
    ip: string | null,
  ) {
    if (action === 'reject' && !rejectReason?.trim()) throw new AppError('authority.rejectReasonRequired');
    const orgScope = who.kind === 'member' ? requireOrg(who.ctx).organizationId : null;
    if (who.kind === 'member') await requireOrgPermission(db, who.ctx, 'authority.review');
    // The operator console hands in its own transaction so its audit record commits with the decision.
    const run = <T>(fn: (trx: Db) => Promise<T>) =>
      db.isTransaction ? fn(db) : db.transaction().execute(fn);
    return run(async (trx) => {
      const a = await repo.findApplication(trx, orgScope, applyNo);
      if (!a) throw new AppError('authority.notFound');
      if (who.kind === 'member') {
        // The super-administrator seat is granted by the platform; others only by someone holding every point.
        if (a.roles.some(isHolderRole)) throw new AppError('authority.operatorOnly');
        if (a.person_id === who.ctx.personId) throw new AppError('member.self');
        const mine = await callerPoints(trx, who.ctx);
        const notHeld =
          action === 'approve'
            ? lackingPoints(mine, await pointsOfRoles(trx, a.organization_id, a.roles))
            : [];
        if (notHeld.length) throw new AppError('member.grantNotHeld', { details: { points: notHeld } });
      }
      const t = AUTHORITY_TRANSITIONS[action];
      if (a.status !== t.from) throw new AppError('authority.statusChange');
      const auditor =
        who.kind === 'member'
          ? { auditorPersonId: who.ctx.personId, auditorName: null as string | null }
          : { auditorOperatorId: who.operatorId, auditorName: who.name };
      if (
        !(await repo.moveApplication(trx, a.apply_no, t.from, t.to, {
          ...auditor,
          rejectReason: action === 'reject' ? rejectReason!.trim() : null,
        }))
      )
        throw new AppError('authority.statusChange');
      if (action === 'approve') {
        if (
          a.roles.includes('superAdmin') &&
          (await repo.membersWithRole(trx, a.organization_id, 'superAdmin')).length
        )
          throw new AppError('member.roleNotAssignable');
        // A custom role deleted since the application was made is granted to no one.
        const custom = await repo.listCustomRoles(trx, a.organization_id);
        for (const r of a.roles)
          if (!Object.hasOwn(contracts.BUILTIN_ROLE_POINTS, r) && !custom.some((c) => c.code === r))
            throw new AppError('role.notFound');
        await repo.lockMembers(trx, a.organization_id, [a.member_id]);
        const member = await repo.rolesOf(trx, a.member_id);
        if (!member || member.status !== 'active') throw new AppError('member.notFound');
        await repo.setRoles(trx, a.member_id, normaliseRoles([...member.roles, ...a.roles]));
      }
      await recordAudit(trx, {
        actorPersonId: who.kind === 'member' ? who.ctx.personId : null,
        organizationId: a.organization_id,
        action: `authority.${action}`,
        targetType: 'authorityApplication',
        targetId: a.apply_no,
        ip,
        detail: {
          roles: a.roles,
          memberId: a.member_id,
          ...(who.kind === 'operator' ? { operatorId: who.operatorId } : {}),
          ...(action === 'reject' ? { rejectReason } : {}),
        },
      });
      return { applyNo: a.apply_no, applyStatus: t.to, organizationId: a.organization_id };
    });
  }

  /** Every organisation's applications, for the operator console. */
  async function listAll(
    db: Db,
    f: { applyStatus?: AuthorityApplyStatus | undefined; pageNum: number; pageSize: number },
    lang: Language,
  ) {
    const { total, rows } = await repo.listApplications(
      db,
      { organizationId: null, status: f.applyStatus },
      { offset: (f.pageNum - 1) * f.pageSize, limit: f.pageSize },
    );
    return { total, list: await Promise.all(rows.map((r) => out(db, r, lang))) };
  }

  return {
    listAll,
    async apply(
      db: Db,
      ctx: AuthContext,
      input: { roles: string[]; applyFileKey: string; remark?: string | undefined },
      ip: string | null,
    ) {
      const org = requireOrg(ctx);
      if (!input.applyFileKey.trim()) throw new AppError('authority.fileRequired');
      await deps.checkFile(db, ctx, input.applyFileKey);
      const roles = await checkApplicable(db, org.organizationId, input.roles);
      const applyNo = newId('apl');
      try {
        await db.transaction().execute(async (trx) => {
          if (await repo.hasPendingApplication(trx, org.memberId)) throw new AppError('authority.pending');
          await repo.insertApplication(trx, {
            applyNo,
            organizationId: org.organizationId,
            memberId: org.memberId,
            personId: org.personId,
            roles,
            applyFileKey: input.applyFileKey,
            remark: input.remark ?? '',
          });
          await recordAudit(trx, {
            actorPersonId: org.personId,
            organizationId: org.organizationId,
            action: 'authority.apply',
            targetType: 'authorityApplication',
            targetId: applyNo,
            ip,
            detail: { roles },
          });
        });
      } catch (e) {
        if (isUniqueViolation(e, 'authority_applications_one_pending'))
          throw new AppError('authority.pending');
        throw e;
      }
      return { applyNo, applyStatus: 'pending' as const };
    },

    async withdraw(db: Db, ctx: AuthContext, applyNo: string, ip: string | null) {
      const org = requireOrg(ctx);
      return db.transaction().execute(async (trx) => {
        const a = await repo.findApplication(trx, org.organizationId, applyNo);
        if (!a || a.person_id !== org.personId) throw new AppError('authority.notFound');
        const t = AUTHORITY_TRANSITIONS.withdraw;
        if (!(await repo.moveApplication(trx, applyNo, t.from, t.to, {})))
          throw new AppError('authority.statusChange');
        await recordAudit(trx, {
          actorPersonId: org.personId,
          organizationId: org.organizationId,
          action: 'authority.withdraw',
          targetType: 'authorityApplication',
          targetId: applyNo,
          ip,
        });
        return { applyNo, applyStatus: t.to };
      });
    },

    approve: async (db: Db, who: Decider, applyNo: string, ip: string | null) => {
      const r = await decide(db, who, applyNo, 'approve', null, ip);
      return { applyNo: r.applyNo, applyStatus: r.applyStatus };
    },
    reject: async (db: Db, who: Decider, applyNo: string, reason: string, ip: string | null) => {
      const r = await decide(db, who, applyNo, 'reject', reason, ip);
      return { applyNo: r.applyNo, applyStatus: r.applyStatus };
    },

    /** The operator console's authority queue (its `ReviewQueues` authority functions). */
    operatorQueue: {
      listAuthorityQueue: (
        db: Db,
        q: { status: 'pending' | 'approved' | 'rejected' | 'all'; page: number; size: number },
      ) =>
        listAll(
          db,
          { applyStatus: q.status === 'all' ? undefined : q.status, pageNum: q.page, pageSize: q.size },
          'zh-CN',
        ),
      approveAuthority: async (db: Db, applyNo: string, operatorId: string) => ({
        organizationId: (
          await decide(db, { kind: 'operator', operatorId, name: operatorId }, applyNo, 'approve', null, null)
        ).organizationId,
      }),
      rejectAuthority: async (db: Db, applyNo: string, operatorId: string, reason: string) => ({
        organizationId: (
          await decide(
            db,
            { kind: 'operator', operatorId, name: operatorId },
            applyNo,
            'reject',
            reason,
            null,
          )
        ).organizationId,
      }),
    },

    /** The applicant's own record, or any record of the organisation for reviewers; reading it clears the new-result flag for the applicant. */
    async detail(db: Db, ctx: AuthContext, applyNo: string, lang: Language) {
      const org = requireOrg(ctx);
      const a = await repo.findApplication(db, org.organizationId, applyNo);
      if (!a) throw new AppError('authority.notFound');
      if (a.person_id !== org.personId && !(await hasOrgPermission(db, ctx, 'authority.review')))
        throw new AppError('authority.notFound');
      const result = await out(db, a, lang);
      if (a.person_id === org.personId && a.message_flag) await repo.clearMessageFlag(db, applyNo);
      return result;
    },

    async list(
      db: Db,
      ctx: AuthContext,
      f: {
        scope: 'mine' | 'organization';
        applyStatus?: AuthorityApplyStatus | undefined;
        pageNum: number;
        pageSize: number;
      },
      lang: Language,
    ) {
      const org = requireOrg(ctx);
      if (f.scope === 'organization') await requireOrgPermission(db, ctx, 'authority.review');
      const { total, rows } = await repo.listApplications(
        db,
        {
          organizationId: org.organizationId,
          personId: f.scope === 'mine' ? org.personId : undefined,
          status: f.applyStatus,
        },
        { offset: (f.pageNum - 1) * f.pageSize, limit: f.pageSize },
      );
      return { total, list: await Promise.all(rows.map((r) => out(db, r, lang))) };
    },
  };
}

export type AuthorityService = ReturnType<typeof createAuthorityService>;
