import fp from 'fastify-plugin';
import { isUtf8 } from 'node:buffer';
import { AppError, type ErrorKey } from '@openseal/core';
import { queryEscapesOk, scanInput, type InputProblem } from '../lib/input-scan';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route reads its path parameters as raw protocol data and answers bad ones in its own
     * protocol (the OCSP GET form answers malformedRequest), so the central scan leaves them alone.
     */
    rawParams?: boolean;
  }
}

/** Deeper than any contract of ours (the deepest is a few levels); the bound keeps every walker cheap. */
export const MAX_BODY_DEPTH = 32;
/** Node's HTTP parser already refuses headers over 16 KB; in-process callers meet the same bound here. */
export const MAX_URL_LENGTH = 8 * 1024;

const PROBLEM_KEYS: Record<InputProblem, ErrorKey> = {
  nul: 'request.nulCharacter',
  utf8: 'request.badUtf8',
  depth: 'request.tooDeep',
};

/**
 * Input hygiene, once for every route: a NUL character, text that is not UTF-8, a malformed percent
 * escape or a body nested too deep is refused with a catalogued 400 before any handler, validator or
 * query sees it. PostgreSQL refuses NUL in text (`invalid byte sequence for encoding "UTF8": 0x00`), and
 * a handler that passed one on answered 500; here it never gets that far.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', async (req) => {
      const url = req.raw.url ?? '';
      if (url.length > MAX_URL_LENGTH)
        throw new AppError('request.urlTooLong', { details: { max: MAX_URL_LENGTH } });
      const q = url.indexOf('?');
      if (q >= 0 && !queryEscapesOk(url.slice(q + 1)))
        throw new AppError('request.badUrl', { details: { where: 'querystring' } });
    });

    // No route takes plain text; without this parser a text body is refused as a wrong content type
    // (1106) instead of reaching validation as a string.
    app.removeContentTypeParser('text/plain');

    // JSON bodies are read as bytes and checked for UTF-8 before decoding: decoding first would turn
    // bad bytes into U+FFFD silently and store them so.
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
      const bytes = body as Buffer;
      if (!isUtf8(bytes)) {
        done(new AppError('request.badUtf8', { details: { where: 'body' } }), undefined);
        return;
      }
      parseJson(req, bytes.toString('utf8'), done);
    });

    app.addHook('preValidation', async (req) => {
      const parts: Array<[string, unknown]> = [
        ['querystring', req.query],
        ['body', req.body],
      ];
      if (!req.routeOptions.config?.rawParams) parts.unshift(['params', req.params]);
      for (const [where, value] of parts) {
        if (value === undefined || value === null || Buffer.isBuffer(value)) continue;
        const finding = scanInput(value, MAX_BODY_DEPTH);
        if (finding)
          throw new AppError(PROBLEM_KEYS[finding.problem], {
            details: {
              where,
              path: finding.path || '/',
              ...(finding.problem === 'depth' ? { max: MAX_BODY_DEPTH } : {}),
            },
          });
      }
    });
  },
  { name: 'input-hygiene', dependencies: ['errors'] },
);
