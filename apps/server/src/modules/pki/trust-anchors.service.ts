/**
 * Trust anchors an operator manages in the console: CA certificates of other platforms, so that this
 * platform's verifier recognises their seals (mutual recognition). An anchor is checked by content before
 * it is kept (an X.509 CA certificate that may sign certificates, currently valid unless the operator
 * accepts otherwise, bounded in size, not already trusted); every change is an audit record and an
 * evidence leaf, in the change's transaction, and the verifier's trust store is refreshed.
 */
import { AppError, type contracts } from '@openseal/core';
import { isUniqueViolation, type Db, type TrustAnchorStatus } from '@openseal/db';
import { fromPem, inspectAnchorCertificate, toPem, type AnchorInspection } from '@openseal/pki';
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { newId } from '../../lib/ids';
import { recordAudit } from '../audit/audit.repository';
import type { EvidenceService } from '../evidence/evidence.service';
import type { PkiService } from './pki.service';
import * as repo from './trust-anchors.repository';

/** The largest certificate kept as an anchor; real roots are 1–2 KB, large ones with long extensions ~8 KB. */
export const MAX_ANCHOR_BYTES = 16 * 1024;
/** The most anchors kept at once (enabled and disabled). */
export const MAX_ANCHORS = 200;

type TrustAnchor = z.infer<typeof contracts.trustAnchor>;
type BuiltInAnchor = z.infer<typeof contracts.builtInTrustAnchor>;

/** Who acts, as the audit log records operators. */
export interface AnchorActor {
  operatorId: string;
  ip: string | null;
  /** The audit detail the operators module writes for every act of an operator. */
  detail: (extra?: Record<string, unknown>) => Record<string, unknown>;
}

const sha256 = (der: Uint8Array) => createHash('sha256').update(der).digest('hex');

/**
 * One certificate from what the operator gave: PEM text (one CERTIFICATE block), or the DER in base64.
 * Throws the catalogued refusal that fits.
 */
export function readOfferedCertificate(text: string): Uint8Array {
  let ders: Uint8Array[];
  if (text.includes('-----BEGIN')) {
    try {
      ders = fromPem(text, 'CERTIFICATE');
    } catch {
      throw new AppError('trustAnchor.notCertificate');
    }
  } else {
    const b64 = text.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw new AppError('trustAnchor.notCertificate');
    ders = [new Uint8Array(Buffer.from(b64, 'base64'))];
  }
  if (ders.length === 0) throw new AppError('trustAnchor.notCertificate');
  if (ders.length > 1) throw new AppError('trustAnchor.multiple');
  const der = ders[0]!;
  if (der.length > MAX_ANCHOR_BYTES)
    throw new AppError('trustAnchor.tooLarge', { params: { max: MAX_ANCHOR_BYTES } });
  return der;
}

function describe(inspection: AnchorInspection) {
  const s = inspection.summary;
  return {
    subject: s.subject,
    issuer: s.issuer,
    serialHex: s.serialHex,
    fingerprintSha256: s.fingerprintSha256,
    notBefore: s.notBefore.toISOString(),
    notAfter: s.notAfter.toISOString(),
    keyAlgorithm: s.keyAlgorithm,
  };
}

function toAnchor(row: repo.TrustAnchorRow, now: Date): TrustAnchor {
  return {
    anchorId: row.id,
    label: row.label,
    note: row.note,
    subject: row.subject,
    issuer: row.issuer,
    serialHex: row.serial,
    fingerprintSha256: row.fingerprint_sha256,
    notBefore: row.not_before.toISOString(),
    notAfter: row.not_after.toISOString(),
    keyAlgorithm: row.key_algorithm,
    selfIssued: row.self_issued,
    validNow: now >= row.not_before && now <= row.not_after,
    status: row.status,
    addedBy: row.added_by,
    addedAt: row.added_at.toISOString(),
    changedBy: row.changed_by,
    changedAt: row.changed_at?.toISOString() ?? null,
    pem: toPem(row.der),
  };
}

/** The statuses an action moves an anchor from, and to. */
const MOVES = {
  disable: { from: ['enabled'], to: 'disabled' },
  enable: { from: ['disabled'], to: 'enabled' },
  remove: { from: ['enabled', 'disabled'], to: 'removed' },
} as const satisfies Record<string, { from: readonly TrustAnchorStatus[]; to: TrustAnchorStatus }>;
export type AnchorAction = keyof typeof MOVES;

export function createTrustAnchorsService(deps: { pki: PkiService; evidence: EvidenceService }) {
  const { pki, evidence } = deps;

  /** The audit record and the evidence leaf of one change, in the change's transaction. */
  async function record(
    trx: Db,
    actor: AnchorActor,
    action: 'add' | AnchorAction,
    row: repo.TrustAnchorRow,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    const at = new Date().toISOString();
    await recordAudit(trx, {
      actorPersonId: null,
      organizationId: null,
      action: `operator.trustAnchor.${action}`,
      targetType: 'trustAnchor',
      targetId: row.id,
      ip: actor.ip,
      detail: actor.detail({
        fingerprintSha256: row.fingerprint_sha256,
        subject: row.subject,
        status: row.status,
        ...extra,
      }),
    });
    // The evidence log is public: the certificate's fingerprint and status, no operator's free text.
    await evidence.append(trx, {
      kind: `operator.trustAnchor.${action}`,
      subject: `trustAnchor:${row.fingerprint_sha256}`,
      actor: `operator:${actor.operatorId}`,
      at,
      hashes: { certificate: row.fingerprint_sha256 },
      data: { status: row.status },
    });
  }

  function builtIn(): BuiltInAnchor[] {
    return pki.builtInAnchors().flatMap(({ source, der }) => {
      const inspection = inspectAnchorCertificate(der);
      return inspection ? [{ source, ...describe(inspection) }] : [];
    });
  }

  return {
    async list(db: Db, status: 'current' | 'removed' | 'all') {
      const statuses: TrustAnchorStatus[] =
        status === 'current'
          ? ['enabled', 'disabled']
          : status === 'removed'
            ? ['removed']
            : ['enabled', 'disabled', 'removed'];
      const now = new Date();
      const rows = await repo.listTrustAnchors(db, statuses);
      return { list: rows.map((r) => toAnchor(r, now)), builtIn: builtIn() };
    },

    async add(
      db: Db,
      actor: AnchorActor,
      input: { certificate: string; label: string; note?: string; acceptNotValidNow: boolean },
    ): Promise<TrustAnchor> {
      const der = readOfferedCertificate(input.certificate);
      const inspection = inspectAnchorCertificate(der);
      if (!inspection) throw new AppError('trustAnchor.notCertificate');
      if (!inspection.isCa || !inspection.mayCertSign) throw new AppError('trustAnchor.notCa');
      if (inspection.selfSignature === 'invalid') throw new AppError('trustAnchor.selfSignatureInvalid');
      const now = new Date();
      const info = describe(inspection);
      if (!inspection.validAt(now) && !input.acceptNotValidNow)
        throw new AppError('trustAnchor.notValidNow', {
          params: { notBefore: info.notBefore, notAfter: info.notAfter },
        });
      const fingerprint = sha256(der);
      if (pki.builtInAnchors().some((a) => sha256(a.der) === fingerprint))
        throw new AppError('trustAnchor.alreadyTrusted');

      const row = await db.transaction().execute(async (trx) => {
        if (await repo.findCurrentByFingerprint(trx, fingerprint))
          throw new AppError('trustAnchor.duplicate');
        if ((await repo.countCurrentAnchors(trx)) >= MAX_ANCHORS)
          throw new AppError('trustAnchor.tooMany', { params: { max: MAX_ANCHORS } });
        let inserted: repo.TrustAnchorRow;
        try {
          inserted = await repo.insertTrustAnchor(trx, {
            id: newId('ta'),
            der,
            fingerprint_sha256: fingerprint,
            subject: info.subject,
            issuer: info.issuer,
            serial: info.serialHex,
            not_before: inspection.summary.notBefore,
            not_after: inspection.summary.notAfter,
            key_algorithm: info.keyAlgorithm,
            self_issued: inspection.selfIssued,
            label: input.label,
            note: input.note ? input.note : null,
            added_by: actor.operatorId,
          });
        } catch (err) {
          // Two operators adding the same certificate at once: the unique index decides.
          if (isUniqueViolation(err)) throw new AppError('trustAnchor.duplicate');
          throw err;
        }
        await record(trx, actor, 'add', inserted, {
          label: input.label,
          acceptedNotValidNow: !inspection.validAt(now),
        });
        return inserted;
      });
      pki.invalidateTrustStore();
      return toAnchor(row, now);
    },

    async change(db: Db, actor: AnchorActor, anchorId: string, action: AnchorAction): Promise<TrustAnchor> {
      const move = MOVES[action];
      const row = await db.transaction().execute(async (trx) => {
        const current = await repo.findTrustAnchorForUpdate(trx, anchorId);
        if (!current || current.status === 'removed') throw new AppError('trustAnchor.notFound');
        const changed = await repo.updateTrustAnchorStatus(
          trx,
          anchorId,
          move.from,
          move.to,
          actor.operatorId,
        );
        if (!changed)
          throw new AppError('trustAnchor.statusChange', { details: { from: current.status, action } });
        await record(trx, actor, action, changed, { from: current.status });
        return changed;
      });
      pki.invalidateTrustStore();
      return toAnchor(row, new Date());
    },
  };
}

export type TrustAnchorsService = ReturnType<typeof createTrustAnchorsService>;

/** The public bundle: every anchor the verifier trusts now, as PEM (`/pki/trust-anchors`). */
export async function trustAnchorBundle(pki: PkiService): Promise<string> {
  const { anchors } = await pki.trustStore();
  const seen = new Set<string>();
  let out = '';
  for (const der of anchors) {
    const fp = sha256(der);
    if (seen.has(fp)) continue;
    seen.add(fp);
    out += toPem(der);
  }
  return out;
}
