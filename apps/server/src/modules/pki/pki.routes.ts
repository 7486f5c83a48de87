import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '@openseal/core';
import { ocspErrorResponse } from '@openseal/pki';
import type { PkiService } from './pki.service';
import { trustAnchorBundle } from './trust-anchors.service';

const BINARY_LIMIT = 64 * 1024;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * The request of the OCSP GET form (RFC 6960 appendix A.1): the URL encoding of the base64 of the DER.
 * The router has decoded the path once; a client that encoded twice leaves escapes, decoded here once
 * more. Anything that is not then plain base64 (a lone `%`, NUL, other text) is no request: null, and
 * the caller answers malformedRequest as for undecodable DER (RFC 6960 section 2.3). Both forms answer
 * HTTP 200 with the OCSP error status, which OCSP clients read; most ignore the body of a 4xx.
 */
function ocspGetRequest(path: string): Uint8Array | null {
  let encoded = path;
  if (encoded.includes('%')) {
    try {
      encoded = decodeURIComponent(encoded);
    } catch {
      return null;
    }
  }
  if (encoded.length === 0 || encoded.length > (BINARY_LIMIT * 4) / 3 + 4 || !BASE64.test(encoded))
    return null;
  return Buffer.from(encoded, 'base64');
}

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
      if (!der) throw new AppError('request.notFound');
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
      // The path is protocol data: a bad one gets an OCSP answer (malformedRequest), not a JSON error.
      config: { ...open, rawParams: true },
      schema: { tags, summary: 'OCSP responder, GET form: base64 request in the path (RFC 6960 appendix A)' },
    },
    async (req, reply) => {
      const der = ocspGetRequest((req.params as { '*': string })['*']);
      return reply
        .header('content-type', 'application/ocsp-response')
        .send(der ? await ocspReply(der) : Buffer.from(ocspErrorResponse('malformedRequest')));
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
