import type { contracts } from '@openseal/core';
import type { z } from 'zod';

/**
 * Pure rules of the verification pages: what a report says overall, in which order its signatures are
 * listed and numbered, the tone (colour) of each, the facts a card shows as i18n keys, and the checks
 * made in the browser before an upload. The server decides; these only present its answer.
 */
export type VerifyReport = z.output<typeof contracts.pdfVerifyResponse>;
export type SignatureReport = VerifyReport['signatures'][number];
export type VerifyConfig = z.output<typeof contracts.verifyConfigResponse>;

/** valid: verified and unchanged; warning: not confirmed, or verified with a caveat to read; invalid: fails. */
export type Tone = 'valid' | 'warning' | 'invalid';

/**
 * What a signature's card and box say: valid; valid with something to read (permitted changes other
 * than later signatures, or a revocation the timestamp outlives); indeterminate (intact, but the signer
 * or what was added after it cannot be confirmed); invalid.
 */
export type Status = 'valid' | 'notes' | 'indeterminate' | 'invalid';

export interface NumberedSignature {
  /** 1-based, in signing order: the number on its box and its card. */
  no: number;
  /** Index in the report's list (the server's order), for stable keys. */
  index: number;
  sig: SignatureReport;
  status: Status;
  tone: Tone;
  /** Drawn on the page: a page and a rectangle with an area. */
  visible: boolean;
}

export function hasVisibleBox(sig: SignatureReport): boolean {
  const r = sig.rect;
  return !!sig.page && !!r && Math.abs(r[2] - r[0]) > 0.5 && Math.abs(r[3] - r[1]) > 0.5;
}

/** Changes after signing that are only further signatures and their validation data: the normal case of a contract several parties sign. */
export function onlyLaterSignatures(sig: SignatureReport): boolean {
  return (
    sig.modifiedAfter === 'allowed' && sig.changes.every((c) => c.kind === 'signature' || c.kind === 'dss')
  );
}

/**
 * How a signature's "changed after signing" reads: none, only later signatures, something a reader sees
 * added (an annotation with text or an image; permitted by the signature or not, never a plain valid),
 * other permitted changes, or not permitted.
 */
export function modifiedKind(
  sig: SignatureReport,
): 'none' | 'signaturesOnly' | 'visible' | 'allowed' | 'disallowed' {
  if (sig.modifiedAfter === 'allowed' && onlyLaterSignatures(sig)) return 'signaturesOnly';
  if (
    sig.modifiedAfter === 'allowed' &&
    sig.changes.some((c) => c.kind !== 'signature' && c.kind !== 'dss' && isVisibleChange(c))
  )
    return 'visible';
  return sig.modifiedAfter;
}

/**
 * The status of a signature, from the server's verdict. A signature whose certificate does not chain to
 * a trust anchor is never shown valid, whatever its names say (the server concludes the same; this only
 * makes sure a page never draws it green).
 */
export function statusOf(sig: SignatureReport): Status {
  if (sig.verdict === 'invalid') return 'invalid';
  if (sig.verdict === 'indeterminate' || sig.chain !== 'trusted') return 'indeterminate';
  const modified = modifiedKind(sig);
  if (modified !== 'none' && modified !== 'signaturesOnly') return 'notes';
  if (sig.revocation.status !== 'good') return 'notes';
  return 'valid';
}

export function toneOfStatus(status: Status): Tone {
  return status === 'valid' ? 'valid' : status === 'invalid' ? 'invalid' : 'warning';
}

/** The tone (colour) of a signature: green only when valid without a caveat, red when invalid, amber otherwise. */
export function toneOf(sig: SignatureReport): Tone {
  return toneOfStatus(statusOf(sig));
}

/** Why a signature (or a document) is indeterminate: its signer is not confirmed, something was added after it, or both. */
export interface Unconfirmed {
  signer: boolean;
  changes: boolean;
}

export function unconfirmedOf(sig: SignatureReport): Unconfirmed {
  const decisive = sig.findings.filter((f) => f.severity === 'indeterminate');
  return {
    signer: sig.chain !== 'trusted' || decisive.some((f) => !f.code.startsWith('changes.')),
    changes: decisive.some((f) => f.code.startsWith('changes.')),
  };
}

const SEVERITY_ORDER = { invalid: 0, indeterminate: 1, info: 2 } as const;

/** A signature's findings, the decisive ones first (invalid, then indeterminate), then the notes. */
export function orderedFindings(sig: Pick<SignatureReport, 'findings'>): SignatureReport['findings'] {
  return sig.findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => SEVERITY_ORDER[a.f.severity] - SEVERITY_ORDER[b.f.severity] || a.i - b.i)
    .map(({ f }) => f);
}

export type SignatureChange = SignatureReport['changes'][number];

/**
 * One change after a signature as the page words it: an i18n key under `verify.changeLine.` with its
 * parameters, and the text the change shows (an annotation's text, a field's value) to quote as it is.
 */
export function describeChange(c: SignatureChange): {
  key: string;
  params: Record<string, string | number>;
  quote?: string;
} {
  const page = c.page ?? '?';
  switch (c.kind) {
    case 'annotation':
      return {
        key:
          c.action === 'added' ? (c.image ? 'annotationImage' : 'annotationAdded') : `annotation.${c.action}`,
        params: { page, subtype: c.subtype ?? '?' },
        ...(c.text ? { quote: c.text } : {}),
      };
    case 'form-fill':
      if (c.action === 'added') return { key: 'fieldAdded', params: { page, field: c.field ?? '?' } };
      return {
        key: 'formFilled',
        params: { field: c.field ?? '?' },
        ...(c.value !== undefined ? { quote: c.value } : {}),
      };
    case 'signature':
      return { key: c.page ? 'signatureOnPage' : 'signature', params: { page, field: c.field ?? '?' } };
    case 'dss':
      return { key: 'dss', params: {} };
    case 'page-added':
    case 'page-removed':
      return { key: c.kind, params: { page } };
    case 'content':
      return { key: 'content', params: { page } };
    case 'catalog':
      return { key: 'catalog', params: {} };
    default:
      return c.object !== undefined
        ? { key: 'otherObject', params: { object: c.object } }
        : { key: 'other', params: {} };
  }
}

/** Something after the signature that a reader sees on a page: an annotation or field added or changed. */
export function isVisibleChange(c: SignatureChange): boolean {
  return c.visible === true || (c.kind === 'annotation' && (!!c.text || !!c.image));
}

/**
 * Signatures in signing order (the revision each signs, then by page and from the top of the page), each
 * with its number; the server lists them in file order, which is usually the same.
 */
export function numberSignatures(sigs: readonly SignatureReport[]): NumberedSignature[] {
  const rev = (s: SignatureReport) => (s.signedRevision < 0 ? Number.MAX_SAFE_INTEGER : s.signedRevision);
  const top = (s: SignatureReport) => (s.rect ? -Math.max(s.rect[1], s.rect[3]) : 0);
  return sigs
    .map((sig, index) => ({ sig, index }))
    .sort(
      (a, b) =>
        rev(a.sig) - rev(b.sig) ||
        (a.sig.page ?? Number.MAX_SAFE_INTEGER) - (b.sig.page ?? Number.MAX_SAFE_INTEGER) ||
        top(a.sig) - top(b.sig) ||
        a.index - b.index,
    )
    .map(({ sig, index }, i) => {
      const status = statusOf(sig);
      return { no: i + 1, index, sig, status, tone: toneOfStatus(status), visible: hasVisibleBox(sig) };
    });
}

export interface ReportSummary {
  /** The document's verdict; never valid while a signature is not (see statusOf). */
  verdict: VerifyReport['verdict'];
  total: number;
  valid: number;
  invalid: number;
  indeterminate: number;
  /** Valid signatures that come with a caveat (permitted changes other than later signatures). */
  warnings: number;
  /** Why the document is indeterminate, over its indeterminate signatures. */
  unconfirmed: Unconfirmed;
}

export function summarise(report: Pick<VerifyReport, 'verdict' | 'signatures'>): ReportSummary {
  const statuses = report.signatures.map(statusOf);
  const count = (s: Status) => statuses.filter((x) => x === s).length;
  const undecided = report.signatures.filter((_s, i) => statuses[i] === 'indeterminate').map(unconfirmedOf);
  let verdict = report.verdict;
  if (verdict === 'valid' && count('invalid') > 0) verdict = 'invalid';
  else if (verdict === 'valid' && count('indeterminate') > 0) verdict = 'indeterminate';
  return {
    verdict,
    total: report.signatures.length,
    valid: count('valid') + count('notes'),
    invalid: count('invalid'),
    indeterminate: count('indeterminate'),
    warnings: count('notes'),
    unconfirmed: {
      signer: undecided.some((u) => u.signer),
      changes: undecided.some((u) => u.changes),
    },
  };
}

/** The i18n key (under `verify.`) of a verdict's title: indeterminate says why. */
export function verdictTitleKey(s: Pick<ReportSummary, 'verdict' | 'unconfirmed'>): string {
  if (s.verdict !== 'indeterminate') return `verdict.${s.verdict}`;
  if (s.unconfirmed.changes && !s.unconfirmed.signer) return 'verdict.indeterminateChanges';
  return 'verdict.indeterminate';
}

/** i18n keys (under `verify.`) of the facts a signature card shows, each with its tone. */
export function signatureFacts(sig: SignatureReport): Array<{ key: string; tone: Tone }> {
  return [
    {
      key: sig.integrity === 'valid' ? 'fact.integrityOk' : 'fact.integrityBroken',
      tone: sig.integrity === 'valid' ? 'valid' : 'invalid',
    },
    {
      key: `fact.modified.${modifiedKind(sig)}`,
      tone:
        modifiedKind(sig) === 'disallowed'
          ? 'invalid'
          : modifiedKind(sig) === 'none' || modifiedKind(sig) === 'signaturesOnly'
            ? 'valid'
            : 'warning',
    },
    {
      key: `fact.chain.${sig.chain}`,
      tone: sig.chain === 'trusted' ? 'valid' : sig.chain === 'untrusted' ? 'warning' : 'invalid',
    },
    {
      key: `fact.revocation.${sig.revocation.status}`,
      tone:
        sig.revocation.status === 'good'
          ? 'valid'
          : sig.revocation.status === 'unknown'
            ? 'warning'
            : 'invalid',
    },
    {
      key:
        sig.validAtSigningTime === null
          ? 'fact.validity.unknown'
          : sig.validAtSigningTime
            ? 'fact.validity.ok'
            : 'fact.validity.bad',
      tone: sig.validAtSigningTime === null ? 'warning' : sig.validAtSigningTime ? 'valid' : 'invalid',
    },
    {
      key: sig.timestamp
        ? sig.timestamp.valid
          ? 'fact.timestamp.ok'
          : 'fact.timestamp.bad'
        : 'fact.timestamp.none',
      tone: sig.timestamp ? (sig.timestamp.valid ? 'valid' : 'invalid') : 'warning',
    },
  ];
}

/** The reason a file is refused before it is sent, or null when it may go to the server. */
export type FileProblem = 'empty' | 'notPdf' | 'tooLarge';

export function checkFile(
  file: { name: string; size: number; type: string },
  maxBytes: number,
): FileProblem | null {
  if (file.size === 0) return 'empty';
  const pdfName = /\.pdf$/i.test(file.name);
  const pdfType = file.type === 'application/pdf' || file.type === '';
  if (!pdfName || !pdfType) return 'notPdf';
  if (file.size > maxBytes) return 'tooLarge';
  return null;
}

/** The first bytes of a PDF: `%PDF-` within the first 1 KiB (as the server checks). */
export function looksLikePdf(head: Uint8Array): boolean {
  const text = Array.from(head.subarray(0, 1024), (b) => String.fromCharCode(b)).join('');
  return /%PDF-\d\.\d/.test(text);
}

/** A limit in bytes as megabytes for people: 3 MB, 2.5 MB. */
export function formatMb(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return `${Number.isInteger(mb) ? mb : Math.round(mb * 10) / 10} MB`;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/** The CN of a distinguished name written `CN=…, O=…`, else the whole name. */
export function commonName(dn: string | undefined | null): string | null {
  if (!dn) return null;
  const m = /(?:^|,\s*)CN=((?:\\,|[^,])+)/.exec(dn);
  return m ? m[1]!.replace(/\\,/g, ',').trim() : dn;
}

/** Where the result page of a kept report lives: the embeddable variant stays embeddable. */
export function resultPath(reportId: string, independence: boolean): string {
  const base = independence ? '/verifyContractResult/independence' : '/verifyContractResult';
  return `${base}?reportId=${encodeURIComponent(reportId)}`;
}

export function uploadPath(independence: boolean): string {
  return independence ? '/verifySign/independence' : '/verifySign';
}

export function reportPdfUrl(reportId: string): string {
  return `/v1/signFile/verify/report/${encodeURIComponent(reportId)}/pdf`;
}
