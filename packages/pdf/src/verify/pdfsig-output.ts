/**
 * Reads the text poppler's `pdfsig` prints, so that tests can hold our verdicts against an independent
 * verifier. Only what is needed for that comparison is kept.
 */

export type PdfsigValidation =
  | 'valid'
  | 'digest-mismatch'
  | 'not-verified'
  | 'unsigned'
  | 'unknown-failure'
  | 'invalid'
  | 'decoding-error'
  | 'generic-error'
  | 'none';

export interface PdfsigSignature {
  /** 1-based position in pdfsig's list. */
  index: number;
  field: string;
  commonName?: string;
  signatureType?: string;
  /** The signed ranges as pdfsig prints them: [start, end] pairs. */
  ranges: Array<[number, number]>;
  totalDocumentSigned?: boolean;
  validation: PdfsigValidation;
  validationText?: string;
  /** pdfsig's "Certificate Validation" line, when it checked the certificate. */
  certificate?: 'trusted' | 'untrusted' | 'unknown-issuer' | 'expired' | 'revoked' | 'other';
  certificateText?: string;
}

export interface PdfsigFileResult {
  file: string;
  signatures: PdfsigSignature[];
  exitCode?: number;
}

function classifyValidation(text: string): PdfsigValidation {
  if (/Signature is Valid/i.test(text)) return 'valid';
  if (/Digest Mismatch/i.test(text)) return 'digest-mismatch';
  if (/not yet been verified/i.test(text)) return 'not-verified';
  if (/Unknown Validation Failure/i.test(text)) return 'unknown-failure';
  if (/Signature is Invalid/i.test(text)) return 'invalid';
  if (/Document isn't signed or corrupted data/i.test(text)) return 'decoding-error';
  if (/Signature has not yet been verified|Generic Error/i.test(text)) return 'generic-error';
  return 'none';
}

function classifyCertificate(text: string): NonNullable<PdfsigSignature['certificate']> {
  if (/Certificate is Trusted/i.test(text)) return 'trusted';
  if (/issuer isn't Trusted/i.test(text)) return 'untrusted';
  if (/issuer is unknown/i.test(text)) return 'unknown-issuer';
  if (/has Expired/i.test(text)) return 'expired';
  if (/has been Revoked/i.test(text)) return 'revoked';
  return 'other';
}

/** Parses the `Signature #n:` blocks of one pdfsig run. */
export function parsePdfsigRun(text: string): PdfsigSignature[] {
  const signatures: PdfsigSignature[] = [];
  let current: PdfsigSignature | null = null;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    const head = /^Signature #(\d+):?$/.exec(line);
    if (head) {
      current = { index: Number(head[1]), field: '', ranges: [], validation: 'none' };
      signatures.push(current);
      continue;
    }
    if (!current) continue;
    const item = /^- ([^:]+):\s?(.*)$/.exec(line);
    if (item) {
      const key = (item[1] as string).trim();
      const value = item[2] as string;
      if (key === 'Signature Field Name') current.field = value;
      else if (key === 'Signer Certificate Common Name') current.commonName = value;
      else if (key === 'Signature Type') current.signatureType = value;
      else if (key === 'Signed Ranges') {
        for (const m of value.matchAll(/\[(\d+) - (\d+)\]/g))
          current.ranges.push([Number(m[1]), Number(m[2])]);
      } else if (key === 'Signature Validation') {
        current.validation = classifyValidation(value);
        current.validationText = value;
      } else if (key === 'Certificate Validation') {
        current.certificate = classifyCertificate(value);
        current.certificateText = value;
      }
      continue;
    }
    if (line === '- Total document signed') current.totalDocumentSigned = true;
    else if (line === '- Not total document signed') current.totalDocumentSigned = false;
    else if (/form field is not signed/i.test(line)) {
      current.validation = 'unsigned';
      current.validationText = line;
    }
  }
  return signatures;
}

/** Parses a reference file of many runs, each introduced by `===== <file>` and closed by `[exit=N]`. */
export function parsePdfsigReference(text: string): Map<string, PdfsigFileResult> {
  const results = new Map<string, PdfsigFileResult>();
  const blocks = text.split(/^===== /m).slice(1);
  for (const block of blocks) {
    const newline = block.indexOf('\n');
    const file = (newline < 0 ? block : block.slice(0, newline)).trim();
    const body = newline < 0 ? '' : block.slice(newline + 1);
    const exit = /^\[exit=(\d+)\]/m.exec(body);
    const result: PdfsigFileResult = { file, signatures: parsePdfsigRun(body) };
    if (exit) result.exitCode = Number(exit[1]);
    results.set(file, result);
  }
  return results;
}

/** Parses a tab-separated manifest with a header line into one record per row. */
export function parseManifest(text: string): Array<Record<string, string>> {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = (lines.shift() ?? '').split('\t');
  return lines.map((line) => {
    const cells = line.split('\t');
    return Object.fromEntries(header.map((name, i) => [name, cells[i] ?? '']));
  });
}

/** pdfsig prints the signed ranges as [start - end]; ours are [offset, length, offset, length]. */
export function pdfsigRangesToByteRange(ranges: ReadonlyArray<readonly [number, number]>): number[] {
  return ranges.flatMap(([start, end]) => [start, end - start]);
}
