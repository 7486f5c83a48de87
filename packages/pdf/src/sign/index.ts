export {
  signPdf,
  signPdfFile,
  type PdfSignOptions,
  type PdfSignAppearance,
  type PdfRidingSeam,
  type PdfSignResult,
  type ByteSink,
} from './sign-pdf';
export { appendDss, appendDssFile, type DssData, type AppendDssResult } from './dss';
