import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * Every setting, read from the environment once. The README's settings table lists these names,
 * defaults and meanings; keep both in step.
 */
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));
const int = (fallback: number, min = 0) =>
  z.coerce
    .number()
    .int()
    .min(min)
    .optional()
    .transform((v) => v ?? fallback);

const envSchema = z.object({
  PORT: int(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/)
    .optional(),
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: bool(true),
  APP_SECRET: z.string().min(32).optional(),
  SESSION_TTL_HOURS: int(12, 1),
  SMS_PROVIDER: z.enum(['sandbox', 'http']).default('sandbox'),
  SMS_GATEWAY_URL: z.string().url().optional(),
  SMS_GATEWAY_KEY: z.string().optional(),
  SMS_SANDBOX_DELAY_MS: int(300),
  SMS_CODE_TTL_SECONDS: int(300, 30),
  SMS_RESEND_SECONDS: int(60, 0),
  RATE_LIMIT_LOGIN_PER_MINUTE: int(20, 1),
  RATE_LIMIT_SMS_PER_MINUTE: int(10, 1),
  RATE_LIMIT_GLOBAL_PER_MINUTE: int(6000, 1),
  REDIS_URL: z.string().url().optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]{1,64}$/)
    .default('openseal:'),
  FILE_SIZE_LIMIT_MB: int(20, 1),
  DOWNLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  LOGIN_FREE_FAILURES: int(5, 1),
  LOGIN_BACKOFF_SECONDS: int(30, 1),
  LOGIN_BACKOFF_MAX_SECONDS: int(900, 1),
  TRUST_PROXY: bool(false),
  PUBLIC_URL: z.string().url().optional(),
  PKI_KEK: z
    .string()
    .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/, 'PKI_KEK must be 32 bytes, hex or base64')
    .optional(),
  PKI_KEY_STORE: z.enum(['software', 'pkcs11']).default('software'),
  PKI_ALGORITHM: z.enum(['EC-P256', 'RSA-2048']).default('EC-P256'),
  PKCS11_MODULE: z.string().optional(),
  PKCS11_TOKEN_LABEL: z.string().optional(),
  PKCS11_PIN: z.string().optional(),
  TRUST_LIST: z.string().optional(),
  PDF_CERTIFY_LEVEL: z
    .enum(['0', '1', '2', '3', 'off'])
    .default('2')
    .transform((v) => (v === 'off' ? 0 : Number(v)) as 0 | 1 | 2 | 3),
  EVIDENCE_STH_INTERVAL_SECONDS: int(60, 1),
  REALNAME_PROVIDER: z.enum(['sandbox', 'http']).default('sandbox'),
  REALNAME_SANDBOX_DELAY_MS: int(1500),
  REALNAME_GATEWAY_URL: z.string().url().optional(),
  REALNAME_GATEWAY_KEY: z.string().optional(),
  OPERATOR_SESSION_TTL_MINUTES: int(480, 1),
  OPERATOR_IDLE_MINUTES: int(30, 1),
  SSO_ISSUER_URL: z.string().url().optional(),
  SSO_CLIENT_ID: z.string().optional(),
  SSO_CLIENT_SECRET: z.string().optional(),
  SSO_REDIRECT_URI: z.string().url().optional(),
  SSO_SCOPE: z.string().optional(),
  WORKERS: int(availableParallelism(), 1),
  WORKER_THREADS: int(0, 0),
  WORKER_MEMORY_MB: int(1024, 64),
});

export type AppConfig = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  dbSchema: string | undefined;
  webDist: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  seedDemo: boolean;
  appSecret: string | undefined;
  sessionTtlHours: number;
  sms: {
    provider: 'sandbox' | 'http';
    gatewayUrl: string | undefined;
    gatewayKey: string | undefined;
    sandboxDelayMs: number;
    codeTtlSeconds: number;
    resendSeconds: number;
  };
  rateLimit: { loginPerMinute: number; smsPerMinute: number; globalPerMinute: number };
  redisUrl: string | undefined;
  redisPrefix: string;
  fileSizeLimitMb: number;
  /** How long a download address lives; it is re-checked against the holder's access when used. */
  downloadUrlTtlSeconds: number;
  /** Wrong passwords per (account, client address): free failures, then a wait that doubles up to a cap. */
  loginThrottle: { freeFailures: number; backoffSeconds: number; maxBackoffSeconds: number };
  trustProxy: boolean;
  /** Where the outside world reaches this platform; certificates name its /pki addresses. */
  publicUrl: string;
  pki: {
    kek: string | undefined;
    keyStore: 'software' | 'pkcs11';
    algorithm: 'EC-P256' | 'RSA-2048';
    pkcs11: { module: string | undefined; tokenLabel: string | undefined; pin: string | undefined };
    /** A PEM file of extra trust anchors for the verifier. */
    trustList: string | undefined;
  };
  /** DocMDP level of the platform's first signature on an unsigned PDF (a certification); 0: never certify. */
  pdfCertifyLevel: 0 | 1 | 2 | 3;
  evidenceSthIntervalSeconds: number;
  /** The identity-verification provider of real-name checks. */
  realName: {
    provider: 'sandbox' | 'http';
    sandboxDelayMs: number;
    gatewayUrl: string | undefined;
    gatewayKey: string | undefined;
  };
  /** Operator console sessions: absolute lifetime and idle timeout, in minutes. */
  operatorSession: { ttlMinutes: number; idleMinutes: number };
  /** The OpenID Connect provider of single sign-on; null when SSO is off. */
  sso: {
    issuerUrl: string;
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    scope?: string;
  } | null;
  /** The worker pool that parses, verifies, signs and decodes off the main thread (in each process). */
  workers: { threads: number; memoryMb: number };
  /**
   * Server processes sharing the port (WORKERS, default: the cores). On PGlite always 1, with the reason:
   * the embedded database belongs to one process.
   */
  processes: { count: number; asked: number; reason: string | null };
};

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid settings:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const processes = {
    count: e.DATABASE_URL ? e.WORKERS : 1,
    asked: e.WORKERS,
    reason: e.DATABASE_URL
      ? null
      : 'PGlite keeps its data in one process: set DATABASE_URL (PostgreSQL) to serve from several',
  };
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    dbSchema: e.DATABASE_SCHEMA,
    webDist: resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO,
    appSecret: e.APP_SECRET,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    sms: {
      provider: e.SMS_PROVIDER,
      gatewayUrl: e.SMS_GATEWAY_URL,
      gatewayKey: e.SMS_GATEWAY_KEY,
      sandboxDelayMs: e.SMS_SANDBOX_DELAY_MS,
      codeTtlSeconds: e.SMS_CODE_TTL_SECONDS,
      resendSeconds: e.SMS_RESEND_SECONDS,
    },
    rateLimit: {
      loginPerMinute: e.RATE_LIMIT_LOGIN_PER_MINUTE,
      smsPerMinute: e.RATE_LIMIT_SMS_PER_MINUTE,
      globalPerMinute: e.RATE_LIMIT_GLOBAL_PER_MINUTE,
    },
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    fileSizeLimitMb: e.FILE_SIZE_LIMIT_MB,
    downloadUrlTtlSeconds: e.DOWNLOAD_URL_TTL_SECONDS,
    loginThrottle: {
      freeFailures: e.LOGIN_FREE_FAILURES,
      backoffSeconds: e.LOGIN_BACKOFF_SECONDS,
      maxBackoffSeconds: Math.max(e.LOGIN_BACKOFF_MAX_SECONDS, e.LOGIN_BACKOFF_SECONDS),
    },
    trustProxy: e.TRUST_PROXY,
    publicUrl,
    pki: {
      kek: e.PKI_KEK,
      keyStore: e.PKI_KEY_STORE,
      algorithm: e.PKI_ALGORITHM,
      pkcs11: { module: e.PKCS11_MODULE, tokenLabel: e.PKCS11_TOKEN_LABEL, pin: e.PKCS11_PIN },
      trustList: e.TRUST_LIST ? resolve(e.TRUST_LIST) : undefined,
    },
    pdfCertifyLevel: e.PDF_CERTIFY_LEVEL,
    evidenceSthIntervalSeconds: e.EVIDENCE_STH_INTERVAL_SECONDS,
    realName: {
      provider: e.REALNAME_PROVIDER,
      sandboxDelayMs: e.REALNAME_SANDBOX_DELAY_MS,
      gatewayUrl: e.REALNAME_GATEWAY_URL,
      gatewayKey: e.REALNAME_GATEWAY_KEY,
    },
    operatorSession: { ttlMinutes: e.OPERATOR_SESSION_TTL_MINUTES, idleMinutes: e.OPERATOR_IDLE_MINUTES },
    sso:
      e.SSO_ISSUER_URL && e.SSO_CLIENT_ID
        ? {
            issuerUrl: e.SSO_ISSUER_URL,
            clientId: e.SSO_CLIENT_ID,
            clientSecret: e.SSO_CLIENT_SECRET ?? '',
            redirectUri: e.SSO_REDIRECT_URI ?? `${publicUrl}/v1/sso/callback`,
            ...(e.SSO_SCOPE ? { scope: e.SSO_SCOPE } : {}),
          }
        : null,
    workers: {
      // Unset: the cores, shared among the processes. Workers run below the main threads' priority, so
      // they take what the main threads leave idle and give way to requests.
      threads:
        e.WORKER_THREADS > 0
          ? e.WORKER_THREADS
          : Math.max(1, Math.ceil(availableParallelism() / processes.count)),
      memoryMb: e.WORKER_MEMORY_MB,
    },
    processes,
  };
}
