import { z } from 'zod';
import { DOCUMENT_VERDICTS } from '../verify/reasons';
import { pdfVerifyResponse } from './verify';

/**
 * Verified records (验签记录): the verifications a signed-in person made on the public verification page.
 * Anonymous verifications belong to nobody; nobody sees another person's records.
 */
export const verifiedRecordListQuery = z.object({
  verdict: z.enum(DOCUMENT_VERDICTS).optional(),
  keyword: z.string().trim().max(100).optional().describe('part of the file name, or its SHA-256'),
  pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const verifiedRecordSummary = z.object({
  verifiedUuid: z.string().describe('the kept report’s id (also its public result address)'),
  fileName: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  verdict: z.enum(DOCUMENT_VERDICTS),
  signatureCount: z.number().int(),
  evidenceIndex: z.number().int(),
  organizationId: z.string().nullable().describe('the space it was verified in (null: personal)'),
  verifiedAt: z.string(),
});

export const verifiedRecordPage = z.object({
  total: z.number().int(),
  pageNum: z.number().int(),
  pageSize: z.number().int(),
  list: z.array(verifiedRecordSummary),
});

export const verifiedRecordParams = z.object({ verifiedUuid: z.string().min(1).max(64) });
export const verifiedRecordDetail = verifiedRecordSummary.extend({ report: pdfVerifyResponse });
