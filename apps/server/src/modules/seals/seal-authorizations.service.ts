/**
 * Seal authorisations: an organisation lets members or apps use one of its seals, with unlimited or
 * counted uses, permanently or for dated validity, and (for members) only through a range of apps.
 * `consumeAuthorization` is what the signing module calls on every use: it takes one use inside the
 * signing transaction and refuses when the grant is exhausted, outside its validity or terminated.
 */
import { AppError, contracts, type ErrorKey } from '@openseal/core';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { hasOrgPermission } from '../../lib/permissions';
import { inTransaction } from '../../lib/tx';
import { recordAudit } from '../audit/audit.repository';
import type { EvidenceService } from '../evidence/evidence.service';
import type { AuthContext } from '../session/session.service';
import {
  access,
  actorOf,
  iso,
  pageArgs,
  recordChange,
  systemActor,
  transition,
  type Access,
} from './seal-context';
import * as repo from './seals.repository';

const { AUTH_MACHINE } = contracts;

type Grantee = { type: 'member' | 'app'; id: string };

/** Whether a grant can be used now: in effect, inside its validity, uses left. */
export function usable(a: repo.AuthRow, now: Date): boolean {
  return (
    a.status === 'inEffect' &&
    a.valid_from <= now &&
    (a.valid_to === null || a.valid_to > now) &&
    (a.uses_remaining === null || a.uses_remaining > 0)
  );
}

function out(a: repo.AuthView, now = new Date()) {
  return {
    authCode: a.auth_code,
    sealCode: a.seal_code,
    sealName: a.seal_name,
    authoriserName: a.grantor_name,
    granteeType: a.grantee_type,
    granteeId: a.grantee_id,
    granteeName: a.grantee_type === 'member' ? a.grantee_name : null,
    usesLimit: a.uses_limit,
    usesRemaining: a.uses_remaining,
    validFrom: a.valid_from.toISOString(),
    validTo: iso(a.valid_to),
    appRange: a.app_range,
    status: a.status,
    usable: usable(a, now),
    createTime: a.created_at.toISOString(),
    terminateTime: iso(a.terminated_at),
  };
}

function validity(from: string | undefined, to: string | null, now: Date) {
  const validFrom = from ? new Date(from) : now;
  const validTo = to ? new Date(to) : null;
  if (validTo && (validTo <= validFrom || validTo <= now)) throw new AppError('sealAuth.validityInvalid');
  return { validFrom, validTo };
}

export interface SealUse {
  sealCode: string;
  /** The organisation whose seal it is (the signer's current organisation). */
  organizationId: string;
  grantee: Grantee;
  /** The app the use comes through, checked against a member's app range. */
  appId?: string | null;
  /** What the use was for (a flow id, a file hash), kept with the use. */
  reference?: string | null;
  at?: Date;
}

/**
 * Takes one use of a seal under an authorisation, inside the caller's transaction (the signing module
 * calls it per signature). Refuses with the catalogued reason: seal not usable, not authorised, app out
 * of range, outside validity, exhausted or terminated. The last counted use ends the grant.
 */
export async function consumeAuthorization(
  tx: Db,
  evidence: EvidenceService,
  use: SealUse,
): Promise<{ authCode: string; usesRemaining: number | null }> {
  const now = use.at ?? new Date();
  const seal = await repo.findSeal(tx, use.sealCode);
  if (!seal || seal.organization_id !== use.organizationId) throw new AppError('seal.notFound');
  if (
    contracts.effectiveSealStatus(seal.status, seal.valid_to, now) !== 'normal' ||
    seal.cert_status !== 'good'
  )
    throw new AppError('seal.notUsable');
  const grants = await repo.lockGrants(tx, {
    sealCode: use.sealCode,
    granteeType: use.grantee.type,
    granteeId: use.grantee.id,
  });
  if (grants.length === 0) throw new AppError('sealAuth.notAuthorized');
  const inRange = (g: repo.AuthRow) =>
    g.grantee_type === 'app' || g.app_range.length === 0 || (!!use.appId && g.app_range.includes(use.appId));
  const grant = grants.find((g) => usable(g, now) && inRange(g));
  if (!grant) {
    // The most telling reason among the grants there are.
    const live = grants.filter((g) => g.status === 'inEffect');
    const reason: ErrorKey =
      live.length === 0
        ? grants.some((g) => g.uses_remaining === 0)
          ? 'sealAuth.exhausted'
          : 'sealAuth.terminated'
        : live.some((g) => usable(g, now))
          ? 'sealAuth.appOutOfRange'
          : live.some((g) => g.uses_remaining === 0)
            ? 'sealAuth.exhausted'
            : 'sealAuth.expired';
    throw new AppError(reason);
  }
  const remaining = grant.uses_remaining === null ? null : grant.uses_remaining - 1;
  const exhausted = remaining === 0;
  const to = exhausted ? transition(AUTH_MACHINE, grant.status, 'exhaust', 'sealAuth.status') : grant.status;
  if (
    !(await repo.updateAuth(
      tx,
      grant.auth_code,
      { uses_remaining: remaining, status: to, ...(exhausted ? { terminated_at: now } : {}) },
      grant.status,
    ))
  )
    throw new AppError('sealAuth.terminated');
  await repo.insertAuthUse(tx, {
    authCode: grant.auth_code,
    appId: use.appId ?? null,
    reference: use.reference ?? null,
  });
  const detail = {
    sealCode: use.sealCode,
    grantee: use.grantee,
    appId: use.appId ?? null,
    usesRemaining: remaining,
  };
  if (exhausted)
    await recordChange(tx, evidence, {
      actor: systemActor,
      organizationId: use.organizationId,
      action: 'sealAuth.exhaust',
      targetType: 'sealAuthorization',
      targetId: grant.auth_code,
      subject: `seal:${use.sealCode}`,
      detail,
    });
  else
    await recordAudit(tx, {
      actorPersonId: null,
      organizationId: use.organizationId,
      action: 'sealAuth.use',
      targetType: 'sealAuthorization',
      targetId: grant.auth_code,
      detail,
    });
  return { authCode: grant.auth_code, usesRemaining: remaining };
}

export function createSealAuthorizationsService(deps: { evidence: EvidenceService }) {
  const { evidence } = deps;

  async function orgAccess(
    db: Db,
    ctx: AuthContext,
    point: contracts.PermissionPoint,
  ): Promise<Access & { organizationId: string }> {
    if (!ctx.organizationId) throw new AppError('perm.personNotAllowed');
    return (await access(db, ctx, point)) as Access & { organizationId: string };
  }

  /** Grants the caller may read: all of the organisation's with the authorise point, else their own. */
  async function readable(db: Db, ctx: AuthContext) {
    const a = await orgAccess(db, ctx, 'seal.view');
    const all = await hasOrgPermission(db, ctx, 'seal.authorise');
    return { a, onlyMember: all ? undefined : (a.memberId ?? undefined) };
  }

  async function ownGrant(db: Db, ctx: AuthContext, authCode: string) {
    const { a, onlyMember } = await readable(db, ctx);
    const g = await repo.findAuth(db, authCode);
    if (
      !g ||
      g.organization_id !== a.organizationId ||
      (onlyMember && !(g.grantee_type === 'member' && g.grantee_id === onlyMember))
    )
      throw new AppError('sealAuth.notFound');
    return g;
  }

  return {
    async add(
      db: Db,
      ctx: AuthContext,
      input: {
        sealCode: string;
        grantees: Grantee[];
        usesLimit: number | null;
        validFrom?: string | undefined;
        validTo: string | null;
        appRange: string[];
      },
      client: { ip: string | null },
    ) {
      const a = await orgAccess(db, ctx, 'seal.authorise');
      const seal = await repo.findSeal(db, input.sealCode);
      if (!seal || seal.organization_id !== a.organizationId) throw new AppError('seal.notFound');
      if (contracts.effectiveSealStatus(seal.status, seal.valid_to) !== 'normal')
        throw new AppError('seal.statusInvalid');
      const now = new Date();
      const { validFrom, validTo } = validity(input.validFrom, input.validTo, now);
      const grantees = [...new Map(input.grantees.map((g) => [`${g.type}:${g.id}`, g])).values()];
      const memberIds = grantees.filter((g) => g.type === 'member').map((g) => g.id);
      const members = await repo.activeMembers(db, a.organizationId, memberIds);
      if (members.length !== memberIds.length) throw new AppError('sealAuth.granteeInvalid');
      const codes: string[] = [];
      await inTransaction(db, async (trx) => {
        for (const g of grantees) {
          const authCode = newId('sau');
          await repo.insertAuth(trx, {
            auth_code: authCode,
            seal_code: seal.seal_code,
            organization_id: a.organizationId,
            granted_by_person_id: a.personId,
            grantee_type: g.type,
            grantee_id: g.id,
            uses_limit: input.usesLimit,
            uses_remaining: input.usesLimit,
            valid_from: validFrom,
            valid_to: validTo,
            app_range: input.appRange,
            status: 'inEffect',
            terminated_at: null,
          });
          await recordChange(trx, evidence, {
            actor: actorOf(a, client.ip),
            organizationId: a.organizationId,
            action: 'sealAuth.add',
            targetType: 'sealAuthorization',
            targetId: authCode,
            subject: `seal:${seal.seal_code}`,
            detail: {
              authCode,
              grantee: g,
              usesLimit: input.usesLimit,
              validTo: validTo?.toISOString() ?? null,
              appRange: input.appRange,
            },
          });
          codes.push(authCode);
        }
      });
      const list = [];
      for (const c of codes) list.push(out((await repo.findAuth(db, c))!));
      return { list };
    },

    async edit(
      db: Db,
      ctx: AuthContext,
      input: {
        authCode: string;
        usesLimit?: number | null | undefined;
        validTo?: string | null | undefined;
        appRange?: string[] | undefined;
      },
      client: { ip: string | null },
    ) {
      const a = await orgAccess(db, ctx, 'seal.authorise');
      await ownGrant(db, ctx, input.authCode);
      await inTransaction(db, async (trx) => {
        const g = await repo.lockAuth(trx, input.authCode);
        if (!g) throw new AppError('sealAuth.notFound');
        const to = transition(AUTH_MACHINE, g.status, 'edit', 'sealAuth.status');
        const now = new Date();
        const patch: Parameters<typeof repo.updateAuth>[2] = { status: to };
        if (input.usesLimit !== undefined) {
          // Uses already taken stay taken: the new limit counts them.
          const used = await repo.countAuthUses(trx, g.auth_code);
          if (input.usesLimit !== null && input.usesLimit <= used)
            throw new AppError('sealAuth.usesBelowUsed', { details: { used } });
          patch.uses_limit = input.usesLimit;
          patch.uses_remaining = input.usesLimit === null ? null : input.usesLimit - used;
        }
        if (input.validTo !== undefined)
          patch.valid_to = validity(g.valid_from.toISOString(), input.validTo, now).validTo;
        if (input.appRange !== undefined) patch.app_range = input.appRange;
        if (!(await repo.updateAuth(trx, g.auth_code, patch, g.status)))
          throw new AppError('sealAuth.status');
        await recordChange(trx, evidence, {
          actor: actorOf(a, client.ip),
          organizationId: a.organizationId,
          action: 'sealAuth.edit',
          targetType: 'sealAuthorization',
          targetId: g.auth_code,
          subject: `seal:${g.seal_code}`,
          detail: {
            authCode: g.auth_code,
            usesLimit: patch.uses_limit,
            validTo:
              patch.valid_to instanceof Date ? patch.valid_to.toISOString() : (patch.valid_to ?? undefined),
            appRange: patch.app_range,
          },
        });
      });
      return out((await repo.findAuth(db, input.authCode))!);
    },

    async cancel(db: Db, ctx: AuthContext, authCode: string, client: { ip: string | null }) {
      const a = await orgAccess(db, ctx, 'seal.authorise');
      await ownGrant(db, ctx, authCode);
      await inTransaction(db, async (trx) => {
        const g = await repo.lockAuth(trx, authCode);
        if (!g) throw new AppError('sealAuth.notFound');
        const to = transition(AUTH_MACHINE, g.status, 'cancel', 'sealAuth.status');
        if (!(await repo.updateAuth(trx, authCode, { status: to, terminated_at: new Date() }, g.status)))
          throw new AppError('sealAuth.status');
        await recordChange(trx, evidence, {
          actor: actorOf(a, client.ip),
          organizationId: a.organizationId,
          action: 'sealAuth.cancel',
          targetType: 'sealAuthorization',
          targetId: authCode,
          subject: `seal:${g.seal_code}`,
          detail: { authCode, from: g.status, to },
        });
      });
      return out((await repo.findAuth(db, authCode))!);
    },

    async detail(db: Db, ctx: AuthContext, authCode: string) {
      return out(await ownGrant(db, ctx, authCode));
    },

    async list(
      db: Db,
      ctx: AuthContext,
      q: {
        sealCode?: string | undefined;
        status?: repo.AuthRow['status'] | undefined;
        granteeType?: repo.AuthRow['grantee_type'] | undefined;
        /** Only the grants to the caller as a member, even for holders of the authorise point. */
        mine?: boolean | undefined;
        pageNum: number;
        pageSize: number;
      },
    ) {
      const { a, onlyMember } = await readable(db, ctx);
      const page = pageArgs(q);
      const now = new Date();
      if (q.mine && !a.memberId) return { total: 0, ...page, list: [] };
      const { rows, total } = await repo.listAuths(db, {
        ...page,
        organizationId: a.organizationId,
        memberId: q.mine ? (a.memberId ?? undefined) : onlyMember,
        sealCode: q.sealCode,
        status: q.status,
        granteeType: q.granteeType,
      });
      return { total, ...page, list: rows.map((r) => out(r, now)) };
    },

    /** getAuthorSeals: the grants to the caller (as a member) that can be used now. */
    async authorizedToMe(db: Db, ctx: AuthContext) {
      const a = await orgAccess(db, ctx, 'seal.view');
      const now = new Date();
      const { rows } = await repo.listAuths(db, {
        organizationId: a.organizationId,
        memberId: a.memberId ?? undefined,
        status: 'inEffect',
        pageNum: 1,
        pageSize: 100,
      });
      return { list: rows.filter((r) => usable(r, now)).map((r) => out(r, now)) };
    },

    consume: (tx: Db, use: SealUse) => consumeAuthorization(tx, evidence, use),
  };
}

export type SealAuthorizationsService = ReturnType<typeof createSealAuthorizationsService>;
