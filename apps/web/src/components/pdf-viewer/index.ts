export { PdfViewer } from './pdf-viewer';
export type { PdfLoadErrorKind, PdfPageInfo, PdfPageOverlay, PdfSource, PdfViewerProps } from './pdf-viewer';
export * from './geometry';
