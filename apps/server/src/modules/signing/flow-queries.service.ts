/**
 * What participants read: a flow's detail, the lists of flows and of the caller's tasks, the sign logs
 * (all, or those with an evidence leaf), one flow's log, and a file's current version.
 */
import { AppError, type contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { z } from 'zod';
import type { AuthContext } from '../session/session.service';
import { viewerOf } from './flow-context';
import type { FlowCore, FlowsDeps } from './flow-core';
import { detailOf, summaryOf } from './flow-views';
import * as repo from './flows.repository';

export function createFlowQueries(deps: FlowsDeps, core: FlowCore) {
  const { files } = deps;
  const { load } = core;

  async function summaries(db: Db, v: repo.Viewer, rows: repo.FlowRow[]) {
    const ids = rows.map((r) => r.id);
    const [counts, mine] = await Promise.all([repo.taskCounts(db, ids), repo.viewerTasks(db, v, ids)]);
    return rows.map((f) => summaryOf(f, counts.get(f.id), mine.get(f.id)));
  }

  function page(q: { pageNum: number; pageSize: number }) {
    return { offset: (q.pageNum - 1) * q.pageSize, limit: q.pageSize };
  }

  function logOut(l: repo.LogRow & { flow_name: string }): z.infer<typeof contracts.signLogEntry> {
    return {
      id: l.id,
      flowId: l.flow_id,
      flowName: l.flow_name,
      taskId: l.task_id,
      action: l.action as contracts.SignLogAction,
      actorName: l.actor_name,
      organizeName: l.organize_name,
      sealCode: l.seal_code,
      sealName: l.seal_name,
      fileName: l.file_name,
      detail: (l.detail ?? {}) as Record<string, unknown>,
      evidenceIndex: l.evidence_index === null ? null : Number(l.evidence_index),
      at: l.created_at.toISOString(),
    };
  }

  return {
    async detail(db: Db, ctx: AuthContext, flowId: string) {
      return detailOf(db, files, await load(db, ctx, flowId));
    },

    async flows(db: Db, ctx: AuthContext, q: z.infer<typeof contracts.flowListRequest>) {
      const v = await viewerOf(db, ctx);
      const { total, rows } = await repo.listFlows(db, v, { ...q, ...page(q) });
      return { total, pageNum: q.pageNum, pageSize: q.pageSize, list: await summaries(db, v, rows) };
    },

    async tasks(db: Db, ctx: AuthContext, q: z.infer<typeof contracts.taskListRequest>) {
      const v = await viewerOf(db, ctx);
      const { total, rows } = await repo.listTaskFlows(db, v, { ...q, ...page(q) });
      const counts = await repo.taskCounts(
        db,
        rows.map((r) => r.id),
      );
      return {
        total,
        pageNum: q.pageNum,
        pageSize: q.pageSize,
        list: rows.map((r) => summaryOf(r, counts.get(r.id), { id: r.task_id, status: r.task_status })),
      };
    },

    async logs(db: Db, ctx: AuthContext, q: z.infer<typeof contracts.signLogListRequest>, notarised = false) {
      const v = await viewerOf(db, ctx);
      const { total, rows } = await repo.listLogs(db, v, { ...q, notarised, ...page(q) });
      return { total, pageNum: q.pageNum, pageSize: q.pageSize, list: rows.map(logOut) };
    },

    async flowLog(db: Db, ctx: AuthContext, flowId: string) {
      await load(db, ctx, flowId);
      return { list: (await repo.logsOfFlow(db, flowId)).map(logOut) };
    },

    /** The file's current version, for the flow's participants. */
    async fileContent(db: Db, ctx: AuthContext, flowId: string, fileId: string) {
      await load(db, ctx, flowId);
      const f = (await repo.filesOf(db, flowId)).find((x) => x.id === fileId);
      const bytes = f ? await files.getBlob(f.current_sha256) : null;
      if (!f || !bytes) throw new AppError('file.notFound');
      return {
        bytes,
        name: f.name,
        contentType: f.format === 'pdf' ? 'application/pdf' : 'application/ofd',
        sha256: f.current_sha256,
      };
    },
  };
}
