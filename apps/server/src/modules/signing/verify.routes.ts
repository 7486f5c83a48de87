import type {} from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AppError,
  LIMITS,
  contracts as c,
  verifyReasonText,
  type Language,
  type VerifyFinding,
} from '@openseal/core';
import type { Admission } from '../../lib/admission';
import { ok } from '../../lib/reply';
import { readSingleFile } from '../../lib/multipart';
import { responses } from '../../lib/route-kit';
import type { ConfigService } from '../config/config.service';
import { checkUpload } from '../files/file-check';
import { renderVerifyReportPdf } from './verify-report-pdf';
import type { VerifyService } from './verify.service';

/** The public verification service: upload and verify, the upload limit, and the kept reports (JSON and PDF). */
export default async function verifyRoutes(
  app: FastifyInstance,
  opts: { verify: VerifyService; config: ConfigService; admission: Admission },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Signing and approvals'];
  const open = { public: true };

  r.get(
    '/v1/signFile/verify/config',
    {
      config: open,
      schema: {
        tags,
        summary:
          'What a verification page must know before uploading: the size limit (system config VERIFY_FILE_SIZE_LIMIT in MB, 3 MB by default) and the accepted kinds; no login needed',
        response: responses(c.verifyConfigResponse),
      },
    },
    async (req) => ok({ maxBytes: await opts.verify.maxUploadBytes(), kinds: ['pdf' as const] }, req.lang),
  );

  r.post(
    '/v1/signFile/verify/pdf',
    {
      config: open,
      schema: {
        tags,
        summary:
          'Verify every signature of an uploaded PDF (multipart, one file, ≤ VERIFY_FILE_SIZE_LIMIT, 3 MB by default); no login needed. The act is recorded in the evidence log and the report kept under reportId.',
        consumes: ['multipart/form-data'],
        response: responses(c.pdfVerifyResponse),
      },
    },
    async (req) => {
      // Before the upload is read: a request beyond what the workers can take waits here, unread.
      const leave = await opts.admission.enter();
      try {
        const maxBytes = await opts.verify.maxUploadBytes();
        const file = await readSingleFile(req, maxBytes, 'file.pdf');
        if (file.bytes.length > maxBytes) throw new AppError('file.tooLarge', { details: { maxBytes } });
        await checkUpload(file.bytes, ['pdf'], { work: app.work, maxPixels: LIMITS.imageMaxPixels });
        const actor = req.auth ? req.auth.personId : 'anonymous';
        // A signed-in person's verification becomes one of their verified records.
        const owner = req.auth
          ? { personId: req.auth.personId, organizationId: req.auth.organizationId }
          : null;
        return ok(
          inLanguage(await opts.verify.verifyUpload(app.db, { ...file, actor, owner }), req.lang),
          req.lang,
        );
      } finally {
        leave();
      }
    },
  );

  r.get(
    '/v1/signFile/verify/report/:reportId',
    {
      config: open,
      schema: {
        tags,
        summary:
          'A kept verification report, as the upload answered it; no login needed (the id is unguessable)',
        params: c.verifyReportParams,
        response: responses(c.pdfVerifyResponse),
      },
    },
    async (req) =>
      ok(inLanguage(await opts.verify.getReport(app.db, req.params.reportId), req.lang), req.lang),
  );

  // --- verified records: a signed-in person's own verifications ---

  r.get(
    '/v1/verifiedRecord/list',
    {
      schema: {
        tags,
        summary:
          'The caller’s verified records: verifications they made signed in on the public verification page, newest first',
        querystring: c.verifiedRecordListQuery,
        response: responses(c.verifiedRecordPage),
      },
    },
    async (req) => ok(await opts.verify.records(app.db, req.requireAuth().personId, req.query), req.lang),
  );

  r.get(
    '/v1/verifiedRecord/:verifiedUuid',
    {
      schema: {
        tags,
        summary:
          'One of the caller’s verified records with its report; another person’s is answered as absent',
        params: c.verifiedRecordParams,
        response: responses(c.verifiedRecordDetail),
      },
    },
    async (req) => {
      const found = await opts.verify.record(app.db, req.requireAuth().personId, req.params.verifiedUuid);
      return ok({ ...found, report: inLanguage(found.report, req.lang) }, req.lang);
    },
  );

  r.get(
    '/v1/signFile/verify/report/:reportId/pdf',
    {
      config: open,
      schema: {
        tags,
        summary:
          'A kept verification report as a PDF document (Chinese and English) to download; no login needed',
        params: c.verifyReportParams,
      },
    },
    async (req, reply) => {
      const report = await opts.verify.getReport(app.db, req.params.reportId);
      const systemName = await opts.config.get('SYS_NAME_PUBLIC');
      const pdf = await renderVerifyReportPdf(report, { systemName });
      const base = report.fileName.replace(/\.pdf$/i, '');
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="verify-report-${report.reportId}.pdf"; filename*=UTF-8''${encodeURIComponent(`验签报告-${base}.pdf`)}`,
        )
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(pdf));
    },
  );
}

/**
 * The signatures' reasons in the asker's language: each is the catalogued text of a decisive finding
 * (the report keeps the codes and parameters; the verifier writes them in English).
 */
function inLanguage<R extends { signatures: { findings: VerifyFinding[]; reasons: string[] }[] }>(
  report: R,
  lang: Language,
): R {
  return {
    ...report,
    signatures: report.signatures.map((sig) => ({
      ...sig,
      reasons: sig.findings
        .filter((f) => f.severity !== 'info')
        .map((f) => verifyReasonText(f.code, lang, f.params)),
    })),
  };
}
