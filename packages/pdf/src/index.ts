export * from './errors';
export * from './objects';
export * from './source';
export {
  openPdf,
  PdfDocument,
  type XrefEntry,
  type Revision,
  type PdfLimits,
  type OpenPdfOptions,
  type PdfPage,
  type Box,
} from './reader';
export { serializeObject, IncrementalUpdate } from './writer';
export { checkSigningAllowed, checkUpdatable } from './encryption';
export * from './sign/index';
export * from './verify/index';
export { pageFrame, displaySize, PT_PER_MM } from './sign/geometry';
