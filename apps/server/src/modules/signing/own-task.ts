/**
 * Whether a sign task is the caller's and still to be signed: theirs in the current space (by person, or
 * by mobile before they first acted), not yet signed, refused or closed, in a flow still open. A will-auth
 * for signing is created only for such a task (whose turn it is is checked when the signature is made).
 */
import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { AuthContext } from '../session/session.service';
import { flowOfTask } from './access.repository';
import { isOpen, isViewerTask, participation } from './flow-context';

/** The statuses from which a task can still reach `signed` (TASK_MACHINE). */
const TO_SIGN = ['waiting', 'pending', 'inApproval', 'approved'];

export async function isCallersOpenTask(db: Db, ctx: AuthContext, taskId: string): Promise<boolean> {
  const flowId = await flowOfTask(db, taskId);
  if (!flowId) return false;
  let p;
  try {
    p = await participation(db, ctx, flowId);
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
  const task = p.tasks.find((t) => t.id === taskId);
  return !!task && isViewerTask(p.viewer, task) && TO_SIGN.includes(task.status) && isOpen(p.flow.status);
}
