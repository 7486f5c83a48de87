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

/** valid: verified and unchanged; warning: verified but with a caveat to read; invalid: fails. */
export type Tone = 'valid' | 'warning' | 'invalid';

export interface NumberedSignature {
  /** 1-based, in signing order: the number on its box and its card. */
  no: number;
  /** Index in the report's list (the server's order), for stable keys. */
  index: number;
  sig: SignatureReport;
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

/** How a signature's "changed after signing" reads: none, only later signatures, other permitted changes, or not permitted. */
export function modifiedKind(sig: SignatureReport): 'none' | 'signaturesOnly' | 'allowed' | 'disallowed' {
  if (sig.modifiedAfter === 'allowed' && onlyLaterSignatures(sig)) return 'signaturesOnly';
  return sig.modifiedAfter;
}

/** The tone of a signature: invalid fails; a valid one with something to note is a warning. */
export function toneOf(sig: SignatureReport): Tone {
  if (sig.verdict === 'invalid') return 'invalid';
  const modified = modifiedKind(sig);
  if (modified === 'allowed' || modified === 'disallowed') return 'warning';
  if (sig.revocation.status !== 'good' || sig.chain !== 'trusted') return 'warning';
  return 'valid';
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
    .map(({ sig, index }, i) => ({ no: i + 1, index, sig, tone: toneOf(sig), visible: hasVisibleBox(sig) }));
}

export interface ReportSummary {
  verdict: VerifyReport['verdict'];
  total: number;
  valid: number;
  invalid: number;
  /** Valid signatures that come with a caveat (changes allowed after, revocation unknown, untrusted chain). */
  warnings: number;
}

export function summarise(report: Pick<VerifyReport, 'verdict' | 'signatures'>): ReportSummary {
  const tones = report.signatures.map(toneOf);
  return {
    verdict: report.verdict,
    total: report.signatures.length,
    valid: report.signatures.filter((s) => s.verdict === 'valid').length,
    invalid: tones.filter((t) => t === 'invalid').length,
    warnings: tones.filter((t) => t === 'warning').length,
  };
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
          : modifiedKind(sig) === 'allowed'
            ? 'warning'
            : 'valid',
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
