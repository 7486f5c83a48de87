import { AppError, checkMobile, maskPhone, type Language } from '@openseal/core';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import {
  callerPoints,
  lackingPoints,
  pointsOfRoles,
  requireOrg,
  requireOrgPermission,
} from '../../lib/permissions';
import { recordAudit } from '../audit/audit.repository';
import type { AuthContext } from '../session/session.service';
import * as repo from './members.repository';
import { checkAssignment, isHolderRole, normaliseRoles, roleRefs } from './role-rules';

type MemberStatus = 'active' | 'paused' | 'removed';
type MemberAction = 'pause' | 'resume' | 'remove';

/** Member status transitions, checked in one place. */
export const MEMBER_TRANSITIONS: Record<MemberAction, { from: readonly MemberStatus[]; to: MemberStatus }> = {
  pause: { from: ['active'], to: 'paused' },
  resume: { from: ['paused'], to: 'active' },
  remove: { from: ['active', 'paused'], to: 'removed' },
};

function mobileOf(raw: string): string {
  const m = checkMobile(raw);
  if (!m.ok) throw new AppError(m.key);
  return m.value;
}

export function createMembersService() {
  async function out(db: Db, row: repo.MemberRow, lang: Language) {
    return {
      memberId: row.memberId,
      inviteId: null,
      nickname: row.nickname,
      name: row.name,
      mobile: maskPhone(row.mobile),
      roles: await roleRefs(db, row.organizationId, row.roles, lang),
      status: row.status as 'active' | 'paused',
      realNameStatus: row.realNameStatus,
      createTime: row.createdAt.toISOString(),
    };
  }

  async function loadMember(db: Db, organizationId: string, memberId: string) {
    const m = await repo.findMember(db, organizationId, memberId);
    if (!m) throw new AppError('member.notFound');
    return m;
  }

  async function move(db: Db, ctx: AuthContext, memberId: string, action: MemberAction, ip: string | null) {
    const org = await requireOrgPermission(db, ctx, 'member.manage');
    const held = await callerPoints(db, org);
    return db.transaction().execute(async (trx) => {
      const m = await loadMember(trx, org.organizationId, memberId);
      if (m.memberId === org.memberId) throw new AppError('member.self');
      if (m.roles.some(isHolderRole)) throw new AppError('member.holderProtected');
      // Pausing or removing takes every role away: only someone holding all of them may.
      if (lackingPoints(held, await pointsOfRoles(trx, org.organizationId, m.roles)).length)
        throw new AppError('member.outranks');
      const t = MEMBER_TRANSITIONS[action];
      if (!(await repo.setStatus(trx, m.memberId, t.from, t.to))) throw new AppError('member.statusChange');
      await recordAudit(trx, {
        actorPersonId: org.personId,
        organizationId: org.organizationId,
        action: `member.${action}`,
        targetType: 'member',
        targetId: m.memberId,
        ip,
        detail: { from: m.status, to: t.to },
      });
      return { memberId: m.memberId, status: t.to };
    });
  }

  return {
    /**
     * Adds a member by mobile. A registered person becomes a member at once (the organisation is in their
     * account list); an unregistered mobile is remembered as an invitation that `acceptInvites` turns into
     * a membership when that person first logs in.
     */
    async add(
      db: Db,
      ctx: AuthContext,
      input: { mobile: string; nickname?: string | undefined; roles?: string[] | undefined },
      ip: string | null,
    ) {
      const org = await requireOrgPermission(db, ctx, 'member.manage');
      const mobile = mobileOf(input.mobile);
      const roles = await checkAssignment(db, org.organizationId, await callerPoints(db, org), {
        before: [],
        after: input.roles ?? [],
        self: false,
      });
      const nickname = input.nickname?.trim() ?? '';
      return db.transaction().execute(async (trx) => {
        const existing = await repo.findMemberByMobile(trx, org.organizationId, mobile);
        if (existing && existing.status !== 'removed') throw new AppError('member.exists');
        if (await repo.findPendingInvite(trx, org.organizationId, mobile))
          throw new AppError('member.exists');
        const personId = await repo.findPersonIdByMobile(trx, mobile);
        const audit = {
          actorPersonId: org.personId,
          organizationId: org.organizationId,
          ip,
          detail: { mobile: maskPhone(mobile), roles },
        };
        if (!personId) {
          const inviteId = newId('inv');
          await repo.insertInvite(trx, {
            id: inviteId,
            organizationId: org.organizationId,
            mobile,
            nickname,
            roles,
            invitedBy: org.personId,
          });
          await recordAudit(trx, {
            ...audit,
            action: 'member.invite',
            targetType: 'invite',
            targetId: inviteId,
          });
          return { memberId: null, inviteId, status: 'invited' as const };
        }
        const memberId = await repo.upsertMember(trx, {
          id: newId('mbr'),
          organizationId: org.organizationId,
          personId,
          roles,
        });
        if (!memberId) throw new AppError('member.exists');
        await repo.setNickname(trx, memberId, nickname);
        await recordAudit(trx, { ...audit, action: 'member.add', targetType: 'member', targetId: memberId });
        return { memberId, inviteId: null, status: 'active' as const };
      });
    },

    /** Turns a person's pending invitations into memberships; called once the person exists (login). */
    async acceptInvites(db: Db, person: { id: string; mobile: string }) {
      const accepted: string[] = [];
      for (const inv of await repo.pendingInvitesOfMobile(db, person.mobile)) {
        await db.transaction().execute(async (trx) => {
          const memberId = await repo.upsertMember(trx, {
            id: newId('mbr'),
            organizationId: inv.organization_id,
            personId: person.id,
            roles: inv.roles,
          });
          if (!(await repo.closeInvite(trx, inv.id, 'accepted', memberId || null))) return;
          if (!memberId) return;
          await repo.setNickname(trx, memberId, inv.nickname);
          await recordAudit(trx, {
            actorPersonId: person.id,
            organizationId: inv.organization_id,
            action: 'member.inviteAccepted',
            targetType: 'member',
            targetId: memberId,
            detail: { inviteId: inv.id },
          });
          accepted.push(inv.organization_id);
        });
      }
      return accepted;
    },

    async modify(
      db: Db,
      ctx: AuthContext,
      memberId: string,
      input: { nickname?: string | undefined; roles?: string[] | undefined },
      ip: string | null,
    ) {
      const org = await requireOrgPermission(db, ctx, 'member.manage');
      const points = await callerPoints(db, org);
      return db.transaction().execute(async (trx) => {
        const invite = memberId.startsWith('inv_')
          ? await repo.findInvite(trx, org.organizationId, memberId)
          : undefined;
        if (invite) {
          if (invite.status !== 'pending') throw new AppError('member.notFound');
          const roles =
            input.roles &&
            (await checkAssignment(trx, org.organizationId, points, {
              before: invite.roles,
              after: input.roles,
              self: false,
            }));
          await repo.updateInvite(trx, invite.id, { nickname: input.nickname?.trim(), roles });
          await recordAudit(trx, {
            actorPersonId: org.personId,
            organizationId: org.organizationId,
            action: 'member.inviteModify',
            targetType: 'invite',
            targetId: invite.id,
            ip,
            detail: { roles },
          });
          return { memberId: null, inviteId: invite.id };
        }
        const m = await loadMember(trx, org.organizationId, memberId);
        let roles: string[] | undefined;
        if (input.roles) {
          // Holder roles stay where they are: they move only through the confirmed change.
          const kept = m.roles.filter(isHolderRole);
          const granted = await checkAssignment(trx, org.organizationId, points, {
            before: m.roles,
            after: input.roles,
            self: m.memberId === org.memberId,
          });
          roles = kept.length ? [...kept, ...granted.filter((r) => r !== 'staff')] : granted;
          roles = kept.length ? [...new Set(roles)] : normaliseRoles(roles);
          await repo.setRoles(trx, m.memberId, roles);
        }
        if (input.nickname !== undefined) await repo.setNickname(trx, m.memberId, input.nickname.trim());
        await recordAudit(trx, {
          actorPersonId: org.personId,
          organizationId: org.organizationId,
          action: 'member.modify',
          targetType: 'member',
          targetId: m.memberId,
          ip,
          detail: { rolesBefore: m.roles, roles: roles ?? m.roles, nickname: input.nickname },
        });
        return { memberId: m.memberId, inviteId: null };
      });
    },

    pause: (db: Db, ctx: AuthContext, memberId: string, pause: boolean, ip: string | null) =>
      move(db, ctx, memberId, pause ? 'pause' : 'resume', ip),

    async remove(db: Db, ctx: AuthContext, memberId: string, ip: string | null) {
      if (!memberId.startsWith('inv_')) return move(db, ctx, memberId, 'remove', ip);
      const org = await requireOrgPermission(db, ctx, 'member.manage');
      return db.transaction().execute(async (trx) => {
        const inv = await repo.findInvite(trx, org.organizationId, memberId);
        if (!inv || !(await repo.closeInvite(trx, inv.id, 'cancelled', null)))
          throw new AppError('member.notFound');
        await recordAudit(trx, {
          actorPersonId: org.personId,
          organizationId: org.organizationId,
          action: 'member.inviteCancel',
          targetType: 'invite',
          targetId: inv.id,
          ip,
        });
        return { memberId: inv.id, status: 'removed' as const };
      });
    },

    /** A member's detail: members with member.view, or the member themselves. */
    async detail(db: Db, ctx: AuthContext, memberId: string, lang: Language) {
      const org = requireOrg(ctx);
      if (memberId !== org.memberId) await requireOrgPermission(db, ctx, 'member.view');
      const m = await loadMember(db, org.organizationId, memberId);
      return out(db, m, lang);
    },

    async list(
      db: Db,
      ctx: AuthContext,
      f: {
        keyword?: string | undefined;
        roleCode?: string | undefined;
        status?: 'active' | 'paused' | 'invited' | undefined;
        pageNum: number;
        pageSize: number;
      },
      lang: Language,
    ) {
      const org = await requireOrgPermission(db, ctx, 'member.view');
      if (f.status === 'invited') {
        const invites = await repo.listPendingInvites(db, org.organizationId);
        const page = invites.slice((f.pageNum - 1) * f.pageSize, f.pageNum * f.pageSize);
        return {
          total: invites.length,
          list: await Promise.all(
            page.map(async (i) => ({
              memberId: null,
              inviteId: i.id,
              nickname: i.nickname,
              name: '',
              mobile: maskPhone(i.mobile),
              roles: await roleRefs(db, org.organizationId, i.roles, lang),
              status: 'invited' as const,
              realNameStatus: 0,
              createTime: i.created_at.toISOString(),
            })),
          ),
        };
      }
      const { total, rows } = await repo.listMembers(
        db,
        org.organizationId,
        { keyword: f.keyword, roleCode: f.roleCode, status: f.status },
        { offset: (f.pageNum - 1) * f.pageSize, limit: f.pageSize },
      );
      return { total, list: await Promise.all(rows.map((r) => out(db, r, lang))) };
    },

    /** Whether a mobile already belongs to (or is invited into) the current organisation. */
    async exists(db: Db, ctx: AuthContext, rawMobile: string) {
      const org = await requireOrgPermission(db, ctx, 'member.manage');
      const mobile = mobileOf(rawMobile);
      const m = await repo.findMemberByMobile(db, org.organizationId, mobile);
      const invited = await repo.findPendingInvite(db, org.organizationId, mobile);
      return {
        exists: (m !== undefined && m.status !== 'removed') || invited !== undefined,
        memberId: m && m.status !== 'removed' ? m.memberId : null,
      };
    },

    /** Seal administrators, for any member (staff send seal-claim links to them, spec 6). */
    async sealAdmins(db: Db, ctx: AuthContext) {
      const org = requireOrg(ctx);
      return (await repo.membersWithRole(db, org.organizationId, 'sealAdmin')).map((m) => ({
        memberId: m.memberId,
        name: m.nickname || m.name,
        mobile: maskPhone(m.mobile),
      }));
    },

    /** Current legal representative and super administrator of the organisation. */
    async holders(db: Db, ctx: AuthContext) {
      const org = requireOrg(ctx);
      const one = async (role: string) => {
        const m = (await repo.membersWithRole(db, org.organizationId, role))[0];
        return m ? { memberId: m.memberId, name: m.name, mobile: maskPhone(m.mobile) } : null;
      };
      return { legalPerson: await one('legalPerson'), superAdmin: await one('superAdmin') };
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
