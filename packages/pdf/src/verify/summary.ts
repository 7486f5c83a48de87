import type { CliVerifySummary, PdfVerifyReport, SignatureChange } from './types';

/** The changes a reader must see: those not permitted, and those that put something on a page. */
function notable(c: SignatureChange): boolean {
  return !c.allowed || c.visible === true || c.kind === 'form-fill';
}

/** The JSON `openseal verify --json` prints: the verdicts, their reasons and, per signature, what a reader decides on. */
export function summarizeForCli(report: PdfVerifyReport): CliVerifySummary {
  return {
    verdict: report.verdict,
    findings: report.findings,
    signatures: report.signatures.map((s) => ({
      field: s.field,
      signer: s.signer,
      ...(s.signerIssuer ? { signerIssuer: s.signerIssuer } : {}),
      verdict: s.verdict,
      ...(s.subIndication ? { subIndication: s.subIndication } : {}),
      integrity: s.integrity,
      coversWholeDocument: s.coversWholeDocument,
      chain: s.chain,
      timestamp: s.timestamp ? { time: s.timestamp.time, valid: s.timestamp.valid } : null,
      modifiedAfter: s.modifiedAfter,
      findings: s.findings,
      changes: s.changes.filter(notable).map((c) => {
        const out: CliVerifySummary['signatures'][number]['changes'][number] = {
          kind: c.kind,
          action: c.action,
          allowed: c.allowed,
          detail: c.detail,
        };
        for (const key of ['page', 'subtype', 'text', 'field', 'value'] as const) {
          const v = c[key];
          if (v !== undefined) (out as Record<string, unknown>)[key] = v;
        }
        return out;
      }),
    })),
  };
}
