/**
 * UKey applications and their seal import (spec sections 3 and 4): an organisation applies for a key
 * (authentication, signing, replacement or renewal); the maker generates a key pair on the UKey, gets
 * the certificate issued for its public key and the seal images (makingData), writes them with the
 * agent, and proves the key is there (done), which binds it. Import states move only as TRANSITIONS says.
 */
import { AppError, contracts, type Language } from '@openseal/core';
import type { Db, UkeyApplyStatus } from '@openseal/db';
import { newId } from '../../lib/ids';
import { requireOrgPermission, requireRealName, type OrgContext } from '../../lib/permissions';
import { inTransaction } from '../../lib/tx';
import { recordAudit } from '../audit/audit.repository';
import type { PkiService } from '../pki/pki.service';
import type { AuthContext } from '../session/session.service';
import type { SealDirectory } from './seal-directory';
import { fromDer, readSpki } from './ukey-proof';
import * as repo from './ukeys.repository';
import type { UkeysService } from './ukeys.service';

type Opt = contracts.UkeyApplyOpt;

/** The import state machine: which states each operation leaves, and where it goes. */
export const TRANSITIONS: Record<Opt, { from: readonly UkeyApplyStatus[]; to: UkeyApplyStatus }> = {
  start: { from: ['toImport'], to: 'importing' },
  done: { from: ['importing'], to: 'success' },
  fail: { from: ['importing'], to: 'failure' },
  retry: { from: ['failure'], to: 'toImport' },
  revoke: { from: ['toImport', 'failure'], to: 'revoked' },
};

/** Where `opt` takes an application in `status`, or the catalogued refusal. */
export function nextStatus(status: UkeyApplyStatus, opt: Opt): UkeyApplyStatus {
  const t = TRANSITIONS[opt];
  if (!t.from.includes(status))
    throw new AppError('ukeyApply.statusChange', { details: { status, opt, allowedFrom: t.from } });
  return t.to;
}

const STATUS_TEXT: Record<UkeyApplyStatus, [string, string]> = {
  toImport: ['待导入', 'To import'],
  importing: ['导入中', 'Importing'],
  success: ['导入成功', 'Imported'],
  failure: ['导入失败', 'Import failed'],
  revoked: ['已撤销', 'Revoked'],
};

/** The cap RFC 5280 puts on an organisation name in a certificate (ub-organization-name). */
const NAME_IN_CERT_MAX = 64;

export function createUkeyApplyService(deps: {
  pki: PkiService;
  ukeys: UkeysService;
  seals: () => SealDirectory;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  async function org(db: Db, ctx: AuthContext): Promise<OrgContext> {
    // The receiveUkey scene: who may apply for, make and receive UKeys.
    const o = await requireOrgPermission(db, ctx, 'ukey.receive');
    requireRealName(ctx);
    return o;
  }

  function out(a: repo.ApplicationRow, lang: Language) {
    return {
      applyNo: a.apply_no,
      ukeyType: a.ukey_type,
      ukeyName: a.ukey_name,
      status: a.status,
      statusText: STATUS_TEXT[a.status][lang === 'en' ? 1 : 0],
      sealCodes: JSON.parse(a.seal_codes) as string[],
      targetUkeySn: a.target_ukey_sn,
      ukeySn: a.ukey_sn,
      certSerial: a.cert_serial,
      failureReason: a.failure_reason,
      applicantPersonId: a.applicant_person_id,
      createTime: a.created_at.toISOString(),
      updateTime: a.updated_at.toISOString(),
    };
  }

  async function find(db: Db, o: OrgContext, applyNo: string, lock = false) {
    const a = await repo.findApplication(db, o.organizationId, applyNo, lock);
    if (!a) throw new AppError('ukeyApply.notFound');
    return a;
  }

  /**
   * Refuses, before any certificate is issued (and again before binding), a key or seals already taken:
   * the UKey bound to anyone (unless it is the key this renewal re-certifies), or being made for another
   * application; its key pair certified for another UKey or another organisation; a seal carried by
   * another live key of the organisation (the key a replacement or renewal retires may carry it), or
   * spoken for by another application whose key is being made.
   */
  async function checkConflicts(
    trx: Db,
    o: OrgContext,
    a: repo.ApplicationRow,
    key: { ukeySn: string; publicKey: Uint8Array },
    sealCodes: string[],
  ) {
    const renewal = a.ukey_type === 'ukey_offline_renewal';
    const retiring = a.target_ukey_sn
      ? await repo.findLiveBindingInOrg(trx, o.organizationId, a.target_ukey_sn)
      : undefined;
    const bound = await repo.findLiveBinding(trx, key.ukeySn);
    if (bound && !(renewal && bound.id === retiring?.id))
      throw new AppError('ukey.alreadyBound', { details: { ukeySn: key.ukeySn } });
    for (const other of await repo.otherImports(trx, a.apply_no, key)) {
      const samePair =
        !!other.public_key && Buffer.compare(Buffer.from(other.public_key), Buffer.from(key.publicKey)) === 0;
      if (samePair && (other.ukey_sn !== key.ukeySn || other.organization_id !== o.organizationId))
        throw new AppError('ukey.keyInUse', { details: { ukeySn: key.ukeySn } });
      if (other.status === 'importing' && other.ukey_sn === key.ukeySn)
        throw new AppError('ukey.serialInImport', { details: { ukeySn: key.ukeySn } });
    }
    for (const c of await repo.liveKeysCarrying(trx, o.organizationId, sealCodes))
      if (c.binding_id !== retiring?.id)
        throw new AppError('ukey.sealOnOtherKey', { details: { sealCode: c.seal_code, ukeySn: c.ukey_sn } });
    for (const other of await repo.otherImportsInOrg(trx, o.organizationId, a.apply_no)) {
      const taken = (JSON.parse(other.seal_codes) as string[]).find((c) => sealCodes.includes(c));
      if (taken)
        throw new AppError('ukey.sealOnOtherKey', { details: { sealCode: taken, applyNo: other.apply_no } });
    }
  }

  /** Moves the application by `opt` (checked against TRANSITIONS), with its event and audit record. */
  async function move(
    trx: Db,
    o: OrgContext,
    a: repo.ApplicationRow,
    opt: Opt,
    set: Parameters<typeof repo.moveApplication>[4],
    ip: string | null,
    reason: string | null = null,
  ): Promise<repo.ApplicationRow> {
    const to = nextStatus(a.status, opt);
    if (!(await repo.moveApplication(trx, a.apply_no, a.status, to, set, now())))
      throw new AppError('ukeyApply.statusChange', { details: { status: a.status, opt } });
    await repo.insertEvent(trx, {
      apply_no: a.apply_no,
      opt,
      from_status: a.status,
      to_status: to,
      actor_person_id: o.personId,
      reason,
    });
    await recordAudit(trx, {
      actorPersonId: o.personId,
      organizationId: o.organizationId,
      action: `ukeyApply.${opt}`,
      targetType: 'ukeyApply',
      targetId: a.apply_no,
      ip,
      detail: {
        from: a.status,
        to,
        ...(set.ukey_sn ? { ukeySn: set.ukey_sn } : {}),
        ...(reason ? { reason } : {}),
      },
    });
    return (await repo.findApplication(trx, o.organizationId, a.apply_no))!;
  }

  return {
    TRANSITIONS,

    async apply(
      db: Db,
      ctx: AuthContext,
      input: {
        ukeyType: contracts.UkeyApplyType;
        ukeyName: string;
        sealCodes: string[];
        targetUkeySn?: string | undefined;
      },
      ip: string | null,
      lang: Language,
    ) {
      const o = await org(db, ctx);
      const name = deps.ukeys.checkName(input.ukeyName);
      const kind = contracts.KIND_OF_APPLY_TYPE[input.ukeyType];
      const needsTarget =
        input.ukeyType === 'ukey_offline_replace' || input.ukeyType === 'ukey_offline_renewal';
      return inTransaction(db, async (trx) => {
        let sealCodes = input.sealCodes;
        if (needsTarget) {
          if (!input.targetUkeySn) throw new AppError('ukeyApply.targetRequired');
          const target = await repo.findLiveBindingInOrg(trx, o.organizationId, input.targetUkeySn);
          if (!target || target.kind !== 'offline') throw new AppError('ukeyApply.targetRequired');
          // A replacement or renewal carries the old key's seals unless others are chosen.
          if (sealCodes.length === 0)
            sealCodes = (await repo.sealsOfBindings(trx, [target.id])).get(target.id) ?? [];
        } else if (input.targetUkeySn)
          throw new AppError('request.invalid', {
            details: { targetUkeySn: 'only for replacement or renewal' },
          });
        if (kind === 'offline' && sealCodes.length === 0) throw new AppError('ukey.sealsRequired');
        sealCodes = await deps.ukeys.checkSeals(trx, o.organizationId, kind, sealCodes);
        const applyNo = newId('uka');
        await repo.insertApplication(trx, {
          apply_no: applyNo,
          organization_id: o.organizationId,
          applicant_person_id: o.personId,
          ukey_type: input.ukeyType,
          ukey_name: name,
          seal_codes: JSON.stringify(sealCodes),
          target_ukey_sn: needsTarget ? input.targetUkeySn! : null,
          status: 'toImport',
        });
        await repo.insertEvent(trx, {
          apply_no: applyNo,
          opt: 'apply',
          from_status: null,
          to_status: 'toImport',
          actor_person_id: o.personId,
          reason: null,
        });
        await recordAudit(trx, {
          actorPersonId: o.personId,
          organizationId: o.organizationId,
          action: 'ukeyApply.apply',
          targetType: 'ukeyApply',
          targetId: applyNo,
          ip,
          detail: { ukeyType: input.ukeyType, sealCodes, targetUkeySn: input.targetUkeySn ?? null },
        });
        return out((await repo.findApplication(trx, o.organizationId, applyNo))!, lang);
      });
    },

    async list(
      db: Db,
      ctx: AuthContext,
      q: {
        status?: UkeyApplyStatus | undefined;
        ukeyType?: contracts.UkeyApplyType | undefined;
        pageNum: number;
        pageSize: number;
      },
      lang: Language,
    ) {
      const o = await org(db, ctx);
      const { total, rows } = await repo.listApplications(db, {
        organizationId: o.organizationId,
        ...(q.status ? { status: q.status } : {}),
        ...(q.ukeyType ? { ukeyType: q.ukeyType } : {}),
        limit: q.pageSize,
        offset: (q.pageNum - 1) * q.pageSize,
      });
      return { total, list: rows.map((r) => out(r, lang)) };
    },

    async detail(db: Db, ctx: AuthContext, applyNo: string, lang: Language) {
      const o = await org(db, ctx);
      const a = await find(db, o, applyNo);
      const events = await repo.listEvents(db, applyNo);
      return {
        ...out(a, lang),
        events: events.map((e) => ({
          opt: e.opt as Opt | 'apply',
          fromStatus: e.from_status,
          toStatus: e.to_status,
          actorPersonId: e.actor_person_id,
          reason: e.reason,
          time: e.created_at.toISOString(),
        })),
      };
    },

    /** What the application form needs: the holder as certificates will name it, the kinds, the limits, the keys bound. */
    async info(db: Db, ctx: AuthContext) {
      const o = await org(db, ctx);
      const organisation = await deps.ukeys.organisation(db, o.organizationId);
      const bound = await repo.listLiveBindings(db, {
        organizationId: o.organizationId,
        limit: 100,
        offset: 0,
      });
      return {
        organizeName: organisation.name,
        uscc: organisation.uscc,
        ukeyTypes: contracts.UKEY_APPLY_TYPES.map((t) => ({
          ukeyType: t,
          kind: contracts.KIND_OF_APPLY_TYPE[t],
        })),
        nameMax: contracts.UKEY_LIMITS.nameMax,
        maxSealsPerKey: contracts.UKEY_LIMITS.maxSealsPerKey,
        boundKeys: bound.rows.map((b) => ({ ukeySn: b.ukey_sn, ukeyName: b.name, kind: b.kind })),
      };
    },

    /**
     * What the maker writes into the key: the certificate issued for the public key the UKey generated,
     * and the seal images. Starts the import (to import → importing); asked again for the same key and
     * public key while importing, it answers the same certificate.
     */
    async makingData(
      db: Db,
      ctx: AuthContext,
      input: { applyNo: string; ukeySn: string; publicKeySpki: string },
      ip: string | null,
    ) {
      const o = await org(db, ctx);
      const { spki } = readSpki(input.publicKeySpki);
      return inTransaction(db, async (trx) => {
        let a = await find(trx, o, input.applyNo, true);
        const kind = contracts.KIND_OF_APPLY_TYPE[a.ukey_type];
        if (a.ukey_type === 'ukey_offline_renewal' && input.ukeySn !== a.target_ukey_sn)
          throw new AppError('ukeyApply.keyMismatch');
        const sealCodes = JSON.parse(a.seal_codes) as string[];
        const seals = [];
        for (const sealCode of sealCodes) {
          const seal = await deps.seals().findSeal(trx, o.organizationId, sealCode);
          if (!seal?.usable) throw new AppError('seal.importFailed', { details: { sealCode } });
          const image = await deps.seals().sealImage(trx, o.organizationId, sealCode);
          seals.push({
            sealCode,
            name: seal.name,
            imagePng: image ? Buffer.from(image).toString('base64') : null,
          });
        }
        let der: Uint8Array;
        if (a.status === 'importing') {
          const same =
            a.ukey_sn === input.ukeySn &&
            !!a.public_key &&
            Buffer.compare(Buffer.from(a.public_key), Buffer.from(spki)) === 0;
          if (!same) throw new AppError('ukeyApply.keyMismatch');
          der = (await deps.pki.certificate(trx, a.cert_serial!)).der;
        } else {
          nextStatus(a.status, 'start');
          await checkConflicts(trx, o, a, { ukeySn: input.ukeySn, publicKey: spki }, sealCodes);
          const organisation = await deps.ukeys.organisation(trx, o.organizationId);
          const issued = await deps.pki.issue(trx, {
            profile: 'org-seal',
            subject: {
              commonName: a.ukey_name,
              organization: [...organisation.name].slice(0, NAME_IN_CERT_MAX).join(''),
              organizationIdentifier: organisation.uscc,
            },
            owner: { type: 'organization', id: o.organizationId },
            publicKeySpki: spki,
          });
          der = issued.der;
          a = await move(
            trx,
            o,
            a,
            'start',
            { ukey_sn: input.ukeySn, public_key: spki, cert_serial: issued.serial },
            ip,
          );
        }
        return {
          applyNo: a.apply_no,
          ukeySn: input.ukeySn,
          ukeyName: a.ukey_name,
          kind,
          certificate: Buffer.from(der).toString('base64'),
          certSerial: a.cert_serial!,
          seals,
        };
      });
    },

    /**
     * The import is done: the key proves it holds the certified key pair, and is bound (a replacement
     * ends the old key's binding; a renewal gives the bound key its new certificate).
     */
    async done(
      db: Db,
      ctx: AuthContext,
      input: { applyNo: string; ukeySn: string; challengeId: string; signature: string },
      ip: string | null,
      lang: Language,
    ) {
      const o = await org(db, ctx);
      return inTransaction(db, async (trx) => {
        const a = await find(trx, o, input.applyNo, true);
        nextStatus(a.status, 'done');
        if (a.ukey_sn !== input.ukeySn) throw new AppError('ukeyApply.keyMismatch');
        const cert = fromDer((await deps.pki.certificate(trx, a.cert_serial!)).der);
        await deps.ukeys.checkUkeyCertificate(trx, o.organizationId, cert);
        await deps.ukeys.proveKey(trx, o, input.ukeySn, input, cert.publicKey);
        const sealCodes = JSON.parse(a.seal_codes) as string[];
        await checkConflicts(trx, o, a, { ukeySn: input.ukeySn, publicKey: a.public_key! }, sealCodes);
        const kind = contracts.KIND_OF_APPLY_TYPE[a.ukey_type];
        if (a.ukey_type === 'ukey_offline_renewal') {
          const b = await deps.ukeys.liveBinding(trx, o, a.target_ukey_sn!);
          await repo.updateBinding(
            trx,
            b.id,
            { cert_serial: cert.summary.serialHex, certificate: cert.der, apply_no: a.apply_no },
            now(),
          );
          await repo.replaceBindingSeals(trx, b.id, sealCodes);
          await recordAudit(trx, {
            actorPersonId: o.personId,
            organizationId: o.organizationId,
            action: 'ukey.renew',
            targetType: 'ukey',
            targetId: b.ukey_sn,
            ip,
            detail: { from: b.cert_serial, to: cert.summary.serialHex, applyNo: a.apply_no },
          });
        } else {
          if (a.ukey_type === 'ukey_offline_replace') {
            const old = await deps.ukeys.liveBinding(trx, o, a.target_ukey_sn!);
            await repo.endBinding(trx, old.id, 'replaced', o.personId, now());
            await recordAudit(trx, {
              actorPersonId: o.personId,
              organizationId: o.organizationId,
              action: 'ukey.replace',
              targetType: 'ukey',
              targetId: old.ukey_sn,
              ip,
              detail: { by: input.ukeySn, applyNo: a.apply_no },
            });
          }
          await deps.ukeys.insertBinding(
            trx,
            o,
            { ukeySn: input.ukeySn, name: a.ukey_name, kind, cert, sealCodes, applyNo: a.apply_no },
            ip,
          );
        }
        return out(await move(trx, o, a, 'done', { completed_at: now() }, ip), lang);
      });
    },

    /**
     * The other operations: a failed import (its certificate, never in use, is revoked), a retry, a
     * revocation. Refused transitions answer ukeyApply.statusChange.
     */
    async executeOpt(
      db: Db,
      ctx: AuthContext,
      input: { applyNo: string; opt: 'fail' | 'retry' | 'revoke'; reason?: string | undefined },
      ip: string | null,
      lang: Language,
    ) {
      const o = await org(db, ctx);
      return inTransaction(db, async (trx) => {
        const a = await find(trx, o, input.applyNo, true);
        nextStatus(a.status, input.opt);
        const reason = input.reason?.trim() || null;
        if (input.opt === 'fail' && a.cert_serial)
          await deps.pki.revoke(trx, a.cert_serial, 'cessationOfOperation');
        const set: Parameters<typeof repo.moveApplication>[4] =
          input.opt === 'fail'
            ? { failure_reason: reason ?? 'import failed' }
            : input.opt === 'retry'
              ? { ukey_sn: null, public_key: null, cert_serial: null, failure_reason: null }
              : { completed_at: now() };
        return out(await move(trx, o, a, input.opt, set, ip, reason), lang);
      });
    },
  };
}

export type UkeyApplyService = ReturnType<typeof createUkeyApplyService>;
