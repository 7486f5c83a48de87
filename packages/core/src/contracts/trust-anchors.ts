import { z } from 'zod';

/**
 * Operator-managed trust anchors (console, /manage/api/v1/trust-anchors): CA certificates of other
 * platforms that this platform's verifier trusts besides its own root and TRUST_LIST.
 */
export const trustAnchorStatus = z
  .enum(['enabled', 'disabled', 'removed'])
  .describe('enabled: trusted; disabled: kept but not trusted; removed: kept for the audit trail only');

const anchorCertificate = {
  subject: z.string().describe('RFC 4514, most specific first'),
  issuer: z.string(),
  serialHex: z.string(),
  fingerprintSha256: z.string().describe('lower-case hex SHA-256 of the DER'),
  notBefore: z.string().describe('ISO 8601'),
  notAfter: z.string().describe('ISO 8601'),
  keyAlgorithm: z.string().describe('EC-P256, RSA-2048, SM2, …'),
};

export const trustAnchor = z.object({
  anchorId: z.string(),
  label: z.string(),
  note: z.string().nullable(),
  ...anchorCertificate,
  /** Whether the certificate names itself as its issuer (a root rather than an intermediate CA). */
  selfIssued: z.boolean(),
  validNow: z.boolean(),
  status: trustAnchorStatus,
  addedBy: z.string().describe('operator id'),
  addedAt: z.string(),
  changedBy: z.string().nullable(),
  changedAt: z.string().nullable(),
  pem: z.string(),
});

/** The anchors the platform trusts without an operator: its own root and those of TRUST_LIST. */
export const builtInTrustAnchor = z.object({
  source: z.enum(['platform', 'trustList']),
  ...anchorCertificate,
});

export const trustAnchorListQuery = z.object({
  status: z
    .enum(['current', 'removed', 'all'])
    .default('current')
    .describe('current: enabled and disabled; removed: the removed ones; all: every one'),
});
export const trustAnchorList = z.object({
  list: z.array(trustAnchor),
  builtIn: z.array(builtInTrustAnchor),
});

export const trustAnchorAddRequest = z.object({
  certificate: z
    .string()
    .min(1)
    .max(200_000)
    .describe('one certificate: PEM text, or its DER bytes in base64'),
  label: z.string().trim().min(1).max(64),
  note: z.string().trim().max(500).optional(),
  acceptNotValidNow: z
    .boolean()
    .default(false)
    .describe('add it although it is expired or not yet valid (the operator accepts this explicitly)'),
});

export const trustAnchorParams = z.object({ anchorId: z.string().regex(/^ta_[0-9a-z]{20}$/) });
