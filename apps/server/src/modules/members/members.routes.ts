import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { clientOf, responses } from '../../lib/route-kit';
import type { ModuleDeps } from '../module-deps';
import { createAuthorityService } from './authority.service';
import { createMembersService } from './members.service';
import { createRoleChangeService } from './role-change.service';
import { createRolesService } from './roles.service';

const memberIdParam = z.object({ memberId: z.string().min(1).max(64) });
const roleCodeParam = z.object({ roleCode: z.string().min(1).max(64) });
const applyNoParam = z.object({ applyNo: z.string().min(1).max(64) });
const statusOut = z.object({ memberId: z.string().nullable(), status: z.string() });
const applyOut = z.object({ applyNo: z.string(), applyStatus: z.enum(c.AUTHORITY_STATUS) });

/**
 * Members, roles, permissions, role-holder changes and authority applications. Every route needs a
 * session; the services check organisation and permission on the server.
 */
export default async function membersRoutes(app: FastifyInstance, deps: ModuleDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const members = createMembersService();
  const roles = createRolesService();
  const changes = createRoleChangeService({ msgs: deps.msgs });
  const authority = createAuthorityService({
    checkFile: async (db, ctx, fileKey) => void (await deps.files.requireOwn(db, ctx, fileKey)),
  });
  const tags = ['Organisations'];
  const ip = (req: Parameters<typeof clientOf>[0]) => clientOf(req).ip;

  // --- members ---

  r.post(
    '/v1/organizes/members',
    {
      schema: {
        tags,
        summary: 'Add a member by mobile (administrators); an unregistered mobile becomes an invitation',
        body: c.memberAddRequest,
        response: responses(
          z.object({
            memberId: z.string().nullable(),
            inviteId: z.string().nullable(),
            status: z.enum(['active', 'invited']),
          }),
        ),
      },
    },
    async (req) => ok(await members.add(app.db, req.requireAuth(), req.body, ip(req)), req.lang),
  );

  r.post(
    '/v1/organizes/members/accounts',
    {
      schema: {
        tags,
        summary: 'Members of the current organisation (member.view)',
        body: c.memberListRequest.prefault({}),
        response: responses(c.memberPage),
      },
    },
    async (req) => ok(await members.list(app.db, req.requireAuth(), req.body, req.lang), req.lang),
  );

  r.post(
    '/v1/organizes/members/modify/:memberId',
    {
      schema: {
        tags,
        summary: 'Edit a member or invitation: nickname, roles (administrators)',
        params: memberIdParam,
        body: c.memberModifyRequest,
        response: responses(z.object({ memberId: z.string().nullable(), inviteId: z.string().nullable() })),
      },
    },
    async (req) =>
      ok(await members.modify(app.db, req.requireAuth(), req.params.memberId, req.body, ip(req)), req.lang),
  );

  r.post(
    '/v1/organizes/members/delete/:memberId',
    {
      schema: {
        tags,
        summary: 'Remove a member, or cancel an invitation (administrators)',
        params: memberIdParam,
        response: responses(statusOut),
      },
    },
    async (req) =>
      ok(await members.remove(app.db, req.requireAuth(), req.params.memberId, ip(req)), req.lang),
  );

  r.post(
    '/v1/organizes/members/:memberId',
    {
      schema: {
        tags,
        summary: 'Member detail (member.view, or oneself)',
        params: memberIdParam,
        response: responses(c.memberOut),
      },
    },
    async (req) =>
      ok(await members.detail(app.db, req.requireAuth(), req.params.memberId, req.lang), req.lang),
  );

  r.post(
    '/v1/organizes/membersPause',
    {
      schema: {
        tags,
        summary: 'Pause (or resume) a member; a paused member cannot enter the organisation (administrators)',
        body: c.memberPauseRequest,
        response: responses(statusOut),
      },
    },
    async (req) =>
      ok(
        await members.pause(app.db, req.requireAuth(), req.body.memberId, req.body.pause, ip(req)),
        req.lang,
      ),
  );

  r.post(
    '/v1/organizes/existOrganizeAccount',
    {
      schema: {
        tags,
        summary: 'Whether a mobile is already a member (or invited) here (administrators)',
        body: c.existAccountRequest,
        response: responses(z.object({ exists: z.boolean(), memberId: z.string().nullable() })),
      },
    },
    async (req) => ok(await members.exists(app.db, req.requireAuth(), req.body.mobile), req.lang),
  );

  r.post(
    '/v1/organizes/sealAdmin/accounts',
    {
      schema: {
        tags,
        summary: 'Seal administrators of the organisation (any member)',
        response: responses(
          z.array(z.object({ memberId: z.string(), name: z.string(), mobile: z.string() })),
        ),
      },
    },
    async (req) => ok(await members.sealAdmins(app.db, req.requireAuth()), req.lang),
  );

  r.post(
    '/v1/organizes/legalPerson',
    {
      schema: {
        tags,
        summary:
          'Current legal representative and super administrator (any member); changes go through adminModify/newAdmin',
        response: responses(c.holdersOut),
      },
    },
    async (req) => ok(await members.holders(app.db, req.requireAuth()), req.lang),
  );

  // --- roles and permissions ---

  r.get(
    '/v1/roles',
    {
      schema: {
        tags,
        summary: 'Roles of the organisation (built-in and custom) and the permission tree (any member)',
        response: responses(z.object({ roles: z.array(c.roleOut), tree: z.array(c.permissionNode) })),
      },
    },
    async (req) => ok(await roles.list(app.db, req.requireAuth(), req.lang), req.lang),
  );

  r.get(
    '/v1/organizes/roles/:roleCode',
    {
      schema: {
        tags,
        summary: 'A role with its function-permission tree (any member)',
        params: roleCodeParam,
        response: responses(c.roleDetail),
      },
    },
    async (req) => ok(await roles.detail(app.db, req.requireAuth(), req.params.roleCode, req.lang), req.lang),
  );

  r.post(
    '/v1/organizes/roles',
    {
      schema: {
        tags,
        summary: 'Create a custom role from the permission tree (role.manage)',
        body: c.roleSaveRequest,
        response: responses(z.object({ code: z.string() })),
      },
    },
    async (req) => ok(await roles.create(app.db, req.requireAuth(), req.body, ip(req)), req.lang),
  );

  r.post(
    '/v1/organizes/roles/:roleCode/modify',
    {
      schema: {
        tags,
        summary: 'Change a custom role (role.manage)',
        params: roleCodeParam,
        body: c.roleSaveRequest,
        response: responses(z.object({ code: z.string() })),
      },
    },
    async (req) =>
      ok(await roles.modify(app.db, req.requireAuth(), req.params.roleCode, req.body, ip(req)), req.lang),
  );

  r.post(
    '/v1/organizes/roles/:roleCode/delete',
    {
      schema: {
        tags,
        summary: 'Delete a custom role no member holds (role.manage)',
        params: roleCodeParam,
        response: responses(z.object({ code: z.string(), deleted: z.literal(true) })),
      },
    },
    async (req) => ok(await roles.remove(app.db, req.requireAuth(), req.params.roleCode, ip(req)), req.lang),
  );

  r.get(
    '/v1/permissions',
    {
      schema: {
        tags,
        summary: "The caller's roles and permission points",
        response: responses(c.permissionsOut),
      },
    },
    async (req) => ok(await roles.permissions(app.db, req.requireAuth(), req.lang), req.lang),
  );

  r.get(
    '/v1/permission/scene/:sceneCode',
    {
      schema: {
        tags,
        summary: 'Scene permission: allowed or not (persons are always allowed)',
        params: z.object({ sceneCode: z.string().min(1).max(64) }),
        response: responses(c.sceneOut),
      },
    },
    async (req) => ok(await roles.scene(app.db, req.requireAuth(), req.params.sceneCode), req.lang),
  );

  // --- super-administrator and legal-representative change (Messages group) ---

  const msgTags = ['Messages'];
  r.post(
    '/v1/msgs/adminModify/send',
    {
      schema: {
        tags: msgTags,
        summary:
          'Start a holder change: a code to the current holder (super administrator or legal representative only)',
        body: c.adminModifySendRequest.prefault({}),
        response: responses(c.roleChangeSendResponse),
      },
    },
    async (req) =>
      ok(await changes.sendOld(app.db, req.requireAuth(), req.body.changeType, ip(req)), req.lang),
  );
  r.post(
    '/v1/msgs/adminModify/verify',
    {
      schema: {
        tags: msgTags,
        summary: "Confirm the current holder's code",
        body: c.roleChangeVerifyRequest,
        response: responses(c.roleChangeDone),
      },
    },
    async (req) => ok(await changes.verifyOld(app.db, req.requireAuth(), req.body, ip(req)), req.lang),
  );
  r.post(
    '/v1/msgs/newAdmin/send',
    {
      schema: {
        tags: msgTags,
        summary: 'A code to the new holder (an active member), after the current holder confirmed',
        body: c.newAdminSendRequest,
        response: responses(c.roleChangeSendResponse),
      },
    },
    async (req) => ok(await changes.sendNew(app.db, req.requireAuth(), req.body, ip(req)), req.lang),
  );
  r.post(
    '/v1/msgs/newAdmin/verify',
    {
      schema: {
        tags: msgTags,
        summary: "Confirm the new holder's code; the role moves",
        body: c.roleChangeVerifyRequest,
        response: responses(c.roleChangeDone),
      },
    },
    async (req) => ok(await changes.verifyNew(app.db, req.requireAuth(), req.body, ip(req)), req.lang),
  );

  // --- authority applications (paths of our own: endpoints.tsv lists none) ---

  r.post(
    '/v1/organizes/authority/apply',
    {
      schema: {
        tags,
        summary: 'Apply for a role with an application file (any member)',
        body: c.authorityApplyRequest,
        response: responses(applyOut),
      },
    },
    async (req) => ok(await authority.apply(app.db, req.requireAuth(), req.body, ip(req)), req.lang),
  );
  r.post(
    '/v1/organizes/authority/records',
    {
      schema: {
        tags,
        summary: "Application records: the caller's own, or the organisation's (authority.review)",
        body: c.authorityListRequest.prefault({}),
        response: responses(c.authorityPage),
      },
    },
    async (req) => ok(await authority.list(app.db, req.requireAuth(), req.body, req.lang), req.lang),
  );
  r.get(
    '/v1/organizes/authority/:applyNo',
    {
      schema: {
        tags,
        summary: 'Application detail (the applicant, or reviewers)',
        params: applyNoParam,
        response: responses(c.authorityDetail),
      },
    },
    async (req) =>
      ok(await authority.detail(app.db, req.requireAuth(), req.params.applyNo, req.lang), req.lang),
  );
  r.post(
    '/v1/organizes/authority/:applyNo/approve',
    {
      schema: {
        tags,
        summary: 'Approve: the roles are granted (authority.review)',
        params: applyNoParam,
        response: responses(applyOut),
      },
    },
    async (req) =>
      ok(
        await authority.approve(
          app.db,
          { kind: 'member', ctx: req.requireAuth() },
          req.params.applyNo,
          ip(req),
        ),
        req.lang,
      ),
  );
  r.post(
    '/v1/organizes/authority/:applyNo/reject',
    {
      schema: {
        tags,
        summary: 'Reject with a reason (authority.review)',
        params: applyNoParam,
        body: c.authorityRejectRequest,
        response: responses(applyOut),
      },
    },
    async (req) =>
      ok(
        await authority.reject(
          app.db,
          { kind: 'member', ctx: req.requireAuth() },
          req.params.applyNo,
          req.body.rejectReason,
          ip(req),
        ),
        req.lang,
      ),
  );
  r.post(
    '/v1/organizes/authority/:applyNo/withdraw',
    {
      schema: {
        tags,
        summary: 'Withdraw a pending application (the applicant)',
        params: applyNoParam,
        response: responses(applyOut),
      },
    },
    async (req) =>
      ok(await authority.withdraw(app.db, req.requireAuth(), req.params.applyNo, ip(req)), req.lang),
  );
}
