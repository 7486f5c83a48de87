import type { Db, SsoFlowsTable } from '@openseal/db';
import type { Insertable, Updateable } from 'kysely';

export type FlowStatus = SsoFlowsTable['status'];

export async function insertFlow(db: Db, flow: Insertable<SsoFlowsTable>): Promise<void> {
  await db.insertInto('sso_flows').values(flow).execute();
}

export const findFlowById = (db: Db, id: string) =>
  db.selectFrom('sso_flows').selectAll().where('id', '=', id).executeTakeFirst();

export const findFlowByState = (db: Db, state: string) =>
  db.selectFrom('sso_flows').selectAll().where('state', '=', state).executeTakeFirst();

/**
 * Moves a flow from one status to the next; false when another request moved it first, so a code or a
 * result can be used once only.
 */
export async function moveFlow(
  db: Db,
  id: string,
  from: FlowStatus,
  changes: Updateable<SsoFlowsTable> & { status: FlowStatus },
): Promise<boolean> {
  const r = await db
    .updateTable('sso_flows')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function deleteExpiredFlows(db: Db, before: Date): Promise<number> {
  const r = await db.deleteFrom('sso_flows').where('expires_at', '<', before).executeTakeFirst();
  return Number(r.numDeletedRows);
}

export const findLink = (db: Db, issuer: string, subject: string) =>
  db
    .selectFrom('sso_links')
    .selectAll()
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();

export const findLinkOfPerson = (db: Db, issuer: string, personId: string) =>
  db
    .selectFrom('sso_links')
    .selectAll()
    .where('issuer', '=', issuer)
    .where('person_id', '=', personId)
    .executeTakeFirst();

export async function insertLink(db: Db, link: { issuer: string; subject: string; personId: string }) {
  await db
    .insertInto('sso_links')
    .values({ issuer: link.issuer, subject: link.subject, person_id: link.personId })
    .execute();
}
