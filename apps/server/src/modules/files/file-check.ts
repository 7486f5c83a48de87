import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import yauzl from 'yauzl';
import { AppError } from '@openseal/core';
import { OfdError, readOfd } from '@openseal/ofd';
import { bufferSource, checkSigningAllowed, openPdf, PdfError, type PdfDocument } from '@openseal/pdf';
import { pdfErrorToAppError } from '../signing/pdf-signing';

/** What an upload may be, per purpose (spec section 5). */
export type UploadKind = 'pdf' | 'ofd' | 'jpg' | 'png' | 'doc' | 'docx';

export interface CheckedFile {
  kind: UploadKind;
  contentType: string;
  width?: number;
  height?: number;
}

const CONTENT_TYPE: Record<UploadKind, string> = {
  pdf: 'application/pdf',
  ofd: 'application/ofd',
  jpg: 'image/jpeg',
  png: 'image/png',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

function zipEntries(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip'));
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        if (names.length > 10_000) {
          zip.close();
          return reject(new Error('too many entries'));
        }
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A PDF must start with a header and end (within the last 1 KiB) with an end-of-file marker. */
function looksLikePdf(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 1024).toString('latin1');
  const tail = bytes.subarray(Math.max(0, bytes.length - 1024)).toString('latin1');
  return (
    /%PDF-\d\.\d/.test(head) &&
    tail.includes('%%EOF') &&
    bytes.includes('startxref', Math.max(0, bytes.length - 2048), 'latin1')
  );
}

/**
 * A PDF uploaded for signing is refused at once when its encryption stops the platform from signing it:
 * a user password, permissions that forbid filling in forms, or a handler it cannot write. Its structure
 * is judged later, when a flow reads its pages; here only a file that opens is looked at.
 */
export function checkPdfEncryption(bytes: Buffer): void {
  let doc: PdfDocument;
  try {
    doc = openPdf(bufferSource(bytes), { limits: { deadlineMs: 10_000 } });
  } catch (err) {
    if (err instanceof PdfError) return;
    throw err;
  }
  try {
    checkSigningAllowed(doc);
  } catch (err) {
    throw pdfErrorToAppError(err);
  }
}

/**
 * Identifies a file by its content (never its name), then checks its structure enough to reject
 * truncated or disguised files before anything is stored.
 */
export async function checkUpload(bytes: Buffer, allowed: readonly UploadKind[]): Promise<CheckedFile> {
  if (bytes.length === 0) throw new AppError('file.required');
  const detected = await fileTypeFromBuffer(bytes);
  let kind: UploadKind | null;
  switch (detected?.ext) {
    case 'pdf':
      kind = 'pdf';
      break;
    case 'jpg':
      kind = 'jpg';
      break;
    case 'png':
      kind = 'png';
      break;
    case 'cfb':
    case 'doc':
      kind = 'doc';
      break;
    case 'docx':
      kind = 'docx';
      break;
    case 'zip': {
      // OFD (GB/T 33190) is a zip package with OFD.xml at its root.
      kind = 'ofd';
      break;
    }
    default:
      kind = null;
  }
  if (!kind || !allowed.includes(kind))
    throw new AppError('file.formatWrong', { details: { detected: detected?.mime ?? 'unknown', allowed } });

  const result: CheckedFile = { kind, contentType: CONTENT_TYPE[kind] };
  try {
    if (kind === 'pdf' && !looksLikePdf(bytes)) throw new Error('pdf without trailer');
    if (kind === 'jpg' || kind === 'png') {
      const size = imageSize(bytes);
      if (!size.width || !size.height) throw new Error('image without dimensions');
      if (kind === 'jpg' && !(bytes[bytes.length - 2] === 0xff && bytes[bytes.length - 1] === 0xd9))
        throw new Error('truncated jpeg');
      if (kind === 'png' && !bytes.subarray(-12).toString('latin1').includes('IEND'))
        throw new Error('truncated png');
      result.width = size.width;
      result.height = size.height;
    }
    if (kind === 'ofd') {
      // The whole structure, as a viewer reads it: OFD.xml, the document, its pages and the parts they name.
      readOfd(bytes);
    }
    if (kind === 'docx') {
      const names = await zipEntries(bytes);
      if (!(names.includes('[Content_Types].xml') && names.some((n) => n.startsWith('word/'))))
        throw new Error('not a word document');
    }
  } catch (cause) {
    if (cause instanceof AppError) throw cause;
    // A zip without OFD.xml is another kind of file, not a damaged OFD.
    if (cause instanceof OfdError && cause.reason === 'noOfdXml')
      throw new AppError('file.formatWrong', { details: { detected: 'application/zip', allowed } });
    throw new AppError('file.structureInvalid', {
      details: { kind, reason: cause instanceof Error ? cause.message : String(cause) },
    });
  }
  return result;
}
