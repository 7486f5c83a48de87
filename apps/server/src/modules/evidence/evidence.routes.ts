import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contracts as c } from '@openseal/core';
import { ok } from '../../lib/reply';
import { responses } from '../../lib/route-kit';
import type { EvidenceService } from './evidence.service';

const size = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const { signedTreeHead, proofBundle, consistencyProof, evidenceLeaf, logKey } = c;

/**
 * The evidence log, read-only and public in the manner of Certificate Transparency logs. What is public is
 * what the leaves hold: a kind and salted commitments (and only the hash of a leaf written in clear before
 * commitments). Openings are never served here; parties get them through the records they may see.
 */
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
        summary:
          'Proof bundle of one leaf as the public log shows it: the committed leaf (no openings), inclusion path, signed tree head, log key',
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
        summary:
          'One leaf of the log: its kind and field commitments (a leaf written in clear before commitments: its hash only)',
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
