/**
 * Will-auth: the signer confirms the intent to sign with a code sent to their own mobile before a
 * signature is made. A record is created for one business of the caller's own (source sign=3 and their
 * open task's id; the seal service's sources for their own seal objects), verified
 * once by SMS and used once by the act it unlocks, within minutes. The stand-alone will-auth page returns
 * to the caller's page with the spec's markers (`willAuth` = source, `willBizId`), and the page's state can
 * be kept across the detour (save/get front data).
 */
import { AppError, contracts, maskPhone } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { z } from 'zod';
import { newId } from '../../lib/ids';
import type { MsgsService } from '../msgs/msgs.service';
import type { AuthContext } from '../session/session.service';
import * as repo from './flows.repository';
import { isCallersOpenTask } from './own-task';

const { WILL_SOURCES } = contracts;

/** A record must be verified within this time of its creation. */
const WILL_TTL_MS = 30 * 60_000;
/** A verified record must be used within this time. */
const VERIFIED_TTL_MS = 10 * 60_000;

type WillStatus = z.infer<typeof contracts.willStatusResponse>;

/** A same-site path only: the will-auth page never sends anyone elsewhere. */
function safeRedirect(url: string | undefined): string | null {
  if (!url) return null;
  if (!url.startsWith('/') || url.startsWith('//') || url.includes('\\'))
    throw new AppError('request.invalid');
  return url;
}

function withMarkers(url: string | null, source: number, id: string): string | null {
  if (!url) return null;
  const u = new URL(url, 'http://same.site');
  u.searchParams.set('willAuth', String(source));
  u.searchParams.set('willBizId', id);
  return `${u.pathname}${u.search}${u.hash}`;
}

interface WillUse {
  willBizId: string;
  personId: string;
  source: number;
  bizId: string;
}

/** A verified, unused, fresh record of this person for this source and business, or the reason it is not. */
async function usable(db: Db, input: WillUse): Promise<repo.WillRow> {
  const w = await repo.findWill(db, input.willBizId);
  if (!w || w.person_id !== input.personId) throw new AppError('will.notFound');
  if (w.source !== input.source || w.biz_id !== input.bizId) throw new AppError('will.mismatch');
  if (w.status === 'used') throw new AppError('will.used');
  if (w.status !== 'verified' || !w.verified_at) throw new AppError('will.notVerified');
  if (Date.now() - w.verified_at.getTime() > VERIFIED_TTL_MS) throw new AppError('will.expired');
  return w;
}

/** Which business objects a will-auth may name for the caller, besides their own sign tasks. */
export interface WillBusiness {
  /** The seal service's: a seal authorisation, a claim, a renewal of the caller's own. */
  ownsSealBusiness(db: Db, ctx: AuthContext, source: number, bizId: string): Promise<boolean>;
}

export function createWillService(deps: { msgs: MsgsService } & WillBusiness) {
  /** A will-auth is created only for the caller's own business: their open sign task, their seal's act. */
  async function requireOwnBusiness(db: Db, ctx: AuthContext, source: number, bizId: string) {
    if (source === WILL_SOURCES.sign) {
      if (!(await isCallersOpenTask(db, ctx, bizId))) throw new AppError('sign.taskNotFound');
    } else if (!(await deps.ownsSealBusiness(db, ctx, source, bizId))) throw new AppError('seal.notFound');
  }

  async function own(db: Db, ctx: AuthContext, id: string) {
    const w = await repo.findWill(db, id);
    if (!w || w.person_id !== ctx.personId) throw new AppError('will.notFound');
    return w;
  }

  function out(w: repo.WillRow): WillStatus {
    const expired = w.status !== 'used' && w.expires_at.getTime() <= Date.now();
    return {
      willBizId: w.id,
      status: expired && w.status === 'created' ? 'expired' : w.status,
      source: w.source,
      bizId: w.biz_id,
      mobile: maskPhone(w.mobile),
      redirectUrl:
        w.status === 'verified' || w.status === 'used' ? withMarkers(w.redirect_url, w.source, w.id) : null,
      expiresAt: w.expires_at.toISOString(),
    };
  }

  return {
    async create(db: Db, ctx: AuthContext, input: z.infer<typeof contracts.createWillRequest>) {
      const person = await repo.personById(db, ctx.personId);
      if (!person) throw new AppError('session.missing');
      await requireOwnBusiness(db, ctx, input.source, input.bizId);
      const id = newId('wil');
      const expiresAt = new Date(Date.now() + WILL_TTL_MS);
      await repo.insertWill(db, {
        id,
        person_id: ctx.personId,
        mobile: person.mobile,
        source: input.source,
        biz_id: input.bizId,
        redirect_url: safeRedirect(input.redirectUrl),
        status: 'created',
        expires_at: expiresAt,
      });
      return {
        willBizId: id,
        url: `/willAuthPage?willBizId=${id}`,
        mobile: maskPhone(person.mobile),
        expiresAt: expiresAt.toISOString(),
      };
    },

    async sendCode(db: Db, ctx: AuthContext, id: string) {
      const w = await own(db, ctx, id);
      if (w.status !== 'created') throw new AppError(w.status === 'used' ? 'will.used' : 'request.invalid');
      if (w.expires_at.getTime() <= Date.now()) throw new AppError('will.expired');
      const sent = await deps.msgs.send(db, { mobile: w.mobile, scene: 'willAuth', personId: ctx.personId });
      await repo.updateWill(db, id, { sms_flow_id: sent.flowId }, 'created');
      return {
        sandbox: sent.sandbox,
        messageId: sent.messageId,
        resendAfterSeconds: sent.resendAfterSeconds,
        expiresInSeconds: sent.expiresInSeconds,
      };
    },

    async verify(db: Db, ctx: AuthContext, id: string, code: string) {
      const w = await own(db, ctx, id);
      if (w.status === 'used') throw new AppError('will.used');
      if (w.status === 'verified') return out(w);
      if (w.expires_at.getTime() <= Date.now()) throw new AppError('will.expired');
      if (!w.sms_flow_id) throw new AppError('account.codeExpired');
      await deps.msgs.verify(db, { flowId: w.sms_flow_id, code, personId: ctx.personId });
      // The code proves this record only: the message flow is used up here.
      await deps.msgs.consumeVerified(db, {
        flowId: w.sms_flow_id,
        scene: 'willAuth',
        personId: ctx.personId,
      });
      await repo.updateWill(db, id, { status: 'verified', verified_at: new Date() }, 'created');
      return out((await repo.findWill(db, id))!);
    },

    async status(db: Db, ctx: AuthContext, id: string) {
      return out(await own(db, ctx, id));
    },

    async saveFrontData(db: Db, ctx: AuthContext, id: string, data: string) {
      const w = await own(db, ctx, id);
      if (w.status === 'used') throw new AppError('will.used');
      await repo.updateWill(db, id, { front_data: data });
      return {};
    },

    async frontData(db: Db, ctx: AuthContext, id: string) {
      const w = await own(db, ctx, id);
      return { data: w.front_data };
    },

    /**
     * Uses a verified record for the act it was made for: the caller's, this source and business,
     * verified within the last minutes, never used before. One statement checks and takes it, so two
     * requests with one record cannot both go on; the refusal's reason is read only when it refuses.
     * An act that fails after taking it gives it back (`giveBack`).
     */
    async take(db: Db, input: WillUse): Promise<repo.WillRow> {
      const taken = await repo.takeWill(db, input, {
        usedAt: new Date(),
        verifiedSince: new Date(Date.now() - VERIFIED_TTL_MS),
      });
      if (taken) return taken;
      await usable(db, input);
      // Usable a moment ago and not taken: another request took it meanwhile.
      throw new AppError('will.used');
    },

    /** Makes a record taken by an act that then failed usable again (within its verified time). */
    async giveBack(db: Db, taken: repo.WillRow): Promise<void> {
      await repo.giveBackWill(db, taken.id, taken.used_at!);
    },
  };
}

export type WillService = ReturnType<typeof createWillService>;
