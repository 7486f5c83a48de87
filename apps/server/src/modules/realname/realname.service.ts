import { randomInt } from 'node:crypto';
import { inTransaction } from '../../lib/tx';
import { hasOrgPermission } from '../../lib/permissions';
import {
  AppError,
  checkMobile,
  checkOrgName,
  checkResidentId,
  checkUscc,
  maskPhone,
  REAL_NAME_STATUS,
  type Check,
} from '@openseal/core';
import { isUniqueViolation, type Db, type RealnameStatus } from '@openseal/db';
import { newId } from '../../lib/ids';
import { hmac, safeEqual } from '../../lib/secrets';
import { recordAudit } from '../audit/audit.repository';
import type { AccountsService, ClientInfo } from '../accounts/accounts.service';
import type { FilesService } from '../files/files.service';
import type { MsgsService, SmsScene } from '../msgs/msgs.service';
import type { OrganizesService } from '../organizes/organizes.service';
import type { AuthContext } from '../session/session.service';
import type { IdentityVerifier } from './identity-provider';
import * as repo from './realname.repository';

type Application = NonNullable<Awaited<ReturnType<typeof repo.findApplication>>>;

/** The one transition table of an application's statuses; `move` is the only place that changes one. */
const TRANSITIONS: Record<RealnameStatus, readonly RealnameStatus[]> = {
  draft: ['awaitingCode', 'awaitingAmount', 'awaitingReview'],
  awaitingCode: ['verifying'],
  awaitingAmount: ['verifying', 'failure'],
  verifying: ['success', 'failure'],
  awaitingReview: ['success', 'failure'],
  success: [],
  failure: [],
};

/** Wrong micro-payment amounts allowed before the flow fails and must be started again. */
export const MAX_AMOUNT_ATTEMPTS = 3;

/** Real-name codes have their own scene: a code verified here proves nothing elsewhere (password, mobile change). */
const SMS_SCENE: SmsScene = 'realName';

/** Roles that may confirm an organisation information change (spec section 6). */
const CHANGE_ROLES = ['legalPerson', 'sealAdmin', 'admin', 'superAdmin'];

const PERSON_NAME = /^[\p{Script=Han}A-Za-z][\p{Script=Han}A-Za-z·• .]{0,48}[\p{Script=Han}A-Za-z]$/u;
const BANK_ACCOUNT = /^\d{8,30}$/;

function mustBe(check: Check): string {
  if (!check.ok) throw new AppError(check.key);
  return check.value;
}

function personName(raw: string): string {
  const value = raw.trim();
  if (!PERSON_NAME.test(value)) throw new AppError('realName.nameFormat');
  return value;
}

const maskId = (id: string | null) =>
  id ? `${id.slice(0, 3)}${'*'.repeat(id.length - 7)}${id.slice(-4)}` : null;
const maskAccount = (a: string | null) =>
  a ? `${'*'.repeat(Math.max(0, a.length - 4))}${a.slice(-4)}` : null;

interface Actor {
  personId: string | null;
  operatorId: string | null;
  ip: string | null;
}

/** Checks the move against the table, applies it only if nobody moved the application meanwhile, and records it. */
async function move(
  trx: Db,
  app: Application,
  to: RealnameStatus,
  actor: Actor,
  reason: string | null,
  patch: Parameters<typeof repo.moveStatus>[4] = {},
): Promise<void> {
  if (!TRANSITIONS[app.status].includes(to)) throw new AppError('realName.flowState');
  const final = to === 'success' || to === 'failure';
  if (
    !(await repo.moveStatus(trx, app.id, app.status, to, {
      ...patch,
      ...(final ? { completed_at: new Date(), reason } : {}),
    }))
  )
    throw new AppError('realName.flowState');
  await repo.insertEvent(trx, {
    applicationId: app.id,
    from: app.status,
    to,
    actorPersonId: actor.personId,
    actorOperatorId: actor.operatorId,
    reason,
  });
  await recordAudit(trx, {
    actorPersonId: actor.personId,
    organizationId: app.organization_id,
    action: `realName.${to}`,
    targetType: 'realNameApplication',
    targetId: app.id,
    ip: actor.ip,
    detail: {
      subject: app.subject,
      method: patch.method ?? app.method,
      from: app.status,
      ...(reason ? { reason } : {}),
      ...(actor.operatorId ? { operatorId: actor.operatorId } : {}),
    },
  });
}

/** What success changes: the person's name and status, or the organisation's status and its new super administrator. */
async function succeed(trx: Db, app: Application, actor: Actor): Promise<void> {
  await move(trx, app, 'success', actor, null);
  if (app.subject === 'person') {
    await repo.setPersonVerified(trx, app.person_id, app.name ?? '');
    return;
  }
  const orgId = app.organization_id!;
  await repo.setOrgRealNameStatus(trx, orgId, REAL_NAME_STATUS.verified);
  await repo.upsertOrgProfile(trx, {
    organizationId: orgId,
    legalName: app.name ?? '',
    legalIdNumber: app.id_number ?? '',
    applicationId: app.id,
  });
  const isLegal = (await repo.verifiedIdNumberOf(trx, app.person_id)) === app.id_number;
  const roles = isLegal ? ['superAdmin', 'legalPerson'] : ['superAdmin'];
  const member = await repo.findMember(trx, orgId, app.person_id);
  let memberId: string;
  if (member) {
    memberId = member.id;
    await repo.grantRoles(trx, member.id, roles);
  } else {
    memberId = newId('mbr');
    await repo.insertMember(trx, { id: memberId, organizationId: orgId, personId: app.person_id, roles });
  }
  await recordAudit(trx, {
    actorPersonId: actor.personId,
    organizationId: orgId,
    action: 'member.rolesGranted',
    targetType: 'member',
    targetId: memberId,
    ip: actor.ip,
    detail: { roles, reason: 'organization real-name', applicationId: app.id, personId: app.person_id },
  });
}

async function lockManual(trx: Db, applicationId: string): Promise<Application> {
  const app = await repo.findApplicationForUpdate(trx, applicationId);
  if (!app || app.method !== 'manual') throw new AppError('realName.flowNotFound');
  if (app.status !== 'awaitingReview') throw new AppError('realName.flowState');
  return app;
}

/** Operator decision on a manual organisation real-name: the organisation becomes verified. */
export async function approveManual(
  db: Db,
  applicationId: string,
  operatorId: string,
): Promise<{ organizationId: string | null }> {
  return inTransaction(db, async (trx) => {
    const app = await lockManual(trx, applicationId);
    await succeed(trx, app, { personId: null, operatorId, ip: null });
    // The console files its audit record under the organisation concerned.
    return { organizationId: app.organization_id };
  });
}

/** Operator decision on a manual organisation real-name: refused, with the reason the applicant sees. */
export async function rejectManual(
  db: Db,
  applicationId: string,
  operatorId: string,
  reason: string,
): Promise<{ organizationId: string | null }> {
  const why = reason.trim();
  if (!why) throw new AppError('realName.rejectReasonRequired');
  return inTransaction(db, async (trx) => {
    const app = await lockManual(trx, applicationId);
    await move(trx, app, 'failure', { personId: null, operatorId, ip: null }, why.slice(0, 500));
    return { organizationId: app.organization_id };
  });
}

/** The operator queue of manual applications (pending oldest first; decided ones newest first). */
export async function listManualQueue(db: Db, q: { status: repo.QueueStatus; page: number; size: number }) {
  const size = Math.min(Math.max(q.size, 1), 100);
  const page = Math.max(q.page, 1);
  const { rows, total } = await repo.listManual(db, { status: q.status, page, size });
  return {
    total,
    page,
    size,
    list: rows.map((a) => ({
      applicationId: a.id,
      organizeId: a.organization_id,
      orgName: a.org_name,
      uscc: a.uscc,
      legalName: a.name,
      legalIdNumber: maskId(a.id_number),
      applicantPersonId: a.person_id,
      licenceFileKey: a.licence_file_key,
      authorisationFileKey: a.authorisation_file_key,
      status: a.status,
      reason: a.reason,
      createdAt: a.created_at.toISOString(),
      completedAt: a.completed_at?.toISOString() ?? null,
    })),
  };
}

function outcome(status: RealnameStatus): 'pending' | 'success' | 'failure' {
  return status === 'success' ? 'success' : status === 'failure' ? 'failure' : 'pending';
}

export function createRealnameService(deps: {
  verifier: IdentityVerifier;
  msgs: MsgsService;
  files: FilesService;
  organizes: OrganizesService;
  accounts: AccountsService;
  secret: string;
  log: { warn(obj: object, msg: string): void };
  db: Db;
}) {
  const { verifier, msgs, files, organizes, accounts } = deps;
  const amountHash = (id: string, cents: number) => hmac(deps.secret, 'realname-amount', id, String(cents));

  /** The provider's callback: a verifying application ends in success or failure. */
  async function complete(db: Db, ref: string, ok: boolean, reason: string | undefined) {
    await db.transaction().execute(async (trx) => {
      const app = await repo.findApplicationForUpdate(trx, ref);
      if (!app || app.status !== 'verifying') return;
      const actor = { personId: null, operatorId: null, ip: null };
      if (ok) await succeed(trx, app, actor);
      // A catalogue key (realName.*), so the applicant reads it in their own language.
      else await move(trx, app, 'failure', actor, reason ?? 'realName.verificationFailed');
    });
  }
  verifier.onResult(async (r) => {
    try {
      await complete(deps.db, r.ref, r.ok, r.reason);
    } catch (err) {
      deps.log.warn({ err, ref: r.ref }, 'could not record a real-name verification result');
    }
  });

  /** The caller's own application; another person's is answered as absent. */
  async function own(db: Db, ctx: AuthContext, flowId: string): Promise<Application> {
    const app = await repo.findApplication(db, flowId);
    if (!app || app.person_id !== ctx.personId) throw new AppError('realName.flowNotFound');
    return app;
  }

  /** Who may verify an organisation: its super administrator or legal representative, or anyone when it has no super administrator (creation status 1). */
  async function assertMayVerifyOrg(db: Db, personId: string, organizationId: string) {
    const org = await organizes.findLive(db, organizationId);
    if (!org) throw new AppError('org.notFound');
    if (org.real_name_status === REAL_NAME_STATUS.verified) throw new AppError('realName.alreadyVerified');
    const m = await organizes.membership(db, personId, organizationId);
    const entitled = m && (m.roles.includes('superAdmin') || m.roles.includes('legalPerson'));
    if (!entitled && (await repo.hasActiveSuperAdmin(db, organizationId)))
      throw new AppError('perm.contactAdmin');
    return org;
  }

  async function submitToVerifier(app: Application) {
    if (app.subject === 'person') {
      await verifier.verifyPerson({
        ref: app.id,
        name: app.name ?? '',
        idNumber: app.id_number ?? '',
        mobile: app.mobile ?? '',
      });
    } else {
      await verifier.verifyOrganization({
        ref: app.id,
        orgName: app.org_name ?? '',
        uscc: app.uscc ?? '',
        legalName: app.name ?? '',
        legalIdNumber: app.id_number ?? '',
      });
    }
  }

  function resultView(app: Application) {
    return {
      flowId: app.id,
      organizeType: app.subject === 'person' ? (2 as const) : (1 as const),
      organizeId: app.organization_id,
      method: app.method,
      step: app.status,
      status: outcome(app.status),
      reason: app.reason,
      redirectUrl: app.redirect_url,
      sandbox: app.sandbox,
    };
  }

  return {
    isSandbox: verifier.isSandbox,
    approveManual,
    rejectManual,
    listManualQueue,

    async startFlow(
      db: Db,
      ctx: AuthContext,
      input: { organizeType: 1 | 2; organizeId?: string | undefined; redirectUrl?: string | undefined },
      client: ClientInfo,
    ) {
      let organizationId: string | null = null;
      if (input.organizeType === 2) {
        const verified = await repo.verifiedIdNumberOf(db, ctx.personId);
        if (verified) throw new AppError('realName.alreadyVerified');
      } else {
        organizationId = input.organizeId ?? ctx.organizationId;
        if (!organizationId)
          throw new AppError('request.invalid', { details: { reason: 'organizeId is required' } });
        await assertMayVerifyOrg(db, ctx.personId, organizationId);
      }
      const redirect = input.redirectUrl;
      const safe =
        redirect && redirect.startsWith('/') && !redirect.startsWith('//') && !/[\\\r\n]/.test(redirect)
          ? redirect
          : null;
      const id = newId('rnf');
      await db.transaction().execute(async (trx) => {
        await repo.insertApplication(trx, {
          id,
          subject: input.organizeType === 2 ? 'person' : 'organization',
          person_id: ctx.personId,
          organization_id: organizationId,
          method: null,
          status: 'draft',
          redirect_url: safe,
          name: null,
          id_number: null,
          mobile: null,
          org_name: null,
          uscc: null,
          bank_account: null,
          sms_flow_id: null,
          amount_hash: null,
          licence_file_key: null,
          authorisation_file_key: null,
          reason: null,
          provider: verifier.name,
          sandbox: verifier.isSandbox,
        });
        await repo.insertEvent(trx, {
          applicationId: id,
          from: null,
          to: 'draft',
          actorPersonId: ctx.personId,
          actorOperatorId: null,
          reason: null,
        });
        await recordAudit(trx, {
          actorPersonId: ctx.personId,
          organizationId,
          action: 'realName.start',
          targetType: 'realNameApplication',
          targetId: id,
          ip: client.ip,
          detail: { subject: input.organizeType === 2 ? 'person' : 'organization' },
        });
      });
      return {
        flowId: id,
        organizeType: input.organizeType,
        organizeId: organizationId,
        sandbox: verifier.isSandbox,
      };
    },

    async submitPerson(
      db: Db,
      ctx: AuthContext,
      flowId: string,
      input: { name: string; idNumber: string; mobile: string },
      client: ClientInfo,
    ) {
      const app = await own(db, ctx, flowId);
      if (app.subject !== 'person' || app.status !== 'draft') throw new AppError('realName.flowState');
      const name = personName(input.name);
      const idNumber = mustBe(checkResidentId(input.idNumber));
      const mobile = mustBe(checkMobile(input.mobile));
      const sent = await msgs.send(db, { mobile, scene: SMS_SCENE, personId: ctx.personId });
      await db.transaction().execute((trx) =>
        move(trx, app, 'awaitingCode', { personId: ctx.personId, operatorId: null, ip: client.ip }, null, {
          method: 'sms',
          name,
          id_number: idNumber,
          mobile,
          sms_flow_id: sent.flowId,
        }),
      );
      return {
        ...sent,
        flowId: app.id,
        smsFlowId: sent.flowId,
        smsSandbox: sent.sandbox,
        sandbox: app.sandbox,
      };
    },

    async submitOrganization(
      db: Db,
      ctx: AuthContext,
      flowId: string,
      input: {
        method: 'legalSms' | 'bank' | 'manual';
        organizeName: string;
        uscc: string;
        legalName: string;
        legalIdNumber: string;
        legalMobile?: string | undefined;
        bankAccount?: string | undefined;
        licenceFileKey?: string | undefined;
        authorisationFileKey?: string | undefined;
      },
      client: ClientInfo,
    ) {
      const app = await own(db, ctx, flowId);
      if (app.subject !== 'organization' || app.status !== 'draft') throw new AppError('realName.flowState');
      const org = await assertMayVerifyOrg(db, ctx.personId, app.organization_id!);
      const orgName = mustBe(checkOrgName(input.organizeName));
      const uscc = mustBe(checkUscc(input.uscc));
      if (orgName !== org.name || uscc !== org.uscc) throw new AppError('realName.orgMismatch');
      const legalName = personName(input.legalName);
      const legalId = mustBe(checkResidentId(input.legalIdNumber));
      const actor = { personId: ctx.personId, operatorId: null, ip: client.ip };
      const base = { method: input.method, org_name: orgName, uscc, name: legalName, id_number: legalId };

      if (input.method === 'legalSms') {
        if (!input.legalMobile) throw new AppError('realName.methodRequired');
        const mobile = mustBe(checkMobile(input.legalMobile));
        const sent = await msgs.send(db, { mobile, scene: SMS_SCENE, personId: ctx.personId });
        await db
          .transaction()
          .execute((trx) =>
            move(trx, app, 'awaitingCode', actor, null, { ...base, mobile, sms_flow_id: sent.flowId }),
          );
        return {
          flowId: app.id,
          step: 'awaitingCode' as const,
          smsFlowId: sent.flowId,
          sandbox: app.sandbox,
        };
      }

      if (input.method === 'bank') {
        if (!input.bankAccount) throw new AppError('realName.methodRequired');
        const account = input.bankAccount.replace(/\s+/g, '');
        if (!BANK_ACCOUNT.test(account)) throw new AppError('realName.bankAccountFormat');
        const cents = randomInt(1, 100);
        await verifier.payMicroAmount({ ref: app.id, account, orgName, amountCents: cents });
        await db.transaction().execute((trx) =>
          move(trx, app, 'awaitingAmount', actor, null, {
            ...base,
            bank_account: account,
            amount_hash: amountHash(app.id, cents),
          }),
        );
        return {
          flowId: app.id,
          step: 'awaitingAmount' as const,
          smsFlowId: null,
          sandbox: app.sandbox,
          // The sandbox has no bank statement to read, so it shows the amount it "paid".
          ...(verifier.isSandbox ? { sandboxAmountCents: cents } : {}),
        };
      }

      if (!input.licenceFileKey || !input.authorisationFileKey)
        throw new AppError('realName.materialMissing');
      for (const [key, kind] of [
        [input.licenceFileKey, 'licence'],
        [input.authorisationFileKey, 'authorisation'],
      ] as const) {
        const m = await repo.findMaterialByFileKey(db, key);
        if (!m || m.person_id !== ctx.personId || m.kind !== kind)
          throw new AppError('realName.materialMissing');
      }
      await db.transaction().execute((trx) =>
        move(trx, app, 'awaitingReview', actor, null, {
          ...base,
          licence_file_key: input.licenceFileKey!,
          authorisation_file_key: input.authorisationFileKey!,
        }),
      );
      return { flowId: app.id, step: 'awaitingReview' as const, smsFlowId: null, sandbox: app.sandbox };
    },

    async confirmCode(db: Db, ctx: AuthContext, flowId: string, code: string, client: ClientInfo) {
      const app = await own(db, ctx, flowId);
      if (app.status !== 'awaitingCode' || !app.sms_flow_id) throw new AppError('realName.flowState');
      await msgs.verify(db, { flowId: app.sms_flow_id, code, personId: ctx.personId });
      await db.transaction().execute(async (trx) => {
        await msgs.consumeVerified(trx, {
          flowId: app.sms_flow_id!,
          scene: SMS_SCENE,
          personId: ctx.personId,
        });
        await move(trx, app, 'verifying', { personId: ctx.personId, operatorId: null, ip: client.ip }, null);
      });
      await submitToVerifier(app);
      return resultView({ ...app, status: 'verifying' });
    },

    async confirmAmount(db: Db, ctx: AuthContext, flowId: string, amountCents: number, client: ClientInfo) {
      const app = await own(db, ctx, flowId);
      if (app.status !== 'awaitingAmount' || !app.amount_hash) throw new AppError('realName.flowState');
      const actor = { personId: ctx.personId, operatorId: null, ip: client.ip };
      if (!safeEqual(amountHash(app.id, amountCents), app.amount_hash)) {
        const attempts = await repo.bumpAmountAttempts(db, app.id);
        if (attempts < MAX_AMOUNT_ATTEMPTS) throw new AppError('realName.amountWrong');
        // The reason is the catalogue key, so the applicant reads it in their own language.
        await db
          .transaction()
          .execute((trx) => move(trx, { ...app }, 'failure', actor, 'realName.amountTooMany'));
        throw new AppError('realName.amountTooMany');
      }
      await db.transaction().execute((trx) => move(trx, app, 'verifying', actor, null));
      await submitToVerifier(app);
      return resultView({ ...app, status: 'verifying' });
    },

    async result(db: Db, ctx: AuthContext, flowId: string) {
      return resultView(await own(db, ctx, flowId));
    },

    /**
     * accountRealNamedLevel: the person's real name (none, under way, verified and how), and in an
     * organisation space the organisation's, and whether the caller is its legal representative — by
     * role, and by the verified ID number matching the one the organisation's real name recorded.
     */
    async level(db: Db, ctx: AuthContext) {
      type Method = 'sms' | 'bank' | 'legalSms' | 'manual' | 'platform' | null;
      const standing = (
        verified: boolean,
        app: Awaited<ReturnType<typeof repo.standingApplication>>,
      ): { status: 'none' | 'pending' | 'verified'; method: Method; verifiedAt: string | null } => {
        const done = app?.status === 'success' ? app : undefined;
        if (verified)
          // Verified without a success recorded here (imported or seeded): the platform vouches.
          return {
            status: 'verified',
            method: done?.method ?? 'platform',
            verifiedAt: done?.completed_at?.toISOString() ?? null,
          };
        return { status: app && !done ? 'pending' : 'none', method: null, verifiedAt: null };
      };
      const person = standing(
        ctx.realName.person,
        await repo.standingApplication(db, { personId: ctx.personId }),
      );
      let organization = null;
      if (ctx.organizationId) {
        const orgApp = await repo.standingApplication(db, { organizationId: ctx.organizationId });
        const profile = await repo.findOrgProfile(db, ctx.organizationId);
        const mine = await repo.verifiedIdNumberOf(db, ctx.personId);
        organization = {
          organizeId: ctx.organizationId,
          ...standing(ctx.realName.organization === true, orgApp),
          isLegalPerson: ctx.roles.includes('legalPerson'),
          verifiedAsLegalPerson: !!profile && !!mine && profile.legal_id_number === mine,
        };
      }
      const level: 'none' | 'person' | 'organization' = !ctx.realName.person
        ? 'none'
        : ctx.organizationId && ctx.realName.organization
          ? 'organization'
          : 'person';
      return {
        identityType: ctx.organizationId ? (1 as const) : (2 as const),
        level,
        person,
        organization,
      };
    },

    /** The caller's applications: of the current organisation in an organisation space, else the person's own. */
    async records(db: Db, ctx: AuthContext) {
      const rows = await repo.listOfPerson(db, ctx.personId, ctx.organizationId, 50);
      return {
        list: rows.map(resultView).map((v, i) => ({ ...v, createdAt: rows[i]!.created_at.toISOString() })),
      };
    },

    /** realNameAuditDetail: the record and every status change, for the applicant or the organisation's administrators. */
    async auditDetail(db: Db, ctx: AuthContext, flowId: string) {
      const app = await repo.findApplication(db, flowId);
      if (!app) throw new AppError('realName.flowNotFound');
      // The applicant, or an administrator of the applicant's organisation in its space: the record
      // holds identity numbers and the licence, which staff have no business reading.
      const mayRead =
        app.person_id === ctx.personId ||
        (app.organization_id !== null &&
          app.organization_id === ctx.organizationId &&
          (await hasOrgPermission(db, ctx, 'member.manage')));
      if (!mayRead) throw new AppError('perm.none');
      const events = await repo.listEvents(db, app.id);
      return {
        ...resultView(app),
        record: {
          name: app.name,
          idNumber: maskId(app.id_number),
          mobile: app.mobile ? maskPhone(app.mobile) : null,
          orgName: app.org_name,
          uscc: app.uscc,
          bankAccount: maskAccount(app.bank_account),
          licenceFileKey: app.licence_file_key,
          authorisationFileKey: app.authorisation_file_key,
          createdAt: app.created_at.toISOString(),
          completedAt: app.completed_at?.toISOString() ?? null,
        },
        history: events.map((e) => ({
          fromStatus: e.from_status,
          toStatus: e.to_status,
          actorType: e.actor_operator_id
            ? ('operator' as const)
            : e.actor_person_id
              ? ('person' as const)
              : ('system' as const),
          actorId: e.actor_operator_id ?? e.actor_person_id,
          actorName: e.actor_name,
          reason: e.reason,
          at: e.at.toISOString(),
        })),
      };
    },

    /** A manual-path material: jpg, png or pdf by its first bytes, then the files module's full check (10 MB). */
    async uploadMaterial(
      db: Db,
      ctx: AuthContext,
      input: { bytes: Buffer; fileName: string; kind: 'licence' | 'authorisation' },
    ) {
      const b = input.bytes;
      const isPdf = b.subarray(0, 5).toString('latin1') === '%PDF-';
      const isPng = b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      const isJpg = b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
      if (!isPdf && !isPng && !isJpg) throw new AppError('realName.materialType');
      const stored = await files.upload(db, ctx, { bytes: b, fileName: input.fileName, purpose: 'material' });
      const id = newId('rnm');
      await repo.insertMaterial(db, {
        id,
        fileKey: stored.fileKey,
        kind: input.kind,
        contentType: stored.contentType,
        personId: ctx.personId,
        organizationId: ctx.organizationId,
      });
      return { ...stored, materialId: id, kind: input.kind };
    },

    /** Info-change dialog: what the registry holds that differs from the platform's data. */
    async discoverChangedItems(db: Db, ctx: AuthContext) {
      const changes = await changedItems(db, ctx);
      return {
        discoverChangedItems: changes.items,
        legalChangedCurrentLoginUserHasChangePermission: mayConfirmChange(ctx),
        sandbox: verifier.isSandbox,
      };
    },

    /** Stores the registry's data and hands out a new token (the old one ends), as the dialog expects. */
    async confirmChangedItems(db: Db, ctx: AuthContext, client: ClientInfo) {
      if (!mayConfirmChange(ctx)) throw new AppError('realName.changeNotAllowed');
      const { items, org } = await changedItems(db, ctx);
      if (items.length === 0 || !org) throw new AppError('realName.noChanges');
      await db
        .transaction()
        .execute(async (trx) => {
          for (const item of items) {
            if (item.field === 'organizeName') await repo.setOrgName(trx, org.id, item.registry);
            else await repo.setOrgLegalName(trx, org.id, item.registry);
          }
          await recordAudit(trx, {
            actorPersonId: ctx.personId,
            organizationId: org.id,
            action: 'organization.infoChange',
            targetType: 'organization',
            targetId: org.id,
            ip: client.ip,
            detail: { items },
          });
        })
        .catch((e: unknown) => {
          if (isUniqueViolation(e, 'organizations_name_live')) throw new AppError('org.nameExists');
          throw e;
        });
      const token = await accounts.changeToken(db, ctx, client);
      return { ...token, changedItems: items };
    },
  };

  function mayConfirmChange(ctx: AuthContext): boolean {
    return ctx.organizationId !== null && ctx.roles.some((r) => CHANGE_ROLES.includes(r));
  }

  async function changedItems(db: Db, ctx: AuthContext) {
    if (!ctx.organizationId) throw new AppError('perm.personNotAllowed');
    const org = await organizes.findLive(db, ctx.organizationId);
    if (!org) throw new AppError('session.spaceInvalid');
    const profile = await repo.findOrgProfile(db, org.id);
    if (org.real_name_status !== REAL_NAME_STATUS.verified || !profile) return { org, items: [] };
    const registry = await verifier.registryRecord(org.uscc, {
      orgName: org.name,
      legalName: profile.legal_name,
    });
    const items: Array<{ field: 'organizeName' | 'legalName'; current: string; registry: string }> = [];
    if (registry && registry.orgName !== org.name && checkOrgName(registry.orgName).ok)
      items.push({ field: 'organizeName', current: org.name, registry: registry.orgName });
    if (registry && registry.legalName !== profile.legal_name)
      items.push({ field: 'legalName', current: profile.legal_name, registry: registry.legalName });
    return { org, items };
  }
}

export type RealnameService = ReturnType<typeof createRealnameService>;
