/**
 * Will-auth: the signer confirms the intent to sign before a signature is made. A record is created for one
 * business of the caller's own (source sign=3 and their open task's id; the seal service's sources for
 * their own seal objects), verified once and used once by the act it unlocks, within minutes. The ways to
 * verify it (POST /v1/auth/willAuthConfig says which apply): a code sent to their own mobile, their login
 * password (throttled like a login), a face check (only the sandbox: no live face service is wired) or,
 * for an organisation's business, the signature of a UKey bound to the organisation. The deployment
 * chooses which it offers and the default (WILL_AUTH_METHODS). The stand-alone will-auth page returns to
 * the caller's page with the spec's markers (`willAuth` = source, `willBizId`), and the page's state can
 * be kept across the detour (save/get front data).
 */
import { AppError, contracts, maskPhone } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { z } from 'zod';
import { newId } from '../../lib/ids';
import type { ClientInfo } from '../accounts/accounts.service';
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

/** The ways besides SMS of confirming intent, and what decides whether they apply. */
export interface WillMethodsDeps {
  /** The methods the deployment offers in order, the default first (WILL_AUTH_METHODS). */
  offered(): Promise<readonly contracts.WillMethod[]>;
  /** Whether a face check is possible: only through the sandbox identity service. */
  faceSandbox: boolean;
  /** The accounts service: whether the person set a password, and the check of it (throttled). */
  passwords: {
    has(db: Db, personId: string): Promise<boolean>;
    confirm(db: Db, personId: string, password: string, client: ClientInfo): Promise<void>;
  };
  /** The UKey module: the organisation's bound keys, and the proof one is present. */
  ukeys: {
    liveKeys(db: Db, ctx: AuthContext): Promise<{ ukeySn: string; name: string }[]>;
    prove(
      db: Db,
      ctx: AuthContext,
      proof: { ukeySn: string; challengeId: string; signature: string },
      ip: string | null,
    ): Promise<void>;
  };
}

type MethodOut = z.infer<typeof contracts.willAuthMethodOut>;

export function createWillService(deps: { msgs: MsgsService } & WillBusiness & WillMethodsDeps) {
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

  const rank = (offered: readonly string[], m: string) => {
    const i = offered.indexOf(m);
    return i < 0 ? offered.length + contracts.WILL_METHODS.indexOf(m as contracts.WillMethod) : i;
  };

  /** Whether a method applies to the caller now, and why not when it does not. */
  async function methodFor(
    db: Db,
    ctx: AuthContext,
    method: contracts.WillMethod,
    isOffered: boolean,
    mobile: string,
  ): Promise<MethodOut> {
    const base = { method, sandbox: false, mobile: null, ukeys: [] };
    const no = (reason: NonNullable<MethodOut['reason']>, extra: Partial<MethodOut> = {}): MethodOut => ({
      ...base,
      ...extra,
      available: false,
      reason,
    });
    const yes = (extra: Partial<MethodOut> = {}): MethodOut => ({
      ...base,
      ...extra,
      available: true,
      reason: null,
    });
    switch (method) {
      case 'sms':
        if (!isOffered) return no('notOffered');
        return yes({ mobile: maskPhone(mobile), sandbox: deps.msgs.isSandbox });
      case 'password':
        if (!isOffered) return no('notOffered');
        return (await deps.passwords.has(db, ctx.personId)) ? yes() : no('noPassword');
      case 'face':
        if (!isOffered) return no('notOffered');
        if (!deps.faceSandbox) return no('noFaceService');
        return ctx.realName.person ? yes({ sandbox: true }) : no('notRealNamed', { sandbox: true });
      case 'ukey': {
        if (!isOffered) return no('notOffered');
        // A UKey is the organisation's: it confirms acts in an organisation space only.
        if (!ctx.organizationId) return no('personalBusiness');
        const ukeys = await deps.ukeys.liveKeys(db, ctx);
        return ukeys.length > 0 ? yes({ ukeys }) : no('noBoundUkey');
      }
      default: {
        const never: never = method;
        throw new Error(`unknown will method ${String(never)}`);
      }
    }
  }

  /** The caller's record, still to verify (or verified already), by a method that applies to them now. */
  async function verifiable(db: Db, ctx: AuthContext, id: string, method: contracts.WillMethod) {
    const w = await own(db, ctx, id);
    if (w.status === 'used') throw new AppError('will.used');
    if (w.status === 'verified') return w;
    if (w.expires_at.getTime() <= Date.now()) throw new AppError('will.expired');
    const person = await repo.personById(db, ctx.personId);
    const m = await methodFor(db, ctx, method, (await deps.offered()).includes(method), person?.mobile ?? '');
    if (!m.available)
      throw new AppError('will.methodUnavailable', { params: { method }, details: { reason: m.reason } });
    return w;
  }

  async function markVerified(db: Db, id: string, method: contracts.WillMethod) {
    await repo.updateWill(db, id, { status: 'verified', verified_at: new Date(), method }, 'created');
    return out((await repo.findWill(db, id))!);
  }

  function out(w: repo.WillRow): WillStatus {
    const expired = w.status !== 'used' && w.expires_at.getTime() <= Date.now();
    return {
      willBizId: w.id,
      status: expired && w.status === 'created' ? 'expired' : w.status,
      source: w.source,
      bizId: w.biz_id,
      mobile: maskPhone(w.mobile),
      method: w.method,
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
      if (!(await deps.offered()).includes('sms'))
        throw new AppError('will.methodUnavailable', {
          params: { method: 'sms' },
          details: { reason: 'notOffered' },
        });
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
      await repo.updateWill(
        db,
        id,
        { status: 'verified', verified_at: new Date(), method: 'sms' },
        'created',
      );
      return out((await repo.findWill(db, id))!);
    },

    /** The methods that apply to the caller for a business (checked as theirs when named), and the default. */
    async config(db: Db, ctx: AuthContext, input: z.infer<typeof contracts.willAuthConfigRequest>) {
      if (input.bizId !== undefined) await requireOwnBusiness(db, ctx, input.source, input.bizId);
      const person = await repo.personById(db, ctx.personId);
      if (!person) throw new AppError('session.missing');
      const offered = await deps.offered();
      const methods = await Promise.all(
        contracts.WILL_METHODS.map((m) => methodFor(db, ctx, m, offered.includes(m), person.mobile)),
      );
      // In the deployment's order, the default first: the first offered method that is available.
      methods.sort((a, b) => rank(offered, a.method) - rank(offered, b.method));
      const first = methods.find((m) => m.available);
      return {
        source: input.source,
        bizId: input.bizId ?? null,
        defaultMethod: first?.method ?? ('sms' as const),
        methods,
      };
    },

    /** Verifies a record with the person's own login password. */
    async verifyPassword(db: Db, ctx: AuthContext, id: string, password: string, client: ClientInfo) {
      const w = await verifiable(db, ctx, id, 'password');
      if (w.status === 'verified') return out(w);
      await deps.passwords.confirm(db, ctx.personId, password, client);
      return markVerified(db, id, 'password');
    },

    /**
     * Verifies a record with a face check. Only the sandbox exists: it passes a real-named person (whose
     * verified identity a live service would compare the face with) and says sandbox in the config.
     */
    async verifyFace(db: Db, ctx: AuthContext, id: string) {
      const w = await verifiable(db, ctx, id, 'face');
      if (w.status === 'verified') return out(w);
      if (!ctx.realName.person) throw new AppError('will.faceFailed');
      return markVerified(db, id, 'face');
    },

    /** Verifies a record of an organisation's business with a bound UKey's signature over a challenge. */
    async verifyUkey(
      db: Db,
      ctx: AuthContext,
      id: string,
      proof: z.infer<typeof contracts.willUkeyRequest>,
      ip: string | null,
    ) {
      const w = await verifiable(db, ctx, id, 'ukey');
      if (w.status === 'verified') return out(w);
      await deps.ukeys.prove(db, ctx, proof, ip);
      return markVerified(db, id, 'ukey');
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
