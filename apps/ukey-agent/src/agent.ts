/**
 * The UKey agent's HTTP API: JSON over loopback, `{code, message, data}` like the platform, codes from
 * the platform's error catalogue. Only the platform origins in the settings may call it from a browser.
 */
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { AppError, contracts, messageFor, type Language } from '@openseal/core';
import { z } from 'zod';
import type { AgentConfig } from './config';
import { createKeyOperations, type ExpectedHolder } from './keys';

export const AGENT_NAME = 'openseal-ukey-agent';
export const AGENT_VERSION = '0.1.0';

const serial = contracts.ukeySerial.optional();
const pin = z.string().max(64);
const base64 = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9+/=\s]*$/, 'base64');
const holder = z
  .object({ organizeName: z.string().max(100).optional(), uscc: z.string().max(18).optional() })
  .optional()
  .describe('the organisation the platform says is logged in');
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const bodies = {
  read: z.object({ serial, expectedHolder: holder }),
  verifyPin: z.object({ serial, pin }),
  resetPin: z.object({ serial, soPin: pin, newPin: pin.optional() }),
  generate: z.object({
    serial,
    pin,
    algorithm: z.enum(['EC-P256', 'RSA-2048']).default('EC-P256'),
    label: z.string().trim().min(1).max(64).default('openseal-seal-key'),
  }),
  write: z.object({
    serial,
    pin,
    certificate: z.string().min(1).max(20_000).describe('base64 DER or PEM'),
    label: z.string().trim().min(1).max(64).default('openseal-seal-certificate'),
    sealImages: z
      .array(z.object({ sealCode: z.string().trim().min(1).max(64), imagePng: base64(100_000) }))
      .max(contracts.UKEY_LIMITS.maxSealsPerKey)
      .default([]),
    expectedHolder: holder,
  }),
  sign: z
    .object({
      serial,
      pin,
      digest: base64(100).optional().describe('base64 SHA-256 digest (32 bytes)'),
      data: base64(1_000_000).optional().describe('base64 data; the agent hashes it with SHA-256'),
      keyId: z
        .string()
        .regex(/^[0-9a-f]{1,128}$/)
        .optional(),
      certSerial: z
        .string()
        .regex(/^[0-9a-fA-F]{1,40}$/)
        .optional(),
      expectedHolder: holder,
    })
    .refine((b) => (b.digest === undefined) !== (b.data === undefined), 'give either digest or data'),
};

function languageOf(req: FastifyRequest): Language {
  const raw = req.headers['x-language'];
  const lang = (Array.isArray(raw) ? raw[0] : raw)?.trim().toLowerCase();
  return lang === 'en' || lang === 'en-us' || lang === 'en-gb' ? 'en' : 'zh-CN';
}

function ok<T>(req: FastifyRequest, data: T) {
  return { code: 0, message: messageFor('ok', languageOf(req)), data };
}

function decodeCertificate(text: string): Buffer {
  const pem = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(text);
  const der = Buffer.from((pem ? pem[1]! : text).replace(/\s+/g, ''), 'base64');
  if (der.length < 100 || der[0] !== 0x30) throw new AppError('ukey.certInvalid');
  return der;
}

function decodePng(base64Png: string): Buffer {
  const png = Buffer.from(base64Png.replace(/\s+/g, ''), 'base64');
  if (png.length > 50 * 1024 || png.length < PNG_MAGIC.length || !png.subarray(0, 8).equals(PNG_MAGIC))
    throw new AppError('ukey.sealImageInvalid');
  return png;
}

function expected(h: ExpectedHolder | undefined): ExpectedHolder | undefined {
  if (!h || (h.organizeName === undefined && h.uscc === undefined)) return undefined;
  return { organizeName: h.organizeName?.trim(), uscc: h.uscc?.trim().toUpperCase() };
}

/** Loopback names only: a page that rebinds its own host name to 127.0.0.1 is refused by its Host header. */
function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return name === '127.0.0.1' || name === 'localhost' || name === '[::1]';
}

export async function buildAgent(config: AgentConfig): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : // Bodies are never logged, so a PIN never reaches a log; headers are trimmed to the request line.
          { level: config.logLevel, serializers: { req: (r) => ({ method: r.method, url: r.url }) } },
    bodyLimit: 1024 * 1024,
  });
  const keys = createKeyOperations(config);
  const origins = new Set(config.allowedOrigins);

  app.setErrorHandler((error: unknown, req, reply) => {
    const lang = languageOf(req);
    if (error instanceof AppError) {
      return reply.status(error.httpStatus).send({
        code: error.code,
        message: messageFor(error.key, lang, error.params),
        data: error.details ?? null,
      });
    }
    if (error instanceof z.ZodError) {
      return reply.status(400).send({
        code: 1001,
        message: messageFor('request.invalid', lang),
        data: { issues: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) },
      });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 429)
      return reply
        .status(429)
        .send({ code: 1003, message: messageFor('request.rateLimited', lang), data: null });
    if (status !== undefined && status >= 400 && status < 500)
      return reply.status(400).send({ code: 1001, message: messageFor('request.invalid', lang), data: null });
    req.log.error({ err: error }, 'unexpected agent error');
    return reply.status(500).send({ code: 1004, message: messageFor('server.error', lang), data: null });
  });
  app.setNotFoundHandler((req, reply) =>
    reply
      .status(404)
      .send({ code: 1009, message: messageFor('request.routeNotFound', languageOf(req)), data: null }),
  );

  // CORS for the platform's origins only, and Private Network Access: a public site may reach this
  // loopback service only after the preflight says so.
  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (!isLoopbackHost(req.headers.host) || (origin !== undefined && !origins.has(origin))) {
      return reply.status(403).send({
        code: new AppError('ukey.originDenied').code,
        message: messageFor('ukey.originDenied', languageOf(req)),
        data: null,
      });
    }
    if (origin !== undefined) {
      reply.header('access-control-allow-origin', origin);
      reply.header('vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      reply.header('access-control-allow-methods', 'GET, POST, OPTIONS');
      reply.header('access-control-allow-headers', 'content-type, x-language');
      reply.header('access-control-max-age', '600');
      if (req.headers['access-control-request-private-network'] === 'true')
        reply.header('access-control-allow-private-network', 'true');
      return reply.status(204).send();
    }
  });
  // Preflights of every path end in the hook above; this route only makes them reach it.
  app.options('/*', async (_req, reply) => reply.status(204).send());

  await app.register(rateLimit, {
    global: false,
    // After the body is read, so PIN attempts are counted per key rather than for all keys at once.
    hook: 'preHandler',
    errorResponseBuilder: () => ({ statusCode: 429, message: 'rate limited' }),
  });
  const pinLimit = {
    rateLimit: {
      max: config.pinCallsPerMinute,
      timeWindow: 60_000,
      keyGenerator: (req: FastifyRequest) =>
        `pin:${(req.body as { serial?: unknown } | null)?.serial ?? '*'}`,
    },
  };

  app.get('/v1/status', async (req) =>
    ok(req, {
      name: AGENT_NAME,
      version: AGENT_VERSION,
      module: config.modulePath ?? null,
      pinMaxTries: config.pinMaxTries,
    }),
  );

  app.get('/v1/keys', async (req) => ok(req, { keys: await keys.list() }));

  app.post('/v1/certificates/read', async (req) => {
    const b = bodies.read.parse(req.body ?? {});
    return ok(req, await keys.readCertificates(b.serial, expected(b.expectedHolder)));
  });

  app.post('/v1/pin/verify', { config: pinLimit }, async (req) => {
    const b = bodies.verifyPin.parse(req.body);
    return ok(req, await keys.verifyPin(b.serial, b.pin));
  });

  app.post('/v1/pin/reset', { config: pinLimit }, async (req) => {
    const b = bodies.resetPin.parse(req.body);
    return ok(req, await keys.resetPin(b.serial, b.soPin, b.newPin));
  });

  app.post('/v1/keypair/generate', { config: pinLimit }, async (req) => {
    const b = bodies.generate.parse(req.body);
    return ok(req, await keys.generateKeyPair(b.serial, b.pin, b.algorithm, b.label));
  });

  app.post('/v1/certificates/write', { config: pinLimit }, async (req) => {
    const b = bodies.write.parse(req.body);
    return ok(
      req,
      await keys.writeCertificate(b.serial, b.pin, {
        certificate: decodeCertificate(b.certificate),
        label: b.label,
        sealImages: b.sealImages.map((s) => ({ sealCode: s.sealCode, imagePng: decodePng(s.imagePng) })),
        holder: expected(b.expectedHolder),
      }),
    );
  });

  app.post('/v1/sign', { config: pinLimit }, async (req, reply: FastifyReply) => {
    const b = bodies.sign.parse(req.body);
    const digest =
      b.digest !== undefined ? Buffer.from(b.digest, 'base64') : keys.sha256(Buffer.from(b.data!, 'base64'));
    if (digest.length !== 32)
      throw new AppError('request.invalid', { details: { digest: 'SHA-256: 32 bytes' } });
    const signed = await keys.sign(b.serial, b.pin, {
      digest,
      keyId: b.keyId,
      certSerial: b.certSerial,
      holder: expected(b.expectedHolder),
    });
    reply.header('cache-control', 'no-store');
    return ok(req, signed);
  });

  return app;
}
