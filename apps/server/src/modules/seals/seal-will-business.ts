/**
 * What a will-auth (intent confirmed by an SMS code) of the seal service may be for: only a business
 * object of the caller's own (spec section 3 sources: auth=1 a seal authorisation, getSeal=2 a seal claim
 * or renewal). Will-auths are created only for such objects, so nobody gathers confirmations for
 * someone else's seal.
 *
 * - auth (1): a seal of the caller's organisation they may authorise, or one of its authorisations;
 * - getSeal / renewSeal (2): a seal application awaiting its claim, or a claim link, of the caller's
 *   space, when the caller may claim (in an organisation, only the legal representative claims); or a
 *   seal of the caller's space they manage (renewal).
 */
import { AppError, contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { AuthContext } from '../session/session.service';
import { access, inScope, type Access } from './seal-context';
import * as repo from './seals.repository';

const { WILL_SOURCES } = contracts;

/** The caller's access for a point, or null when they lack it (or their real name). */
async function accessOrNull(
  db: Db,
  ctx: AuthContext,
  point: contracts.PermissionPoint,
): Promise<Access | null> {
  try {
    return await access(db, ctx, point);
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

async function ownSeal(db: Db, ctx: AuthContext, point: contracts.PermissionPoint, sealCode: string) {
  const a = await accessOrNull(db, ctx, point);
  const seal = a && (await repo.findSeal(db, sealCode));
  return !!seal && inScope(a, seal);
}

async function mayClaim(db: Db, ctx: AuthContext, bizId: string): Promise<boolean> {
  const a = await accessOrNull(db, ctx, 'seal.claim');
  if (!a || (ctx.organizationId && !ctx.roles.includes('legalPerson'))) return false;
  const order = await repo.findWorkOrder(db, bizId);
  if (order) return inScope(a, order) && order.status === 'pendingProduction' && !order.claimed_at;
  const link = await repo.findClaimFlow(db, bizId);
  return (
    !!link &&
    link.organization_id === ctx.organizationId &&
    !link.used_at &&
    link.expires_at.getTime() > Date.now()
  );
}

/** Whether a will-auth of this source may name `bizId` for the caller. */
export async function ownsSealBusiness(db: Db, ctx: AuthContext, source: number, bizId: string) {
  if (source === WILL_SOURCES.auth) {
    if (await ownSeal(db, ctx, 'seal.authorise', bizId)) return true;
    const a = ctx.organizationId ? await accessOrNull(db, ctx, 'seal.authorise') : null;
    const grant = a && (await repo.findAuth(db, bizId));
    return !!grant && grant.organization_id === ctx.organizationId;
  }
  if (source === WILL_SOURCES.getSeal)
    return (await mayClaim(db, ctx, bizId)) || (await ownSeal(db, ctx, 'seal.manage', bizId));
  return false;
}
