import { randomInt } from 'node:crypto';
import { AppError, checkMobile, checkSmsCode, SMS_CODE_LENGTH } from '@openseal/core';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { hmac, safeEqual } from '../../lib/secrets';
import * as repo from './msgs.repository';
import type { SmsProvider } from './sms-provider';

/** Each scene has its own text, and a code verified for one scene never proves another. */
export type SmsScene =
  'loginRegister' | 'mobileModify' | 'newMobile' | 'realName' | 'adminModify' | 'newAdmin' | 'willAuth';

/** Notices without a code (signing reminders, approval requests); each scene has its own text. */
export type NoticeScene = 'signUrge' | 'signInvite' | 'approvalRequest' | 'approvalDecided';

const MAX_ATTEMPTS = 5;
/** A verified flow must be used by the step it unlocks within this time. */
const VERIFIED_FLOW_TTL_MS = 10 * 60_000;

const BODY: Record<SmsScene, (code: string, minutes: number) => string> = {
  loginRegister: (c, m) => `【OpenSeal】您的登录验证码为${c}，${m}分钟内有效。如非本人操作，请忽略本短信。`,
  mobileModify: (c, m) => `【OpenSeal】您正在进行身份验证，验证码为${c}，${m}分钟内有效。请勿泄露给他人。`,
  newMobile: (c, m) => `【OpenSeal】您正在绑定新手机号，验证码为${c}，${m}分钟内有效。请勿泄露给他人。`,
  realName: (c, m) => `【OpenSeal】您正在进行实名认证，验证码为${c}，${m}分钟内有效。请勿泄露给他人。`,
  adminModify: (c, m) =>
    `【OpenSeal】您正在变更企业管理员或法定代表人，验证码为${c}，${m}分钟内有效。如非本人操作，请勿提供。`,
  newAdmin: (c, m) =>
    `【OpenSeal】您正被设为企业管理员或法定代表人，验证码为${c}，${m}分钟内有效。请勿泄露给他人。`,
  willAuth: (c, m) =>
    `【OpenSeal】您正在确认签署意愿，验证码为${c}，${m}分钟内有效。签署具有法律效力，如非本人操作，请勿提供。`,
};

/** The end of a signing text: the link to the task when there is one, else where to find it. */
const signHere = (link: string | undefined) =>
  link ? `点击 ${link} 签署（也可登录平台在“待我签署”中处理）。` : '请登录平台在“待我签署”中处理。';

const NOTICE: Record<NoticeScene, (p: Record<string, string>) => string> = {
  signUrge: (p) => `【OpenSeal】${p.initiator}提醒您签署文件《${p.flow}》，${signHere(p.link)}`,
  signInvite: (p) => `【OpenSeal】${p.initiator}邀请您签署文件《${p.flow}》，${signHere(p.link)}`,
  approvalRequest: (p) =>
    `【OpenSeal】${p.applicant}申请在《${p.flow}》中使用印章“${p.seal}”，请登录平台在“我收到的审批”中处理。`,
  approvalDecided: (p) => `【OpenSeal】您在《${p.flow}》中使用印章“${p.seal}”的申请已${p.result}。`,
};

export function createMsgsService(deps: {
  db: Db;
  provider: SmsProvider;
  secret: string;
  codeTtlSeconds: number;
  resendSeconds: number;
  log: { warn(obj: object, msg: string): void };
}) {
  const { provider } = deps;
  provider.onReport(async (r) => {
    try {
      await repo.updateMessageStatus(deps.db, r.id, r.status, r.error ?? null);
    } catch (err) {
      deps.log.warn({ err, id: r.id }, 'could not record an SMS delivery report');
    }
  });
  const codeHash = (flowId: string, code: string) => hmac(deps.secret, 'sms', flowId, code);

  async function checkCode(
    db: Db,
    flow: NonNullable<Awaited<ReturnType<typeof repo.findFlow>>>,
    rawCode: string,
  ) {
    const code = checkSmsCode(rawCode);
    if (!code.ok) throw new AppError(code.key);
    if (flow.consumed_at || flow.expires_at <= new Date()) throw new AppError('account.codeExpired');
    if (flow.attempts >= MAX_ATTEMPTS) throw new AppError('account.codeTooMany');
    if (!safeEqual(codeHash(flow.id, code.value), flow.code_hash)) {
      const attempts = await repo.bumpAttempts(db, flow.id);
      throw new AppError(attempts >= MAX_ATTEMPTS ? 'account.codeTooMany' : 'account.codeWrong');
    }
  }

  return {
    isSandbox: provider.isSandbox,

    async send(db: Db, input: { mobile: string; scene: SmsScene; personId: string | null }) {
      const mobile = checkMobile(input.mobile);
      if (!mobile.ok) throw new AppError(mobile.key);
      const last = await repo.latestFlow(db, mobile.value, input.scene);
      if (last) {
        const waitMs = last.created_at.getTime() + deps.resendSeconds * 1000 - Date.now();
        if (waitMs > 0)
          throw new AppError('request.rateLimited', {
            details: { retryAfterSeconds: Math.ceil(waitMs / 1000) },
          });
      }
      const flowId = newId('flw');
      const code = String(randomInt(0, 10 ** SMS_CODE_LENGTH)).padStart(SMS_CODE_LENGTH, '0');
      const messageId = newId('sms');
      const body = BODY[input.scene](code, Math.round(deps.codeTtlSeconds / 60));
      await db.transaction().execute(async (trx) => {
        await repo.insertFlow(trx, {
          id: flowId,
          mobile: mobile.value,
          scene: input.scene,
          codeHash: codeHash(flowId, code),
          personId: input.personId,
          expiresAt: new Date(Date.now() + deps.codeTtlSeconds * 1000),
        });
        // Only the sandbox keeps the text: a real deployment never stores codes in clear.
        await repo.insertMessage(trx, {
          id: messageId,
          flowId,
          mobile: mobile.value,
          scene: input.scene,
          provider: provider.name,
          body: provider.isSandbox ? body : null,
        });
      });
      try {
        await provider.send({ id: messageId, mobile: mobile.value, scene: input.scene, body });
      } catch (cause) {
        await repo.updateMessageStatus(db, messageId, 'failed', String(cause));
        throw new AppError('account.smsSendFailed', { cause });
      }
      return {
        flowId,
        messageId,
        expiresInSeconds: deps.codeTtlSeconds,
        resendAfterSeconds: deps.resendSeconds,
        sandbox: provider.isSandbox,
      };
    },

    /**
     * Sends a notice (no code) through the provider. A failed delivery is recorded on the message and
     * never fails the act that caused it: a reminder is a courtesy, the flow is the record.
     */
    async notify(db: Db, input: { mobile: string; scene: NoticeScene; params: Record<string, string> }) {
      const messageId = newId('sms');
      const body = NOTICE[input.scene](input.params);
      await repo.insertMessage(db, {
        id: messageId,
        flowId: null,
        mobile: input.mobile,
        scene: input.scene,
        provider: provider.name,
        body: provider.isSandbox ? body : null,
      });
      try {
        await provider.send({ id: messageId, mobile: input.mobile, scene: input.scene, body });
        return true;
      } catch (cause) {
        await repo.updateMessageStatus(db, messageId, 'failed', String(cause));
        deps.log.warn({ err: cause, scene: input.scene }, 'a notice could not be sent');
        return false;
      }
    },

    /** Checks a code against the latest flow of a mobile and scene and uses it up (login by code). */
    async consumeLatest(db: Db, input: { mobile: string; scene: SmsScene; code: string }) {
      const flow = await repo.latestFlow(db, input.mobile, input.scene);
      if (!flow) throw new AppError('account.codeExpired');
      await checkCode(db, flow, input.code);
      if (!(await repo.markConsumed(db, flow.id))) throw new AppError('account.codeExpired');
      return flow;
    },

    /** Checks a code for a flow and marks it verified, for a later step to use (POST /v1/msgs/verify/{flowId}). */
    async verify(db: Db, input: { flowId: string; code: string; personId: string | null }) {
      const flow = await repo.findFlow(db, input.flowId);
      if (!flow || (flow.person_id !== null && flow.person_id !== input.personId))
        throw new AppError('account.codeExpired');
      await checkCode(db, flow, input.code);
      await repo.markVerified(db, flow.id);
      return { verified: true as const, flowId: flow.id };
    },

    /** A verified, unused, fresh flow of the given scene and person; throws if it is not one. */
    async peekVerified(db: Db, input: { flowId: string; scene: SmsScene; personId: string }) {
      const flow = await repo.findFlow(db, input.flowId);
      const fresh = flow?.verified_at && Date.now() - flow.verified_at.getTime() < VERIFIED_FLOW_TTL_MS;
      if (
        !flow ||
        flow.scene !== input.scene ||
        flow.person_id !== input.personId ||
        !fresh ||
        flow.consumed_at
      ) {
        throw new AppError('account.codeExpired');
      }
      return flow;
    },

    /** Uses up a verified flow (see peekVerified); a flow unlocks one step only. */
    async consumeVerified(db: Db, input: { flowId: string; scene: SmsScene; personId: string }) {
      const flow = await this.peekVerified(db, input);
      if (!(await repo.markConsumed(db, flow.id))) throw new AppError('account.codeExpired');
      return flow;
    },

    /** The sandbox outbox (dev only): newest first, with the code once the message is delivered. */
    async outbox(db: Db, mobile: string) {
      const rows = await repo.listMessages(db, mobile, 20);
      return rows.map((r) => ({
        id: r.id,
        mobile: r.mobile,
        scene: r.scene,
        body: r.status === 'delivered' ? r.body : null,
        code: r.status === 'delivered' ? (/(\d{6})/.exec(r.body ?? '')?.[1] ?? null) : null,
        status: r.status,
        error: r.error,
        createdAt: r.created_at.toISOString(),
        deliveredAt: r.delivered_at?.toISOString() ?? null,
      }));
    },
  };
}

export type MsgsService = ReturnType<typeof createMsgsService>;
