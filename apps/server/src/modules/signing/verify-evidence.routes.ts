import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { ok } from '../../lib/reply';
import { responses } from '../../lib/route-kit';
import type { VerifyEvidence } from './verify-evidence';

/**
 * The evidence of a kept verification report, for the verification pages: as public as the report itself
 * (its id is unguessable, and only whoever uploaded the file, or was given the address, has it).
 */
export default async function verifyEvidenceRoutes(
  app: FastifyInstance,
  opts: { verifyEvidence: VerifyEvidence },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['Signing and approvals'];
  const open = { public: true };

  r.get(
    '/v1/signFile/verify/report/:reportId/evidence',
    {
      config: open,
      schema: {
        tags,
        summary:
          "A verified file's evidence: the platform's signing acts whose output is exactly this file, and the leaf of the verification, each with its committed leaf, the fields opened for the uploader (file hashes; for the verification all but who verified), its inclusion path against the latest signed tree head, and its proof bundle; no login needed (the report id is unguessable)",
        params: c.verifyReportParams,
        response: responses(c.verifyEvidenceResponse),
      },
    },
    async (req) => ok(await opts.verifyEvidence.evidenceOf(app.db, req.params.reportId), req.lang),
  );

  r.get(
    '/v1/signFile/verify/report/:reportId/evidence/:leafIndex/bundle',
    {
      config: open,
      schema: {
        tags,
        summary:
          "One proof bundle of a verified file's evidence, as a JSON file to download and check offline with openseal evidence verify; only a leaf the report's evidence lists",
        params: c.verifyEvidenceBundleParams,
      },
    },
    async (req, reply) => {
      const { reportId, leafIndex } = req.params;
      const bundle = await opts.verifyEvidence.bundleOf(app.db, reportId, leafIndex);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="evidence-${leafIndex}.json"`)
        .header('cache-control', 'private, max-age=60')
        .header('x-content-type-options', 'nosniff')
        .send(`${JSON.stringify(bundle, null, 2)}\n`);
    },
  );
}
