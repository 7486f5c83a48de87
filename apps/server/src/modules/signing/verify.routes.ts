import type {} from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, contracts as c } from '@openseal/core';
import { ok } from '../../lib/reply';
import { responses } from '../../lib/route-kit';
import type { FilesService } from '../files/files.service';
import { checkUpload } from '../files/file-check';
import type { VerifyService } from './verify.service';

export default async function verifyRoutes(
  app: FastifyInstance,
  opts: { verify: VerifyService; files: FilesService },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/v1/signFile/verify/pdf',
    {
      config: { public: true },
      schema: {
        tags: ['Signing and approvals'],
        summary:
          'Verify every signature of an uploaded PDF (multipart, one file, ≤ 3 MB by default); no login needed. The act is recorded in the evidence log.',
        consumes: ['multipart/form-data'],
        response: responses(c.pdfVerifyResponse),
      },
    },
    async (req) => {
      const maxBytes = opts.files.maxBytes('verify');
      if (!req.isMultipart()) throw new AppError('file.required');
      let file: { bytes: Buffer; fileName: string } | null = null;
      for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
        if (part.type !== 'file') continue;
        if (file) throw new AppError('file.tooMany');
        file = { bytes: await part.toBuffer(), fileName: part.filename || 'file.pdf' };
      }
      if (!file) throw new AppError('file.required');
      if (file.bytes.length > maxBytes) throw new AppError('file.tooLarge', { details: { maxBytes } });
      await checkUpload(file.bytes, ['pdf']);
      const actor = req.auth ? req.auth.personId : 'anonymous';
      return ok(await opts.verify.verifyUpload(app.db, { ...file, actor }), req.lang);
    },
  );
}
