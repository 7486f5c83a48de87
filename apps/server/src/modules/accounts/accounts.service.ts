import {
  AppError,
  checkMobile,
  checkPassword,
  IDENTITY,
  maskPhone,
  REAL_NAME_STATUS,
  roleName,
  type Language,
} from '@openseal/core';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { hashPassword, verifyPassword } from '../../lib/secrets';
import { recordAudit } from '../audit/audit.repository';
import type { ConfigService } from '../config/config.service';
import type { LoginThrottle } from '../login-throttle/login-throttle.service';
import type { MsgsService } from '../msgs/msgs.service';
import type { Membership, OrganizesService } from '../organizes/organizes.service';
import type { AuthContext, IssuedToken, SessionService, SpaceProfile } from '../session/session.service';
import * as repo from './accounts.repository';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

const tokenOut = (t: IssuedToken) => ({ ...t, expiresAt: t.expiresAt.toISOString() });

/** Only a same-site path may be a post-logout address, never another origin. */
export function safeRedirect(url: string | undefined): string {
  if (!url || !url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\') || /[\r\n]/.test(url))
    return '/';
  return url;
}

/** Section 9 firm-list order: chosen first, then verified before the rest, then by name. */
export function orderFirms<T extends { chooseStatus: boolean; realNameStatus: number; name: string }>(
  list: T[],
): T[] {
  const rank = (s: number) => (s === REAL_NAME_STATUS.verified ? 0 : 1);
  return [...list].sort(
    (a, b) =>
      Number(b.chooseStatus) - Number(a.chooseStatus) ||
      rank(a.realNameStatus) - rank(b.realNameStatus) ||
      a.name.localeCompare(b.name, 'zh-CN'),
  );
}

export function createAccountsService(deps: {
  sessions: SessionService;
  msgs: MsgsService;
  organizes: OrganizesService;
  config: ConfigService;
  /** Wrong passwords slow down one account from one client address. */
  throttle: LoginThrottle;
  /** Runs for every successful login before the space is chosen (e.g. organisation invitations become memberships). */
  onLogin?: (db: Db, person: { id: string; mobile: string }) => Promise<void>;
}) {
  const { sessions, msgs, organizes, config } = deps;

  /** What the account info shows, for a context that did not carry it (one made without a session). */
  async function readProfile(db: Db, ctx: AuthContext): Promise<SpaceProfile> {
    const person = await loadPerson(db, ctx.personId);
    const org = ctx.organizationId ? await organizes.findLive(db, ctx.organizationId) : undefined;
    return {
      person: {
        name: person.name,
        mobile: person.mobile,
        hasPassword: person.password_hash !== null,
        realNameStatus: person.real_name_status,
      },
      organization: org
        ? { name: org.name, uscc: org.uscc, realNameStatus: org.real_name_status, createdAt: org.created_at }
        : null,
    };
  }

  async function loadPerson(db: Db, personId: string) {
    const person = await repo.findPersonById(db, personId);
    if (!person) throw new AppError('session.accountNotFound');
    return person;
  }

  /** Issues a token for a space and ends the one it replaces, in one transaction. */
  async function switchTo(
    db: Db,
    ctx: AuthContext,
    space: { organizationId: string | null; memberId: string | null },
    client: ClientInfo,
    action: string,
  ) {
    return db.transaction().execute(async (trx) => {
      const issued = await sessions.issue(trx, { personId: ctx.personId, ...space }, client);
      await sessions.revoke(trx, ctx.sessionId, action);
      await repo.setDefaultAccount(trx, ctx.personId, issued.accountId);
      await recordAudit(trx, {
        actorPersonId: ctx.personId,
        organizationId: space.organizationId,
        action: `account.${action}`,
        targetType: 'account',
        targetId: issued.accountId,
        ip: client.ip,
        detail: { from: ctx.accountId },
      });
      return issued;
    });
  }

  return {
    async login(db: Db, input: { mobile: string; code?: string; password?: string }, client: ClientInfo) {
      const mobile = checkMobile(input.mobile);
      if (!mobile.ok) throw new AppError(mobile.key);
      let isNewAccount = false;
      let person;
      if (input.code !== undefined) {
        await msgs.consumeLatest(db, { mobile: mobile.value, scene: 'loginRegister', code: input.code });
        const existing = await repo.findPersonByMobile(db, mobile.value);
        person =
          existing ??
          (await repo.insertPersonIfAbsent(db, {
            id: newId('psn'),
            mobile: mobile.value,
            name: `用户${mobile.value.slice(-4)}`,
          }));
        isNewAccount = !existing;
      } else {
        // Counted before the check, so parallel guesses from one address cannot outrun their wait.
        const attempt = await deps.throttle.attempt(db, 'account', mobile.value, client.ip);
        if (!attempt.allowed)
          throw new AppError('account.loginThrottled', {
            params: { seconds: attempt.retryAfterSeconds },
            details: { retryAfterSeconds: attempt.retryAfterSeconds },
          });
        person = await repo.findPersonByMobile(db, mobile.value);
        // Unknown mobile and no password set answer alike, so the call does not reveal who is registered.
        if (!person || !person.password_hash) throw new AppError('account.passwordWrong');
        if (!(await verifyPassword(input.password ?? '', person.password_hash)))
          throw new AppError('account.passwordWrong');
        await attempt.clear();
      }
      if (person.status !== 'active') throw new AppError('session.accountDisabled');
      await deps.onLogin?.(db, { id: person.id, mobile: person.mobile });

      // Log in to the space chosen last time, if it is still open to this person.
      const lastOrg =
        person.default_account_id && person.default_account_id !== person.id
          ? await organizes.membership(db, person.id, person.default_account_id)
          : undefined;
      const issued = await db.transaction().execute(async (trx) => {
        const t = await sessions.issue(
          trx,
          {
            personId: person.id,
            organizationId: lastOrg?.organizationId ?? null,
            memberId: lastOrg?.memberId ?? null,
          },
          client,
        );
        await recordAudit(trx, {
          actorPersonId: person.id,
          organizationId: lastOrg?.organizationId ?? null,
          action: isNewAccount ? 'account.register' : 'account.login',
          targetType: 'person',
          targetId: person.id,
          ip: client.ip,
          detail: { method: input.code !== undefined ? 'sms' : 'password' },
        });
        return t;
      });
      return { ...tokenOut(issued), isNewAccount };
    },

    async info(db: Db, ctx: AuthContext, lang: Language) {
      // The session read all of it already (one query per request); a context without it reads it here.
      const { person, organization: org } = ctx.profile ?? (await readProfile(db, ctx));
      if (ctx.organizationId && !org) throw new AppError('session.spaceInvalid');
      return {
        identityType: ctx.identityType,
        accountId: ctx.accountId,
        memberId: ctx.memberId,
        userInfoPerson: {
          accountId: ctx.personId,
          name: person.name,
          hasRealName: person.realNameStatus === REAL_NAME_STATUS.verified,
          registerMobile: maskPhone(person.mobile),
          hasPassword: person.hasPassword,
        },
        userInfoOrg:
          ctx.organizationId && org
            ? {
                organizeId: ctx.organizationId,
                organizeName: org.name,
                uscc: org.uscc,
                hasRealName: org.realNameStatus === REAL_NAME_STATUS.verified,
                orgGmtCreateTime: org.createdAt.toISOString(),
              }
            : null,
        roles: (ctx.organizationId ? ctx.roles : []).map((code) => ({ code, name: roleName(code, lang) })),
        realNameStatus: org ? org.realNameStatus : person.realNameStatus,
      };
    },

    async accountList(db: Db, ctx: AuthContext) {
      const person = await loadPerson(db, ctx.personId);
      const personAccount = {
        accountId: person.id,
        organizeId: null,
        type: IDENTITY.person,
        name: person.name,
        chooseStatus: ctx.organizationId === null,
        realNameStatus: person.real_name_status,
      };
      const orgs = (await organizes.memberships(db, ctx.personId)).map((m: Membership) => ({
        accountId: m.organizationId,
        organizeId: m.organizationId,
        type: IDENTITY.organization,
        name: m.name,
        chooseStatus: m.organizationId === ctx.organizationId,
        realNameStatus: m.real_name_status,
      }));
      return {
        ownAccounts: orderFirms([personAccount, ...orgs]),
        defaultChooseId: ctx.accountId,
        personAccount,
      };
    },

    async ownOrganizes(db: Db, ctx: AuthContext) {
      const list = (await organizes.memberships(db, ctx.personId)).map((m: Membership) => ({
        organizeId: m.organizationId,
        accountId: m.organizationId,
        organizeName: m.name,
        name: m.name,
        realNameStatus: m.real_name_status,
        chooseStatus: m.organizationId === ctx.organizationId,
        roles: m.roles,
      }));
      return {
        ownOrganizes: orderFirms(list).map(({ name: _n, ...rest }) => rest),
        defaultChooseOrganizeId: ctx.organizationId,
      };
    },

    /** Space switching (spec 4): into an organisation the caller belongs to, or back to the personal space. */
    async handover(db: Db, ctx: AuthContext, accountId: string, client: ClientInfo) {
      if (accountId === ctx.accountId) throw new AppError('account.spaceCurrent');
      if (accountId === ctx.personId) {
        if (!(await config.flag('PSN_EP_SWITCH', true))) throw new AppError('perm.none');
        return tokenOut(
          await switchTo(db, ctx, { organizationId: null, memberId: null }, client, 'handover'),
        );
      }
      const m = await organizes.membership(db, ctx.personId, accountId);
      if (!m) throw new AppError('account.spaceNotOwned');
      return tokenOut(
        await switchTo(
          db,
          ctx,
          { organizationId: m.organizationId, memberId: m.memberId },
          client,
          'handover',
        ),
      );
    },

    async createOrganization(
      db: Db,
      ctx: AuthContext,
      input: { organizeName: string; uscc: string },
      client: ClientInfo,
    ) {
      if (await config.flag('LEGAL_CREATE_DISABLE', false)) throw new AppError('org.createDisabled');
      const created = await organizes.create(db, {
        personId: ctx.personId,
        organizeName: input.organizeName,
        uscc: input.uscc,
        ip: client.ip,
      });
      if (created.status === 1)
        return { status: 1 as const, accessToken: null, organizeId: created.organizationId, accountId: null };
      const issued = await switchTo(
        db,
        ctx,
        { organizationId: created.organizationId, memberId: created.memberId },
        client,
        'handover',
      );
      return {
        status: 0 as const,
        accessToken: issued.accessToken,
        organizeId: created.organizationId,
        accountId: issued.accountId,
      };
    },

    async deleteOrganization(db: Db, ctx: AuthContext, organizationId: string, client: ClientInfo) {
      await organizes.remove(
        db,
        { personId: ctx.personId, organizationId, currentOrganizationId: ctx.organizationId, ip: client.ip },
        (trx) => sessions.revokeAllOfOrganization(trx, organizationId, 'organization deleted'),
      );
      return { deleted: true as const, organizeId: organizationId };
    },

    async logout(db: Db, ctx: AuthContext, redirectUrl: string | undefined, client: ClientInfo) {
      await db.transaction().execute(async (trx) => {
        await sessions.revoke(trx, ctx.sessionId, 'logout');
        await recordAudit(trx, {
          actorPersonId: ctx.personId,
          organizationId: ctx.organizationId,
          action: 'account.logout',
          ip: client.ip,
        });
      });
      return { redirectUrl: safeRedirect(redirectUrl) };
    },

    /** A fresh token for the same space (after an information change); the old one ends. */
    async changeToken(db: Db, ctx: AuthContext, client: ClientInfo) {
      const issued = await switchTo(
        db,
        ctx,
        { organizationId: ctx.organizationId, memberId: ctx.memberId },
        client,
        'changeToken',
      );
      return {
        accountId: issued.accountId,
        changedBindAccessToken: issued.accessToken,
        memberId: issued.memberId,
      };
    },

    /**
     * Sets or changes the password. Proof is the old password, or a verified mobileModify SMS flow;
     * setting the first password needs the SMS proof. Other sessions of the person end.
     */
    async updatePassword(
      db: Db,
      ctx: AuthContext,
      input: { newPassword: string; oldPassword?: string | undefined; flowId?: string | undefined },
      client: ClientInfo,
    ) {
      const person = await loadPerson(db, ctx.personId);
      const next = checkPassword(input.newPassword);
      if (!next.ok) throw new AppError(next.key);
      if (input.flowId) {
        await msgs.consumeVerified(db, { flowId: input.flowId, scene: 'mobileModify', personId: person.id });
      } else if (person.password_hash && input.oldPassword !== undefined) {
        if (!(await verifyPassword(input.oldPassword, person.password_hash)))
          throw new AppError('account.passwordWrong');
      } else {
        throw new AppError('account.codeExpired');
      }
      if (person.password_hash && (await verifyPassword(next.value, person.password_hash)))
        throw new AppError('account.passwordSame');
      const hash = await hashPassword(next.value);
      await db.transaction().execute(async (trx) => {
        await repo.setPassword(trx, person.id, hash);
        await sessions.revokeAllOfPerson(trx, person.id, 'password changed', ctx.sessionId);
        await recordAudit(trx, {
          actorPersonId: person.id,
          organizationId: ctx.organizationId,
          action: 'account.updatePassword',
          targetType: 'person',
          targetId: person.id,
          ip: client.ip,
        });
      });
      return { updated: true as const };
    },

    /** Whether the person set a login password (a way to confirm intent). */
    async hasPassword(db: Db, personId: string): Promise<boolean> {
      return (await loadPerson(db, personId)).password_hash !== null;
    },

    /**
     * Confirms the signed-in person by their own login password (a will-auth method), counted by the same
     * throttle as password logins: wrong guesses from one address wait as they would at the login page.
     */
    async confirmOwnPassword(db: Db, personId: string, password: string, client: ClientInfo): Promise<void> {
      const person = await loadPerson(db, personId);
      const attempt = await deps.throttle.attempt(db, 'account', person.mobile, client.ip);
      if (!attempt.allowed)
        throw new AppError('account.loginThrottled', {
          params: { seconds: attempt.retryAfterSeconds },
          details: { retryAfterSeconds: attempt.retryAfterSeconds },
        });
      if (!person.password_hash || !(await verifyPassword(password, person.password_hash)))
        throw new AppError('account.passwordWrong');
      await attempt.clear();
    },

    async sendToOwnMobile(db: Db, ctx: AuthContext) {
      const person = await loadPerson(db, ctx.personId);
      return msgs.send(db, { mobile: person.mobile, scene: 'mobileModify', personId: person.id });
    },

    /** Step 2 of a mobile change: the old number is proven (verified mobileModify flow); send a code to the new one. */
    async sendToNewMobile(db: Db, ctx: AuthContext, input: { mobile: string; proofFlowId: string }) {
      const mobile = checkMobile(input.mobile);
      if (!mobile.ok) throw new AppError(mobile.key);
      if (await repo.findPersonByMobile(db, mobile.value)) throw new AppError('account.mobileTaken');
      const proof = await msgs.peekVerified(db, {
        flowId: input.proofFlowId,
        scene: 'mobileModify',
        personId: ctx.personId,
      });
      return {
        ...(await msgs.send(db, { mobile: mobile.value, scene: 'newMobile', personId: ctx.personId })),
        proofFlowId: proof.id,
      };
    },

    /** Step 3: the new number's code; both flows are used up and the mobile changes. */
    async confirmNewMobile(
      db: Db,
      ctx: AuthContext,
      input: { flowId: string; code: string; proofFlowId: string },
      client: ClientInfo,
    ) {
      const verified = await msgs.verify(db, {
        flowId: input.flowId,
        code: input.code,
        personId: ctx.personId,
      });
      await db.transaction().execute(async (trx) => {
        const flow = await msgs.consumeVerified(trx, {
          flowId: verified.flowId,
          scene: 'newMobile',
          personId: ctx.personId,
        });
        await msgs.consumeVerified(trx, {
          flowId: input.proofFlowId,
          scene: 'mobileModify',
          personId: ctx.personId,
        });
        if (await repo.findPersonByMobile(trx, flow.mobile)) throw new AppError('account.mobileTaken');
        await repo.setMobile(trx, ctx.personId, flow.mobile);
        await recordAudit(trx, {
          actorPersonId: ctx.personId,
          organizationId: ctx.organizationId,
          action: 'account.changeMobile',
          targetType: 'person',
          targetId: ctx.personId,
          ip: client.ip,
          detail: { to: maskPhone(flow.mobile) },
        });
      });
      return {
        updated: true as const,
        registerMobile: maskPhone((await loadPerson(db, ctx.personId)).mobile),
      };
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
