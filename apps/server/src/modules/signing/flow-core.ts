/**
 * What the parts of the sign service share: their dependencies, loading a flow for the caller (a flow
 * past its validity ends on that look), closing what stays open when a flow ends, the invitation of the
 * signers whose turn it is, and the check of a placement against its file's pages.
 */
import { AppError, contracts } from '@openseal/core';
import type { Db } from '@openseal/db';
import { createHash } from 'node:crypto';
import type { EvidenceService } from '../evidence/evidence.service';
import type { FilesService } from '../files/files.service';
import type { LinksService } from '../links/links.service';
import type { MsgsService } from '../msgs/msgs.service';
import type { OrganizesService } from '../organizes/organizes.service';
import type { AuthContext } from '../session/session.service';
import type { WorkPool } from '../../workers/work-pool';
import { isOpen, participation, recordAct, transition } from './flow-context';
import * as repo from './flows.repository';
import type { PdfSigning } from './pdf-signing';
import type { WillService } from './will.service';

const { FLOW_MACHINE, TASK_MACHINE } = contracts;
type FlowStatus = contracts.FlowStatus;
type TaskStatus = contracts.TaskStatus;
type Placement = contracts.Placement;

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export interface FlowsDeps {
  /** Members of an organisation (internal flows name only its members). */
  organizes: Pick<OrganizesService, 'findLive' | 'activeMember'>;
  evidence: EvidenceService;
  files: FilesService;
  msgs: MsgsService;
  /** The link in an invitation or reminder opens the signer's task on their phone in one tap. */
  links: Pick<LinksService, 'shorten'>;
  will: WillService;
  signing: PdfSigning;
  /** Reads the files of a new flow (page sizes, OFD structure) off the main thread. */
  work: Pick<WorkPool, 'readPdfPages' | 'readOfd'>;
  log: { warn(obj: object, msg: string): void };
}

/** A placement inside its file: on an existing page, within it, and a riding seam over two pages at least. */
export function checkPlacement(
  p: Omit<Placement, 'fileId'>,
  file: { format: string; pageSizes: { widthMm: number; heightMm: number }[] | null },
) {
  if (file.format === 'ofd') throw new AppError('sign.ofdNotSupported');
  const sizes = file.pageSizes ?? [];
  const page = sizes[p.page - 1];
  if (!page) throw new AppError('sign.placementInvalid', { params: { reason: `page ${p.page}` } });
  if (p.kind !== 'ridingSeam' && (p.x > page.widthMm || p.y > page.heightMm))
    throw new AppError('sign.placementInvalid', { params: { reason: 'outside the page' } });
  if (p.kind === 'ridingSeam') {
    if (p.y > page.heightMm)
      throw new AppError('sign.placementInvalid', { params: { reason: 'outside the page' } });
    if (sizes.length < 2)
      throw new AppError('sign.placementInvalid', { params: { reason: 'a riding seam needs two pages' } });
    for (const n of p.pages ?? [])
      if (!sizes[n - 1]) throw new AppError('sign.placementInvalid', { params: { reason: `page ${n}` } });
  }
}

export async function personName(db: Db, personId: string) {
  return (await repo.personById(db, personId))?.name ?? '';
}

export function createFlowCore(deps: FlowsDeps) {
  const { evidence, msgs } = deps;

  /** A flow past its validity ends on the next look at it (and the sweeper ends the ones nobody looks at). */
  async function expireIfDue(db: Db, flowId: string): Promise<boolean> {
    const flow = await repo.findFlow(db, flowId);
    if (!flow || !isOpen(flow.status) || new Date(flow.valid_until).getTime() > Date.now()) return false;
    await db.transaction().execute(async (trx) => {
      const f = await repo.lockFlow(trx, flowId);
      if (!f || !isOpen(f.status)) return;
      const to = transition(FLOW_MACHINE, f.status as FlowStatus, 'expire', 'sign.flowStatusInvalid');
      await repo.moveFlow(trx, f.id, f.status, to, { finished_at: new Date() });
      await endOpenWork(trx, f.id, null, 'system');
      await recordAct(trx, evidence, {
        flowId: f.id,
        action: 'expire',
        actorPersonId: null,
        actorName: 'system',
        evidence: { data: { validUntil: new Date(f.valid_until).toISOString() } },
      });
    });
    return true;
  }

  /** Closes the open tasks and terminates the open approvals of a flow that ended. */
  async function endOpenWork(trx: Db, flowId: string, exceptTaskId: string | null, actorName: string) {
    for (const t of await repo.tasksOf(trx, flowId)) {
      if (t.id === exceptTaskId) continue;
      const to = contracts.nextStatus(TASK_MACHINE, t.status as TaskStatus, 'close');
      if (to) await repo.moveTask(trx, t.id, t.status, to);
    }
    const approvals = await repo.approvalsOfFlow(trx, flowId);
    for (const a of approvals) {
      if (a.status !== 'inApproval') continue;
      await repo.moveApproval(trx, a.id, a.status, 'terminated', {
        decider_name: actorName,
        decision_reason: null,
        decided_at: new Date(),
      });
    }
  }

  /** The caller's participation in a flow, the flow and the caller read once (again only when it just expired). */
  async function load(db: Db, ctx: AuthContext, flowId: string) {
    let found = await repo.findFlowFor(db, flowId, ctx.personId);
    if (found && isOpen(found.status) && new Date(found.valid_until).getTime() <= Date.now()) {
      await expireIfDue(db, flowId);
      found = await repo.findFlowFor(db, flowId, ctx.personId);
    }
    if (!found) throw new AppError('sign.flowNotFound');
    const { viewer_name: name, viewer_mobile: mobile, ...flow } = found;
    return participation(db, ctx, flowId, {
      flow,
      person: name !== null && mobile !== null ? { name, mobile } : null,
    });
  }

  /** Each signer whose turn it is gets a text with a link that opens their task (their phone: the phone page). */
  async function invite(
    db: Db,
    tasks: { id: string; flow_id: string; mobile: string }[],
    initiator: string,
    flowName: string,
  ) {
    for (const t of tasks)
      await msgs.notify(db, {
        mobile: t.mobile,
        scene: 'signInvite',
        params: { initiator, flow: flowName, link: await taskLink(db, t, 'signInvite') },
      });
  }

  /** A short link to a signer's task in signByMe (the page opens its signing panel). */
  function taskLink(db: Db, t: { id: string; flow_id: string }, purpose: string): Promise<string> {
    const query = new URLSearchParams({ flowId: t.flow_id, taskId: t.id });
    return deps.links.shorten(db, `/signService/signByMe?${query.toString()}`, purpose);
  }

  return { expireIfDue, endOpenWork, load, invite, taskLink };
}

export type FlowCore = ReturnType<typeof createFlowCore>;
