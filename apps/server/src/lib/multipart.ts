import type {} from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, isAppError } from '@openseal/core';
import { textProblem } from './input-scan';

/** Errors of the multipart plugin that already carry a catalogued meaning (see the errors plugin). */
const PLUGIN_CODES = new Set([
  'FST_REQ_FILE_TOO_LARGE',
  'FST_FILES_LIMIT',
  'FST_PARTS_LIMIT',
  'FST_FIELDS_LIMIT',
  'FST_INVALID_MULTIPART_CONTENT_TYPE',
  'FST_PROTO_VIOLATION',
  'FST_INVALID_JSON_FIELD_ERROR',
  'FST_MP_PREMATURE_CLOSE',
]);

const MAX_FIELDS = 4;
const MAX_FIELD_BYTES = 1024;

/**
 * Reads the one file of a multipart upload (section 5: one file at a time; a second is refused, not
 * dropped). The parser underneath throws plain errors for a body it cannot read (no boundary, a
 * truncated part, a boundary over 256 characters): those are the client's, so they become
 * `request.badMultipart`, not a 500. A file name carrying NUL or broken UTF-16 is refused like any text.
 */
export async function readSingleFile(
  req: FastifyRequest,
  maxBytes: number,
  fallbackName = 'file',
): Promise<{ bytes: Buffer; fileName: string; fields: Record<string, string> }> {
  if (!req.isMultipart()) throw new AppError('file.required');
  let file: { bytes: Buffer; fileName: string } | null = null;
  // Text fields beside the file (a PDF's password): a few, short, checked like any text.
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts({
      limits: { fileSize: maxBytes, files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES },
    })) {
      if (part.type === 'field') {
        if (typeof part.value !== 'string' || part.valueTruncated)
          throw new AppError('request.badMultipart', { details: { reason: `field ${part.fieldname}` } });
        const fieldProblem = textProblem(part.value) ?? textProblem(part.fieldname);
        if (fieldProblem)
          throw new AppError(fieldProblem === 'nul' ? 'request.nulCharacter' : 'request.badUtf8', {
            details: { where: 'field' },
          });
        fields[part.fieldname] = part.value;
        continue;
      }
      if (part.type !== 'file') continue;
      if (file) throw new AppError('file.tooMany');
      const problem = part.filename ? textProblem(part.filename) : null;
      if (problem) {
        throw new AppError(problem === 'nul' ? 'request.nulCharacter' : 'request.badUtf8', {
          details: { where: 'filename' },
        });
      }
      file = { bytes: await part.toBuffer(), fileName: part.filename || fallbackName };
    }
  } catch (err) {
    if (isAppError(err)) throw err;
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && PLUGIN_CODES.has(code)) throw err;
    throw new AppError('request.badMultipart', { details: { reason: (err as Error).message }, cause: err });
  }
  if (!file) throw new AppError('file.required');
  return { ...file, fields };
}
