import type { Db } from '@openseal/db';

export interface VerifyReportRow {
  id: string;
  fileName: string;
  sha256: string;
  size: number;
  verdict: string;
  report: unknown;
  evidenceIndex: number;
  /** Who verified when signed in (their verified records), and in which space; null otherwise. */
  personId: string | null;
  organizationId: string | null;
  createdAt: Date;
}

/** Keeps one verification's report (in the transaction that appends its evidence leaf). */
export async function insertVerifyReport(db: Db, row: Omit<VerifyReportRow, 'createdAt'>): Promise<void> {
  await db
    .insertInto('verify_reports')
    .values({
      id: row.id,
      file_name: row.fileName,
      sha256: row.sha256,
      size: row.size,
      verdict: row.verdict,
      report: JSON.stringify(row.report),
      evidence_index: row.evidenceIndex,
      person_id: row.personId,
      organization_id: row.organizationId,
    })
    .execute();
}

type Selected = {
  id: string;
  file_name: string;
  sha256: string;
  size: number | string;
  verdict: string;
  report: unknown;
  evidence_index: number | string;
  person_id: string | null;
  organization_id: string | null;
  created_at: Date;
};

function rowOf(r: Selected): VerifyReportRow {
  return {
    id: r.id,
    fileName: r.file_name,
    sha256: r.sha256,
    size: Number(r.size),
    verdict: r.verdict,
    // PostgreSQL's driver parses jsonb; a text answer (another driver) is parsed here.
    report: typeof r.report === 'string' ? (JSON.parse(r.report) as unknown) : r.report,
    evidenceIndex: Number(r.evidence_index),
    personId: r.person_id,
    organizationId: r.organization_id,
    createdAt: r.created_at,
  };
}

/** One person's verifications, newest first; `keyword` matches part of the file name or the hash. */
export async function listVerifyReportsOf(
  db: Db,
  q: { personId: string; verdict?: string; keyword?: string; limit: number; offset: number },
): Promise<{ total: number; rows: VerifyReportRow[] }> {
  let base = db.selectFrom('verify_reports').where('person_id', '=', q.personId);
  if (q.verdict) base = base.where('verdict', '=', q.verdict);
  if (q.keyword) {
    const like = `%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const hash = q.keyword.toLowerCase();
    base = base.where((eb) => eb.or([eb('file_name', 'like', like), eb('sha256', '=', hash)]));
  }
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
  return { total: Number(total), rows: rows.map(rowOf) };
}

export async function findVerifyReport(db: Db, id: string): Promise<VerifyReportRow | null> {
  const r = await db.selectFrom('verify_reports').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? rowOf(r) : null;
}
