import type { DocumentVerdict, SignatureVerdict, SubIndication, VerifyFinding } from '@openseal/core';
import type { RevocationEvidence, RevocationStatus, TrustStore } from '@openseal/pki';
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

/**
 * One change a later revision made, seen from a signature: what kind, where, what it shows, and
 * whether the signature permits it. `detail` is an English sentence; the other fields are for pages.
 */
export interface SignatureChange {
  /** Index of the revision that made the change. */
  revision: number;
  kind: ChangeKind;
  action: 'added' | 'removed' | 'changed';
  allowed: boolean;
  detail: string;
  /** 1-based page, for annotations, widgets and pages. */
  page?: number;
  /** Annotation subtype (FreeText, Stamp, Widget…). */
  subtype?: string;
  /** The text an annotation shows (/Contents, /RC without markup, or the strings its appearance draws). */
  text?: string;
  /** True when an annotation's appearance paints an image. */
  image?: boolean;
  /** True when the change puts something a reader sees on a page (an annotation or a field's widget). */
  visible?: boolean;
  /** Fully qualified field name, for form fields and signature fields. */
  field?: string;
  /** The value a form field was filled with, as text. */
  value?: string;
  /** Object number, for changes to objects that are no field, annotation or page. */
  object?: number;
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
  /** 'unknown': the signature could not be checked (unsupported algorithm, no signer certificate). */
  integrity: 'valid' | 'invalid' | 'unknown';
  integrityReason?: string;
  digestAlgorithm?: string;
  signatureAlgorithm?: string;
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
  /** ISO time a valid timestamp from a trusted TSA proves the signature existed at. */
  provenTime?: string;
  revocation: RevocationReport;
  /** ETSI EN 319 102-1 style: valid, invalid, or indeterminate (intact, signer not confirmed). */
  verdict: SignatureVerdict;
  /** The ETSI sub-indication (or OpenSeal's for changes after signing) behind a verdict other than valid. */
  subIndication?: SubIndication;
  /** Catalogued reasons (packages/core VERIFY_REASONS): decisive ones and notes. */
  findings: VerifyFinding[];
  /** The English text of the findings that are not mere notes. */
  reasons: string[];
}

export interface PdfVerifyReport {
  /** Invalid if any signature is, else indeterminate if any is, else valid; no-signatures without any. */
  verdict: DocumentVerdict;
  /** Catalogued reasons for the document as a whole (which signatures fail, repaired structure…). */
  findings: VerifyFinding[];
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
  /** OCSP responses and CRLs the caller holds (the platform's own), used like the document's DSS. */
  revocation?: RevocationEvidence;
  /** Asked for each certificate (DER) and its issuer when the CMS carries no revocation data for it. */
  checkRevocation?: (certificate: Uint8Array, issuer: Uint8Array) => Promise<RevocationStatus | undefined>;
  /**
   * Called once before any `checkRevocation`, with every certificate the document carries (its
   * signatures' and its DSS's, at most 256): a caller can look them all up at once. A failure is ignored.
   */
  prefetchRevocation?: (certificates: Uint8Array[]) => Promise<void>;
  now?: Date;
  limits?: ReaderLimits;
  /** Password of an encrypted document (user or owner); the empty user password is tried without it. */
  password?: string;
}

/** What `openseal verify --json` prints. */
export interface CliVerifySummary {
  verdict: PdfVerifyReport['verdict'];
  findings: VerifyFinding[];
  signatures: Array<{
    field: string;
    signer: string | null;
    signerIssuer?: string;
    verdict: SignatureVerdict;
    subIndication?: SubIndication;
    integrity: SignatureReport['integrity'];
    coversWholeDocument: boolean;
    chain: 'trusted' | 'untrusted' | 'invalid';
    timestamp: null | { time: string; valid: boolean };
    modifiedAfter: 'none' | 'allowed' | 'disallowed';
    findings: VerifyFinding[];
    /** Changes after the signature that a reader should look at: not allowed, or visible. */
    changes: Array<
      Pick<
        SignatureChange,
        'kind' | 'action' | 'allowed' | 'detail' | 'page' | 'subtype' | 'text' | 'field' | 'value'
      >
    >;
  }>;
}
