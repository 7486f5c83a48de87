import fp from 'fastify-plugin';
import {
  AppError,
  entryForKey,
  HEADERS,
  isAppError,
  messageFor,
  type ErrorKey,
  type Language,
} from '@openseal/core';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

function send(
  reply: FastifyReply,
  req: FastifyRequest,
  key: ErrorKey,
  data: unknown = null,
  params?: Record<string, string | number>,
) {
  const entry = entryForKey(key);
  return reply
    .status(entry.http)
    .send({ code: entry.code, message: messageFor(key, languageOf(req), params), data });
}

/** Fastify's own error codes (and its multipart plugin's) that mean "bad input", mapped to catalogue keys. */
const FASTIFY_CODES: Record<string, ErrorKey> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'request.unsupportedMediaType',
  FST_ERR_CTP_INVALID_TYPE: 'request.unsupportedMediaType',
  FST_ERR_CTP_EMPTY_TYPE: 'request.unsupportedMediaType',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request.badJson',
  FST_ERR_CTP_INVALID_JSON_BODY: 'request.badJson',
  FST_ERR_CTP_BODY_TOO_LARGE: 'request.bodyTooLarge',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request.invalid',
  FST_ERR_BAD_URL: 'request.badUrl',
  FST_ERR_MAX_PARAM_LENGTH: 'request.urlTooLong',
  FST_ERR_ASYNC_CONSTRAINT: 'request.invalid',
  FST_REQ_FILE_TOO_LARGE: 'file.tooLarge',
  FST_FILES_LIMIT: 'file.tooMany',
  FST_PARTS_LIMIT: 'file.tooMany',
  FST_FIELDS_LIMIT: 'file.tooMany',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'file.required',
  FST_PROTO_VIOLATION: 'request.badMultipart',
  FST_INVALID_JSON_FIELD_ERROR: 'request.badMultipart',
  FST_MP_PREMATURE_CLOSE: 'request.badMultipart',
  FST_ERR_VALIDATION: 'request.invalid',
};

/**
 * A safety net under input hygiene: SQLSTATEs by which the database refuses a value the client sent
 * (bad encoding, a string too long for its column or index, a number out of range, text that is no
 * number or date). The cause belongs fixed where the value came in (the API fuzz test fails on this
 * code); until then the client gets a 400, not a 500, and the log gets the error.
 */
const VALUE_REJECTED_SQLSTATES = new Set([
  '22001', // string_data_right_truncation
  '22003', // numeric_value_out_of_range
  '22007', // invalid_datetime_format
  '22008', // datetime_field_overflow
  '22021', // character_not_in_repertoire: invalid byte sequence for encoding "UTF8": 0x00
  '22025', // invalid_escape_sequence
  '22P02', // invalid_text_representation
  '22P05', // untranslatable_character: \u0000 cannot be converted to text
  '54000', // program_limit_exceeded: index row size exceeds the maximum
]);

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** Other client errors from plugins, by HTTP status. */
const GENERIC_4XX: Record<number, ErrorKey> = {
  403: 'perm.none',
  404: 'request.notFound',
  413: 'request.bodyTooLarge',
  414: 'request.urlTooLong',
  415: 'request.unsupportedMediaType',
};

function languageOf(req: FastifyRequest): Language {
  if (req.lang) return req.lang;
  const raw = req.headers[HEADERS.language];
  const lang = (Array.isArray(raw) ? raw[0] : raw)?.trim().toLowerCase();
  return lang === 'en' || lang === 'en-us' || lang === 'en-gb' ? 'en' : 'zh-CN';
}

/**
 * Errors the router raises before any route or hook runs (a path whose escapes do not decode, a path
 * parameter over the length bound): the `frameworkErrors` option of Fastify sends them here.
 */
export function answerFrameworkError(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const key = (error.code && FASTIFY_CODES[error.code]) || 'request.invalid';
  const entry = entryForKey(key);
  return reply
    .status(entry.http)
    .send({ code: entry.code, message: messageFor(key, languageOf(req)), data: { reason: error.message } });
}

/** The one error handler: catalogue codes out, never a stack trace. */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
      if (isAppError(error)) {
        if (error.httpStatus >= 500) req.log.error({ err: error }, error.key);
        return send(reply, req, error.key, error.details ?? null, error.params);
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const issues = error.validation.map((v) => ({ path: v.instancePath || '/', message: v.message }));
        return send(reply, req, 'request.invalid', { context: error.validationContext, issues });
      }
      if (error.statusCode === 429) return send(reply, req, 'request.rateLimited');
      const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
      if (mapped) return send(reply, req, mapped, { reason: error.message });
      const state = sqlState(error);
      if (state && VALUE_REJECTED_SQLSTATES.has(state)) {
        req.log.error({ err: error }, 'the database refused a value of the request');
        return send(reply, req, 'request.valueRejected', { sqlState: state });
      }
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return send(reply, req, GENERIC_4XX[error.statusCode] ?? 'request.invalid', {
          reason: error.message,
        });
      }
      req.log.error({ err: error }, 'unhandled error');
      return send(reply, req, 'server.error');
    });
  },
  { name: 'errors' },
);

export { AppError };
