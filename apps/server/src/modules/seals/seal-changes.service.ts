/**
 * Seal changes: ordinary (an organisation's seal redrawn with its current name, or another style or
 * title), personal (a name seal redrawn with the person's current name) and hand-painted (a new
 * uploaded image). The new image is drawn at submission so the reviewer sees it, and the seal's image and
 * template at that moment are kept with the change, so the record shows both sides in every status
 * (files are never deleted, so the kept key stays readable). The seal waits in
 * change-in-approval until the operator approves (the seal takes the new look, and a new certificate
 * when its name changed), returns it, or the applicant revokes it: either way the seal is normal again.
 */
import { AppError, contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { inTransaction } from '../../lib/tx';
import type { EvidenceService } from '../evidence/evidence.service';
import type { FilesService } from '../files/files.service';
import type { JobRunner } from '../jobs/jobs.service';
import type { PkiService } from '../pki/pki.service';
import type { SubjectSpec } from '@openseal/pki';
import type { AuthContext } from '../session/session.service';
import {
  access,
  actorOf,
  inScope,
  iso,
  pageArgs,
  recordChange,
  sha256,
  systemActor,
  transition,
  type Access,
  type Actor,
} from './seal-context';
import { createSealRefreshes } from './seal-refresh.service';
import { makeTemplate, renderSeal, sealDisplayName, sealSpec, sealText } from './seal-render';
import type { SealsService } from './seals.service';
import * as repo from './seals.repository';

type ChangeType = 'ordinary' | 'personal' | 'handPainted';
const RECERTIFY_JOB = 'seal.recertify';
type DrawType = contracts.SealDrawType;
const { CHANGE_MACHINE, SEAL_KIND_INFO, SEAL_TYPE_SIZE_MM } = contracts;

/** Which change fits which seal kind. */
function changeTypeFits(type: ChangeType, kind: contracts.SealKind): boolean {
  switch (type) {
    case 'ordinary':
      return SEAL_KIND_INFO[kind].subject === 'organization';
    case 'personal':
      return kind === 'personalName';
    case 'handPainted':
      return kind === 'personalHandDrawn';
    default: {
      const never: never = type;
      return never;
    }
  }
}

export function createSealChangesService(deps: {
  seals: SealsService;
  jobs: JobRunner;
  pki: PkiService;
  evidence: EvidenceService;
  files: FilesService;
}) {
  const { pki, evidence, files } = deps;
  const { resolveKind, holderOf, handDrawn, moveSeal, ownSeal, withdrawCertificate } = deps.seals.internals;

  /** Issues the certificate of a renamed seal and supersedes the old one; safe to run again. */
  async function recertify(db: Db, sealCode: string, changeNo: string) {
    const s = await repo.findSeal(db, sealCode);
    if (!s?.cert_serial) return { sealCode, status: 'skipped' };
    const old = await pki.certificate(db, s.cert_serial);
    const spec = JSON.parse(old.subject_spec) as SubjectSpec;
    const commonName = [...s.name].slice(0, 64).join('');
    if (spec.commonName === commonName) return { sealCode, status: 'current' };
    const cert = await pki.issue(db, {
      profile: old.profile as 'org-seal' | 'person-seal',
      subject: { ...spec, commonName },
      owner: { type: old.owner_type, id: old.owner_id },
      sealCode,
      notAfter: old.not_after,
    });
    const taken = await inTransaction(db, async (trx) => {
      const [locked] = await repo.lockSeals(trx, [sealCode]);
      if (!locked || locked.cert_serial !== old.serial) return false;
      await repo.setSealCertificate(trx, sealCode, old.serial, {
        serial: cert.serial,
        validFrom: cert.notBefore,
        validTo: cert.notAfter,
      });
      if (old.status !== 'revoked') await pki.revoke(trx, old.serial, 'superseded');
      await recordChange(trx, evidence, {
        actor: systemActor,
        organizationId: locked.organization_id,
        action: 'seal.recertify',
        targetType: 'seal',
        targetId: sealCode,
        subject: `seal:${sealCode}`,
        detail: { changeNo, oldSerial: old.serial, newSerial: cert.serial },
        hashes: { certificate: sha256(Buffer.from(cert.der)) },
      });
      return true;
    }).catch(async (err: unknown) => {
      await withdrawCertificate(cert.serial);
      throw err;
    });
    if (!taken) await withdrawCertificate(cert.serial);
    return { sealCode, status: taken ? 'recertified' : 'skipped', certSerial: cert.serial };
  }
  deps.jobs.register(
    RECERTIFY_JOB,
    async (payload, ctx) => {
      const p = payload as { sealCode: string; changeNo: string };
      return recertify(ctx.db, p.sealCode, p.changeNo);
    },
    { maxAttempts: 5 },
  );

  /** The change's pictures are the seal's: read through the seal, by whoever may view it. */
  function previewUrl(ctx: AuthContext | null, sealCode: string, fileKey: string) {
    if (!ctx) return null;
    return files.urlThrough({ kind: 'person', ctx }, fileKey, { via: 'seal', id: sealCode }).url;
  }

  async function out(db: Db, ctx: AuthContext | null, c: repo.ChangeView) {
    return {
      changeNo: c.change_no,
      sealCode: c.seal_code,
      changeType: c.change_type,
      status: c.status,
      before: {
        name: c.old_name,
        sealType: c.old_seal_type as DrawType,
        title: c.old_title,
        title0: c.old_title0,
      },
      after: {
        name: c.new_name,
        sealType: c.new_seal_type as DrawType,
        title: c.new_title,
        title0: c.new_title0,
      },
      reason: c.reason,
      rejectReason: c.reject_reason,
      applicantName: c.applicant_name,
      createTime: c.created_at.toISOString(),
      reviewTime: iso(c.reviewed_at),
      previewUrl: previewUrl(ctx, c.seal_code, c.new_image_file_key),
      beforeImageUrl: c.old_image_file_key ? previewUrl(ctx, c.seal_code, c.old_image_file_key) : null,
      actions: contracts.allowedActions(CHANGE_MACHINE, c.status),
    };
  }

  async function ownChange(db: Db, a: Access, changeNo: string) {
    const c = await repo.findChange(db, changeNo);
    if (!c || !inScope(a, c)) throw new AppError('sealChange.notFound');
    return c;
  }

  /** Ends a pending change (approve, return, revoke) and brings its seal back to normal. */
  async function endChange(
    trx: Db,
    changeNo: string,
    action: contracts.ChangeAction,
    actor: Actor,
    extra: { rejectReason?: string } = {},
  ) {
    const c = await repo.lockChange(trx, changeNo);
    if (!c) throw new AppError('sealChange.notFound');
    const to = transition(CHANGE_MACHINE, c.status, action, 'sealChange.status');
    const [seal] = await repo.lockSeals(trx, [c.seal_code]);
    if (!seal) throw new AppError('seal.notFound');
    let patch: Parameters<typeof repo.moveSeal>[4] = {};
    const hashes: Record<string, string> = {};
    if (action === 'approve') {
      patch = {
        name: c.new_name,
        name_text: c.new_name_text,
        seal_type: c.new_seal_type,
        title: c.new_title,
        title0: c.new_title0,
        template: c.new_template,
        image_file_key: c.new_image_file_key,
        image_sha256: c.new_image_sha256,
        width_mm: SEAL_TYPE_SIZE_MM[c.new_seal_type as DrawType].widthMm,
        height_mm: SEAL_TYPE_SIZE_MM[c.new_seal_type as DrawType].heightMm,
      };
      hashes.image = c.new_image_sha256;
      // The certificate names the seal: a renamed seal gets a new certificate, to the same end date, from
      // a job queued with this change (the key store cannot write inside this transaction).
      if (c.new_name !== c.old_name && seal.cert_serial)
        await deps.jobs.enqueue(
          trx,
          RECERTIFY_JOB,
          { sealCode: seal.seal_code, changeNo },
          { key: seal.seal_code },
        );
    }
    await moveSeal(trx, seal, 'endChange', actor, patch, {
      detail: { changeNo, change: to },
      ...(Object.keys(hashes).length ? { hashes } : {}),
    });
    if (
      !(await repo.moveChange(trx, changeNo, c.status, to, {
        ...(actor.operatorId ? { reviewer_operator_id: actor.operatorId, reviewed_at: new Date() } : {}),
        ...(extra.rejectReason ? { reject_reason: extra.rejectReason } : {}),
      }))
    )
      throw new AppError('sealChange.status');
    await recordChange(trx, evidence, {
      actor,
      organizationId: c.organization_id,
      action: `sealChange.${action}`,
      targetType: 'sealChange',
      targetId: changeNo,
      subject: `seal:${c.seal_code}`,
      detail: { changeNo, from: c.status, to, ...(extra.rejectReason ? { reason: extra.rejectReason } : {}) },
    });
    return { organizationId: c.organization_id };
  }

  const changes = {
    async submit(
      db: Db,
      ctx: AuthContext,
      type: ChangeType,
      input: {
        sealCode: string;
        sealType?: DrawType | undefined;
        title?: string | undefined;
        title0?: string | undefined;
        securityLines?: boolean | undefined;
        handDrawnFileKey?: string | undefined;
        reason: string;
      },
      client: { ip: string | null },
    ) {
      const a = await access(db, ctx, 'seal.manage');
      const s = await ownSeal(db, a, input.sealCode);
      const kind = s.seal_kind as contracts.SealKind;
      if (!changeTypeFits(type, kind)) throw new AppError('sealChange.kindMismatch');
      if (contracts.effectiveSealStatus(s.status, s.valid_to) !== 'normal')
        throw new AppError('seal.statusInvalid');
      let next: {
        name: string;
        nameText: string;
        sealType: DrawType;
        title: string | null;
        title0: string | null;
        template: string | null;
        image: { fileKey: string; sha256: string };
      };
      if (type === 'handPainted') {
        // Redrawn at the seal's own size (hand-drawn.ts), as at application.
        const size = { widthMm: s.width_mm, heightMm: s.height_mm };
        const picture = await handDrawn.fit(db, ctx, input.handDrawnFileKey, size);
        next = {
          name: s.name,
          nameText: s.name_text,
          sealType: s.seal_type as DrawType,
          title: s.title,
          title0: s.title0,
          template: null,
          image: picture,
        };
        if (next.image.sha256 === s.image_sha256) throw new AppError('sealChange.nothingChanged');
      } else {
        const subject = SEAL_KIND_INFO[kind].subject;
        const custom = SEAL_KIND_INFO[kind].custom;
        const wanted = input.sealType ?? (s.seal_type as DrawType);
        const titles = {
          title: custom ? (input.title ?? s.title ?? undefined) : undefined,
          title0: wanted === 4 ? (input.title0 ?? s.title0 ?? undefined) : undefined,
        };
        const { sealType } = await resolveKind(subject, kind, type === 'personal' ? 3 : wanted, titles);
        const holder = await holderOf(db, { organizationId: s.organization_id, personId: s.person_id });
        const text = sealText(kind, sealType, { name: holder.name, uscc: holder.uscc, ...titles });
        const name = sealDisplayName(kind, text);
        if (
          name === s.name &&
          sealType === s.seal_type &&
          text.title === s.title &&
          text.title0 === s.title0 &&
          input.securityLines === undefined
        )
          throw new AppError('sealChange.nothingChanged');
        const template = makeTemplate(
          sealSpec(sealType, text, SEAL_TYPE_SIZE_MM[sealType], input.securityLines ?? false),
        );
        const png = await renderSeal(template);
        const stored = await files.upload(db, ctx, {
          bytes: png,
          fileName: `${s.seal_code}-change.png`,
          purpose: 'sealImage',
        });
        next = {
          name,
          nameText: text.nameText,
          sealType,
          title: text.title,
          title0: text.title0,
          template: JSON.stringify(template),
          image: { fileKey: stored.fileKey, sha256: stored.sha256 },
        };
      }
      const changeNo = newId('chg');
      const actor = actorOf(a, client.ip);
      await inTransaction(db, async (trx) => {
        const [locked] = await repo.lockSeals(trx, [s.seal_code]);
        await moveSeal(trx, locked!, 'applyChange', actor, {}, { detail: { changeNo, changeType: type } });
        await repo.insertChange(trx, {
          change_no: changeNo,
          seal_code: s.seal_code,
          organization_id: s.organization_id,
          person_id: a.personId,
          change_type: type,
          old_name: s.name,
          old_seal_type: s.seal_type,
          old_title: s.title,
          old_title0: s.title0,
          // The look being replaced, kept so the record still shows it once the seal has the new one.
          old_template: locked!.template,
          old_image_file_key: locked!.image_file_key,
          old_image_sha256: locked!.image_sha256,
          new_name: next.name,
          new_name_text: next.nameText,
          new_seal_type: next.sealType,
          new_title: next.title,
          new_title0: next.title0,
          new_template: next.template,
          new_image_file_key: next.image.fileKey,
          new_image_sha256: next.image.sha256,
          reason: input.reason,
          status: 'pendingReview',
          reject_reason: null,
          reviewer_operator_id: null,
          reviewed_at: null,
        });
        await recordChange(trx, evidence, {
          actor,
          organizationId: s.organization_id,
          action: 'sealChange.submit',
          targetType: 'sealChange',
          targetId: changeNo,
          subject: `seal:${s.seal_code}`,
          detail: { changeNo, changeType: type, to: 'pendingReview', newName: next.name },
          hashes: { image: next.image.sha256 },
        });
      });
      return out(db, ctx, (await repo.findChange(db, changeNo))!);
    },

    async detail(db: Db, ctx: AuthContext, changeNo: string) {
      const a = await access(db, ctx, 'seal.view');
      return out(db, ctx, await ownChange(db, a, changeNo));
    },

    async list(
      db: Db,
      ctx: AuthContext,
      q: {
        status?: repo.ChangeRow['status'] | undefined;
        sealCode?: string | undefined;
        pageNum: number;
        pageSize: number;
      },
    ) {
      const a = await access(db, ctx, 'seal.view');
      const page = pageArgs(q);
      const { rows, total } = await repo.listChanges(db, {
        ...page,
        scope: a.scope,
        ...(q.status ? { statuses: [q.status] } : {}),
        sealCode: q.sealCode,
      });
      return { total, ...page, list: await Promise.all(rows.map((c) => out(db, ctx, c))) };
    },

    /** cancelChangeFlow: the applicant side revokes a pending change; the seal is normal again. */
    async cancel(db: Db, ctx: AuthContext, changeNo: string, client: { ip: string | null }) {
      const a = await access(db, ctx, 'seal.manage');
      await ownChange(db, a, changeNo);
      await inTransaction(db, (trx) => endChange(trx, changeNo, 'revoke', actorOf(a, client.ip)));
      return out(db, ctx, (await repo.findChange(db, changeNo))!);
    },

    /** Personal name seals whose name no longer matches the person's (after a real-name change). */
    async checkPersonSealNew(db: Db, ctx: AuthContext) {
      const a = await access(db, ctx, 'seal.view');
      if (a.organizationId) return { list: [] };
      const rows = await repo.personalNameSeals(db, a.personId);
      return {
        list: rows.map((r) => ({
          sealCode: r.seal_code,
          sealName: r.name,
          personName: r.person_name,
          needsChange: r.name_text !== r.person_name,
        })),
      };
    },

    reviewQueue: {
      async list(
        db: Db,
        q: { status: 'pending' | 'approved' | 'rejected' | 'all'; page: number; size: number },
      ) {
        const statuses: Record<typeof q.status, readonly repo.ChangeRow['status'][]> = {
          pending: ['pendingReview'],
          approved: ['changed'],
          rejected: ['returned'],
          all: ['pendingReview', 'changed', 'returned', 'revoked'],
        };
        const { rows, total } = await repo.listChanges(db, {
          statuses: statuses[q.status],
          pageNum: Math.max(1, q.page),
          pageSize: Math.min(100, Math.max(1, q.size)),
          oldestFirst: q.status === 'pending',
        });
        const list = [];
        for (const c of rows)
          list.push({
            applicationId: c.change_no,
            organizeId: c.organization_id,
            organizeName: c.org_name,
            ...(await out(db, null, c)),
          });
        return { total, list };
      },
      approve: (db: Db, changeNo: string, operatorId: string) =>
        inTransaction(db, (trx) =>
          endChange(trx, changeNo, 'approve', { personId: null, operatorId, ip: null }),
        ),
      reject: (db: Db, changeNo: string, operatorId: string, reason: string) => {
        const why = reason.trim().slice(0, 500);
        if (!why) throw new AppError('request.invalid', { details: { reason: 'a reason is required' } });
        return inTransaction(db, (trx) =>
          endChange(trx, changeNo, 'return', { personId: null, operatorId, ip: null }, { rejectReason: why }),
        );
      },
    },
  };
  // Refreshed impressions and hand-drawn previews (seal-refresh.service.ts) submit through `submit`.
  return {
    ...changes,
    ...createSealRefreshes({ files, internals: deps.seals.internals, submit: changes.submit }),
  };
}

export type SealChangesService = ReturnType<typeof createSealChangesService>;
