import { AppError, checkMobile, maskPhone, type Language } from '@openseal/core';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { hashToken, newToken, safeEqual } from '../../lib/secrets';
import { safeRedirect } from '../accounts/accounts.service';
import { recordAudit } from '../audit/audit.repository';
import type { ConfigService } from '../config/config.service';
import type { MsgsService } from '../msgs/msgs.service';
import type { OrganizesService } from '../organizes/organizes.service';
import type { SessionService } from '../session/session.service';
import type { PersonDirectory } from './person-directory';
import type { RelyingParty, SsoIdentity } from './relying-party';
import * as repo from './sso.repository';
import type { FlowStatus } from './sso.repository';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** A flow lives from the authorization request until its result is read. */
export const FLOW_TTL_MS = 10 * 60_000;

/** The one table of flow transitions; every status change goes through `move`. */
export const FLOW_TRANSITIONS: Record<FlowStatus, readonly FlowStatus[]> = {
  pending: ['resolved', 'needsMobile', 'choosingOrg', 'failed'],
  needsMobile: ['resolved', 'choosingOrg', 'failed'],
  choosingOrg: ['resolved', 'failed'],
  resolved: ['collected'],
  collected: [],
  failed: [],
};

type MessageKey = 'registered' | 'noOrganization' | 'notInEnterprise' | 'accountDisabled' | 'linkedElsewhere';

/**
 * Spec section 4, SSO result operateType, as data: what each outcome answers and whether it ends in a
 * session. Statuses needsMobile and choosingOrg answer 1 and 2 while the flow waits for the user.
 */
export const OUTCOMES = {
  loggedIn: { operateType: 0, issuesToken: true, message: null },
  registered: { operateType: 5, issuesToken: true, message: 'registered' },
  noOrganization: { operateType: 6, issuesToken: true, message: 'noOrganization' },
  notInEnterprise: { operateType: 3, issuesToken: false, message: 'notInEnterprise' },
  accountDisabled: { operateType: 4, issuesToken: false, message: 'accountDisabled' },
  linkedElsewhere: { operateType: 4, issuesToken: false, message: 'linkedElsewhere' },
} as const satisfies Record<
  string,
  { operateType: number; issuesToken: boolean; message: MessageKey | null }
>;
export type Outcome = keyof typeof OUTCOMES;
const WAITING_OPERATE_TYPE = { needsMobile: 1, choosingOrg: 2 } as const;

const MESSAGES: Record<MessageKey | 'failed' | 'expired', Record<Language, string>> = {
  registered: { 'zh-CN': '账号已创建并完成登录', en: 'Your account has been created and you are logged in' },
  noOrganization: {
    'zh-CN': '您尚未加入任何企业，已登录个人空间',
    en: 'You belong to no organisation yet; you are logged in to your personal space',
  },
  notInEnterprise: {
    'zh-CN': '该企业已在平台开通并有管理员，请联系企业管理员将您添加为成员',
    en: 'This organisation is already on the platform with an administrator; ask them to add you as a member',
  },
  accountDisabled: { 'zh-CN': '账号已被停用', en: 'The account is disabled' },
  linkedElsewhere: {
    'zh-CN': '该手机号已绑定其他单点登录账号',
    en: 'This mobile is already linked to another single sign-on account',
  },
  failed: {
    'zh-CN': '身份提供方未能完成认证，请重新登录',
    en: 'The identity provider could not complete the login; please log in again',
  },
  expired: { 'zh-CN': '登录已超时，请重新登录', en: 'The login took too long; please log in again' },
};

/** What went wrong with the provider, for the flow record and the audit log (never for the browser). */
function describeFailure(e: unknown): string {
  const coded = e as { error?: unknown; error_description?: unknown };
  const parts = [
    e instanceof Error ? e.name : 'Error',
    typeof coded.error === 'string' ? coded.error : null,
    typeof coded.error_description === 'string' ? coded.error_description : null,
    e instanceof Error ? e.message : String(e),
  ];
  return parts
    .filter((p) => p !== null)
    .join(': ')
    .slice(0, 500);
}

type Flow = NonNullable<Awaited<ReturnType<typeof repo.findFlowById>>>;

export function createSsoService(deps: {
  relyingParty: RelyingParty | null;
  sessions: SessionService;
  organizes: OrganizesService;
  config: ConfigService;
  msgs: MsgsService;
  persons: PersonDirectory;
}) {
  const { sessions, organizes, config, msgs, persons } = deps;

  function rp(): RelyingParty {
    if (!deps.relyingParty) throw new AppError('sso.notConfigured');
    return deps.relyingParty;
  }

  async function move(
    db: Db,
    flow: Flow,
    to: FlowStatus,
    changes: Omit<Parameters<typeof repo.moveFlow>[3], 'status'>,
    client: ClientInfo,
  ): Promise<Flow> {
    if (!FLOW_TRANSITIONS[flow.status].includes(to)) throw new AppError('sso.flowStep');
    if (!(await repo.moveFlow(db, flow.id, flow.status, { ...changes, status: to })))
      throw new AppError('sso.flowStep');
    const next = { ...flow, ...changes, status: to } as Flow;
    await recordAudit(db, {
      actorPersonId: next.person_id,
      organizationId: next.organization_id,
      action: `sso.${to}`,
      targetType: 'ssoFlow',
      targetId: flow.id,
      ip: client.ip,
      detail: {
        from: flow.status,
        ...(next.outcome ? { outcome: next.outcome } : {}),
        ...(next.failure ? { failure: next.failure } : {}),
      },
    });
    return next;
  }

  /** The flow of this browser: unknown, foreign and stale flows answer alike. */
  async function boundFlow(db: Db, flowId: string, binding: string | null): Promise<Flow> {
    const flow = await repo.findFlowById(db, flowId);
    if (!flow || !binding || !safeEqual(hashToken(binding), flow.binding_hash))
      throw new AppError('sso.flowNotFound');
    return flow;
  }

  function loginException(flow: Flow, reason: 'failed' | 'expired', lang: Language): AppError {
    return new AppError('sso.loginException', {
      details: { flowId: flow.id, exceptionMsg: MESSAGES[reason][lang] },
    });
  }

  const isOpen = (flow: Flow) => flow.expires_at > new Date();

  /**
   * Where a person with a proven identity goes: the outcome for one space, or a wait for the user's
   * choice. Runs inside the caller's transaction.
   */
  async function decide(
    trx: Db,
    flow: Flow,
    personId: string,
    created: boolean,
    client: ClientInfo,
  ): Promise<Flow> {
    const person = await persons.byId(trx, personId);
    const resolve = (outcome: Outcome, space: { organizationId: string; memberId: string } | null) =>
      move(
        trx,
        flow,
        'resolved',
        {
          person_id: personId,
          outcome,
          organization_id: space?.organizationId ?? null,
          member_id: space?.memberId ?? null,
        },
        client,
      );
    if (!person || !person.active) return resolve('accountDisabled', null);
    if (flow.login_type === 'person') return resolve(created ? 'registered' : 'loggedIn', null);

    const memberships = await organizes.memberships(trx, personId);
    if (flow.org_uscc) {
      const named = memberships.find((m) => m.uscc === flow.org_uscc);
      if (named) return resolve('loggedIn', named);
      // An administered organisation takes members only through its administrators.
      if (await organizes.isTaken(trx, { uscc: flow.org_uscc })) return resolve('notInEnterprise', null);
    }
    if (memberships.length === 0) return resolve('noOrganization', null);
    if (memberships.length === 1) return resolve('loggedIn', memberships[0]!);
    return move(trx, flow, 'choosingOrg', { person_id: personId }, client);
  }

  /** Links a subject to the person owning a proven mobile (registering one if needed), then decides. */
  async function linkByMobile(trx: Db, flow: Flow, mobile: string, client: ClientInfo): Promise<Flow> {
    const { person, created } = await persons.register(trx, { mobile, name: flow.display_name });
    if (created) {
      await recordAudit(trx, {
        actorPersonId: person.id,
        organizationId: null,
        action: 'account.register',
        targetType: 'person',
        targetId: person.id,
        ip: client.ip,
        detail: { method: 'sso', issuer: flow.issuer },
      });
    }
    const other = await repo.findLinkOfPerson(trx, flow.issuer!, person.id);
    if (other && other.subject !== flow.subject)
      return move(trx, flow, 'resolved', { outcome: 'linkedElsewhere' }, client);
    if (!other) {
      await repo.insertLink(trx, { issuer: flow.issuer!, subject: flow.subject!, personId: person.id });
      await recordAudit(trx, {
        actorPersonId: person.id,
        organizationId: null,
        action: 'sso.link',
        targetType: 'person',
        targetId: person.id,
        ip: client.ip,
        detail: { issuer: flow.issuer, subject: flow.subject },
      });
    }
    return decide(trx, flow, person.id, created, client);
  }

  async function ownOrganizes(db: Db, personId: string | null) {
    if (!personId) return [];
    return (await organizes.memberships(db, personId)).map((m) => ({
      organizeId: m.organizationId,
      organizeName: m.name,
      realNameStatus: m.real_name_status,
    }));
  }

  /** Spec 4: after SSO a person goes to /selectSpace when spaces can be switched and PERSON_SSO_SPACE has org. */
  async function nextPathFor(flow: Flow): Promise<string | null> {
    if (flow.login_type !== 'person' || flow.organization_id) return null;
    if (!(await config.flag('PSN_EP_SWITCH', true))) return null;
    const spaces = await config.json<unknown>('PERSON_SSO_SPACE', []);
    return Array.isArray(spaces) && spaces.includes('org') ? '/selectSpace' : null;
  }

  /** The answer of GET /v1/sso/{flowId}/result; a resolved flow is collected here, once. */
  async function answer(db: Db, flow: Flow, client: ClientInfo, lang: Language) {
    const base = {
      flowId: flow.id,
      loginType: flow.login_type,
      token: null as string | null,
      expiresAt: null as string | null,
      accountId: null as string | null,
      memberId: null as string | null,
      identityType: null as 1 | 2 | null,
      orgName: flow.org_name,
      ownOrganizes: [] as Awaited<ReturnType<typeof ownOrganizes>>,
      message: null as string | null,
      exceptionMsg: null as string | null,
      nextPath: null as string | null,
    };
    if (flow.status === 'failed') throw loginException(flow, 'failed', lang);
    if (!isOpen(flow)) throw loginException(flow, 'expired', lang);
    switch (flow.status) {
      case 'pending':
      case 'collected':
        throw new AppError('sso.flowStep');
      case 'needsMobile':
        return { ...base, operateType: WAITING_OPERATE_TYPE.needsMobile };
      case 'choosingOrg':
        return {
          ...base,
          operateType: WAITING_OPERATE_TYPE.choosingOrg,
          ownOrganizes: await ownOrganizes(db, flow.person_id),
        };
      case 'resolved':
        break;
    }
    const outcome = OUTCOMES[flow.outcome as Outcome];
    const text = outcome.message ? MESSAGES[outcome.message][lang] : null;
    const result = {
      ...base,
      operateType: outcome.operateType as number,
      message: outcome.operateType === 4 ? null : text,
      exceptionMsg: outcome.operateType === 4 ? text : null,
    };
    const nextPath = outcome.issuesToken ? await nextPathFor(flow) : null;
    return db.transaction().execute(async (trx) => {
      await move(trx, flow, 'collected', {}, client);
      if (!outcome.issuesToken || !flow.person_id) return result;
      const issued = await sessions.issue(
        trx,
        { personId: flow.person_id, organizationId: flow.organization_id, memberId: flow.member_id },
        client,
      );
      await recordAudit(trx, {
        actorPersonId: flow.person_id,
        organizationId: flow.organization_id,
        action: 'account.login',
        targetType: 'person',
        targetId: flow.person_id,
        ip: client.ip,
        detail: { method: 'sso', flowId: flow.id },
      });
      return {
        ...result,
        token: issued.accessToken,
        expiresAt: issued.expiresAt.toISOString(),
        accountId: issued.accountId,
        memberId: issued.memberId,
        identityType: issued.identityType,
        nextPath,
      };
    });
  }

  return {
    /** Starts a flow: answers the provider's authorization address and the browser-binding secret. */
    async beforeLogin(
      db: Db,
      input: {
        loginType: 'person' | 'organization';
        redirectUrl?: string | undefined;
        source?: string | undefined;
      },
      client: ClientInfo,
    ) {
      const party = rp();
      const secrets = party.randomSecrets();
      let url: string;
      try {
        url = await party.authorizationUrl(secrets);
      } catch (cause) {
        throw new AppError('sso.providerUnavailable', { cause });
      }
      const binding = newToken();
      const flowId = newId('sso');
      await repo.deleteExpiredFlows(db, new Date(Date.now() - 24 * 3_600_000));
      await db.transaction().execute(async (trx) => {
        await repo.insertFlow(trx, {
          id: flowId,
          state: secrets.state,
          nonce: secrets.nonce,
          code_verifier: secrets.codeVerifier,
          binding_hash: hashToken(binding),
          login_type: input.loginType,
          redirect_url: safeRedirect(input.redirectUrl),
          source: input.source ?? null,
          status: 'pending',
          expires_at: new Date(Date.now() + FLOW_TTL_MS),
        });
        await recordAudit(trx, {
          actorPersonId: null,
          organizationId: null,
          action: 'sso.start',
          targetType: 'ssoFlow',
          targetId: flowId,
          ip: client.ip,
          detail: { loginType: input.loginType },
        });
      });
      return { flowId, url, binding };
    },

    /**
     * The provider's redirect back. A request that matches no flow of this browser is refused outright; a
     * protocol failure fails the flow (its result answers 315). Answers where to send the browser.
     */
    async callback(db: Db, query: URLSearchParams, binding: string | null, client: ClientInfo) {
      const party = rp();
      const state = query.get('state');
      const flow = state ? await repo.findFlowByState(db, state) : undefined;
      if (!flow || !binding || !safeEqual(hashToken(binding), flow.binding_hash) || flow.status !== 'pending')
        throw new AppError('sso.stateInvalid');
      const back = `${flow.redirect_url}${flow.redirect_url.includes('?') ? '&' : '?'}flowId=${flow.id}`;
      let identity: SsoIdentity | null = null;
      let failure: string | null = isOpen(flow) ? null : 'expired';
      if (!failure) {
        try {
          identity = await party.finish(query, {
            state: flow.state,
            nonce: flow.nonce,
            codeVerifier: flow.code_verifier,
          });
        } catch (e) {
          failure = describeFailure(e);
        }
      }
      if (!identity) {
        await db.transaction().execute((trx) => move(trx, flow, 'failed', { failure }, client));
        return { location: back };
      }
      const id = identity;
      await db.transaction().execute(async (trx) => {
        const said = {
          issuer: id.issuer,
          subject: id.subject,
          display_name: id.name,
          org_uscc: id.orgUscc,
          org_name: id.orgName,
        };
        // Kept for the steps after the callback; the status moves below, in the same transaction.
        if (!(await repo.moveFlow(trx, flow.id, 'pending', { status: 'pending', ...said })))
          throw new AppError('sso.stateInvalid');
        const known: Flow = { ...flow, ...said };
        const link = await repo.findLink(trx, id.issuer, id.subject);
        if (link) return decide(trx, known, link.person_id, false, client);
        if (id.verifiedMobile) return linkByMobile(trx, known, id.verifiedMobile, client);
        return move(trx, known, 'needsMobile', {}, client);
      });
      return { location: back };
    },

    async result(db: Db, flowId: string, binding: string | null, client: ClientInfo, lang: Language) {
      return answer(db, await boundFlow(db, flowId, binding), client, lang);
    },

    /** operateType 1: the provider gave no verified mobile; the user proves one by SMS and the flow goes on. */
    async checkMobile(
      db: Db,
      input: { flowId: string; mobile: string; code: string },
      binding: string | null,
      client: ClientInfo,
      lang: Language,
    ) {
      const flow = await boundFlow(db, input.flowId, binding);
      if (flow.status === 'failed' || !isOpen(flow)) return answer(db, flow, client, lang);
      if (flow.status !== 'needsMobile') throw new AppError('sso.flowStep');
      const mobile = checkMobile(input.mobile);
      if (!mobile.ok) throw new AppError(mobile.key);
      await msgs.consumeLatest(db, { mobile: mobile.value, scene: 'loginRegister', code: input.code });
      const next = await db.transaction().execute((trx) => linkByMobile(trx, flow, mobile.value, client));
      return answer(db, next, client, lang);
    },

    /** The pending choice of a flow: who logged in and which spaces they may enter. */
    async agentInfo(db: Db, flowId: string, binding: string | null, lang: Language) {
      const flow = await boundFlow(db, flowId, binding);
      if (flow.status === 'failed' || !isOpen(flow))
        throw loginException(flow, flow.status === 'failed' ? 'failed' : 'expired', lang);
      if (flow.status !== 'choosingOrg' && flow.status !== 'needsMobile') throw new AppError('sso.flowStep');
      const person = flow.person_id ? await persons.byId(db, flow.person_id) : null;
      return {
        flowId: flow.id,
        loginType: flow.login_type,
        operateType: WAITING_OPERATE_TYPE[flow.status],
        name: person?.name ?? flow.display_name,
        mobile: person ? maskPhone(person.mobile) : null,
        orgName: flow.org_name,
        ownOrganizes: await ownOrganizes(db, flow.person_id),
      };
    },

    /** operateType 2: the user picks one of their organisations (or the personal space) and logs in. */
    async agentConfirm(
      db: Db,
      input: { flowId: string; organizeId: string | null },
      binding: string | null,
      client: ClientInfo,
      lang: Language,
    ) {
      const flow = await boundFlow(db, input.flowId, binding);
      if (flow.status === 'failed' || !isOpen(flow)) return answer(db, flow, client, lang);
      if (flow.status !== 'choosingOrg' || !flow.person_id) throw new AppError('sso.flowStep');
      const personId = flow.person_id;
      let space: { organizationId: string; memberId: string } | null = null;
      if (input.organizeId !== null) {
        const m = await organizes.membership(db, personId, input.organizeId);
        if (!m) throw new AppError('sso.orgNotOwned');
        space = { organizationId: m.organizationId, memberId: m.memberId };
      }
      const next = await db.transaction().execute((trx) =>
        move(
          trx,
          flow,
          'resolved',
          {
            outcome: 'loggedIn',
            organization_id: space?.organizationId ?? null,
            member_id: space?.memberId ?? null,
          },
          client,
        ),
      );
      return answer(db, next, client, lang);
    },
  };
}

export type SsoService = ReturnType<typeof createSsoService>;
