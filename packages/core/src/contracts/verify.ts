import { z } from 'zod';
import {
  DOCUMENT_VERDICTS,
  SIGNATURE_VERDICTS,
  SUB_INDICATIONS,
  VERIFY_REASON_CODES,
  type VerifyReasonCode,
} from '../verify/reasons';

/** A catalogued reason (VERIFY_REASONS): its code, the severity it imposes, and its parameters. */
export const verifyFinding = z.object({
  code: z.enum(VERIFY_REASON_CODES as [VerifyReasonCode, ...VerifyReasonCode[]]),
  severity: z.enum(['invalid', 'indeterminate', 'info']),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

/** One signature of a verified PDF: who, whether its bytes are intact, what came after it, and why not valid. */
export const signatureReport = z.object({
  field: z.string(),
  kind: z.enum(['signature', 'certification', 'document-timestamp']),
  subFilter: z.string(),
  signer: z.string().nullable(),
  signerSubject: z.string().optional(),
  signerIssuer: z.string().optional(),
  serialHex: z.string().optional(),
  certNotBefore: z.string().optional(),
  certNotAfter: z.string().optional(),
  signingTime: z.string().nullable(),
  page: z.number().int().optional(),
  rect: z.tuple([z.number(), z.number(), z.number(), z.number()]).optional(),
  byteRange: z.array(z.number()),
  byteRangeOk: z.boolean(),
  byteRangeProblem: z.string().optional(),
  integrity: z.enum(['valid', 'invalid', 'unknown']),
  integrityReason: z.string().optional(),
  digestAlgorithm: z.string().optional(),
  signatureAlgorithm: z.string().optional(),
  coversWholeDocument: z.boolean(),
  signedRevision: z.number().int(),
  modifiedAfter: z.enum(['none', 'allowed', 'disallowed']),
  changes: z.array(
    z.object({
      revision: z.number().int(),
      kind: z.enum([
        'signature',
        'dss',
        'form-fill',
        'annotation',
        'content',
        'page-added',
        'page-removed',
        'catalog',
        'other',
      ]),
      action: z.enum(['added', 'removed', 'changed']),
      allowed: z.boolean(),
      detail: z.string(),
      page: z.number().int().optional(),
      subtype: z.string().optional(),
      text: z.string().optional(),
      image: z.boolean().optional(),
      visible: z.boolean().optional(),
      field: z.string().optional(),
      value: z.string().optional(),
      object: z.number().int().optional(),
    }),
  ),
  docMdp: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
  chain: z.enum(['trusted', 'untrusted', 'invalid']),
  chainSubjects: z.array(z.string()),
  validAtSigningTime: z.boolean().nullable(),
  timestamp: z.object({ time: z.string(), valid: z.boolean(), tsa: z.string().optional() }).nullable(),
  provenTime: z.string().optional(),
  revocation: z.object({
    status: z.enum(['good', 'revoked', 'unknown']),
    source: z.string(),
    revokedAt: z.string().optional(),
    reason: z.string().optional(),
  }),
  verdict: z.enum(SIGNATURE_VERDICTS),
  subIndication: z.enum(SUB_INDICATIONS).optional(),
  findings: z.array(verifyFinding),
  reasons: z.array(z.string()),
});

/** `POST /v1/signFile/verify/pdf`: the report of every signature in every revision, and its evidence leaf. */
export const pdfVerifyResponse = z.object({
  fileName: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  verdict: z.enum(DOCUMENT_VERDICTS),
  findings: z.array(verifyFinding),
  signatures: z.array(signatureReport),
  revisions: z.number().int(),
  repaired: z.boolean(),
  encrypted: z.boolean(),
  warnings: z.array(z.string()),
  verifiedAt: z.string(),
  /** Index of the evidence-log leaf that records this verification (proof at /v1/evidence/proof/{index}). */
  evidenceIndex: z.number().int(),
  /** The kept report: GET /v1/signFile/verify/report/{reportId} (JSON) and …/{reportId}/pdf (the PDF report). */
  reportId: z.string(),
});

/** Path parameter of the kept-report endpoints; any other shape is simply not found. */
export const verifyReportParams = z.object({ reportId: z.string().min(1).max(64) });

/** `GET /v1/signFile/verify/config`: what a public verification page must know before it uploads. */
export const verifyConfigResponse = z.object({
  /** Largest upload in bytes (system config VERIFY_FILE_SIZE_LIMIT in MB, 3 MB by default). */
  maxBytes: z.number().int(),
  /** The file kinds accepted. */
  kinds: z.array(z.literal('pdf')),
});

export type SignatureReportDto = z.infer<typeof signatureReport>;
export type PdfVerifyResponse = z.infer<typeof pdfVerifyResponse>;
export type VerifyConfigDto = z.infer<typeof verifyConfigResponse>;
