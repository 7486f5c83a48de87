import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { DatabaseHandle } from '@openseal/db';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from './config';
import { appSecret } from './app-secret';
import authPlugin from './plugins/auth';
import dbPlugin from './plugins/db';
import errorsPlugin, { answerFrameworkError } from './plugins/errors';
import inputHygiene from './plugins/input-hygiene';
import requestContext from './plugins/request-context';
import securityPlugin from './plugins/security';
import webPlugin from './plugins/web';
import { createAccountsService } from './modules/accounts/accounts.service';
import { createLoginThrottle } from './modules/login-throttle/login-throttle.service';
import accountsRoutes from './modules/accounts/accounts.routes';
import { createConfigService, type ConfigService } from './modules/config/config.service';
import configRoutes from './modules/config/config.routes';
import devRoutes from './modules/dev/dev.routes';
import { createLocalBlobStore } from './modules/files/file-store';
import { createFilesService } from './modules/files/files.service';
import filesRoutes from './modules/files/files.routes';
import { createMsgsService } from './modules/msgs/msgs.service';
import { createLinksService } from './modules/links/links.service';
import linksRoutes, { QR_PER_MINUTE } from './modules/links/links.routes';
import { createFeedbackService, type FeedbackService } from './modules/feedback/feedback.service';
import feedbackRoutes from './modules/feedback/feedback.routes';
import { createGuidanceService } from './modules/guidance/guidance.service';
import guidanceRoutes from './modules/guidance/guidance.routes';
import selfCheckRoutes from './modules/config/self-check.routes';
import msgsRoutes from './modules/msgs/msgs.routes';
import {
  createHttpSmsProvider,
  createSandboxSmsProvider,
  type SmsProvider,
} from './modules/msgs/sms-provider';
import { createOrganizesService } from './modules/organizes/organizes.service';
import organizesRoutes from './modules/organizes/organizes.routes';
import { createSessionService } from './modules/session/session.service';
import pkiRoutes from './modules/pki/pki.routes';
import { createPlatformEvidence } from './modules/evidence/platform-evidence';
import evidenceRoutes from './modules/evidence/evidence.routes';
import { createVerifyService } from './modules/signing/verify.service';
import { createTrustAnchorsService } from './modules/pki/trust-anchors.service';
import signingRoutes from './modules/signing/flows.routes';
import { createSigningModule, type SigningModule } from './modules/signing/signing-module';
import verifyRoutes from './modules/signing/verify.routes';
import { createVerifyEvidence } from './modules/signing/verify-evidence';
import verifyEvidenceRoutes from './modules/signing/verify-evidence.routes';
import realnameRoutes from './modules/realname/realname.routes';
import membersRoutes from './modules/members/members.routes';
import operatorsRoutes from './modules/operators/operators.routes';
import ssoRoutes from './modules/sso/sso.routes';
import sealsRoutes from './modules/seals/seals.routes';
import ukeysRoutes from './modules/ukeys/ukeys.routes';
import sealGlyphsRoutes from './modules/seal-glyphs/seal-glyphs.routes';
import type { ModuleDeps } from './modules/module-deps';
import { createJobRunner, type JobRunner } from './modules/jobs/jobs.service';
import { createSealsModule } from './modules/seals/seals-module';
import { seedOperator } from './modules/operators/seed-operator';
import type { ReviewQueues } from './modules/operators/review-queues';
import { approveManual, listManualQueue, rejectManual } from './modules/realname/realname.service';
import { createAuthorityService } from './modules/members/authority.service';
import { createMembersService } from './modules/members/members.service';
import { startPki } from './modules/pki/start-pki';
import type { PkiService } from './modules/pki/pki.service';
import type { EvidenceService } from './modules/evidence/evidence.service';
import { seed } from './seed/demo';
import { createWorkPool, type WorkPool } from './workers/work-pool';
import { createAdmission } from './lib/admission';

declare module 'fastify' {
  interface FastifyInstance {
    /** The platform authorities (tests and later modules reach certificates through it). */
    pki: PkiService;
    evidence: EvidenceService;
    /** Durable jobs (seal production, renewal); tests stop and start its poller. */
    jobs: JobRunner;
    /** The sign service (tests run its expiry sweep). */
    signing: SigningModule;
    /** Ratings of acts of service; the regulator's dashboard reads their summary. */
    feedback: FeedbackService;
    /** The worker pool: parsing, verification, image work and signing off the main thread. */
    work: WorkPool;
    /** System configuration; a change written in this process takes effect once it is `forget`-ed. */
    configService: ConfigService;
  }
}

export interface BuildAppOptions {
  config: AppConfig;
  /** An already opened database (tests); otherwise one is opened from the config. */
  database?: DatabaseHandle;
}

const VERSION = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

function smsProvider(config: AppConfig): SmsProvider {
  if (config.sms.provider === 'http') {
    if (!config.sms.gatewayUrl || !config.sms.gatewayKey)
      throw new Error('SMS_PROVIDER=http needs SMS_GATEWAY_URL and SMS_GATEWAY_KEY');
    return createHttpSmsProvider({ url: config.sms.gatewayUrl, key: config.sms.gatewayKey });
  }
  return createSandboxSmsProvider({ delayMs: config.sms.sandboxDelayMs });
}

/** A Redis connection of its own for login counts; commands fail fast while it is away (the database stands in). */
function throttleRedis(url: string, app: FastifyInstance): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 });
  redis.on('error', (err) => app.log.warn({ err }, 'redis unavailable for login throttling'));
  app.addHook('onClose', async () => void redis.disconnect());
  return redis;
}

export async function buildApp({ config, database }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers["x-access-token"]',
          'req.headers["x-operator-token"]',
          'req.headers.authorization',
          'req.headers.cookie',
        ],
        censor: '[redacted]',
      },
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // 16 hex digits of a random UUID: node keeps a pool of them, where randomBytes asks the kernel on
    // every request (some 2% of a light request's processor time).
    genReqId: () => randomUUID().replace(/-/g, '').slice(0, 16),
    requestIdHeader: false,
    ajv: { customOptions: { coerceTypes: false } },
    // A path whose escapes do not decode, or a parameter over the length bound, is refused by the router
    // before any hook runs; this answers it from the catalogue like every other error.
    frameworkErrors: answerFrameworkError,
    // Opening the embedded database and applying migrations on a cold, busy machine was seen to take
    // over Fastify's default 10 s; a start that slow is still a start, not a failure.
    pluginTimeout: 120_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(requestContext);
  await app.register(errorsPlugin);
  await app.register(inputHygiene);
  await app.register(securityPlugin, {
    globalPerMinute: config.rateLimit.globalPerMinute,
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
  });
  await app.register(dbPlugin, {
    handle: database,
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    schema: config.dbSchema,
  });

  const secret = appSecret(config, (m) => app.log.warn(m));
  const work = createWorkPool(config.workers);
  app.decorate('work', work);
  app.addHook('onClose', async () => work.close());
  const provider = smsProvider(config);
  const sessions = createSessionService({ ttlHours: config.sessionTtlHours, writes: app.database.writes });
  const msgs = createMsgsService({
    db: app.db,
    provider,
    secret,
    codeTtlSeconds: config.sms.codeTtlSeconds,
    resendSeconds: config.sms.resendSeconds,
    log: app.log,
  });
  const files = createFilesService({
    store: createLocalBlobStore(join(config.dataDir, 'files')),
    secret,
    fileSizeLimitMb: config.fileSizeLimitMb,
    urlTtlSeconds: config.downloadUrlTtlSeconds,
    contextOf: (db, personId, organizationId) => sessions.contextOf(db, personId, organizationId),
    work,
  });
  const configService = createConfigService({
    db: app.db,
    readDataUrl: (key) => files.readDataUrl(app.db, key),
  });
  app.decorate('configService', configService);
  // The server keeps the data directory's verification material current (openseal verify reads it).
  const pki = await startPki(app.db, config, app.log, { refreshEveryMs: 60_000 });
  app.addHook('onClose', async () => pki.close());
  app.decorate('pki', pki);
  const evidence = createPlatformEvidence({
    db: app.db,
    pki,
    log: app.log,
    intervalMs: config.evidenceSthIntervalSeconds * 1000,
  });
  evidence.start();
  app.addHook('onClose', async () => evidence.stop());
  app.decorate('evidence', evidence);
  const loginThrottle = createLoginThrottle({
    secret,
    settings: config.loginThrottle,
    redis: config.redisUrl
      ? { client: throttleRedis(config.redisUrl, app), prefix: config.redisPrefix }
      : undefined,
    log: app.log,
  });
  const organizes = createOrganizesService();
  const memberInvites = createMembersService();
  const accounts = createAccountsService({
    sessions,
    msgs,
    organizes,
    config: configService,
    throttle: loginThrottle,
    // An invitation to an organisation becomes a membership when the invitee logs in.
    onLogin: async (db, person) => void (await memberInvites.acceptInvites(db, person)),
  });
  app.addHook('onClose', async () => provider.close());

  const seeded = await seed(app.db, { config: configService, files, demo: config.seedDemo });
  if (seeded.config || seeded.demo) app.log.info(seeded, 'seeded first-start data');
  if (await seedOperator(app.db, { demo: config.seedDemo })) app.log.info('seeded the demo operator');

  await app.register(authPlugin, { sessions });
  await app.register(multipart, {
    limits: {
      fileSize: Math.max(...Object.values(files.rules).map((r) => r.maxBytes)),
      files: 1,
      fields: 10,
      fieldSize: 4096,
      parts: 12,
    },
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'OpenSeal API',
        version: VERSION,
        description:
          'Every answer is {code, message, data}; code 0 is success, other codes are the error catalogue.',
      },
      components: {
        securitySchemes: {
          accessToken: { type: 'apiKey', in: 'header', name: 'x-access-token' },
          operatorToken: { type: 'apiKey', in: 'header', name: 'x-operator-token' },
        },
      },
      security: [{ accessToken: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(async (docs) => {
    // The API documentation is public: mark every route of this scope so.
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), public: true } as typeof route.config;
    });
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      staticCSP: true,
      uiConfig: { docExpansion: 'list', deepLinking: true },
    });
  });

  const links = createLinksService({ publicUrl: config.publicUrl });
  const routeOpts = { accounts, organizes, sessions, msgs, files, links, config: configService };
  await app.register(accountsRoutes, { ...routeOpts, loginPerMinute: config.rateLimit.loginPerMinute });
  await app.register(organizesRoutes, routeOpts);
  await app.register(msgsRoutes, { ...routeOpts, smsPerMinute: config.rateLimit.smsPerMinute });
  await app.register(configRoutes, {
    config: configService,
    version: VERSION,
    smsSandbox: provider.isSandbox,
  });
  await app.register(filesRoutes, routeOpts);
  await app.register(linksRoutes, { links, qrPerMinute: QR_PER_MINUTE });
  const feedback = createFeedbackService();
  app.decorate('feedback', feedback);
  await app.register(feedbackRoutes, { feedback });
  await app.register(guidanceRoutes, { guidance: createGuidanceService({ config: configService }) });
  await app.register(pkiRoutes, { pki });
  await app.register(selfCheckRoutes, {
    pki,
    version: VERSION,
    providers: [
      { kind: 'sms', mode: provider.isSandbox ? 'sandbox' : 'live', name: provider.name },
      {
        kind: 'identity',
        mode: config.realName.provider === 'sandbox' ? 'sandbox' : 'live',
        name: config.realName.provider,
      },
      // No live payment channel is wired yet: the orders issue brings them.
      { kind: 'payment', mode: 'sandbox', name: 'sandbox' },
      { kind: 'keyStore', mode: 'live', name: config.pki.keyStore },
      { kind: 'rateLimits', mode: 'live', name: config.redisUrl ? 'redis' : 'per process' },
    ],
  });
  await app.register(evidenceRoutes, { evidence });
  const verify = createVerifyService({ pki, evidence, config: configService, work });
  await app.register(verifyRoutes, {
    verify,
    config: configService,
    // Four uploads per worker: one verifying, the others being read, queued or stored meanwhile.
    admission: createAdmission({ running: 4 * config.workers.threads, waiting: 256, waitMs: 30_000 }),
  });
  await app.register(verifyEvidenceRoutes, { verifyEvidence: createVerifyEvidence({ verify, evidence }) });
  const moduleDeps: ModuleDeps = {
    ...routeOpts,
    appConfig: config,
    secret,
    pki,
    evidence,
    loginThrottle,
    work,
  };
  await app.register(realnameRoutes, moduleDeps);
  await app.register(membersRoutes, moduleDeps);
  const authorityQueue = createAuthorityService({
    checkFile: async (db, ctx, fileKey) => void (await files.requireOwn(db, ctx, fileKey)),
  }).operatorQueue;
  // Jobs live in the database: the poller starts when the app is ready and stops before it closes.
  const jobs = createJobRunner({ db: app.db, log: app.log });
  app.decorate('jobs', jobs);
  app.addHook('onReady', async () => jobs.start());
  app.addHook('preClose', async () => jobs.stop());
  const sealsModule = createSealsModule({ ...moduleDeps, db: app.db, jobs, log: app.log });
  const reviewQueues: ReviewQueues = {
    listManualQueue,
    approveManual,
    rejectManual,
    ...authorityQueue,
    ...sealsModule.reviewQueues,
  };
  await app.register(operatorsRoutes, {
    ...moduleDeps,
    reviewQueues,
    trustAnchors: createTrustAnchorsService({ pki, evidence }),
  });
  await app.register(ssoRoutes, moduleDeps);
  await app.register(sealsRoutes, { ...moduleDeps, sealsModule });
  await app.register(ukeysRoutes, { ...moduleDeps, seals: sealsModule.seals.directory });
  await app.register(sealGlyphsRoutes);
  const signingModule = createSigningModule({
    ...moduleDeps,
    db: app.db,
    log: app.log,
    ownsSealBusiness: sealsModule.ownsWillBusiness,
    ukeyProof: app.ukeys.willProof,
  });
  app.decorate('signing', signingModule);
  app.addHook('onReady', async () => signingModule.start());
  app.addHook('preClose', async () => signingModule.stop());
  await app.register(signingRoutes, { signing: signingModule });
  if (provider.isSandbox) await app.register(devRoutes, { msgs });

  app.get(
    '/healthz',
    { schema: { hide: true }, config: { public: true, rateLimit: false } },
    async (_req, reply) => {
      try {
        await app.database.db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
        return { status: 'ok', version: VERSION, database: app.database.dialect };
      } catch (err) {
        app.log.error({ err }, 'health check failed');
        return reply.status(503).send({ status: 'unavailable', version: VERSION });
      }
    },
  );
  // Liveness without the database: the process answers. /healthz is the readiness check.
  app.get('/livez', { schema: { hide: true }, config: { public: true, rateLimit: false } }, async () => ({
    status: 'ok',
  }));
  app.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());

  await app.register(webPlugin, { webDist: config.webDist });
  return app;
}

export { VERSION };
