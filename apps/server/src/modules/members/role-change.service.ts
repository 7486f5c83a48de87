import { AppError, checkMobile, maskPhone } from '@openseal/core';
import type { Db, RoleChangeStatus } from '@openseal/db';
import { newId } from '../../lib/ids';
import { requireOrg } from '../../lib/permissions';
import { recordAudit } from '../audit/audit.repository';
import type { MsgsService, SmsScene } from '../msgs/msgs.service';
import type { AuthContext } from '../session/session.service';
import * as repo from './members.repository';
import { normaliseRoles } from './role-rules';

export type HolderRole = 'superAdmin' | 'legalPerson';
type Step = 'verifyOld' | 'sendNew' | 'verifyNew';

/** Role-holder change transitions: the old holder's code, then the new holder's, then the roles move. */
export const ROLE_CHANGE_TRANSITIONS: Record<
  Step,
  { from: readonly RoleChangeStatus[]; to: RoleChangeStatus }
> = {
  verifyOld: { from: ['oldPending'], to: 'oldVerified' },
  sendNew: { from: ['oldVerified', 'newPending'], to: 'newPending' },
  verifyNew: { from: ['newPending'], to: 'done' },
};

/**
 * SMS scenes of the two steps. The message service has no dedicated adminModify/newAdmin texts yet, so
 * both use its identity-check text; each flow is tied to its change request and its mobile below.
 */
const SCENE: Record<'adminModify' | 'newAdmin', SmsScene> = {
  adminModify: 'adminModify',
  newAdmin: 'newAdmin',
};

export function createRoleChangeService(deps: { msgs: MsgsService }) {
  const { msgs } = deps;

  async function load(db: Db, ctx: AuthContext, changeNo: string, step: Step) {
    const org = requireOrg(ctx);
    const c = await repo.findChange(db, org.organizationId, changeNo);
    if (!c || c.initiator_person_id !== org.personId) throw new AppError('roleChange.notFound');
    if (!ROLE_CHANGE_TRANSITIONS[step].from.includes(c.status)) throw new AppError('roleChange.step');
    return { org, c };
  }

  async function advance(
    db: Db,
    changeNo: string,
    step: Step,
    patch: Parameters<typeof repo.moveChange>[4] = {},
  ) {
    const t = ROLE_CHANGE_TRANSITIONS[step];
    if (!(await repo.moveChange(db, changeNo, t.from, t.to, patch))) throw new AppError('roleChange.step');
  }

  return {
    /** Step 1: a code to the current holder (or to the caller when the seat is empty). Holders only. */
    async sendOld(db: Db, ctx: AuthContext, role: HolderRole, ip: string | null) {
      const org = requireOrg(ctx);
      if (!ctx.roles.includes('superAdmin') && !ctx.roles.includes('legalPerson'))
        throw new AppError('perm.holderOnly');
      const holder = (await repo.membersWithRole(db, org.organizationId, role))[0];
      const mobile = holder?.mobile ?? (await repo.findMember(db, org.organizationId, org.memberId))?.mobile;
      if (!mobile) throw new AppError('member.notFound');
      const sent = await msgs.send(db, { mobile, scene: SCENE.adminModify, personId: org.personId });
      const changeNo = newId('chg');
      await db.transaction().execute(async (trx) => {
        await repo.insertChange(trx, {
          changeNo,
          organizationId: org.organizationId,
          role,
          initiatorPersonId: org.personId,
          fromMemberId: holder?.memberId ?? null,
          oldFlowId: sent.flowId,
        });
        await recordAudit(trx, {
          actorPersonId: org.personId,
          organizationId: org.organizationId,
          action: 'roleChange.start',
          targetType: 'roleChange',
          targetId: changeNo,
          ip,
          detail: { role, fromMemberId: holder?.memberId ?? null },
        });
      });
      return { changeNo, ...sent, mobile: maskPhone(mobile) };
    },

    /** Step 2: the current holder's code. */
    async verifyOld(db: Db, ctx: AuthContext, input: { changeNo: string; code: string }, ip: string | null) {
      const { org, c } = await load(db, ctx, input.changeNo, 'verifyOld');
      await msgs.verify(db, { flowId: c.old_flow_id, code: input.code, personId: org.personId });
      await db.transaction().execute(async (trx) => {
        await advance(trx, c.change_no, 'verifyOld', { oldVerifiedAt: new Date() });
        await recordAudit(trx, {
          actorPersonId: org.personId,
          organizationId: org.organizationId,
          action: 'roleChange.oldVerified',
          targetType: 'roleChange',
          targetId: c.change_no,
          ip,
        });
      });
      return { changeNo: c.change_no, changeType: c.role, status: 'oldVerified' };
    },

    /** Step 3: a code to the new holder, who must be an active member. */
    async sendNew(db: Db, ctx: AuthContext, input: { changeNo: string; mobile: string }, ip: string | null) {
      const { org, c } = await load(db, ctx, input.changeNo, 'sendNew');
      const mobile = checkMobile(input.mobile);
      if (!mobile.ok) throw new AppError(mobile.key);
      const next = await repo.findMemberByMobile(db, org.organizationId, mobile.value);
      if (!next || next.status !== 'active') throw new AppError('roleChange.notMember');
      if (next.memberId === c.from_member_id || next.roles.includes(c.role))
        throw new AppError('roleChange.sameHolder');
      const sent = await msgs.send(db, {
        mobile: mobile.value,
        scene: SCENE.newAdmin,
        personId: org.personId,
      });
      await db.transaction().execute(async (trx) => {
        await advance(trx, c.change_no, 'sendNew', { toMemberId: next.memberId, newFlowId: sent.flowId });
        await recordAudit(trx, {
          actorPersonId: org.personId,
          organizationId: org.organizationId,
          action: 'roleChange.newSent',
          targetType: 'roleChange',
          targetId: c.change_no,
          ip,
          detail: { toMemberId: next.memberId },
        });
      });
      return { changeNo: c.change_no, ...sent, mobile: maskPhone(mobile.value) };
    },

    /** Step 4: the new holder's code; both codes are used up and the role moves in one transaction. */
    async verifyNew(db: Db, ctx: AuthContext, input: { changeNo: string; code: string }, ip: string | null) {
      const { org, c } = await load(db, ctx, input.changeNo, 'verifyNew');
      if (!c.new_flow_id || !c.to_member_id) throw new AppError('roleChange.step');
      await msgs.verify(db, { flowId: c.new_flow_id, code: input.code, personId: org.personId });
      await db.transaction().execute(async (trx) => {
        await msgs.consumeVerified(trx, {
          flowId: c.old_flow_id,
          scene: SCENE.adminModify,
          personId: org.personId,
        });
        await msgs.consumeVerified(trx, {
          flowId: c.new_flow_id!,
          scene: SCENE.newAdmin,
          personId: org.personId,
        });
        const ids = [c.to_member_id!, ...(c.from_member_id ? [c.from_member_id] : [])];
        await repo.lockMembers(trx, org.organizationId, ids);
        const to = await repo.rolesOf(trx, c.to_member_id!);
        if (!to || to.status !== 'active') throw new AppError('roleChange.notMember');
        // Whoever holds the seat now gives it up, even if it moved since the change began.
        for (const holder of await repo.membersWithRole(trx, org.organizationId, c.role)) {
          if (holder.memberId === c.to_member_id) continue;
          await repo.setRoles(trx, holder.memberId, normaliseRoles(holder.roles.filter((r) => r !== c.role)));
        }
        await repo.setRoles(trx, c.to_member_id!, normaliseRoles([...to.roles, c.role]));
        await advance(trx, c.change_no, 'verifyNew', { completedAt: new Date() });
        await recordAudit(trx, {
          actorPersonId: org.personId,
          organizationId: org.organizationId,
          action: c.role === 'superAdmin' ? 'roleChange.superAdmin' : 'roleChange.legalPerson',
          targetType: 'roleChange',
          targetId: c.change_no,
          ip,
          detail: { role: c.role, fromMemberId: c.from_member_id, toMemberId: c.to_member_id },
        });
      });
      return { changeNo: c.change_no, changeType: c.role, status: 'done' };
    },
  };
}

export type RoleChangeService = ReturnType<typeof createRoleChangeService>;
