export {
  checkDocumentSignable,
  signPdf,
  signPdfFile,
  WHOLE_FILE_MAX_BYTES,
  type PdfSignOptions,
  type PdfSignAppearance,
  type PdfRidingSeam,
  type PdfSignResult,
  type ByteSink,
} from './sign-pdf';
export { appendDss, appendDssFile, type DssData, type AppendDssResult } from './dss';
