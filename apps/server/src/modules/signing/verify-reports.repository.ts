import type { Db } from '@openseal/db';

export interface VerifyReportRow {
  id: string;
  fileName: string;
  sha256: string;
  size: number;
  verdict: string;
  report: unknown;
  evidenceIndex: number;
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
    })
    .execute();
}

export async function findVerifyReport(db: Db, id: string): Promise<VerifyReportRow | null> {
  const r = await db.selectFrom('verify_reports').selectAll().where('id', '=', id).executeTakeFirst();
  if (!r) return null;
  return {
    id: r.id,
    fileName: r.file_name,
    sha256: r.sha256,
    size: Number(r.size),
    verdict: r.verdict,
    // PostgreSQL's driver parses jsonb; a text answer (another driver) is parsed here.
    report: typeof r.report === 'string' ? (JSON.parse(r.report) as unknown) : r.report,
    evidenceIndex: Number(r.evidence_index),
    createdAt: r.created_at,
  };
}
