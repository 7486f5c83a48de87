/**
 * Verification of uploaded PDFs for anyone (no login): the same report as `openseal verify`, against the
 * platform's trust store and its own revocation answers, recorded as a leaf of the evidence log.
 */
import { AppError, type contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import { bufferSource, PdfError, verifyPdf } from '@openseal/pdf';
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { EvidenceService } from '../evidence/evidence.service';
import type { PkiService } from '../pki/pki.service';

/** Bounds for files from anyone: a verification may not hold a worker longer than this. */
const VERIFY_LIMITS = { deadlineMs: 20_000, maxObjects: 500_000, maxStreamBytes: 64 * 1024 * 1024 };

export function createVerifyService(deps: { pki: PkiService; evidence: EvidenceService }) {
  async function verifyUpload(
    db: Db,
    input: { bytes: Buffer; fileName: string; actor: string },
  ): Promise<z.infer<typeof contracts.pdfVerifyResponse>> {
    const sha256 = createHash('sha256').update(input.bytes).digest('hex');
    let report;
    try {
      report = await verifyPdf(bufferSource(input.bytes), {
        trust: deps.pki.trustStore(),
        checkRevocation: deps.pki.checkRevocation,
        limits: VERIFY_LIMITS,
      });
    } catch (err) {
      if (!(err instanceof PdfError)) throw err;
      if (err.code === 'too-complex' || err.code === 'timeout')
        throw new AppError('pdf.tooComplex', { cause: err, details: { reason: err.message } });
      throw new AppError('pdf.unreadable', { cause: err, params: { reason: err.message } });
    }
    const verifiedAt = new Date().toISOString();
    const leaf = await db.transaction().execute((trx) =>
      deps.evidence.append(trx, {
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
      }),
    );
    return {
      fileName: input.fileName,
      sha256,
      size: input.bytes.length,
      ...report,
      verifiedAt,
      evidenceIndex: leaf.index,
    };
  }

  return { verifyUpload };
}

export type VerifyService = ReturnType<typeof createVerifyService>;
