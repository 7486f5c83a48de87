/**
 * Page sizes of a PDF to be signed, read when a flow is created. Runs in the worker pool (workers/tasks.ts):
 * a crafted cross-reference section can take seconds to read.
 */
import { AppError } from '@openseal/core';
import { bufferSource, displaySize, openPdf, pageFrame, PdfError, PT_PER_MM } from '@openseal/pdf';
import { pdfErrorToAppError } from './pdf-signing';

/** Page sizes in millimetres as displayed, or the catalogued refusal of a PDF we cannot sign. */
export function readPdfPages(bytes: Uint8Array): { widthMm: number; heightMm: number }[] {
  try {
    const doc = openPdf(bufferSource(bytes), { limits: { deadlineMs: 10_000 } });
    if (doc.encrypted) throw new AppError('pdf.encrypted');
    return doc.pages().map((p) => {
      const [w, h] = displaySize(pageFrame(p));
      return {
        widthMm: Math.round((w / PT_PER_MM) * 100) / 100,
        heightMm: Math.round((h / PT_PER_MM) * 100) / 100,
      };
    });
  } catch (err) {
    if (err instanceof PdfError) throw pdfErrorToAppError(err);
    throw err;
  }
}
