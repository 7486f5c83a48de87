import type {} from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contracts as c } from '@openseal/core';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { readSingleFile } from '../../lib/multipart';
import { responses } from '../../lib/route-kit';
import type { FilesService, UploadPurpose } from './files.service';

const INSIDE = ['material', 'sign', 'verify'] as const;
const PIC = ['image', 'appIcon', 'sealImage'] as const;

export default async function filesRoutes(app: FastifyInstance, opts: { files: FilesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { files } = opts;
  const tags = ['Config and files'];
  // One file per request (section 5); the purpose picks the type and size rules.
  const uploadRoute = (
    path: string,
    purposes: readonly [UploadPurpose, ...UploadPurpose[]],
    summary: string,
  ) =>
    r.post(
      path,
      {
        schema: {
          tags,
          summary,
          consumes: ['multipart/form-data'],
          querystring: z.object({ purpose: z.enum(purposes).default(purposes[0]) }),
          response: responses(c.uploadedFile),
        },
      },
      async (req) => {
        const ctx = req.requireAuth();
        const purpose = req.query.purpose;
        const file = await readSingleFile(req, files.maxBytes(purpose));
        return ok(await files.upload(app.db, ctx, { ...file, purpose }), req.lang);
      },
    );
  uploadRoute(
    '/v1/file/uploadInside',
    INSIDE,
    'Upload one document (material: doc/docx/pdf/jpg/png ≤ 10 MB; sign: pdf/ofd; verify: pdf ≤ 3 MB)',
  );
  uploadRoute(
    '/v1/file/uploadPic',
    PIC,
    'Upload one image (jpg/png ≤ 10 MB; appIcon exactly 200×200 ≤ 100 KB; sealImage png ≤ 50 KB)',
  );

  r.post(
    '/v1/file/url',
    {
      schema: {
        tags,
        summary: 'A time-limited download address for one of your files',
        body: c.fileUrlRequest,
        response: responses(c.fileUrlResponse),
      },
    },
    async (req) =>
      ok(
        await files.signedUrl(app.db, req.requireAuth(), req.body.fileKey, req.body.internal ? 300 : 3600),
        req.lang,
      ),
  );

  r.get(
    '/v1/organizes/downloadUrl',
    {
      schema: {
        tags,
        summary: 'Download address (needStaticUrl: valid 7 days)',
        querystring: c.downloadUrlQuery,
        response: responses(c.fileUrlResponse),
      },
    },
    async (req) =>
      ok(
        await files.signedUrl(
          app.db,
          req.requireAuth(),
          req.query.fileKey,
          req.query.needStaticUrl ? 7 * 86400 : req.query.internal ? 300 : 3600,
        ),
        req.lang,
      ),
  );

  r.get(
    '/v1/file/download/:fileKey',
    {
      schema: {
        tags,
        summary: 'Download through a signed address',
        params: z.object({ fileKey: z.string().max(128) }),
        querystring: z.object({ expires: z.coerce.number().int(), sig: z.string().max(128) }),
      },
      config: { public: true },
    },
    async (req, reply) => {
      const file = await files.download(app.db, req.params.fileKey, req.query.expires, req.query.sig);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(file.bytes);
    },
  );
}
