/**
 * Production of a claimed seal, as a durable job: the image (drawn from its template, or the hand-drawn
 * picture fitted to its size), a certificate naming its holder, then the seal and its work order marked
 * made with their records and evidence. A certificate the seal does not take is withdrawn again.
 */
import { AppError, type contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import { inTransaction } from '../../lib/tx';
import { verifiedIdNumberOf } from '../realname/realname.repository';
import { ownerContext, sha256, systemActor } from './seal-context';
import { MAKE_JOB, type SealCore, type SealsDeps } from './seal-core';
import { makeTemplate, renderSeal, sealSpec } from './seal-render';
import * as repo from './seals.repository';

type DrawType = contracts.SealDrawType;

/** Spec section 9: the certificate subject holds the person's name and a hash of the ID number, never the number. */
function idHash(idNumber: string): string {
  return `ID-SHA256:${sha256(`openseal-id:${idNumber}`).slice(0, 40)}`;
}

/** X.520 caps names at 64 characters; the credit code or the ID hash identifies the holder anyway. */
const cap64 = (s: string) => [...s].slice(0, 64).join('');

export function createSealMaking(deps: SealsDeps, core: SealCore) {
  const { pki, files, jobs } = deps;
  const { handDrawn, holderOf, moveSeal, moveWorkOrder, withdrawCertificate } = core;

  /** Makes the seal of a claimed work order; safe to run again (a made order is left alone). */
  async function makeSeal(db: Db, applyNo: string, progress: (p: number, note: string) => Promise<void>) {
    const w = await repo.findWorkOrder(db, applyNo);
    if (!w || w.status !== 'pendingProduction' || !w.seal_code) return { applyNo, status: w?.status ?? null };
    const owner = ownerContext(w.person_id, w.organization_id);
    await progress(10, 'drawing');
    let template: string | null = null;
    let image: { fileKey: string; sha256: string };
    if (w.seal_kind === 'personalHandDrawn') {
      const size = { widthMm: w.width_mm, heightMm: w.height_mm };
      image = await handDrawn.fitted(db, owner, w.hand_drawn_file_key ?? undefined, size);
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

  return { makeSeal };
}
