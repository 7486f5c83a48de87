import type { RevocationStatus, TrustStore } from '@openseal/pki';
import type { PdfLimits } from '../reader';

export type ChangeKind =
  | 'signature'
  | 'dss'
  | 'form-fill'
  | 'annotation'
  | 'content'
  | 'page-added'
  | 'page-removed'
  | 'catalog'
  | 'other';

export interface SignatureChange {
  /** Index of the revision that made the change. */
  revision: number;
  kind: ChangeKind;
  detail: string;
  allowed: boolean;
}

export interface RevocationReport {
  status: 'good' | 'revoked' | 'unknown';
  source: string;
  revokedAt?: string;
  reason?: string;
}

export interface SignatureReport {
  /** Fully qualified field name, or '(no field)' for a signature dictionary no field points to. */
  field: string;
  kind: 'signature' | 'certification' | 'document-timestamp';
  subFilter: string;
  /** Common name of the signer, else the subject. */
  signer: string | null;
  signerSubject?: string;
  signerIssuer?: string;
  serialHex?: string;
  /** ISO times: the signer certificate's validity period. */
  certNotBefore?: string;
  certNotAfter?: string;
  /** ISO time: /M of the signature dictionary, else the signing-time attribute. */
  signingTime: string | null;
  /** 1-based page number of the widget. */
  page?: number;
  rect?: [number, number, number, number];
  byteRange: number[];
  byteRangeOk: boolean;
  byteRangeProblem?: string;
  integrity: 'valid' | 'invalid';
  integrityReason?: string;
  coversWholeDocument: boolean;
  /** Index of the revision the signature signs (-1 when its ByteRange ends at no revision end). */
  signedRevision: number;
  modifiedAfter: 'none' | 'allowed' | 'disallowed';
  changes: SignatureChange[];
  docMdp?: 1 | 2 | 3;
  chain: 'trusted' | 'untrusted' | 'invalid';
  chainSubjects: string[];
  validAtSigningTime: boolean | null;
  timestamp: null | { time: string; valid: boolean; tsa?: string };
  revocation: RevocationReport;
  verdict: 'valid' | 'invalid';
  reasons: string[];
}

export interface PdfVerifyReport {
  verdict: 'valid' | 'invalid' | 'no-signatures';
  signatures: SignatureReport[];
  revisions: number;
  repaired: boolean;
  encrypted: boolean;
  warnings: string[];
}

/** Bounds passed to the reader; `deadlineMs` also bounds the whole verification. */
export type ReaderLimits = PdfLimits;

export interface VerifyPdfOptions {
  trust: TrustStore;
  /** Asked for each certificate (DER) and its issuer when the CMS carries no revocation data for it. */
  checkRevocation?: (certificate: Uint8Array, issuer: Uint8Array) => Promise<RevocationStatus | undefined>;
  now?: Date;
  limits?: ReaderLimits;
  /** Password of an encrypted document (user or owner); the empty user password is tried without it. */
  password?: string;
}

/** What `openseal verify --json` prints. */
export interface CliVerifySummary {
  verdict: PdfVerifyReport['verdict'];
  signatures: Array<{
    field: string;
    signer: string | null;
    integrity: 'valid' | 'invalid';
    coversWholeDocument: boolean;
    chain: 'trusted' | 'untrusted' | 'invalid';
    timestamp: null | { time: string; valid: boolean };
    modifiedAfter: 'none' | 'allowed' | 'disallowed';
  }>;
}
