export type {
  ChangeKind,
  CliVerifySummary,
  PdfVerifyReport,
  ReaderLimits,
  RevocationReport,
  SignatureChange,
  SignatureReport,
  VerifyPdfOptions,
} from './types';
export { summarizeForCli } from './summary';
export { verifyPdf } from './verify-pdf';
