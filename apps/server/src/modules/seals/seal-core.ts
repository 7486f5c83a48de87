/**
 * What the parts of the seal service share: their dependencies, the kinds and drawing types on offer,
 * the holder a seal names, loading a work order or seal within the caller's scope, the moves of both
 * through their tables (each recorded), and the certificate withdrawn when a seal does not take it.
 */
import { AppError, contracts, type Language } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { ConfigService } from '../config/config.service';
import type { EvidenceService } from '../evidence/evidence.service';
import type { FilesService } from '../files/files.service';
import type { JobRunner } from '../jobs/jobs.service';
import type { OrganizesService } from '../organizes/organizes.service';
import type { PkiService } from '../pki/pki.service';
import type { WorkPool } from '../../workers/work-pool';
import { createHandDrawn } from './hand-drawn';
import { inScope, recordChange, transition, type Access, type Actor } from './seal-context';
import * as repo from './seals.repository';

type SealKind = contracts.SealKind;
type DrawType = contracts.SealDrawType;
type WorkOrderStatus = contracts.WorkOrderStatus;
type SealStatus = contracts.SealStatus;
const { SEAL_KIND_INFO, SEAL_TYPE_SIZE_MM, WORK_ORDER_MACHINE, SEAL_MACHINE } = contracts;

export const DAY = 86_400_000;

/** Kinds an organisation (or a person) holds one of at a time. */
export const SINGLE_KINDS: ReadonlySet<SealKind> = new Set([
  'legalName',
  'finance',
  'invoice',
  'personalName',
  'personalHandDrawn',
]);
/** Seals that no longer count as held: a new one of a single kind may be applied for. */
export const CLOSED_SEAL: ReadonlySet<SealStatus> = new Set(['voided', 'scrapped']);
export const MAKE_JOB = 'seal.make';
export const RENEW_JOB = 'seal.renew';

export interface SealsDeps {
  db: Db;
  pki: PkiService;
  evidence: EvidenceService;
  files: FilesService;
  config: ConfigService;
  organizes: OrganizesService;
  jobs: JobRunner;
  /** Hand-drawn pictures are fitted to the seal's size there (hand-drawn.ts). */
  work: Pick<WorkPool, 'fitPictureToSeal'>;
  secret: string;
  log: { warn(obj: object, msg: string): void };
}

export interface ClientInfo {
  ip: string | null;
}

export function createSealCore(deps: SealsDeps) {
  const { pki, evidence, files, config, organizes, jobs } = deps;
  const handDrawn = createHandDrawn({ files, work: deps.work });

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

  /** A certificate issued for a seal that did not take it (a race, a failure): revoked, never left good. */
  async function withdrawCertificate(serial: string) {
    await pki
      .revoke(deps.db, serial, 'cessationOfOperation')
      .catch((err: unknown) => deps.log.warn({ err, serial }, 'could not revoke an unused seal certificate'));
  }

  /** Production inline: each claimed order's job is run now, unless seals are made asynchronously. */
  async function finishMaking(jobIds: string[], async: boolean) {
    if (async) return;
    for (const id of jobIds) await jobs.runNow(id, { waitMs: 60_000 });
  }

  return {
    handDrawn,
    kindOptions,
    resolveKind,
    holderOf,
    ownWorkOrder,
    ownSeal,
    moveWorkOrder,
    moveSeal,
    hasLiveSealOrApplication,
    withdrawCertificate,
    finishMaking,
  };
}

export type SealCore = ReturnType<typeof createSealCore>;
