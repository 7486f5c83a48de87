import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { responses } from '../../lib/route-kit';
import type { EvidenceService } from './evidence.service';

const hash = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .describe('SHA-256, lowercase hex');
const size = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const signedTreeHead = z.object({
  treeSize: z.number().int(),
  rootHash: hash,
  timestamp: z.number().int().describe('milliseconds since 1970'),
  keyId: z.string().describe('SHA-256 of the log key SPKI, hex'),
  signature: z.string().describe('ECDSA P-256 SHA-256 over RFC 9162 TreeHeadDataV2, DER, base64'),
});
export const evidenceEntry = z.object({
  kind: z.string(),
  subject: z.string(),
  actor: z.string(),
  at: z.string(),
  hashes: z.record(z.string(), z.string()),
  data: z.record(z.string(), z.unknown()).optional(),
});
export const proofBundle = z.object({
  version: z.literal(1),
  entry: evidenceEntry,
  leafIndex: z.number().int(),
  leafHash: hash,
  treeHead: signedTreeHead,
  inclusionPath: z.array(hash).describe('leaf to root'),
  logPublicKey: z.string().describe('SPKI DER, base64'),
});
export const consistencyProof = z.object({
  first: z.number().int(),
  second: z.number().int(),
  consistency: z.array(hash),
});
export const evidenceLeaf = z.object({
  index: z.number().int(),
  leafHash: hash,
  entry: evidenceEntry,
  createdAt: z.string().nullable(),
});
export const logKey = z.object({
  keyId: z.string(),
  algorithm: z.literal('ECDSA P-256 SHA-256'),
  spki: z.string().describe('SPKI DER, base64'),
  pem: z.string(),
});

/** The evidence log, read-only and public in the manner of Certificate Transparency logs. */
export default async function evidenceRoutes(app: FastifyInstance, opts: { evidence: EvidenceService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { evidence } = opts;
  const tags = ['Evidence log'];
  const config = { public: true };
  const indexParams = z.object({ index: size });

  r.get(
    '/v1/evidence/sth',
    { schema: { tags, summary: 'The latest signed tree head', response: responses(signedTreeHead) }, config },
    async (req) => ok(await evidence.currentTreeHead(), req.lang),
  );

  r.get(
    '/v1/evidence/sth/consistency',
    {
      schema: {
        tags,
        summary: 'Consistency proof between two tree sizes (RFC 9162 2.1.4)',
        querystring: z.object({ first: size, second: size }),
        response: responses(consistencyProof),
      },
      config,
    },
    async (req) => ok(await evidence.consistency(req.query.first, req.query.second), req.lang),
  );

  r.get(
    '/v1/evidence/proof/:index',
    {
      schema: {
        tags,
        summary: 'Proof bundle of one leaf: entry, inclusion path, signed tree head, log key',
        params: indexParams,
        response: responses(proofBundle),
      },
      config,
    },
    async (req) => ok(await evidence.bundleFor(req.params.index), req.lang),
  );

  r.get(
    '/v1/evidence/entries/:index',
    {
      schema: {
        tags,
        summary: 'One leaf of the log',
        params: indexParams,
        response: responses(evidenceLeaf),
      },
      config,
    },
    async (req) => ok(await evidence.entry(req.params.index), req.lang),
  );

  r.get(
    '/v1/evidence/key',
    {
      schema: { tags, summary: 'The log public key (PEM and SPKI base64)', response: responses(logKey) },
      config,
    },
    async (req) => ok(evidence.publicKey(), req.lang),
  );
}
