/**
 * The seal service: applications (work orders) from apply to made, the operator's review, the claim by
 * the legal representative (directly or through a signed, expiring link), production as a durable job
 * (image, certificate, seal record, audit, evidence), management (enable, disable, freeze, cancel, singly
 * or in batch, with the certificate held, released or revoked), renewal and the expiry tip.
 * Every status moves through the tables of @openseal/core (seals/state-machines).
 */
import { AppError, LIMITS, contracts, maskPhone, type Language } from '@openseal/core';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { requireOrgPermission, requireRealName, sceneAllowed } from '../../lib/permissions';
import { hmac, safeEqual } from '../../lib/secrets';
import { inTransaction } from '../../lib/tx';
import type { ConfigService } from '../config/config.service';
import type { EvidenceService } from '../evidence/evidence.service';
import type { FilesService } from '../files/files.service';
import type { JobRunner } from '../jobs/jobs.service';
import type { OrganizesService } from '../organizes/organizes.service';
import type { PkiService } from '../pki/pki.service';
import { verifiedIdNumberOf } from '../realname/realname.repository';
import type { AuthContext } from '../session/session.service';
import {
  access,
  actorOf,
  inScope,
  iso,
  ownerContext,
  pageArgs,
  recordChange,
  sha256,
  systemActor,
  transition,
  type Access,
  type Actor,
} from './seal-context';
import {
  makeTemplate,
  pngHasTransparency,
  renderSeal,
  sealDisplayName,
  sealSpec,
  sealText,
} from './seal-render';
import * as repo from './seals.repository';

type SealKind = contracts.SealKind;
type DrawType = contracts.SealDrawType;
type WorkOrderStatus = contracts.WorkOrderStatus;
type SealStatus = contracts.SealStatus;
const { SEAL_KIND_INFO, SEAL_TYPE_SIZE_MM, WORK_ORDER_MACHINE, SEAL_MACHINE } = contracts;

const DAY = 86_400_000;
type ReceiveStatus = 'unclaimed' | 'making' | 'made' | 'failed' | 'closed';
type Tip = NonNullable<ReturnType<typeof tipOf>>;
/** How long a claim link stays valid. */
export const CLAIM_LINK_DAYS = 7;
/** Kinds an organisation (or a person) holds one of at a time. */
const SINGLE_KINDS: ReadonlySet<SealKind> = new Set([
  'legalName',
  'finance',
  'invoice',
  'personalName',
  'personalHandDrawn',
]);
/** Seals that no longer count as held: a new one of a single kind may be applied for. */
const CLOSED_SEAL: ReadonlySet<SealStatus> = new Set(['voided', 'scrapped']);
const MAKE_JOB = 'seal.make';
const RENEW_JOB = 'seal.renew';

export interface SealsDeps {
  db: Db;
  pki: PkiService;
  evidence: EvidenceService;
  files: FilesService;
  config: ConfigService;
  organizes: OrganizesService;
  jobs: JobRunner;
  secret: string;
  log: { warn(obj: object, msg: string): void };
}

export interface ClientInfo {
  ip: string | null;
}

/** Which person or organisation holds the certificate, as issued. */
function holderId(subjectSpec: string | null): string | null {
  if (!subjectSpec) return null;
  const s = JSON.parse(subjectSpec) as { organizationIdentifier?: string; serialNumber?: string };
  return s.organizationIdentifier ?? s.serialNumber ?? null;
}

function kindName(kind: string, lang: Language): string {
  const info = SEAL_KIND_INFO[kind as SealKind];
  return info ? (lang === 'en' ? info.en : info.zh) : kind;
}

/** Spec section 9: the certificate subject holds the person's name and a hash of the ID number, never the number. */
function idHash(idNumber: string): string {
  return `ID-SHA256:${sha256(`openseal-id:${idNumber}`).slice(0, 40)}`;
}

/** X.520 caps names at 64 characters; the credit code or the ID hash identifies the holder anyway. */
const cap64 = (s: string) => [...s].slice(0, 64).join('');

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

export function createSealsService(deps: SealsDeps) {
  const { pki, evidence, files, config, organizes, jobs } = deps;
  const claimSig = (id: string, expires: number) => hmac(deps.secret, 'seal-claim', id, String(expires));

  // --- configuration: which kinds and drawing types are offered ---

  async function kindOptions(subject: 'organization' | 'person', lang: Language) {
    const standardRaw = await config.json<unknown>(
      'CONFIG_STANDARD_SEAL_TYPE',
      contracts.DEFAULT_STANDARD_SEAL_TYPES,
    );
    const customRaw = await config.json<unknown>('CUSTOM_SEAL_CONFIG', contracts.DEFAULT_CUSTOM_SEAL_CONFIG);
    const standard = contracts.standardSealTypeConfig.safeParse(standardRaw);
    const custom = contracts.customSealConfig.safeParse(customRaw);
    if (!standard.success || !custom.success)
      deps.log.warn(
        { standard: standard.success, custom: custom.success },
        'seal type config is malformed; using defaults',
      );
    const std = standard.success ? standard.data : contracts.DEFAULT_STANDARD_SEAL_TYPES;
    const cus = custom.success ? custom.data : contracts.DEFAULT_CUSTOM_SEAL_CONFIG;
    const entries = [
      ...std.filter((e) => !SEAL_KIND_INFO[e.kind].custom),
      ...cus.kinds
        .filter((k) => SEAL_KIND_INFO[k].custom)
        .map((k) => ({ kind: k, sealTypes: cus.sealTypes })),
    ];
    const seen = new Set<string>();
    const list = entries
      .filter((e) => SEAL_KIND_INFO[e.kind].subject === subject && !seen.has(e.kind) && seen.add(e.kind))
      .map((e) => {
        const info = SEAL_KIND_INFO[e.kind];
        const sealTypes = [...new Set(e.sealTypes)] as DrawType[];
        return {
          kind: e.kind,
          name: lang === 'en' ? info.en : info.zh,
          subject: info.subject,
          custom: info.custom,
          title: info.title,
          sealTypes,
          sizes: sealTypes.map((t) => ({ sealType: t, ...SEAL_TYPE_SIZE_MM[t] })),
          handDrawn: e.kind === 'personalHandDrawn',
        };
      });
    return { list, titleMaxLength: cus.titleMaxLength };
  }

  async function resolveKind(
    subject: 'organization' | 'person',
    kind: SealKind,
    sealType: DrawType | undefined,
    titles: { title?: string | undefined; title0?: string | undefined },
  ) {
    const { list, titleMaxLength } = await kindOptions(subject, 'zh-CN');
    const option = list.find((o) => o.kind === kind);
    if (!option) throw new AppError('seal.kindNotAllowed', { details: { sealKind: kind } });
    const type = sealType ?? option.sealTypes[0]!;
    if (!option.sealTypes.includes(type))
      throw new AppError('seal.sealTypeNotAllowed', {
        details: { sealKind: kind, allowed: option.sealTypes },
      });
    if (option.custom && (!titles.title || [...titles.title].length > titleMaxLength))
      throw new AppError('seal.titleRequired', { params: { max: titleMaxLength } });
    if (type === 4 && titles.title0 && [...titles.title0].length > titleMaxLength)
      throw new AppError('seal.titleRequired', { params: { max: titleMaxLength } });
    return { option, sealType: type };
  }

  /** The holder's registered name (and credit code): what the seal must say. */
  async function holderOf(db: Db, a: { organizationId: string | null; personId: string }) {
    if (a.organizationId) {
      const org = await organizes.findLive(db, a.organizationId);
      if (!org) throw new AppError('org.notFound');
      return { name: org.name, uscc: org.uscc };
    }
    const name = await repo.personName(db, a.personId);
    if (!name) throw new AppError('session.accountNotFound');
    return { name, uscc: null };
  }

  /** A hand-drawn seal: the caller's own uploaded PNG, transparent, at most 50 KB. */
  async function readHandDrawn(db: Db, ctx: AuthContext, fileKey: string | undefined) {
    if (!fileKey) throw new AppError('seal.handDrawnRequired');
    const own = await files.requireOwn(db, ctx, fileKey).catch((err: unknown) => {
      if (err instanceof AppError && err.key === 'file.accessDenied') return null;
      throw err;
    });
    const file = own && (await files.readInternal(db, fileKey));
    if (!file) throw new AppError('seal.handDrawnRequired');
    if (file.file.content_type !== 'image/png' || file.bytes.length > LIMITS.sealImageMaxBytes)
      throw new AppError('seal.handDrawnRequired');
    if (!pngHasTransparency(file.bytes)) throw new AppError('seal.handDrawnNotTransparent');
    return file.bytes;
  }

  // --- views ---

  function receiveStatusOf(w: repo.WorkOrderView): ReceiveStatus {
    if (w.status === 'made') return 'made';
    if (w.status === 'rejected' || w.status === 'withdrawn') return 'closed';
    if (w.status !== 'pendingProduction' || !w.claimed_at) return 'unclaimed';
    return w.job_status === 'failed' ? 'failed' : 'making';
  }

  function makingOf(w: repo.WorkOrderView) {
    if (!w.make_job_id || !w.job_status) return null;
    // The handler commits the made seal a moment before the runner marks its job done: a made order's
    // job has done its work, so the page never sees "made" beside a job still "running".
    const made = w.status === 'made';
    return {
      jobId: w.make_job_id,
      state: made ? ('done' as const) : w.job_status,
      progress: made ? 100 : (w.job_progress ?? 0),
      note: w.job_note,
      attempts: w.job_attempts ?? 0,
      error: w.job_error,
    };
  }

  function workOrderOut(w: repo.WorkOrderView, lang: Language) {
    return {
      applyNo: w.apply_no,
      status: w.status,
      sealKind: w.seal_kind as SealKind,
      sealKindName: kindName(w.seal_kind, lang),
      sealType: w.seal_type as DrawType,
      carrier: w.carrier,
      sealName: w.seal_name,
      title: w.title,
      title0: w.title0,
      widthMm: w.width_mm,
      heightMm: w.height_mm,
      organizeId: w.organization_id,
      organizeName: w.org_name,
      applicantName: w.applicant_name,
      applicantMobile: w.applicant_mobile ? maskPhone(w.applicant_mobile) : null,
      rejectReason: w.reject_reason,
      createTime: w.created_at.toISOString(),
      submitTime: iso(w.submitted_at),
      reviewTime: iso(w.reviewed_at),
      claimTime: iso(w.claimed_at),
      completeTime: iso(w.completed_at),
      sealCode: w.seal_code,
      receiveStatus: receiveStatusOf(w),
      making: makingOf(w),
      actions: contracts.allowedActions(WORK_ORDER_MACHINE, w.status),
    };
  }

  function receiveOut(w: repo.WorkOrderView) {
    return {
      applyNo: w.apply_no,
      status: w.status,
      receiveStatus: receiveStatusOf(w),
      sealCode: w.seal_code,
      making: makingOf(w),
    };
  }

  async function sealOut(
    db: Db,
    ctx: AuthContext | null,
    s: repo.SealView,
    lang: Language,
    now = new Date(),
  ) {
    const status = contracts.effectiveSealStatus(s.status, s.valid_to, now);
    const imageUrl =
      ctx && s.image_file_key
        ? files.urlThrough({ kind: 'person', ctx }, s.image_file_key, { via: 'seal', id: s.seal_code }).url
        : null;
    return {
      sealCode: s.seal_code,
      sealKind: s.seal_kind as SealKind,
      sealKindName: kindName(s.seal_kind, lang),
      sealType: s.seal_type as DrawType,
      carrier: s.carrier,
      name: s.name,
      status,
      widthMm: s.width_mm,
      heightMm: s.height_mm,
      validFrom: iso(s.valid_from),
      validTo: iso(s.valid_to),
      certSerial: s.cert_serial,
      certHolder: s.cert_common_name,
      certHolderId: holderId(s.cert_subject_spec),
      certStatus: s.cert_status,
      imageUrl,
      template: s.template ? (JSON.parse(s.template) as unknown) : null,
      organizeId: s.organization_id,
      organizeName: s.org_name,
      holderName: s.person_name,
      applyNo: s.apply_no,
      createTime: s.created_at.toISOString(),
      actions: contracts.allowedActions(SEAL_MACHINE, status),
    };
  }

  // --- loading with the scope check ---

  async function ownWorkOrder(db: Db, a: Access, applyNo: string) {
    const w = await repo.findWorkOrder(db, applyNo);
    if (!w || !inScope(a, w)) throw new AppError('seal.workOrderNotFound');
    return w;
  }

  async function ownSeal(db: Db, a: Access, sealCode: string) {
    const s = await repo.findSeal(db, sealCode);
    if (!s || !inScope(a, s)) throw new AppError('seal.notFound');
    return s;
  }

  /** Moves a locked work order through the table and records the move. */
  async function moveWorkOrder(
    trx: Db,
    w: repo.WorkOrderRow,
    action: contracts.WorkOrderAction,
    actor: Actor,
    patch: Parameters<typeof repo.moveWorkOrder>[4] = {},
    detail: Record<string, unknown> = {},
  ): Promise<WorkOrderStatus> {
    const to = transition(WORK_ORDER_MACHINE, w.status, action, 'seal.workOrderStatus');
    if (!(await repo.moveWorkOrder(trx, w.apply_no, w.status, to, patch)))
      throw new AppError('seal.workOrderStatus');
    await recordChange(trx, evidence, {
      actor,
      organizationId: w.organization_id,
      action: `sealApply.${action}`,
      targetType: 'sealWorkOrder',
      targetId: w.apply_no,
      subject: `sealApply:${w.apply_no}`,
      detail: { from: w.status, to, sealKind: w.seal_kind, ...detail },
    });
    return to;
  }

  /** Moves a locked seal through the table (by its status as seen now) and records the move. */
  async function moveSeal(
    trx: Db,
    s: repo.SealRow,
    action: contracts.SealAction,
    actor: Actor,
    patch: Parameters<typeof repo.moveSeal>[4] = {},
    extra: { detail?: Record<string, unknown>; hashes?: Record<string, string> } = {},
  ): Promise<SealStatus> {
    const seen = contracts.effectiveSealStatus(s.status, s.valid_to);
    const to = transition(SEAL_MACHINE, seen, action, 'seal.statusInvalid');
    if (!(await repo.moveSeal(trx, s.seal_code, s.status, to, patch)))
      throw new AppError('seal.statusInvalid');
    await recordChange(trx, evidence, {
      actor,
      organizationId: s.organization_id,
      action: `seal.${action}`,
      targetType: 'seal',
      targetId: s.seal_code,
      subject: `seal:${s.seal_code}`,
      detail: { from: seen, to, ...(extra.detail ?? {}) },
      ...(extra.hashes ? { hashes: extra.hashes } : {}),
    });
    return to;
  }

  async function hasLiveSealOrApplication(db: Db, scope: repo.Scope, kind: SealKind): Promise<boolean> {
    if (!SINGLE_KINDS.has(kind)) return false;
    const seals = await repo.sealsOfKind(db, scope, kind);
    if (seals.some((s) => !CLOSED_SEAL.has(s.status))) return true;
    return (await repo.openWorkOrdersOfKind(db, scope, kind)).length > 0;
  }

  // --- production (the job) ---

  /** A certificate issued for a seal that did not take it (a race, a failure): revoked, never left good. */
  async function withdrawCertificate(serial: string) {
    await pki
      .revoke(deps.db, serial, 'cessationOfOperation')
      .catch((err: unknown) => deps.log.warn({ err, serial }, 'could not revoke an unused seal certificate'));
  }

  /** Makes the seal of a claimed work order; safe to run again (a made order is left alone). */
  async function makeSeal(db: Db, applyNo: string, progress: (p: number, note: string) => Promise<void>) {
    const w = await repo.findWorkOrder(db, applyNo);
    if (!w || w.status !== 'pendingProduction' || !w.seal_code) return { applyNo, status: w?.status ?? null };
    const owner = ownerContext(w.person_id, w.organization_id);
    await progress(10, 'drawing');
    let template: string | null = null;
    let image: { fileKey: string; sha256: string };
    if (w.seal_kind === 'personalHandDrawn') {
      const bytes = await readHandDrawn(db, owner, w.hand_drawn_file_key ?? undefined);
      image = { fileKey: w.hand_drawn_file_key!, sha256: sha256(bytes) };
    } else {
      const text = { nameText: w.name_text, title: w.title, title0: w.title0, serial: w.serial_text };
      const t = makeTemplate(
        sealSpec(
          w.seal_type as DrawType,
          text,
          { widthMm: w.width_mm, heightMm: w.height_mm },
          w.security_lines,
        ),
      );
      const png = await renderSeal(t);
      template = JSON.stringify(t);
      await progress(40, 'storing');
      const stored = await files.upload(db, owner, {
        bytes: png,
        fileName: `${w.seal_code}.png`,
        purpose: 'sealImage',
      });
      image = { fileKey: stored.fileKey, sha256: stored.sha256 };
    }
    await progress(60, 'certificate');
    const subject = w.organization_id
      ? await (async () => {
          const h = await holderOf(db, { organizationId: w.organization_id, personId: w.person_id });
          return {
            profile: 'org-seal' as const,
            subject: {
              commonName: cap64(w.seal_name),
              organization: cap64(h.name),
              organizationIdentifier: h.uscc!,
            },
          };
        })()
      : {
          profile: 'person-seal' as const,
          subject: {
            commonName: cap64(w.name_text),
            serialNumber: idHash((await verifiedIdNumberOf(db, w.person_id)) ?? `person:${w.person_id}`),
          },
        };
    // The key store writes the new key through its own handle, which on the embedded database (one
    // connection) cannot run inside a transaction: the certificate is issued first, and withdrawn again
    // if the seal does not take it.
    const cert = await pki.issue(db, {
      ...subject,
      owner: w.organization_id
        ? { type: 'organization', id: w.organization_id }
        : { type: 'person', id: w.person_id },
      sealCode: w.seal_code,
    });
    const result = await inTransaction(db, async (trx) => {
      const locked = await repo.lockWorkOrder(trx, applyNo);
      if (!locked || locked.status !== 'pendingProduction' || locked.seal_code !== w.seal_code)
        return { applyNo, status: locked?.status ?? null, unused: true as const };
      const [seal] = await repo.lockSeals(trx, [locked.seal_code!]);
      if (!seal) throw new AppError('seal.notFound');
      await moveSeal(
        trx,
        seal,
        'made',
        systemActor,
        {
          template,
          image_file_key: image.fileKey,
          image_sha256: image.sha256,
          cert_serial: cert.serial,
          valid_from: cert.notBefore,
          valid_to: cert.notAfter,
        },
        {
          detail: { applyNo, certSerial: cert.serial, sealKind: seal.seal_kind, carrier: seal.carrier },
          hashes: {
            image: image.sha256,
            certificate: sha256(Buffer.from(cert.der)),
            ...(template ? { template: sha256(template) } : {}),
          },
        },
      );
      await moveWorkOrder(
        trx,
        locked,
        'make',
        systemActor,
        { completed_at: new Date() },
        { sealCode: seal.seal_code },
      );
      return { applyNo, status: 'made' as const, sealCode: seal.seal_code, certSerial: cert.serial };
    }).catch(async (err: unknown) => {
      await withdrawCertificate(cert.serial);
      throw err;
    });
    if ('unused' in result) await withdrawCertificate(cert.serial);
    await progress(100, 'done');
    return result;
  }

  jobs.register(
    MAKE_JOB,
    async (payload, ctx) => {
      const { applyNo } = payload as { applyNo: string };
      return makeSeal(ctx.db, applyNo, (p, note) => ctx.progress(p, note));
    },
    { maxAttempts: 3 },
  );

  /** A renewal job: a new certificate, one more year; a failure leaves the seal as it was and is recorded. */
  async function renewSeal(db: Db, renewNo: string) {
    const renewal = await repo.findRenewal(db, renewNo);
    if (!renewal || renewal.status !== 'inProgress') return { renewNo, status: renewal?.status ?? null };
    let issued: Awaited<ReturnType<PkiService['renew']>> | null = null;
    try {
      // Issued before the transaction: the key store writes the new key through its own handle.
      issued = await pki.renew(db, renewal.old_serial);
      const cert = issued;
      const done = await inTransaction(db, async (trx) => {
        const r = await repo.lockRenewal(trx, renewNo);
        if (!r || r.status !== 'inProgress')
          return { renewNo, status: r?.status ?? null, unused: true as const };
        const [seal] = await repo.lockSeals(trx, [r.seal_code]);
        if (!seal) throw new AppError('seal.notFound');
        await moveSeal(
          trx,
          seal,
          'endRenewal',
          systemActor,
          { cert_serial: cert.serial, valid_from: cert.notBefore, valid_to: cert.notAfter },
          {
            detail: {
              renewNo,
              oldSerial: r.old_serial,
              newSerial: cert.serial,
              validTo: cert.notAfter.toISOString(),
            },
            hashes: { certificate: sha256(Buffer.from(cert.der)) },
          },
        );
        await repo.finishRenewal(trx, renewNo, 'success', { newSerial: cert.serial });
        return { renewNo, status: 'success' as const };
      });
      if ('unused' in done) await withdrawCertificate(cert.serial);
      return done;
    } catch (err) {
      if (issued) await withdrawCertificate(issued.serial);
      const reason = err instanceof AppError ? err.key : 'renewal.failed';
      await inTransaction(db, async (trx) => {
        const r = await repo.lockRenewal(trx, renewNo);
        if (!r || r.status !== 'inProgress') return;
        const [seal] = await repo.lockSeals(trx, [r.seal_code]);
        if (seal?.status === 'renewing')
          await moveSeal(trx, seal, 'endRenewal', systemActor, {}, { detail: { renewNo, failed: reason } });
        await repo.finishRenewal(trx, renewNo, 'failed', { error: reason });
      });
      return { renewNo, status: 'failed' as const, error: reason };
    }
  }

  jobs.register(
    RENEW_JOB,
    async (payload, ctx) => renewSeal(ctx.db, (payload as { renewNo: string }).renewNo),
    {
      maxAttempts: 3,
    },
  );

  // --- claim links ---

  async function openClaimFlow(
    db: Db,
    ctx: AuthContext,
    flowId: string,
    expires: number | undefined,
    sig: string | undefined,
  ) {
    const flow = await repo.findClaimFlow(db, flowId);
    const exp = flow ? Math.floor(flow.expires_at.getTime() / 1000) : 0;
    if (
      !flow ||
      flow.organization_id !== ctx.organizationId ||
      expires !== exp ||
      !sig ||
      !safeEqual(sig, claimSig(flow.id, exp)) ||
      exp * 1000 < Date.now()
    )
      throw new AppError('seal.claimLinkInvalid');
    return flow;
  }

  function isLegal(ctx: AuthContext): boolean {
    return ctx.organizationId === null || ctx.roles.includes('legalPerson');
  }

  /** Spec 6: the legal representative claims, whatever a role says (a person claims their own seals). */
  async function mayClaim(db: Db, ctx: AuthContext): Promise<boolean> {
    if (!ctx.organizationId) return true;
    if (!isLegal(ctx)) return false;
    try {
      await requireOrgPermission(db, ctx, 'seal.claim');
      return true;
    } catch {
      return false;
    }
  }

  async function finishMaking(jobIds: string[], async: boolean) {
    if (async) return;
    for (const id of jobIds) await jobs.runNow(id, { waitMs: 60_000 });
  }

  // --- expiry tip ---

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
    makeSeal,
    renewSeal,
    /** For the change service: the same rules and records the applications use. */
    internals: { resolveKind, holderOf, readHandDrawn, moveSeal, sealOut, ownSeal, withdrawCertificate },

    /** How the UKey module reaches an organisation's seals (its SealDirectory), inside its transaction. */
    directory: {
      async findSeal(tx: Db, organizationId: string, sealCode: string) {
        const s = await repo.findSeal(tx, sealCode);
        if (!s || s.organization_id !== organizationId) return undefined;
        const usable =
          contracts.effectiveSealStatus(s.status, s.valid_to) === 'normal' && s.cert_status === 'good';
        return { sealCode: s.seal_code, name: s.name, usable };
      },
      async sealImage(tx: Db, organizationId: string, sealCode: string): Promise<Uint8Array | null> {
        const s = await repo.findSeal(tx, sealCode);
        if (!s || s.organization_id !== organizationId || !s.image_file_key) return null;
        const file = await files.readInternal(tx, s.image_file_key);
        return file && new Uint8Array(file.bytes);
      },
    },

    // --- kinds and previews ---

    async sealTypes(db: Db, ctx: AuthContext, lang: Language, only?: 'person') {
      const a = await access(db, ctx, 'seal.view');
      const subject = only ?? (a.organizationId ? 'organization' : 'person');
      return { list: (await kindOptions(subject, lang)).list };
    },

    async customSealList(db: Db, ctx: AuthContext, lang: Language) {
      const a = await access(db, ctx, 'seal.view');
      const { list, titleMaxLength } = await kindOptions(a.organizationId ? 'organization' : 'person', lang);
      return { list: list.filter((o) => o.custom), titleMaxLength };
    },

    async preview(
      db: Db,
      ctx: AuthContext,
      input: {
        sealKind: SealKind;
        sealType?: DrawType | undefined;
        title?: string | undefined;
        title0?: string | undefined;
        securityLines?: boolean | undefined;
      },
    ) {
      const a = await access(db, ctx, 'seal.apply');
      const subject = a.organizationId ? 'organization' : 'person';
      if (input.sealKind === 'personalHandDrawn') throw new AppError('seal.handDrawnRequired');
      const { sealType } = await resolveKind(subject, input.sealKind, input.sealType, input);
      const holder = await holderOf(db, a);
      const text = sealText(input.sealKind, sealType, {
        name: holder.name,
        uscc: holder.uscc,
        title: input.title,
        title0: input.title0,
      });
      const size = SEAL_TYPE_SIZE_MM[sealType];
      const template = makeTemplate(sealSpec(sealType, text, size, input.securityLines ?? false));
      const png = await renderSeal(template);
      return {
        sealKind: input.sealKind,
        sealType,
        name: sealDisplayName(input.sealKind, text),
        title: text.title,
        ...size,
        template,
        image: `data:image/png;base64,${png.toString('base64')}`,
        imageBytes: png.length,
      };
    },

    // --- applications ---

    async apply(
      db: Db,
      ctx: AuthContext,
      input: {
        applyNo?: string | undefined;
        sealKind?: SealKind | undefined;
        sealType?: DrawType | undefined;
        carrier: 'cloud' | 'ukey';
        title?: string | undefined;
        title0?: string | undefined;
        securityLines?: boolean | undefined;
        handDrawnFileKey?: string | undefined;
        submit: boolean;
      },
      client: ClientInfo,
      lang: Language,
    ) {
      const a = await access(db, ctx, 'seal.apply');
      const actor = actorOf(a, client.ip);
      if (input.applyNo) {
        const applyNo = input.applyNo;
        await ownWorkOrder(db, a, applyNo);
        await inTransaction(db, async (trx) => {
          const w = await repo.lockWorkOrder(trx, applyNo);
          await moveWorkOrder(trx, w!, 'submit', actor, { submitted_at: new Date() });
        });
        return workOrderOut((await repo.findWorkOrder(db, applyNo))!, lang);
      }
      if (!input.sealKind)
        throw new AppError('request.invalid', { details: { reason: 'sealKind or applyNo is required' } });
      const kind = input.sealKind;
      const subject = a.organizationId ? 'organization' : 'person';
      const { sealType } = await resolveKind(subject, kind, input.sealType, input);
      if (subject === 'person' && input.carrier !== 'cloud') throw new AppError('seal.carrierNotAllowed');
      const holder = await holderOf(db, a);
      const text = sealText(kind, sealType, {
        name: holder.name,
        uscc: holder.uscc,
        title: input.title,
        title0: input.title0,
      });
      const size = SEAL_TYPE_SIZE_MM[sealType];
      if (kind === 'personalHandDrawn') await readHandDrawn(db, ctx, input.handDrawnFileKey);
      // Refuse now what production would refuse later (text the layout cannot hold).
      else makeTemplate(sealSpec(sealType, text, size, input.securityLines ?? false));
      const applyNo = newId('apl');
      await inTransaction(db, async (trx) => {
        if (await hasLiveSealOrApplication(trx, a.scope, kind)) throw new AppError('seal.duplicate');
        const status: WorkOrderStatus = input.submit ? 'pendingReview' : 'preCreated';
        await repo.insertWorkOrder(trx, {
          apply_no: applyNo,
          subject,
          organization_id: a.organizationId,
          person_id: a.personId,
          seal_kind: kind,
          seal_type: sealType,
          carrier: input.carrier,
          seal_name: sealDisplayName(kind, text),
          name_text: text.nameText,
          title: text.title,
          title0: text.title0,
          serial_text: text.serial,
          security_lines: input.securityLines ?? false,
          width_mm: size.widthMm,
          height_mm: size.heightMm,
          hand_drawn_file_key: kind === 'personalHandDrawn' ? input.handDrawnFileKey! : null,
          status,
          reject_reason: null,
          reviewer_operator_id: null,
          reviewed_at: null,
          submitted_at: input.submit ? new Date() : null,
          claimed_by_person_id: null,
          claimed_at: null,
          make_job_id: null,
          seal_code: null,
          completed_at: null,
        });
        await recordChange(trx, evidence, {
          actor,
          organizationId: a.organizationId,
          action: 'sealApply.create',
          targetType: 'sealWorkOrder',
          targetId: applyNo,
          subject: `sealApply:${applyNo}`,
          detail: { to: status, sealKind: kind, sealType, carrier: input.carrier },
        });
      });
      return workOrderOut((await repo.findWorkOrder(db, applyNo))!, lang);
    },

    async workOrder(db: Db, ctx: AuthContext, applyNo: string, lang: Language) {
      const a = await access(db, ctx, 'seal.apply');
      return workOrderOut(await ownWorkOrder(db, a, applyNo), lang);
    },

    async workOrders(
      db: Db,
      ctx: AuthContext,
      q: {
        status?: WorkOrderStatus | undefined;
        carrier?: string | undefined;
        sealKind?: string | undefined;
        pageNum: number;
        pageSize: number;
      },
      lang: Language,
    ) {
      const a = await access(db, ctx, 'seal.apply');
      const page = pageArgs(q);
      const { rows, total } = await repo.listWorkOrders(db, {
        ...page,
        scope: a.scope,
        ...(q.status ? { statuses: [q.status] } : {}),
        carrier: q.carrier,
        sealKind: q.sealKind,
      });
      return { total, ...page, list: rows.map((w) => workOrderOut(w, lang)) };
    },

    async revoke(db: Db, ctx: AuthContext, applyNo: string, client: ClientInfo, lang: Language) {
      const a = await access(db, ctx, 'seal.apply');
      await ownWorkOrder(db, a, applyNo);
      await inTransaction(db, async (trx) => {
        const w = await repo.lockWorkOrder(trx, applyNo);
        await moveWorkOrder(trx, w!, 'revoke', actorOf(a, client.ip), { completed_at: new Date() });
      });
      return workOrderOut((await repo.findWorkOrder(db, applyNo))!, lang);
    },

    /** Retry after failed making: a new production job for a claimed order whose job failed. */
    async retry(db: Db, ctx: AuthContext, applyNo: string, client: ClientInfo) {
      const a = await access(db, ctx, 'seal.apply');
      const w = await ownWorkOrder(db, a, applyNo);
      if (w.status !== 'pendingProduction' || !w.claimed_at || w.job_status !== 'failed')
        throw new AppError('seal.retryNotAllowed');
      const jobId = await inTransaction(db, async (trx) => {
        const locked = await repo.lockWorkOrder(trx, applyNo);
        if (!locked || locked.status !== 'pendingProduction' || locked.make_job_id !== w.make_job_id)
          throw new AppError('seal.retryNotAllowed');
        const id = await jobs.enqueue(trx, MAKE_JOB, { applyNo }, { key: applyNo });
        await repo.updateWorkOrder(trx, applyNo, { make_job_id: id });
        await recordChange(trx, evidence, {
          actor: actorOf(a, client.ip),
          organizationId: w.organization_id,
          action: 'sealApply.retry',
          targetType: 'sealWorkOrder',
          targetId: applyNo,
          subject: `sealApply:${applyNo}`,
          detail: { previousJob: w.make_job_id, job: id, previousError: w.job_error },
        });
        return id;
      });
      const isAsync = await config.flag('ASYNCHRONOUS_SEAL_MAKE', false);
      await finishMaking([jobId], isAsync);
      return { async: isAsync, list: [receiveOut((await repo.findWorkOrder(db, applyNo))!)] };
    },

    /** The making job's state and progress, for the waiting page. */
    async checkAsync(db: Db, ctx: AuthContext, applyNo: string) {
      const a = await access(db, ctx, 'seal.view');
      return receiveOut(await ownWorkOrder(db, a, applyNo));
    },

    // --- operator review ---

    reviewQueue: {
      async list(
        db: Db,
        q: { status: 'pending' | 'approved' | 'rejected' | 'all'; page: number; size: number },
      ) {
        const statuses: Record<typeof q.status, readonly WorkOrderStatus[]> = {
          pending: ['pendingReview'],
          approved: ['pendingProduction', 'made'],
          rejected: ['rejected'],
          all: ['pendingReview', 'pendingProduction', 'made', 'rejected', 'withdrawn'],
        };
        const { rows, total } = await repo.listWorkOrders(db, {
          statuses: statuses[q.status],
          pageNum: Math.max(1, q.page),
          pageSize: Math.min(100, Math.max(1, q.size)),
          oldestFirst: q.status === 'pending',
        });
        return { total, list: rows.map((w) => ({ applicationId: w.apply_no, ...workOrderOut(w, 'zh-CN') })) };
      },
      async approve(db: Db, applyNo: string, operatorId: string) {
        return inTransaction(db, async (trx) => {
          const w = await repo.lockWorkOrder(trx, applyNo);
          if (!w) throw new AppError('seal.workOrderNotFound');
          await moveWorkOrder(
            trx,
            w,
            'approve',
            { personId: null, operatorId, ip: null },
            {
              reviewer_operator_id: operatorId,
              reviewed_at: new Date(),
            },
          );
          return { organizationId: w.organization_id };
        });
      },
      async reject(db: Db, applyNo: string, operatorId: string, reason: string) {
        const why = reason.trim().slice(0, 500);
        if (!why) throw new AppError('request.invalid', { details: { reason: 'a reason is required' } });
        return inTransaction(db, async (trx) => {
          const w = await repo.lockWorkOrder(trx, applyNo);
          if (!w) throw new AppError('seal.workOrderNotFound');
          await moveWorkOrder(
            trx,
            w,
            'reject',
            { personId: null, operatorId, ip: null },
            {
              reviewer_operator_id: operatorId,
              reviewed_at: new Date(),
              reject_reason: why,
              completed_at: new Date(),
            },
            { reason: why },
          );
          return { organizationId: w.organization_id };
        });
      },
    },

    // --- claim ---

    /** A signed, expiring link for the legal representative (only an organisation's seals need one). */
    async claimLink(db: Db, ctx: AuthContext, applyNos: string[], client: ClientInfo) {
      const a = await access(db, ctx, 'seal.apply');
      if (!a.organizationId) throw new AppError('perm.personNotAllowed');
      const unique = [...new Set(applyNos)].slice(0, 20);
      const rows = await repo.findWorkOrders(db, unique);
      if (rows.length !== unique.length || rows.some((w) => !inScope(a, w)))
        throw new AppError('seal.workOrderNotFound');
      if (rows.some((w) => w.status !== 'pendingProduction' || w.claimed_at))
        throw new AppError('seal.nothingToClaim');
      const id = newId('gsf');
      const expiresAt = new Date(Math.floor((Date.now() + CLAIM_LINK_DAYS * DAY) / 1000) * 1000);
      const expires = Math.floor(expiresAt.getTime() / 1000);
      await inTransaction(db, async (trx) => {
        await repo.insertClaimFlow(trx, {
          id,
          organizationId: a.organizationId!,
          applyNos: unique,
          createdBy: a.personId,
          expiresAt,
        });
        await recordChange(trx, evidence, {
          actor: actorOf(a, client.ip),
          organizationId: a.organizationId,
          action: 'sealClaim.link',
          targetType: 'sealClaimFlow',
          targetId: id,
          subject: `sealClaim:${id}`,
          detail: { applyNos: unique, expiresAt: expiresAt.toISOString() },
        });
      });
      const sig = claimSig(id, expires);
      return {
        getSealFlowId: id,
        url: `/getSealFlow?getSealFlowId=${id}&expires=${expires}&sig=${sig}`,
        expires,
        sig,
        expiresAt: expiresAt.toISOString(),
      };
    },

    async identityCheck(db: Db, ctx: AuthContext, flowId: string, q: { expires: number; sig: string }) {
      requireRealName(ctx);
      const flow = await openClaimFlow(db, ctx, flowId, q.expires, q.sig);
      const legal = await repo.legalRepresentative(db, flow.organization_id);
      return {
        isLegalPerson: isLegal(ctx),
        canClaim: isLegal(ctx) && (await mayClaim(db, ctx)),
        organizeName: flow.org_name,
        legalName: legal
          ? `${[...legal.name][0] ?? ''}${'*'.repeat(Math.max(1, [...legal.name].length - 1))}`
          : null,
        flowStatus: flow.used_at ? ('done' as const) : ('open' as const),
        expiresAt: flow.expires_at.toISOString(),
      };
    },

    async claimFlowSeals(
      db: Db,
      ctx: AuthContext,
      flowId: string,
      q: { expires: number; sig: string },
      lang: Language,
    ) {
      requireRealName(ctx);
      const flow = await openClaimFlow(db, ctx, flowId, q.expires, q.sig);
      const rows = await repo.findWorkOrders(db, flow.apply_nos);
      return {
        getSealFlowId: flow.id,
        organizeId: flow.organization_id,
        organizeName: flow.org_name,
        expiresAt: flow.expires_at.toISOString(),
        isLegalPerson: isLegal(ctx),
        list: rows.map((w) => workOrderOut(w, lang)),
      };
    },

    async receiveStatus(
      db: Db,
      ctx: AuthContext,
      q: {
        applyNo?: string | undefined;
        getSealFlowId?: string | undefined;
        expires?: number | undefined;
        sig?: string | undefined;
      },
    ) {
      const a = await access(db, ctx, 'seal.view');
      let rows: repo.WorkOrderView[];
      if (q.getSealFlowId) {
        const flow = await openClaimFlow(db, ctx, q.getSealFlowId, q.expires, q.sig);
        rows = await repo.findWorkOrders(db, flow.apply_nos);
      } else if (q.applyNo) rows = [await ownWorkOrder(db, a, q.applyNo)];
      else
        throw new AppError('request.invalid', {
          details: { reason: 'applyNo or getSealFlowId is required' },
        });
      return { isLegalPerson: isLegal(ctx), canClaim: await mayClaim(db, ctx), list: rows.map(receiveOut) };
    },

    /**
     * The claim: only the legal representative (a person for their own seal), after accepting the
     * agreement. Production starts at once: inline, or as a job when ASYNCHRONOUS_SEAL_MAKE is on.
     */
    async claim(
      db: Db,
      ctx: AuthContext,
      input: {
        getSealFlowId?: string | undefined;
        expires?: number | undefined;
        sig?: string | undefined;
        applyNos?: string[] | undefined;
      },
      client: ClientInfo,
    ) {
      requireRealName(ctx);
      let flowId: string | null = null;
      let applyNos: string[];
      if (input.getSealFlowId) {
        const flow = await openClaimFlow(db, ctx, input.getSealFlowId, input.expires, input.sig);
        flowId = flow.id;
        applyNos = flow.apply_nos;
      } else if (input.applyNos) applyNos = [...new Set(input.applyNos)];
      else
        throw new AppError('request.invalid', {
          details: { reason: 'getSealFlowId or applyNos is required' },
        });
      const a = await access(db, ctx, 'seal.claim');
      if (!(await mayClaim(db, ctx))) throw new AppError('perm.sealClaim');
      const rows = await repo.findWorkOrders(db, applyNos);
      if (rows.length !== applyNos.length || rows.some((w) => !inScope(a, w)))
        throw new AppError('seal.workOrderNotFound');
      const claimable = rows.filter((w) => w.status === 'pendingProduction' && !w.claimed_at);
      if (claimable.length === 0) throw new AppError('seal.nothingToClaim');
      const actor = actorOf(a, client.ip);
      const jobIds = await inTransaction(db, async (trx) => {
        const ids: string[] = [];
        for (const c of claimable) {
          const w = await repo.lockWorkOrder(trx, c.apply_no);
          if (!w || w.status !== 'pendingProduction' || w.claimed_at)
            throw new AppError('seal.workOrderStatus');
          const sealCode = newId('seal');
          await repo.insertSeal(trx, {
            seal_code: sealCode,
            subject: w.subject,
            organization_id: w.organization_id,
            person_id: w.person_id,
            seal_kind: w.seal_kind,
            seal_type: w.seal_type,
            carrier: w.carrier,
            name: w.seal_name,
            name_text: w.name_text,
            title: w.title,
            title0: w.title0,
            template: null,
            image_file_key: null,
            image_sha256: null,
            width_mm: w.width_mm,
            height_mm: w.height_mm,
            status: 'making',
            cert_serial: null,
            valid_from: null,
            valid_to: null,
            apply_no: w.apply_no,
          });
          const jobId = await jobs.enqueue(trx, MAKE_JOB, { applyNo: w.apply_no }, { key: w.apply_no });
          await repo.updateWorkOrder(trx, w.apply_no, {
            claimed_by_person_id: a.personId,
            claimed_at: new Date(),
            seal_code: sealCode,
            make_job_id: jobId,
          });
          await recordChange(trx, evidence, {
            actor,
            organizationId: w.organization_id,
            action: 'sealApply.claim',
            targetType: 'sealWorkOrder',
            targetId: w.apply_no,
            subject: `sealApply:${w.apply_no}`,
            detail: { sealCode, agreementAccepted: true, ...(flowId ? { getSealFlowId: flowId } : {}) },
          });
          ids.push(jobId);
        }
        if (flowId) await repo.markClaimFlowUsed(trx, flowId);
        return ids;
      });
      const isAsync = await config.flag('ASYNCHRONOUS_SEAL_MAKE', false);
      await finishMaking(jobIds, isAsync);
      return { async: isAsync, list: (await repo.findWorkOrders(db, applyNos)).map(receiveOut) };
    },

    // --- seals ---

    async list(
      db: Db,
      ctx: AuthContext,
      q: {
        status?: SealStatus | undefined;
        sealKind?: string | undefined;
        carrier?: string | undefined;
        keyword?: string | undefined;
        pageNum: number;
        pageSize: number;
      },
      lang: Language,
    ) {
      const a = await access(db, ctx, 'seal.view');
      const page = pageArgs(q);
      const now = new Date();
      const { rows, total } = await repo.listSeals(db, {
        ...page,
        scope: a.scope,
        now,
        ...(q.status === 'expired' ? { expired: true } : q.status ? { statuses: [q.status] } : {}),
        sealKind: q.sealKind,
        carrier: q.carrier,
        keyword: q.keyword,
      });
      return { total, ...page, list: await Promise.all(rows.map((s) => sealOut(db, ctx, s, lang, now))) };
    },

    async detail(db: Db, ctx: AuthContext, sealCode: string, lang: Language) {
      const a = await access(db, ctx, 'seal.view');
      const s = await ownSeal(db, a, sealCode);
      const renewals = await repo.listRenewals(db, sealCode);
      return {
        ...(await sealOut(db, ctx, s, lang)),
        pendingChangeNo: await repo.pendingChangeOf(db, sealCode),
        renewals: renewals.map((r) => ({
          renewNo: r.renew_no,
          status: r.status,
          oldSerial: r.old_serial,
          newSerial: r.new_serial,
          error: r.error,
          createTime: r.created_at.toISOString(),
        })),
      };
    },

    /** Seals of one kind and open applications for it: whether another may be applied for. */
    async kindStatus(db: Db, ctx: AuthContext, kind: SealKind) {
      const a = await access(db, ctx, 'seal.view');
      const now = new Date();
      const seals = await repo.sealsOfKind(db, a.scope, kind);
      const open = await repo.openWorkOrdersOfKind(db, a.scope, kind);
      const subject = a.organizationId ? 'organization' : 'person';
      return {
        sealKind: kind,
        seals: seals.map((s) => ({
          sealCode: s.seal_code,
          name: s.name,
          status: contracts.effectiveSealStatus(s.status, s.valid_to, now),
        })),
        openApplyNos: open,
        canApply:
          SEAL_KIND_INFO[kind].subject === subject && !(await hasLiveSealOrApplication(db, a.scope, kind)),
      };
    },

    /**
     * Enable, disable, freeze or cancel seals, singly or in batch, all or none: the certificate is
     * released (enable), held (disable, freeze) or revoked (cancel), which OCSP and the CRL then show.
     */
    async changeStatus(
      db: Db,
      ctx: AuthContext,
      sealCodes: string[],
      op: 'enable' | 'disable' | 'freeze' | 'invalidate',
      client: ClientInfo,
    ) {
      const a = await access(db, ctx, 'seal.manage');
      const codes = [...new Set(sealCodes)];
      const actor = actorOf(a, client.ip);
      return inTransaction(db, async (trx) => {
        const rows = await repo.lockSeals(trx, codes);
        if (rows.length !== codes.length || rows.some((s) => !inScope(a, s)))
          throw new AppError('seal.notFound');
        const list = [];
        for (const s of rows) {
          const seen = contracts.effectiveSealStatus(s.status, s.valid_to);
          // Cancelling an expired seal scraps it; a seal in use is voided.
          const action: contracts.SealAction =
            op === 'invalidate' ? (seen === 'expired' ? 'scrap' : 'invalidate') : op;
          const to = await moveSeal(trx, s, action, actor, {}, { detail: { certSerial: s.cert_serial } });
          let certStatus: 'good' | 'hold' | 'revoked' = 'good';
          if (s.cert_serial) {
            const cert = await pki.certificate(trx, s.cert_serial);
            if (action === 'enable' && cert.status === 'hold') await pki.release(trx, s.cert_serial);
            if ((action === 'disable' || action === 'freeze') && cert.status === 'good')
              await pki.hold(trx, s.cert_serial);
            if ((action === 'invalidate' || action === 'scrap') && cert.status !== 'revoked')
              await pki.revoke(trx, s.cert_serial, 'cessationOfOperation');
            certStatus = (await pki.certificate(trx, s.cert_serial)).status;
          }
          list.push({
            sealCode: s.seal_code,
            status: contracts.effectiveSealStatus(to, s.valid_to),
            certStatus,
          });
        }
        return { list };
      });
    },

    /** Renewal (spec 5 and 9): within 30 days of expiry, one more year, a new certificate. */
    async renew(db: Db, ctx: AuthContext, sealCode: string, client: ClientInfo) {
      const a = await access(db, ctx, 'seal.manage');
      await ownSeal(db, a, sealCode);
      const renewNo = newId('rnw');
      const jobId = await inTransaction(db, async (trx) => {
        const [s] = await repo.lockSeals(trx, [sealCode]);
        if (!s?.cert_serial) throw new AppError('seal.statusInvalid');
        // The seal's table first (a cancelled seal is not renewed), then the certificate's window.
        transition(
          SEAL_MACHINE,
          contracts.effectiveSealStatus(s.status, s.valid_to),
          'startRenewal',
          'seal.statusInvalid',
        );
        const cert = await pki.certificate(trx, s.cert_serial);
        if (cert.status !== 'good') throw new AppError('renewal.certInvalid');
        if (cert.not_after.getTime() - Date.now() > LIMITS.renewalWindowDays * DAY)
          throw new AppError('renewal.notDue');
        await moveSeal(
          trx,
          s,
          'startRenewal',
          actorOf(a, client.ip),
          {},
          { detail: { renewNo, certSerial: s.cert_serial } },
        );
        await repo.insertRenewal(trx, {
          renewNo,
          sealCode,
          oldSerial: s.cert_serial,
          requestedBy: a.personId,
        });
        return jobs.enqueue(trx, RENEW_JOB, { renewNo }, { key: sealCode });
      });
      await jobs.runNow(jobId, { waitMs: 60_000 });
      const r = (await repo.findRenewal(db, renewNo))!;
      const s = (await repo.findSeal(db, sealCode))!;
      if (r.status === 'failed')
        throw new AppError(
          r.error === 'renewal.notDue' || r.error === 'renewal.certInvalid' ? r.error : 'renewal.failed',
        );
      return {
        renewNo,
        status: r.status,
        sealCode,
        certSerial: s.cert_serial,
        validFrom: iso(s.valid_from),
        validTo: iso(s.valid_to),
      };
    },

    async available(db: Db, ctx: AuthContext, sealCode: string) {
      const a = await access(db, ctx, 'seal.view');
      const s = await ownSeal(db, a, sealCode);
      const status = contracts.effectiveSealStatus(s.status, s.valid_to);
      const reason =
        status !== 'normal' ? 'seal.notUsable' : s.cert_status !== 'good' ? 'seal.notUsable' : null;
      return { sealCode, available: reason === null, reason };
    },

    // --- expiry tip ---

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

export type SealsService = ReturnType<typeof createSealsService>;
