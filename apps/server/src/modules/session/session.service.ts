import { AppError, IDENTITY, REAL_NAME_STATUS, type IdentityType } from '@openseal/core';
import type { Db, WriteWatch } from '@openseal/db';
import { LruCache } from '@openseal/pki';
import { newId } from '../../lib/ids';
import { hashToken, newToken } from '../../lib/secrets';
import * as repo from './session.repository';

/** Who is calling, and in which space. A token is bound to exactly one space (spec 4, space switching). */
export interface AuthContext {
  sessionId: string;
  personId: string;
  organizationId: string | null;
  memberId: string | null;
  roles: string[];
  identityType: IdentityType;
  /** The id of the current space: the person id, or the organisation id. */
  accountId: string;
  expiresAt: Date;
  /**
   * Real-name state read with the session on every request: the person's own, and the current
   * organisation's (null in the personal space). Functions refuse unverified callers (spec section 6).
   */
  realName: { person: boolean; organization: boolean | null };
  /**
   * The person and current organisation as the account info shows them, read with the session
   * (absent from contexts made without one, such as a download address's).
   */
  profile?: SpaceProfile;
}

export interface SpaceProfile {
  person: { name: string; mobile: string; hasPassword: boolean; realNameStatus: number };
  organization: { name: string; uscc: string; realNameStatus: number; createdAt: Date } | null;
}

export interface IssuedToken {
  accessToken: string;
  expiresAt: Date;
  accountId: string;
  memberId: string | null;
  identityType: IdentityType;
}

const TOUCH_EVERY_MS = 60_000;

/** How long a resolved session may answer from memory at most, should a change go unheard. */
const CACHE_TTL_MS = 5_000;
const CACHE_ENTRIES = 10_000;
/** The tables a session's judgement reads (repo.findSessionByTokenHash). */
const SESSION_TABLES = new Set(['sessions', 'persons', 'members', 'organizations', '*']);

type SessionRow = NonNullable<Awaited<ReturnType<typeof repo.findSessionByTokenHash>>>;

/**
 * Resolved sessions by token hash, for the requests that follow one another within seconds (a page load
 * makes several). Every change to a table the judgement reads empties it, this process's own changes as
 * soon as they are visible and other processes' by notification; while notifications cannot be heard
 * it answers nothing. A read that raced a change is not kept (the epoch moved meanwhile).
 */
class SessionCache {
  readonly #entries = new LruCache<string, { row: SessionRow; epoch: number; at: number }>(CACHE_ENTRIES);
  #epoch = 0;

  constructor(private readonly writes: WriteWatch) {
    writes.onWrite(({ table, columns }) => {
      if (!SESSION_TABLES.has(table)) return;
      // The last-seen time is this cache's own write, and no part of a session's judgement.
      if (table === 'sessions' && columns?.length === 1 && columns[0] === 'last_seen_at') return;
      this.#epoch += 1;
      this.#entries.clear();
    });
  }

  async lookup(db: Db, tokenHash: string): Promise<SessionRow | undefined> {
    const now = Date.now();
    if (this.writes.complete) {
      const hit = this.#entries.get(tokenHash);
      if (hit && hit.epoch === this.#epoch && now - hit.at < CACHE_TTL_MS) return hit.row;
    }
    const epoch = this.#epoch;
    const row = await repo.findSessionByTokenHash(db, tokenHash);
    if (row && epoch === this.#epoch && this.writes.complete)
      this.#entries.set(tokenHash, { row, epoch, at: now });
    return row;
  }

  /** The cached row's last-seen time, after this process wrote it. */
  touched(tokenHash: string, at: Date): void {
    const hit = this.#entries.get(tokenHash);
    if (hit) hit.row = { ...hit.row, last_seen_at: at };
  }
}

export function createSessionService(deps: { ttlHours: number; writes?: WriteWatch }) {
  const cache = deps.writes ? new SessionCache(deps.writes) : null;
  return {
    /** Issues a token for one space. */
    async issue(
      db: Db,
      space: { personId: string; organizationId: string | null; memberId: string | null },
      client: { ip: string | null; userAgent: string | null },
    ): Promise<IssuedToken> {
      const token = newToken();
      const expiresAt = new Date(Date.now() + deps.ttlHours * 3_600_000);
      await repo.insertSession(db, {
        id: newId('ses'),
        tokenHash: hashToken(token),
        personId: space.personId,
        organizationId: space.organizationId,
        memberId: space.memberId,
        expiresAt,
        ip: client.ip,
        userAgent: client.userAgent?.slice(0, 512) ?? null,
      });
      return {
        accessToken: token,
        expiresAt,
        accountId: space.organizationId ?? space.personId,
        memberId: space.memberId,
        identityType: space.organizationId ? IDENTITY.organization : IDENTITY.person,
      };
    },

    /** Resolves a token to its context, or throws the session-invalid code of section 8 that fits. */
    async resolve(db: Db, token: string): Promise<AuthContext> {
      if (!token.startsWith('ost_') || token.length > 100) throw new AppError('session.tokenInvalid');
      const tokenHash = hashToken(token);
      const row = cache
        ? await cache.lookup(db, tokenHash)
        : await repo.findSessionByTokenHash(db, tokenHash);
      if (!row) throw new AppError('session.tokenInvalid');
      if (row.revoked_at) {
        throw new AppError(
          row.revoked_reason === 'replaced' ? 'session.loggedInElsewhere' : 'session.revoked',
        );
      }
      const now = new Date();
      if (row.expires_at <= now) throw new AppError('session.expired');
      if (row.person_status !== 'active') throw new AppError('session.accountDisabled');
      if (row.organization_id && (row.member_status !== 'active' || row.org_deleted_at))
        throw new AppError('session.spaceInvalid');
      if (now.getTime() - row.last_seen_at.getTime() > TOUCH_EVERY_MS) {
        await repo.touchSession(db, row.id, now);
        cache?.touched(tokenHash, now);
      }
      return {
        sessionId: row.id,
        personId: row.person_id,
        organizationId: row.organization_id,
        memberId: row.member_id,
        roles: row.member_roles ?? [],
        identityType: row.organization_id ? IDENTITY.organization : IDENTITY.person,
        accountId: row.organization_id ?? row.person_id,
        expiresAt: row.expires_at,
        realName: {
          person: row.person_real_name_status === REAL_NAME_STATUS.verified,
          organization: row.organization_id ? row.org_real_name_status === REAL_NAME_STATUS.verified : null,
        },
        profile: {
          person: {
            name: row.person_name,
            mobile: row.person_mobile,
            hasPassword: Boolean(row.person_has_password),
            realNameStatus: row.person_real_name_status,
          },
          organization:
            row.organization_id && row.org_name !== null
              ? {
                  name: row.org_name,
                  uscc: row.org_uscc!,
                  realNameStatus: row.org_real_name_status!,
                  createdAt: row.org_created_at!,
                }
              : null,
        },
      };
    },

    /**
     * The context of a person in a space without a session (a download address names its holder, and
     * is judged again when used): null when the person is not active, or no longer an active member of
     * a live organisation.
     */
    async contextOf(db: Db, personId: string, organizationId: string | null): Promise<AuthContext | null> {
      const space = await repo.findSpace(db, personId, organizationId);
      if (!space || space.person.status !== 'active') return null;
      if (organizationId && (!space.member || space.member.org_deleted_at)) return null;
      return {
        sessionId: 'address',
        personId,
        organizationId,
        memberId: space.member?.id ?? null,
        roles: space.member?.roles ?? [],
        identityType: organizationId ? IDENTITY.organization : IDENTITY.person,
        accountId: organizationId ?? personId,
        expiresAt: new Date(Date.now() + 60_000),
        realName: {
          person: space.person.real_name_status === REAL_NAME_STATUS.verified,
          organization: organizationId
            ? space.member?.org_real_name_status === REAL_NAME_STATUS.verified
            : null,
        },
      };
    },

    revoke: (db: Db, sessionId: string, reason: string) => repo.revokeSession(db, sessionId, reason),
    revokeAllOfPerson: (db: Db, personId: string, reason: string, exceptSessionId?: string) =>
      repo.revokePersonSessions(db, personId, reason, exceptSessionId),
    revokeAllOfOrganization: (db: Db, organizationId: string, reason: string) =>
      repo.revokeOrganizationSessions(db, organizationId, reason),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
