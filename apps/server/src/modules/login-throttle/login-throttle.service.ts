/**
 * Wrong passwords slow down one account from one client address (issue 13): after a few free failures
 * that address waits, the wait doubling with each further failure up to a cap; other addresses are not
 * affected, so nobody can lock an account (the operator `admin` included) out for everyone; a right
 * password clears the count. Counts live in the database, which several instances share, or in Redis
 * when REDIS_URL is set (the database stands in while Redis does not answer). A count is keyed by an
 * HMAC of scope, account and address, so the store names no one; an unknown account is counted like a
 * known one, so waiting does not tell who is registered.
 */
import type { Db } from '@openseal/db';
import ipaddr from 'ipaddr.js';
import type { Redis } from 'ioredis';
import { hmac } from '../../lib/secrets';
import * as repo from './login-throttle.repository';

export type ThrottleScope = 'account' | 'operator';

export interface ThrottleSettings {
  /** Failures from one address before it must wait. */
  freeFailures: number;
  /** The first wait; each further failure doubles it. */
  backoffSeconds: number;
  maxBackoffSeconds: number;
}

/** An attempt counted before the password is checked: `clear` it when the password was right. */
export type Attempt =
  | { allowed: true; failures: number; waitSeconds: number; clear(): Promise<void> }
  | { allowed: false; retryAfterSeconds: number };

/** A day without failures and the count starts again. */
const FORGET_MS = 24 * 3_600_000;

/**
 * The part of a client address that one party controls: an IPv6 client usually holds a whole /64, so
 * the count is kept per /64 (an IPv4-mapped address counts as its IPv4 address).
 */
export function clientKey(ip: string | null): string {
  if (!ip) return 'unknown';
  if (!ipaddr.isValid(ip)) return ip.slice(0, 64);
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  return `${addr.toNormalizedString().split(':').slice(0, 4).join(':')}::/64`;
}

/** Counting in Redis: one script reads, counts and sets the wait, so concurrent guesses are ordered. */
const REDIS_TAKE = `
local now = tonumber(ARGV[1])
local v = redis.call('HMGET', KEYS[1], 'f', 'last', 'until')
local f = tonumber(v[1]) or 0
local last = tonumber(v[2]) or 0
local blocked = tonumber(v[3]) or 0
if blocked > now then return {0, blocked} end
if now - last > tonumber(ARGV[2]) then f = 0 end
f = f + 1
local free = tonumber(ARGV[3])
local untilMs = 0
if f >= free then
  untilMs = now + math.floor(math.min(tonumber(ARGV[5]), tonumber(ARGV[4]) * 2 ^ math.min(f - free, 30)))
end
redis.call('HSET', KEYS[1], 'f', f, 'last', now, 'until', untilMs)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return {1, f, untilMs}
`;

export function createLoginThrottle(deps: {
  secret: string;
  settings: ThrottleSettings;
  redis?: { client: Redis; prefix: string } | undefined;
  log: { warn(obj: object, msg: string): void };
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const s = deps.settings;
  const policy: repo.WaitPolicy = {
    freeFailures: s.freeFailures,
    backoffMs: s.backoffSeconds * 1000,
    maxBackoffMs: s.maxBackoffSeconds * 1000,
    forgetMs: FORGET_MS,
  };
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

  async function takeInDatabase(db: Db, key: string, at: Date): Promise<Attempt> {
    const row = await repo.takeAttempt(db, key, at, policy);
    if (!row) {
      const until = await repo.blockedUntil(db, key);
      return {
        allowed: false,
        retryAfterSeconds: seconds((until?.getTime() ?? at.getTime()) - at.getTime()),
      };
    }
    // Now and then, drop the counts nobody has added to for a day.
    if (row.failures === 1 && Math.random() < 0.01)
      await repo.forgetOldAttempts(db, new Date(at.getTime() - FORGET_MS));
    return {
      allowed: true,
      failures: row.failures,
      waitSeconds: row.blocked_until ? seconds(row.blocked_until.getTime() - at.getTime()) : 0,
      clear: () => repo.clearAttempts(db, key),
    };
  }

  async function takeInRedis(client: Redis, key: string, at: Date): Promise<Attempt> {
    const r = (await client.eval(
      REDIS_TAKE,
      1,
      key,
      at.getTime(),
      FORGET_MS,
      policy.freeFailures,
      policy.backoffMs,
      policy.maxBackoffMs,
    )) as number[];
    if (r[0] === 0) return { allowed: false, retryAfterSeconds: seconds(r[1]! - at.getTime()) };
    return {
      allowed: true,
      failures: r[1]!,
      waitSeconds: r[2] ? seconds(r[2] - at.getTime()) : 0,
      clear: async () => {
        try {
          await client.del(key);
        } catch (err) {
          deps.log.warn({ err }, 'redis unavailable: a login count was not cleared');
        }
      },
    };
  }

  return {
    settings: s,
    /**
     * Counts one password attempt of `subject` (a mobile number, an operator's username) from `client`
     * before the password is checked, or refuses it while that address must wait.
     */
    async attempt(db: Db, scope: ThrottleScope, subject: string, client: string | null): Promise<Attempt> {
      const key = hmac(deps.secret, 'login-throttle', scope, subject, clientKey(client));
      const at = now();
      if (deps.redis) {
        try {
          return await takeInRedis(deps.redis.client, `${deps.redis.prefix}login:${key}`, at);
        } catch (err) {
          deps.log.warn({ err }, 'redis unavailable for login throttling; counting in the database');
        }
      }
      return takeInDatabase(db, key, at);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
