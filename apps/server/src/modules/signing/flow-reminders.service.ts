/**
 * Reminders: the initiator urges one signer or all whose turn it is, or every open flow of theirs at
 * once, by an SMS notice; a signer is reminded at most once in ten minutes.
 */
import { AppError, type contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { z } from 'zod';
import type { AuthContext } from '../session/session.service';
import { isOpen, isViewerTask, recordAct, viewerOf, type Participation } from './flow-context';
import { personName, type FlowCore, type FlowsDeps } from './flow-core';
import * as repo from './flows.repository';

/** A signer is reminded at most once in this time. */
export const URGE_INTERVAL_MS = 10 * 60_000;

export function createFlowReminders(deps: FlowsDeps, core: FlowCore) {
  const { evidence, msgs } = deps;
  const { load } = core;

  async function urgeFlow(db: Db, ctx: AuthContext, p: Participation, taskId?: string) {
    if (!p.initiator) throw new AppError('sign.notInitiator');
    if (!isOpen(p.flow.status)) throw new AppError('sign.flowStatusInvalid');
    const targets = p.tasks.filter(
      (t) =>
        ['pending', 'approved'].includes(t.status) &&
        !isViewerTask(p.viewer, t) &&
        (!taskId || t.id === taskId),
    );
    if (taskId && targets.length === 0) throw new AppError('sign.taskStatusInvalid');
    const now = Date.now();
    const due = targets.filter((t) => !t.urged_at || now - t.urged_at.getTime() >= URGE_INTERVAL_MS);
    const me = await personName(db, ctx.personId);
    for (const t of due)
      await msgs.notify(db, {
        mobile: t.mobile,
        scene: 'signUrge',
        params: {
          initiator: me,
          flow: p.flow.name,
          link: await core.taskLink(db, { id: t.id, flow_id: p.flow.id }, 'signUrge'),
        },
      });
    if (due.length > 0)
      await db.transaction().execute(async (trx) => {
        await repo.markUrged(
          trx,
          due.map((t) => t.id),
          new Date(now),
        );
        for (const t of due)
          await recordAct(trx, evidence, {
            flowId: p.flow.id,
            taskId: t.id,
            action: 'urge',
            actorPersonId: ctx.personId,
            actorName: me,
            organizationId: t.organization_id,
            organizeName: t.organize_name,
            detail: { signer: t.name },
          });
      });
    return { urged: due.length, skipped: targets.length - due.length };
  }

  async function urge(db: Db, ctx: AuthContext, input: z.infer<typeof contracts.urgeRequest>) {
    const p = await load(db, ctx, input.flowId);
    const r = await urgeFlow(db, ctx, p, input.taskId);
    if (input.taskId && r.urged === 0) {
      const minutes = Math.ceil(URGE_INTERVAL_MS / 60_000);
      throw new AppError('sign.urgeTooFrequent', { params: { minutes: String(minutes) } });
    }
    return r;
  }

  async function oneKeyUrge(db: Db, ctx: AuthContext, input: z.infer<typeof contracts.oneKeyUrgeRequest>) {
    const v = await viewerOf(db, ctx);
    const ids =
      input.flowIds ??
      (await repo.listFlows(db, v, { role: 'initiated', offset: 0, limit: 100 })).rows
        .filter((f) => isOpen(f.status))
        .map((f) => f.id);
    let urged = 0;
    let skipped = 0;
    for (const id of ids) {
      const p = await load(db, ctx, id).catch(() => null);
      if (!p || !p.initiator || !isOpen(p.flow.status)) continue;
      const r = await urgeFlow(db, ctx, p);
      urged += r.urged;
      skipped += r.skipped;
    }
    return { urged, skipped };
  }

  return { urge, oneKeyUrge };
}
