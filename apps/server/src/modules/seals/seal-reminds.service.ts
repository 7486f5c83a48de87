/**
 * The expiry tip (spec section 4): the certificates of the caller's seals that expire within the
 * renewal window, have expired or are no longer good, most pressing first, each closable by the person.
 */
import { AppError, LIMITS, contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import { requireRealName, sceneAllowed } from '../../lib/permissions';
import type { AuthContext } from '../session/session.service';
import type { Access } from './seal-context';
import { DAY } from './seal-core';
import * as repo from './seals.repository';

type Tip = NonNullable<ReturnType<typeof tipOf>>;

/** The tip of one certificate, by spec section 4's rules, or null when none is due. */
function tipOf(r: Awaited<ReturnType<typeof repo.sealsForRemind>>[number], now: Date) {
  const notAfter = r.not_after.getTime();
  const certType = r.carrier === 'ukey' ? ('UKEY_CERT' as const) : ('CLOUD_CERT' as const);
  const base = {
    certId: r.serial,
    certType,
    sealCode: r.seal_code,
    sealName: r.name,
    validTo: r.not_after.toISOString(),
    at: notAfter,
  };
  if (r.cert_status !== 'good') return { ...base, remindType: 'CERT_INVALID' as const, message: '0' };
  const startOfToday = new Date(now);
  startOfToday.setHours(0, 0, 0, 0);
  const expiryDay = new Date(notAfter);
  expiryDay.setHours(0, 0, 0, 0);
  const days = Math.round((expiryDay.getTime() - startOfToday.getTime()) / DAY);
  if (notAfter > now.getTime()) {
    if (days > LIMITS.renewalWindowDays) return null;
    return { ...base, remindType: contracts.todayRemindType('IN_OF_DATE', days), message: String(days) };
  }
  return { ...base, remindType: contracts.todayRemindType('OUT_OF_DATE', -days), message: String(-days) };
}

export function createSealReminds() {
  async function remindsOf(db: Db, a: Access, now = new Date()) {
    const rows = await repo.sealsForRemind(db, a.scope);
    const closed = await repo.closedReminds(db, a.personId);
    const tips: Tip[] = [];
    for (const r of rows) {
      const tip = tipOf(r, now);
      if (tip && !closed.has(`${tip.certId}:${tip.remindType}`)) tips.push(tip);
    }
    // An invalid certificate first, then what expired most recently, then what expires soonest.
    const rank = (t: { remindType: string }) =>
      t.remindType === 'CERT_INVALID' ? 0 : t.remindType.includes('OUT') ? 1 : 2;
    tips.sort((x, y) => rank(x) - rank(y) || (rank(x) === 1 ? y.at - x.at : x.at - y.at));
    return tips;
  }

  async function remindAccess(db: Db, ctx: AuthContext): Promise<Access> {
    requireRealName(ctx);
    if (
      ctx.organizationId &&
      !(await sceneAllowed(db, ctx, 'sealManage')) &&
      !(await sceneAllowed(db, ctx, 'receiveUkey'))
    )
      throw new AppError('perm.sealManage');
    return ctx.organizationId
      ? {
          ctx,
          scope: { organizationId: ctx.organizationId },
          personId: ctx.personId,
          organizationId: ctx.organizationId,
          memberId: ctx.memberId,
        }
      : {
          ctx,
          scope: { personId: ctx.personId },
          personId: ctx.personId,
          organizationId: null,
          memberId: null,
        };
  }

  const strip = <T extends { at: number }>(t: T | undefined) => {
    if (!t) return null;
    const { at: _at, ...rest } = t;
    return rest;
  };

  return {
    async lastRemind(db: Db, ctx: AuthContext) {
      const a = await remindAccess(db, ctx);
      return strip((await remindsOf(db, a))[0]);
    },

    async closeRemind(db: Db, ctx: AuthContext, certId: string) {
      const a = await remindAccess(db, ctx);
      const tip = (await remindsOf(db, a)).find((t) => t.certId === certId.toLowerCase());
      if (!tip) throw new AppError('seal.remindNotFound');
      await repo.closeRemind(db, a.personId, tip.certId, tip.remindType);
      return strip((await remindsOf(db, a))[0]);
    },
  };
}
