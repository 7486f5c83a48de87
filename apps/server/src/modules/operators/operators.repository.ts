import { sql } from 'kysely';
import type { Db } from '@openseal/db';

export async function findOperatorByUsername(db: Db, username: string) {
  return db.selectFrom('operators').selectAll().where('username', '=', username).executeTakeFirst();
}

export async function findOperatorById(db: Db, id: string) {
  return db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts an operator unless the username is taken; answers whether it was inserted. */
export async function insertOperatorIfAbsent(
  db: Db,
  row: { id: string; username: string; name: string; passwordHash: string },
): Promise<boolean> {
  const r = await db
    .insertInto('operators')
    .values({ id: row.id, username: row.username, name: row.name, password_hash: row.passwordHash })
    .onConflict((oc) => oc.column('username').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function recordOperatorLogin(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('operators').set({ last_login_at: at, updated_at: at }).where('id', '=', id).execute();
}

export async function insertOperatorSession(
  db: Db,
  row: {
    id: string;
    tokenHash: string;
    operatorId: string;
    expiresAt: Date;
    ip: string | null;
    userAgent: string | null;
  },
): Promise<void> {
  await db
    .insertInto('operator_sessions')
    .values({
      id: row.id,
      token_hash: row.tokenHash,
      operator_id: row.operatorId,
      expires_at: row.expiresAt,
      ip: row.ip,
      user_agent: row.userAgent,
      revoked_at: null,
      revoked_reason: null,
    })
    .execute();
}

export async function findOperatorSessionByTokenHash(db: Db, tokenHash: string) {
  return db
    .selectFrom('operator_sessions as s')
    .innerJoin('operators as o', 'o.id', 's.operator_id')
    .select([
      's.id',
      's.operator_id',
      's.expires_at',
      's.revoked_at',
      's.last_seen_at',
      'o.username',
      'o.name',
      'o.status',
      'o.last_login_at',
    ])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchOperatorSession(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('operator_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export async function revokeOperatorSession(db: Db, id: string, reason: string): Promise<void> {
  await db
    .updateTable('operator_sessions')
    .set({ revoked_at: new Date(), revoked_reason: reason })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export interface AuditLogFilter {
  actor?: string | undefined;
  action?: string | undefined;
  target?: string | undefined;
  org?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  page: number;
  size: number;
}

/** Operators record their id in the detail: audit_logs names only persons as actors. */
const operatorIdOf = sql<string | null>`a.detail->>'operatorId'`;

/** The audit log, newest first, with the actor's display name; `total` counts every match. */
export async function listAuditLogs(db: Db, f: AuditLogFilter) {
  let q = db.selectFrom('audit_logs as a');
  if (f.actor) {
    const actor = f.actor;
    q = q.where((eb) => eb.or([eb('a.actor_person_id', '=', actor), eb(operatorIdOf, '=', actor)]));
  }
  if (f.action) {
    const action = f.action;
    // A prefix stops at a dot, so "account" never matches "accounts.x"; LIKE wildcards are escaped.
    const prefix = `${action.replace(/[\\%_]/g, (m) => `\\${m}`)}.%`;
    q = q.where((eb) => eb.or([eb('a.action', '=', action), eb('a.action', 'like', prefix)]));
  }
  if (f.target) q = q.where('a.target_id', '=', f.target);
  if (f.org) q = q.where('a.organization_id', '=', f.org);
  if (f.from) q = q.where('a.at', '>=', f.from);
  if (f.to) q = q.where('a.at', '<', f.to);

  const counted = await q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst();
  const rows = await q
    .leftJoin('persons as p', 'p.id', 'a.actor_person_id')
    .leftJoin('operators as o', (j) => j.on(sql<boolean>`o.id = a.detail->>'operatorId'`))
    .select([
      'a.id',
      'a.at',
      'a.actor_person_id',
      'a.organization_id',
      'a.action',
      'a.target_type',
      'a.target_id',
      'a.ip',
      'a.detail',
      'p.name as person_name',
      'o.name as operator_name',
      'o.username as operator_username',
    ])
    .select(operatorIdOf.as('operator_id'))
    .orderBy('a.at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(f.size)
    .offset((f.page - 1) * f.size)
    .execute();
  return { total: Number(counted?.n ?? 0), rows };
}
