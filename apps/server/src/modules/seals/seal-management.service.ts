/**
 * The seals themselves: their list and detail, whether another of a kind may be applied for, whether one
 * is usable; enable, disable, freeze and cancel, singly or in batch, with the certificate released, held
 * or revoked; renewal (a job issuing the new certificate); and the directory the UKey module reaches an
 * organisation's seals through.
 */
import { AppError, LIMITS, contracts, type Language } from '@openseal/core';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { inTransaction } from '../../lib/tx';
import type { PkiService } from '../pki/pki.service';
import type { AuthContext } from '../session/session.service';
import { access, actorOf, inScope, iso, pageArgs, sha256, systemActor, transition } from './seal-context';
import { DAY, RENEW_JOB, type ClientInfo, type SealCore, type SealsDeps } from './seal-core';
import { sealOut } from './seal-views';
import * as repo from './seals.repository';

type SealKind = contracts.SealKind;
type SealStatus = contracts.SealStatus;
const { SEAL_KIND_INFO, SEAL_MACHINE } = contracts;

export function createSealManagement(deps: SealsDeps, core: SealCore) {
  const { pki, files, jobs } = deps;
  const { ownSeal, moveSeal, hasLiveSealOrApplication, withdrawCertificate } = core;

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

  return {
    renewSeal,

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
      return { total, ...page, list: rows.map((s) => sealOut(files, ctx, s, lang, now)) };
    },

    async detail(db: Db, ctx: AuthContext, sealCode: string, lang: Language) {
      const a = await access(db, ctx, 'seal.view');
      const s = await ownSeal(db, a, sealCode);
      const renewals = await repo.listRenewals(db, sealCode);
      return {
        ...sealOut(files, ctx, s, lang),
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
  };
}
