/**
 * Page sizes of a PDF to be signed, read when a flow is created. Runs in the worker pool (workers/tasks.ts):
 * a crafted cross-reference section can take seconds to read.
 */
import {
  bufferSource,
  checkDocumentSignable,
  displaySize,
  openPdf,
  pageFrame,
  PdfError,
  PT_PER_MM,
} from '@openseal/pdf';
import { pdfErrorToAppError } from './pdf-signing';

export interface PdfPages {
  pages: { widthMm: number; heightMm: number }[];
  /** True when the file is encrypted and was opened with the password given (which signing needs again). */
  locked: boolean;
}

/** Page sizes in millimetres as displayed, or the catalogued refusal of a PDF we cannot sign
 * (among them an encrypted one whose password or permissions stop the platform). */
export function readPdfPages(bytes: Uint8Array, password?: string): PdfPages {
  try {
    const doc = openPdf(bufferSource(bytes), {
      limits: { deadlineMs: 10_000 },
      ...(password ? { password } : {}),
    });
    // Encrypted files are signed when the empty or the given password opens them and their permissions
    // allow it (the owner password lifts the permissions); a file certified with no changes allowed is
    // refused here, before anyone prepares to sign it.
    checkDocumentSignable(doc, Boolean(password));
    const pages = doc.pages().map((p) => {
      const [w, h] = displaySize(pageFrame(p));
      return {
        widthMm: Math.round((w / PT_PER_MM) * 100) / 100,
        heightMm: Math.round((h / PT_PER_MM) * 100) / 100,
      };
    });
    return { pages, locked: Boolean(password) && doc.encrypted };
  } catch (err) {
    if (err instanceof PdfError) throw pdfErrorToAppError(err);
    throw err;
  }
}
