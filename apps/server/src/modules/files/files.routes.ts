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
        const { bytes, fileName, fields } = await readSingleFile(req, files.maxBytes(purpose));
        // A PDF to sign may come with its password (a form field, never the address: addresses are logged).
        const password = purpose === 'sign' && fields.password ? fields.password : undefined;
        return ok(
          await files.upload(app.db, ctx, { bytes, fileName, purpose, ...(password ? { password } : {}) }),
          req.lang,
        );
      },
    );
  uploadRoute(
    '/v1/file/uploadInside',
    INSIDE,
    'Upload one document (material: doc/docx/pdf/jpg/png ≤ 10 MB; sign: pdf/ofd, with a form field `password` for a password-protected PDF, kept sealed; verify: pdf ≤ 3 MB)',
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
        summary:
          'A download address of a file you may see (your upload, a flow you take part in, a seal you manage…); it lives DOWNLOAD_URL_TTL_SECONDS and is checked again when used',
        body: c.fileUrlRequest,
        response: responses(c.fileUrlResponse),
      },
    },
    async (req) => ok(await files.urlFor(app.db, req.requireAuth(), req.body.fileKey), req.lang),
  );

  r.get(
    '/v1/organizes/downloadUrl',
    {
      schema: {
        tags,
        summary:
          'Download address (fileKey, internal, needStaticUrl): like POST /v1/file/url; every address is short-lived and checked again when used, needStaticUrl included',
        querystring: c.downloadUrlQuery,
        response: responses(c.fileUrlResponse),
      },
    },
    async (req) => ok(await files.urlFor(app.db, req.requireAuth(), req.query.fileKey), req.lang),
  );

  r.get(
    '/v1/file/download/:fileKey',
    {
      schema: {
        tags,
        summary:
          'Download through an address: its holder must still have access to the object it was issued through',
        params: z.object({ fileKey: z.string().max(128) }),
        querystring: z.object({
          by: z.string().max(200).optional(),
          via: z.string().max(32).optional(),
          id: z.string().max(200).optional(),
          expires: z.coerce.number().int(),
          sig: z.string().max(128),
        }),
      },
      config: { public: true },
    },
    async (req, reply) => {
      const file = await files.download(app.db, req.params.fileKey, req.query);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
        .header('cache-control', `private, max-age=${file.maxAgeSeconds}`)
        .header('x-content-type-options', 'nosniff')
        .send(file.bytes);
    },
  );
}
