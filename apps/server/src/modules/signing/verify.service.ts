/**
 * Verification of uploaded PDFs for anyone (no login): the same report as `openseal verify`, against the
 * platform's trust store and its own revocation answers, recorded as a leaf of the evidence log and kept
 * (without the file) so its result page can be reloaded, shared and downloaded as a PDF. A signed-in
 * person's verification is kept as theirs: their verified records (`records`, `record`), which nobody
 * else reads through them.
 */
import { AppError, LIMITS, type contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import { PdfError, type VerifyPdfOptions } from '@openseal/pdf';
import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { ConfigService } from '../config/config.service';
import type { EvidenceService } from '../evidence/evidence.service';
import type { PkiService } from '../pki/pki.service';
import type { WorkPool } from '../../workers/work-pool';
import {
  findVerifyReport,
  insertVerifyReport,
  listVerifyReportsOf,
  type VerifyReportRow,
} from './verify-reports.repository';

/** Bounds for files from anyone: a verification may not hold a worker longer than this. */
const VERIFY_LIMITS = { deadlineMs: 20_000, maxObjects: 500_000, maxStreamBytes: 64 * 1024 * 1024 };

/**
 * The options of one verification of an upload: the platform's trust store, its own revocation answers
 * and the bounds above. Made per verification; the bench measures the verifier in process with them too.
 */
export async function uploadVerifyOptions(pki: PkiService): Promise<VerifyPdfOptions> {
  // Revocation states of the platform's own certificates: one query for the whole document.
  const { checkRevocation, prefetchRevocation } = pki.revocationLookup();
  return { trust: await pki.trustStore(), checkRevocation, prefetchRevocation, limits: VERIFY_LIMITS };
}

const MB = 1024 * 1024;
/** The most an operator may allow through VERIFY_FILE_SIZE_LIMIT: the verifier reads the whole file in memory. */
export const VERIFY_MAX_SETTABLE_MB = 50;

type PdfVerifyResponse = z.infer<typeof contracts.pdfVerifyResponse>;
/** What the report column holds: the answer less the fields kept in columns of their own. */
type KeptReport = Omit<PdfVerifyResponse, 'reportId' | 'fileName' | 'sha256' | 'size' | 'evidenceIndex'>;

/**
 * The upload limit in bytes from a VERIFY_FILE_SIZE_LIMIT value in MB (decimals allowed); a missing,
 * unreadable or out-of-range value falls back to the section 9 default of 3 MB.
 */
export function verifyLimitBytes(value: string | null): number {
  const mb = value === null || value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(mb) || mb <= 0 || mb > VERIFY_MAX_SETTABLE_MB) return LIMITS.verifyUploadMaxBytes;
  return Math.floor(mb * MB);
}

export function createVerifyService(deps: {
  pki: PkiService;
  evidence: EvidenceService;
  config: ConfigService;
  work: WorkPool;
}) {
  /** The largest upload now allowed (the config is cached for 5 s, so several instances agree quickly). */
  async function maxUploadBytes(): Promise<number> {
    return verifyLimitBytes(await deps.config.get('VERIFY_FILE_SIZE_LIMIT'));
  }

  async function verifyUpload(
    db: Db,
    input: {
      bytes: Buffer;
      fileName: string;
      actor: string;
      /** The signed-in verifier and their space: the report becomes one of their verified records. */
      owner?: { personId: string; organizationId: string | null } | null;
    },
  ): Promise<PdfVerifyResponse> {
    const sha256 = createHash('sha256').update(input.bytes).digest('hex');
    let report;
    try {
      // In a worker: a crafted file costs that worker its deadline, never the main thread.
      report = await deps.work.verifyPdf(input.bytes, await uploadVerifyOptions(deps.pki));
    } catch (err) {
      if (!(err instanceof PdfError)) throw err;
      if (err.code === 'too-complex' || err.code === 'timeout')
        throw new AppError('pdf.tooComplex', { cause: err, details: { reason: err.message } });
      throw new AppError('pdf.unreadable', { cause: err, params: { reason: err.message } });
    }
    const verifiedAt = new Date().toISOString();
    const reportId = `vr_${randomBytes(16).toString('base64url')}`;
    return db.transaction().execute(async (trx) => {
      const leaf = await deps.evidence.append(trx, {
        kind: 'verify',
        subject: `file:${sha256}`,
        actor: input.actor,
        at: verifiedAt,
        hashes: { file: sha256 },
        data: {
          verdict: report.verdict,
          signatures: report.signatures.map((s) => ({
            field: s.field,
            verdict: s.verdict,
            serial: s.serialHex ?? null,
          })),
        },
      });
      // Reports are kept without the file; old ones may be pruned by age later (none is yet).
      const kept: KeptReport = { ...report, verifiedAt };
      await insertVerifyReport(trx, {
        id: reportId,
        fileName: input.fileName,
        sha256,
        size: input.bytes.length,
        verdict: report.verdict,
        report: kept,
        evidenceIndex: leaf.index,
        personId: input.owner?.personId ?? null,
        organizationId: input.owner?.organizationId ?? null,
      });
      const answer: PdfVerifyResponse = {
        fileName: input.fileName,
        sha256,
        size: input.bytes.length,
        ...kept,
        evidenceIndex: leaf.index,
        reportId,
      };
      return answer;
    });
  }

  /** A kept report, as the upload answered it. Throws `verify.reportNotFound`. */
  async function getReport(db: Db, reportId: string): Promise<PdfVerifyResponse> {
    const row = /^vr_[A-Za-z0-9_-]{22}$/.test(reportId) ? await findVerifyReport(db, reportId) : null;
    if (!row) throw new AppError('verify.reportNotFound');
    return {
      ...(row.report as KeptReport),
      fileName: row.fileName,
      sha256: row.sha256,
      size: row.size,
      evidenceIndex: row.evidenceIndex,
      reportId: row.id,
    };
  }

  function summaryOf(row: VerifyReportRow): z.infer<typeof contracts.verifiedRecordSummary> {
    const report = row.report as KeptReport;
    return {
      verifiedUuid: row.id,
      fileName: row.fileName,
      sha256: row.sha256,
      size: row.size,
      verdict: row.verdict as PdfVerifyResponse['verdict'],
      signatureCount: report.signatures?.length ?? 0,
      evidenceIndex: row.evidenceIndex,
      organizationId: row.organizationId,
      verifiedAt: row.createdAt.toISOString(),
    };
  }

  /** The caller's own verified records, newest first. */
  async function records(
    db: Db,
    personId: string,
    q: z.infer<typeof contracts.verifiedRecordListQuery>,
  ): Promise<z.infer<typeof contracts.verifiedRecordPage>> {
    const { total, rows } = await listVerifyReportsOf(db, {
      personId,
      ...(q.verdict ? { verdict: q.verdict } : {}),
      ...(q.keyword ? { keyword: q.keyword } : {}),
      limit: q.pageSize,
      offset: (q.pageNum - 1) * q.pageSize,
    });
    return { total, pageNum: q.pageNum, pageSize: q.pageSize, list: rows.map(summaryOf) };
  }

  /** One of the caller's verified records with its report; anyone else's is answered as absent. */
  async function record(
    db: Db,
    personId: string,
    verifiedUuid: string,
  ): Promise<z.infer<typeof contracts.verifiedRecordDetail>> {
    const row = /^vr_[A-Za-z0-9_-]{22}$/.test(verifiedUuid) ? await findVerifyReport(db, verifiedUuid) : null;
    if (!row || row.personId !== personId) throw new AppError('verify.recordNotFound');
    return {
      ...summaryOf(row),
      report: {
        ...(row.report as KeptReport),
        fileName: row.fileName,
        sha256: row.sha256,
        size: row.size,
        evidenceIndex: row.evidenceIndex,
        reportId: row.id,
      },
    };
  }

  return { verifyUpload, getReport, maxUploadBytes, records, record };
}

export type VerifyService = ReturnType<typeof createVerifyService>;
