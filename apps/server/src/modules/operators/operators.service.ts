import { randomBytes } from 'node:crypto';
import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import { newId } from '../../lib/ids';
import { hashPassword, hashToken, verifyPassword } from '../../lib/secrets';
import { recordAudit } from '../audit/audit.repository';
import type { LoginThrottle } from '../login-throttle/login-throttle.service';
import * as repo from './operators.repository';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** Who is calling the operator console. */
export interface OperatorContext {
  sessionId: string;
  operatorId: string;
  username: string;
  name: string;
  expiresAt: Date;
  lastLoginAt: Date | null;
}

export interface OperatorsServiceOptions {
  /** Absolute lifetime of an operator session. */
  ttlMinutes: number;
  /** A console left alone this long needs a new login. */
  idleMinutes: number;
  /** Wrong passwords slow down one operator account from one client address, never for everyone. */
  throttle: LoginThrottle;
}

/** Operator tokens carry their own prefix, so the user session service refuses them before any lookup. */
const TOKEN_PREFIX = 'opt_';
const TOUCH_EVERY_MS = 60_000;
const USER_AGENT_MAX = 512;

export function newOperatorToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * The audit detail of every operator act: audit_logs names persons as actors, so the operator id and
 * the user agent travel in the detail, where the viewer reads them back.
 */
export function operatorAuditDetail(
  operatorId: string | null,
  client: ClientInfo,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { operatorId, userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null, ...extra };
}

/** Creates an operator account unless the username is taken; answers whether it was created. */
export async function createOperator(
  db: Db,
  input: { username: string; password: string; name: string },
  by: { operatorId: string | null; client: ClientInfo },
): Promise<boolean> {
  const passwordHash = await hashPassword(input.password);
  const id = newId('opr');
  return db.transaction().execute(async (trx) => {
    const created = await repo.insertOperatorIfAbsent(trx, {
      id,
      username: input.username,
      name: input.name,
      passwordHash,
    });
    if (created) {
      await recordAudit(trx, {
        actorPersonId: null,
        organizationId: null,
        action: 'operator.create',
        targetType: 'operator',
        targetId: id,
        ip: by.client.ip,
        detail: operatorAuditDetail(by.operatorId, by.client, { username: input.username }),
      });
    }
    return created;
  });
}

export function createOperatorsService(opts: OperatorsServiceOptions) {
  // Unknown usernames still pay one scrypt, so response time does not tell which usernames exist.
  let decoyHash: Promise<string> | null = null;
  const decoy = () => (decoyHash ??= hashPassword(randomBytes(16).toString('hex')));

  return {
    createOperator,

    async login(db: Db, input: { username: string; password: string }, client: ClientInfo) {
      // Counted before the check, so parallel guesses from one address cannot outrun their wait.
      const attempt = await opts.throttle.attempt(db, 'operator', input.username, client.ip);
      if (!attempt.allowed)
        throw new AppError('operator.loginThrottled', {
          params: { seconds: attempt.retryAfterSeconds },
          details: { retryAfterSeconds: attempt.retryAfterSeconds },
        });
      const op = await repo.findOperatorByUsername(db, input.username);
      if (!op) {
        await verifyPassword(input.password, await decoy());
        throw new AppError('operator.credentialsWrong');
      }
      const now = new Date();
      if (!(await verifyPassword(input.password, op.password_hash))) {
        await recordAudit(db, {
          actorPersonId: null,
          organizationId: null,
          action: 'operator.loginFailed',
          targetType: 'operator',
          targetId: op.id,
          ip: client.ip,
          detail: operatorAuditDetail(op.id, client, {
            failures: attempt.failures,
            waitSeconds: attempt.waitSeconds,
          }),
        });
        throw new AppError('operator.credentialsWrong');
      }
      await attempt.clear();
      if (op.status !== 'active') throw new AppError('operator.disabled');

      const token = newOperatorToken();
      const expiresAt = new Date(now.getTime() + opts.ttlMinutes * 60_000);
      await db.transaction().execute(async (trx) => {
        await repo.insertOperatorSession(trx, {
          id: newId('ops'),
          tokenHash: hashToken(token),
          operatorId: op.id,
          expiresAt,
          ip: client.ip,
          userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
        });
        await repo.recordOperatorLogin(trx, op.id, now);
        await recordAudit(trx, {
          actorPersonId: null,
          organizationId: null,
          action: 'operator.login',
          targetType: 'operator',
          targetId: op.id,
          ip: client.ip,
          detail: operatorAuditDetail(op.id, client),
        });
      });
      return {
        operatorToken: token,
        expiresAt: expiresAt.toISOString(),
        operator: { operatorId: op.id, username: op.username, name: op.name },
      };
    },

    /** Resolves an operator token, or throws the operator session code that fits. */
    async resolve(db: Db, token: string): Promise<OperatorContext> {
      if (!token.startsWith(TOKEN_PREFIX) || token.length > 100)
        throw new AppError('operator.sessionInvalid');
      const row = await repo.findOperatorSessionByTokenHash(db, hashToken(token));
      if (!row || row.revoked_at) throw new AppError('operator.sessionInvalid');
      const now = new Date();
      if (row.expires_at <= now || now.getTime() - row.last_seen_at.getTime() > opts.idleMinutes * 60_000)
        throw new AppError('operator.sessionExpired');
      if (row.status !== 'active') throw new AppError('operator.disabled');
      if (now.getTime() - row.last_seen_at.getTime() > TOUCH_EVERY_MS)
        await repo.touchOperatorSession(db, row.id, now);
      return {
        sessionId: row.id,
        operatorId: row.operator_id,
        username: row.username,
        name: row.name,
        expiresAt: row.expires_at,
        lastLoginAt: row.last_login_at,
      };
    },

    async logout(db: Db, ctx: OperatorContext, client: ClientInfo) {
      await db.transaction().execute(async (trx) => {
        await repo.revokeOperatorSession(trx, ctx.sessionId, 'logout');
        await recordAudit(trx, {
          actorPersonId: null,
          organizationId: null,
          action: 'operator.logout',
          targetType: 'operator',
          targetId: ctx.operatorId,
          ip: client.ip,
          detail: operatorAuditDetail(ctx.operatorId, client),
        });
      });
      return { loggedOut: true as const };
    },

    me(ctx: OperatorContext) {
      return {
        operatorId: ctx.operatorId,
        username: ctx.username,
        name: ctx.name,
        expiresAt: ctx.expiresAt.toISOString(),
        lastLoginAt: ctx.lastLoginAt?.toISOString() ?? null,
      };
    },
  };
}

export type OperatorsService = ReturnType<typeof createOperatorsService>;
