import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PkiService } from './pki.service';
import { trustAnchorBundle } from './trust-anchors.service';

const BINARY_LIMIT = 64 * 1024;

/**
 * The public face of the platform PKI, as named in every certificate it issues: CA certificates, CRLs,
 * the OCSP responder (RFC 6960, POST and GET forms) and the timestamp unit (RFC 3161). Open to anyone,
 * binary in and out, no envelope: relying parties' software speaks these protocols directly.
 */
export default async function pkiRoutes(app: FastifyInstance, opts: { pki: PkiService }) {
  const { pki } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['PKI'];
  const open = { public: true, rateLimit: false } as const;

  app.addContentTypeParser(
    ['application/ocsp-request', 'application/timestamp-query'],
    { parseAs: 'buffer', bodyLimit: BINARY_LIMIT },
    (_req, body, done) => done(null, body),
  );

  r.get(
    '/pki/ca/:file',
    {
      config: open,
      schema: {
        tags,
        summary: 'A platform CA certificate, DER (root.cer, issuing.cer, ocsp.cer, tsa.cer)',
        params: z.object({ file: z.string().regex(/^(root|issuing|ocsp|tsa)\.(cer|crt|der)$/) }),
      },
    },
    async (req, reply) => {
      const der = pki.caCertificate(req.params.file.split('.')[0]!);
      if (!der) return reply.status(404).send();
      return reply
        .header('content-type', 'application/pkix-cert')
        .header('cache-control', 'public, max-age=86400')
        .send(Buffer.from(der));
    },
  );

  r.get(
    '/pki/trust-anchors',
    {
      config: open,
      schema: {
        tags,
        summary:
          'Every trust anchor the verifier uses now, as a PEM bundle: the platform root, TRUST_LIST and the operator-added roots of other platforms',
      },
    },
    async (_req, reply) =>
      reply
        .header('content-type', 'application/x-pem-file')
        // Operator changes reach every instance within 5 s; a browser may keep the bundle as briefly.
        .header('cache-control', 'public, max-age=5')
        .send(await trustAnchorBundle(pki)),
  );

  r.get(
    '/pki/crl/:file',
    {
      config: open,
      schema: {
        tags,
        summary: 'The current CRL of a platform CA, DER (root.crl, issuing.crl)',
        params: z.object({ file: z.enum(['root.crl', 'issuing.crl']) }),
      },
    },
    async (req, reply) => {
      const der = await pki.crl(req.params.file === 'root.crl' ? 'root' : 'issuing');
      return reply
        .header('content-type', 'application/pkix-crl')
        .header('cache-control', 'public, max-age=60')
        .send(Buffer.from(der));
    },
  );

  const ocspReply = async (der: Uint8Array) => Buffer.from(await pki.ocsp(der));
  r.post(
    '/pki/ocsp',
    {
      config: open,
      schema: { tags, summary: 'OCSP responder (RFC 6960), body application/ocsp-request' },
    },
    async (req, reply) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      return reply.header('content-type', 'application/ocsp-response').send(await ocspReply(body));
    },
  );
  r.get(
    '/pki/ocsp/*',
    {
      config: open,
      schema: { tags, summary: 'OCSP responder, GET form: base64 request in the path (RFC 6960 appendix A)' },
    },
    async (req, reply) => {
      const encoded = decodeURIComponent((req.params as { '*': string })['*']);
      return reply
        .header('content-type', 'application/ocsp-response')
        .send(await ocspReply(Buffer.from(encoded, 'base64')));
    },
  );

  r.post(
    '/pki/tsa',
    {
      config: open,
      schema: { tags, summary: 'Timestamp unit (RFC 3161), body application/timestamp-query' },
    },
    async (req, reply) => {
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      return reply
        .header('content-type', 'application/timestamp-reply')
        .send(Buffer.from(await pki.timestamp(body)));
    },
  );
}
