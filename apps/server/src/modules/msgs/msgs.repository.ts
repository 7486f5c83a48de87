import type { Db } from '@openseal/db';

export async function insertFlow(
  db: Db,
  f: {
    id: string;
    mobile: string;
    scene: string;
    codeHash: string;
    personId: string | null;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('sms_flows')
    .values({
      id: f.id,
      mobile: f.mobile,
      scene: f.scene,
      code_hash: f.codeHash,
      person_id: f.personId,
      expires_at: f.expiresAt,
      verified_at: null,
      consumed_at: null,
    })
    .execute();
}

export async function latestFlow(db: Db, mobile: string, scene: string) {
  return db
    .selectFrom('sms_flows')
    .selectAll()
    .where('mobile', '=', mobile)
    .where('scene', '=', scene)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function findFlow(db: Db, id: string) {
  return db.selectFrom('sms_flows').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function bumpAttempts(db: Db, id: string): Promise<number> {
  const row = await db
    .updateTable('sms_flows')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts ?? 0;
}

export async function markVerified(db: Db, id: string): Promise<void> {
  await db.updateTable('sms_flows').set({ verified_at: new Date() }).where('id', '=', id).execute();
}

/** Marks a flow used; false when it was used already (so one code logs in once). */
export async function markConsumed(db: Db, id: string): Promise<boolean> {
  const r = await db
    .updateTable('sms_flows')
    .set({ consumed_at: new Date() })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertMessage(
  db: Db,
  m: {
    id: string;
    flowId: string | null;
    mobile: string;
    scene: string;
    provider: string;
    body: string | null;
  },
): Promise<void> {
  await db
    .insertInto('sms_messages')
    .values({
      id: m.id,
      flow_id: m.flowId,
      mobile: m.mobile,
      scene: m.scene,
      provider: m.provider,
      body: m.body,
      error: null,
      delivered_at: null,
    })
    .execute();
}

export async function updateMessageStatus(
  db: Db,
  id: string,
  status: 'delivered' | 'failed',
  error: string | null,
): Promise<void> {
  await db
    .updateTable('sms_messages')
    .set({ status, error, delivered_at: status === 'delivered' ? new Date() : null })
    .where('id', '=', id)
    .execute();
}

export async function listMessages(db: Db, mobile: string, limit: number) {
  return db
    .selectFrom('sms_messages')
    .selectAll()
    .where('mobile', '=', mobile)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
