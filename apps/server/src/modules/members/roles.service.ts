import { AppError, contracts, IDENTITY, roleName, type Language } from '@openseal/core';
import { isUniqueViolation, type Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import {
  callerPoints,
  grantablePoints,
  lackingPoints,
  requireOrg,
  requireOrgPermission,
  sceneAllowed,
} from '../../lib/permissions';
import { recordAudit } from '../audit/audit.repository';
import type { AuthContext } from '../session/session.service';
import * as repo from './members.repository';
import { roleRefs } from './role-rules';

const { BUILTIN_ROLE_POINTS, BUILTIN_ROLES, PERMISSION_TREE, isPermissionPoint, isReservedPoint } = contracts;

function tree(points: readonly string[], lang: Language) {
  const has = new Set(points);
  const label = (n: { zh: string; en: string }) => (lang === 'en' ? n.en : n.zh);
  return PERMISSION_TREE.map((g) => {
    const children = g.children.map((p) => ({ code: p.code, name: label(p), checked: has.has(p.code) }));
    return { code: g.code, name: label(g), checked: children.every((c) => c.checked), children };
  });
}

/**
 * The points a role may be given by this caller: known, never reserved to a holder role (seal claiming), and
 * each one held by the caller, so no one makes a role above themselves. A role the caller holds gets its own
 * refusal, since widening it would raise the caller.
 */
function checkPoints(points: readonly string[], held: ReadonlySet<string>, heldBySelf = false): string[] {
  for (const p of points) if (!isPermissionPoint(p)) throw new AppError('role.pointUnknown');
  if (points.some(isReservedPoint)) throw new AppError('role.pointReserved');
  const notHeld = lackingPoints(held, points);
  if (notHeld.length)
    throw new AppError(heldBySelf ? 'role.selfWiden' : 'role.pointNotHeld', { details: { points: notHeld } });
  return [...new Set(points)];
}

/** A role carrying a point the caller lacks is above them: they may neither change nor delete it. */
function checkBelow(role: { points: readonly string[] }, held: ReadonlySet<string>) {
  const above = lackingPoints(
    held,
    role.points.filter((p) => !isReservedPoint(p)),
  );
  if (above.length) throw new AppError('role.outranks', { details: { points: above } });
}

export function createRolesService() {
  async function allRoles(db: Db, organizationId: string, lang: Language) {
    const builtIn = BUILTIN_ROLES.map((code) => ({
      code,
      name: roleName(code, lang),
      description: '',
      builtIn: true,
      points: [...BUILTIN_ROLE_POINTS[code]] as string[],
    }));
    const custom = (await repo.listCustomRoles(db, organizationId)).map((r) => ({
      code: r.code,
      name: r.name,
      description: r.description,
      builtIn: false,
      points: r.points,
    }));
    return [...builtIn, ...custom];
  }

  async function loadCustom(db: Db, organizationId: string, code: string) {
    if (Object.hasOwn(BUILTIN_ROLE_POINTS, code)) throw new AppError('role.builtIn');
    const role = await repo.findCustomRole(db, organizationId, code);
    if (!role) throw new AppError('role.notFound');
    return role;
  }

  return {
    /** The caller's roles and points (spec 3, permissions response). */
    async permissions(db: Db, ctx: AuthContext, lang: Language) {
      const held = await callerPoints(db, ctx);
      const points = [...held].sort();
      if (!ctx.organizationId) return { identityType: IDENTITY.person, roles: [], points, grantable: [] };
      const roles = ctx.roles.length ? ctx.roles : ['staff'];
      return {
        identityType: IDENTITY.organization,
        roles: await roleRefs(db, ctx.organizationId, roles, lang),
        points,
        grantable: grantablePoints(held),
      };
    },

    async scene(db: Db, ctx: AuthContext, sceneCode: string) {
      return { sceneCode, allowed: await sceneAllowed(db, ctx, sceneCode) };
    },

    /** Roles of the caller's organisation with the permission tree; any member may read them. */
    async list(db: Db, ctx: AuthContext, lang: Language) {
      const org = requireOrg(ctx);
      return { roles: await allRoles(db, org.organizationId, lang), tree: tree([], lang) };
    },

    async detail(db: Db, ctx: AuthContext, code: string, lang: Language) {
      const org = requireOrg(ctx);
      const role = (await allRoles(db, org.organizationId, lang)).find((r) => r.code === code);
      if (!role) throw new AppError('role.notFound');
      return { ...role, tree: tree(role.points, lang) };
    },

    async create(
      db: Db,
      ctx: AuthContext,
      input: { name: string; description?: string | undefined; points: string[] },
      ip: string | null,
    ) {
      const org = await requireOrgPermission(db, ctx, 'role.manage');
      const points = checkPoints(input.points, await callerPoints(db, org));
      const id = newId('rol');
      const code = `custom_${id.slice(4, 16)}`;
      try {
        await db.transaction().execute(async (trx) => {
          await repo.insertRole(trx, {
            id,
            organizationId: org.organizationId,
            code,
            name: input.name,
            description: input.description ?? '',
            createdBy: org.personId,
          });
          await repo.replaceRolePoints(trx, id, points);
          await recordAudit(trx, {
            actorPersonId: org.personId,
            organizationId: org.organizationId,
            action: 'role.create',
            targetType: 'role',
            targetId: code,
            ip,
            detail: { name: input.name, points },
          });
        });
      } catch (e) {
        if (isUniqueViolation(e, 'org_roles_name_live')) throw new AppError('role.nameExists');
        throw e;
      }
      return { code };
    },

    async modify(
      db: Db,
      ctx: AuthContext,
      code: string,
      input: { name: string; description?: string | undefined; points: string[] },
      ip: string | null,
    ) {
      const org = await requireOrgPermission(db, ctx, 'role.manage');
      const held = await callerPoints(db, org);
      try {
        await db.transaction().execute(async (trx) => {
          const role = await loadCustom(trx, org.organizationId, code);
          checkBelow(role, held);
          const points = checkPoints(input.points, held, org.roles.includes(code));
          await repo.updateRole(trx, role.id, { name: input.name, description: input.description ?? '' });
          await repo.replaceRolePoints(trx, role.id, points);
          await recordAudit(trx, {
            actorPersonId: org.personId,
            organizationId: org.organizationId,
            action: 'role.modify',
            targetType: 'role',
            targetId: code,
            ip,
            detail: { before: role.points, points },
          });
        });
      } catch (e) {
        if (isUniqueViolation(e, 'org_roles_name_live')) throw new AppError('role.nameExists');
        throw e;
      }
      return { code };
    },

    async remove(db: Db, ctx: AuthContext, code: string, ip: string | null) {
      const org = await requireOrgPermission(db, ctx, 'role.manage');
      const held = await callerPoints(db, org);
      await db.transaction().execute(async (trx) => {
        const role = await loadCustom(trx, org.organizationId, code);
        checkBelow(role, held);
        // An invitation holds its roles too: deleting one under it would hand out a role that no longer exists.
        if (
          (await repo.countMembersWithRole(trx, org.organizationId, code)) > 0 ||
          (await repo.countPendingInvitesWithRole(trx, org.organizationId, code)) > 0
        )
          throw new AppError('role.inUse');
        await repo.softDeleteRole(trx, role.id);
        await recordAudit(trx, {
          actorPersonId: org.personId,
          organizationId: org.organizationId,
          action: 'role.delete',
          targetType: 'role',
          targetId: code,
          ip,
        });
      });
      return { code, deleted: true as const };
    },
  };
}

export type RolesService = ReturnType<typeof createRolesService>;
