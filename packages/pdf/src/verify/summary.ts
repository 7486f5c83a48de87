import type { CliVerifySummary, PdfVerifyReport } from './types';

/** The JSON `openseal verify --json` prints: the verdict and, per signature, what a reader decides on. */
export function summarizeForCli(report: PdfVerifyReport): CliVerifySummary {
  return {
    verdict: report.verdict,
    signatures: report.signatures.map((s) => ({
      field: s.field,
      signer: s.signer,
      integrity: s.integrity,
      coversWholeDocument: s.coversWholeDocument,
      chain: s.chain,
      timestamp: s.timestamp ? { time: s.timestamp.time, valid: s.timestamp.valid } : null,
      modifiedAfter: s.modifiedAfter,
    })),
  };
}
