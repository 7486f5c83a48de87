/**
 * The evidence log's public shapes (signed tree heads, committed leaves, proof bundles) and the evidence
 * record of a verified file. Leaves commit to every field but their kind by salted hashes; openings
 * (salt and value per field) appear only in bundles given to whoever may see those fields.
 */
import { z } from 'zod';

const hash = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .describe('SHA-256, lowercase hex');

export const signedTreeHead = z.object({
  treeSize: z.number().int(),
  rootHash: hash,
  timestamp: z.number().int().describe('milliseconds since 1970'),
  keyId: z.string().describe('SHA-256 of the log key SPKI, hex'),
  signature: z.string().describe('ECDSA P-256 SHA-256 over RFC 9162 TreeHeadDataV2, DER, base64'),
});

/** A leaf of version 2 as the public log holds it: the kind, and one commitment per field. */
export const committedLeaf = z.object({
  v: z.literal(2),
  kind: z.string().describe('a fixed action name, e.g. sign.sign, seal.made, verify'),
  c: z
    .record(z.string(), hash)
    .describe(
      'field → SHA-256("OpenSeal evidence commitment v1" ‖ 0x00 ‖ u16 length ‖ field ‖ 32-byte salt ‖ canonical JSON of the value); fields: subject, actor, at, hashes.<name>, data.<key>',
    ),
});

/** A leaf written before commitments (version 1): the entry in clear. Shown to parties of the act only. */
export const clearLeaf = z.object({
  v: z.literal(1),
  kind: z.string(),
  subject: z.string(),
  actor: z.string(),
  at: z.string(),
  hashes: z.record(z.string(), z.string()),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const opening = z.object({
  salt: z.string().regex(/^[0-9a-f]{64}$/),
  value: z.unknown(),
});

export const proofBundle = z.object({
  version: z.literal(2),
  leafIndex: z.number().int(),
  leafHash: hash,
  leaf: z
    .union([committedLeaf, clearLeaf])
    .nullable()
    .describe('the leaf as hashed; null: a clear leaf written before commitments, withheld (hash only)'),
  openings: z
    .record(z.string(), opening)
    .describe('field → { salt, value }: what the holder may show; none in the public log'),
  treeHead: signedTreeHead,
  inclusionPath: z.array(hash).describe('leaf to root'),
  logPublicKey: z.string().describe('SPKI DER, base64'),
});

export const consistencyProof = z.object({
  first: z.number().int(),
  second: z.number().int(),
  consistency: z.array(hash),
});

/** `GET /v1/evidence/entries/{index}`: the committed leaf, or only the hash of a clear one. */
export const evidenceLeaf = z.object({
  index: z.number().int(),
  leafHash: hash,
  leaf: committedLeaf
    .nullable()
    .describe('null: written in clear before commitments; only its hash is served'),
});

export const logKey = z.object({
  keyId: z.string(),
  algorithm: z.literal('ECDSA P-256 SHA-256'),
  spki: z.string().describe('SPKI DER, base64'),
  pem: z.string(),
});

/** One leaf about a verified file, with what its uploader may see of it. */
export const fileEvidenceRecord = z.object({
  leafIndex: z.number().int(),
  leafHash: hash,
  kind: z.string().nullable().describe('null for a withheld clear leaf'),
  /** The leaf as the public log holds it (null: a clear leaf written before commitments, hash only). */
  leaf: committedLeaf.nullable(),
  /** The fields opened for the uploader, with their values (file hashes; for the verification, all but the actor). */
  opened: z.record(z.string(), z.unknown()),
  /** Inclusion path of the leaf in the tree `treeHead` signs, leaf to root. */
  inclusionPath: z.array(hash),
  /** The same, self-contained, to download and check with `openseal evidence verify`. */
  bundle: proofBundle,
});

/**
 * `GET /v1/signFile/verify/report/{reportId}/evidence`: the evidence of a verified file. `signing` lists
 * the platform's signing acts whose output is exactly this file (found through a private index of file
 * hashes, never by reading the public log); empty when the platform did not sign this file as it is.
 */
export const verifyEvidenceResponse = z.object({
  reportId: z.string(),
  sha256: hash,
  /** The latest signed tree head; every record's inclusion path leads to its root. */
  treeHead: signedTreeHead,
  logKeyId: z.string(),
  logPublicKey: z.string().describe('SPKI DER, base64'),
  signing: z.array(fileEvidenceRecord),
  /** The leaf that records this verification (the report's evidenceIndex). */
  verification: fileEvidenceRecord,
});

export const verifyEvidenceBundleParams = z.object({
  reportId: z.string().min(1).max(64),
  leafIndex: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

export type ProofBundleDto = z.infer<typeof proofBundle>;
export type FileEvidenceRecordDto = z.infer<typeof fileEvidenceRecord>;
export type VerifyEvidenceResponse = z.infer<typeof verifyEvidenceResponse>;
