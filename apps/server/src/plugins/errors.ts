import fp from 'fastify-plugin';
import { AppError, entryForKey, isAppError, messageFor, type ErrorKey } from '@openseal/core';
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
    .send({ code: entry.code, message: messageFor(key, req.lang ?? 'zh-CN', params), data });
}

/** Fastify's own error codes that mean "bad input", mapped to catalogue keys. */
const FASTIFY_CODES: Record<string, ErrorKey> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'request.invalid',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request.invalid',
  FST_ERR_CTP_INVALID_JSON_BODY: 'request.invalid',
  FST_ERR_CTP_BODY_TOO_LARGE: 'file.tooLarge',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request.invalid',
  FST_REQ_FILE_TOO_LARGE: 'file.tooLarge',
  FST_FILES_LIMIT: 'file.tooMany',
  FST_PARTS_LIMIT: 'file.tooMany',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'file.required',
  FST_ERR_VALIDATION: 'request.invalid',
};

/** Other client errors from plugins, by HTTP status. */
const GENERIC_4XX: Record<number, ErrorKey> = {
  403: 'perm.none',
  404: 'request.notFound',
  413: 'file.tooLarge',
};

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
