/**
 * Page sizes of a PDF to be signed, read when a flow is created. Runs in the worker pool (workers/tasks.ts):
 * a crafted cross-reference section can take seconds to read.
 */
import {
  bufferSource,
  checkSigningAllowed,
  displaySize,
  openPdf,
  pageFrame,
  PdfError,
  PT_PER_MM,
} from '@openseal/pdf';
import { pdfErrorToAppError } from './pdf-signing';

/** Page sizes in millimetres as displayed, or the catalogued refusal of a PDF we cannot sign
 * (among them an encrypted one whose password or permissions stop the platform). */
export function readPdfPages(bytes: Uint8Array): { widthMm: number; heightMm: number }[] {
  try {
    const doc = openPdf(bufferSource(bytes), { limits: { deadlineMs: 10_000 } });
    // Encrypted files are signed when the empty user password opens them and their permissions allow it.
    checkSigningAllowed(doc);
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
