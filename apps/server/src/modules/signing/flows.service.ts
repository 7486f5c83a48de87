/**
 * The sign service: quick signing and multi-party flows. A flow holds up to ten files (PDF signed, OFD
 * stored and shown), its signers as tasks (persons, or organisations with a signatory), their order and
 * the validity. Each signer's placements become their own incremental PAdES signatures, one per placement,
 * each with the certificate of the seal it shows; earlier signatures stay valid. Every act is a sign-log
 * row, and every act that carries weight an evidence leaf, in the same transaction as the state change.
 *
 * Signing is slow (a timestamp per signature) and runs outside the transaction; the transaction then
 * checks that each file is still the version the signatures were built on and retries otherwise, so two
 * signers of a parallel flow never lose each other's signature.
 */
import { AppError, checkMobile, contracts, maskPhone } from '@openseal/core';
import type { Db } from '@openseal/db';
import { OfdError, readOfd } from '@openseal/ofd';
import {
  bufferSource,
  checkSigningAllowed,
  displaySize,
  openPdf,
  pageFrame,
  PdfError,
  PT_PER_MM,
} from '@openseal/pdf';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { newId } from '../../lib/ids';
import { hasOrgPermission, requireOrgPermission, requireRealName } from '../../lib/permissions';
import type { EvidenceService } from '../evidence/evidence.service';
import type { FilesService } from '../files/files.service';
import type { MsgsService } from '../msgs/msgs.service';
import { consumeAuthorization } from '../seals/seal-authorizations.service';
import type { AuthContext } from '../session/session.service';
import {
  iso,
  isOpen,
  isViewerTask,
  participation,
  placementsOf,
  recordAct,
  transition,
  viewerOf,
  type Participation,
} from './flow-context';
import { flowPictureUrl, sealPictureUrl } from './file-access';
import * as repo from './flows.repository';
import { pdfErrorToAppError, type PdfSigning } from './pdf-signing';
import type { WillService } from './will.service';

const { FLOW_MACHINE, TASK_MACHINE } = contracts;
type FlowStatus = contracts.FlowStatus;
type TaskStatus = contracts.TaskStatus;
type Placement = contracts.Placement;

/** A signer is reminded at most once in this time. */
export const URGE_INTERVAL_MS = 10 * 60_000;
const SIGN_ATTEMPTS = 3;
const WILL_SIGN = contracts.WILL_SOURCES.sign;

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

export interface FlowsDeps {
  evidence: EvidenceService;
  files: FilesService;
  msgs: MsgsService;
  will: WillService;
  signing: PdfSigning;
  log: { warn(obj: object, msg: string): void };
}

/** Page sizes in millimetres as displayed, or the catalogued refusal of a PDF we cannot sign. */
function readPdfPages(bytes: Buffer): { widthMm: number; heightMm: number }[] {
  try {
    const doc = openPdf(bufferSource(bytes), { limits: { deadlineMs: 10_000 } });
    // Encrypted files are signed when the empty user password opens them and their permissions allow it.
    checkSigningAllowed(doc);
    return doc.pages().map((p) => {
      const [w, h] = displaySize(pageFrame(p));
      return {
        widthMm: Math.round((w / PT_PER_MM) * 100) / 100,
        heightMm: Math.round((h / PT_PER_MM) * 100) / 100,
      };
    });
  } catch (err) {
    if (err instanceof PdfError) throw pdfErrorToAppError(err);
    throw err;
  }
}

/** Pages of an OFD whose structure the upload check has read already. */
function readOfdPageCount(bytes: Buffer): number {
  try {
    return readOfd(bytes).pages.length;
  } catch (err) {
    if (err instanceof OfdError)
      throw new AppError('file.structureInvalid', { details: { kind: 'ofd', reason: err.message } });
    throw err;
  }
}

function checkPlacement(
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

interface FileDraft {
  id: string;
  flow_id: string;
  position: number;
  role: 'contract' | 'attachment';
  format: 'pdf' | 'ofd';
  name: string;
  original_file_key: string;
  original_sha256: string;
  current_sha256: string;
  current_size: number;
  pages: number | null;
  page_sizes: string | null;
}

export function createFlowsService(deps: FlowsDeps) {
  const { evidence, files, msgs, will } = deps;

  async function personName(db: Db, personId: string) {
    return (await repo.personById(db, personId))?.name ?? '';
  }

  // --- views ---

  async function summaries(db: Db, v: repo.Viewer, rows: repo.FlowRow[]) {
    const ids = rows.map((r) => r.id);
    const [counts, mine] = await Promise.all([repo.taskCounts(db, ids), repo.viewerTasks(db, v, ids)]);
    return rows.map((f) => summaryOf(f, counts.get(f.id), mine.get(f.id)));
  }

  function summaryOf(
    f: repo.FlowRow,
    counts: { signers: number; signed: number; files: number } | undefined,
    mine: { id: string; status: string } | undefined,
  ): z.infer<typeof contracts.flowSummary> {
    return {
      flowId: f.id,
      name: f.name,
      scene: f.scene,
      status: f.status as FlowStatus,
      order: f.sign_order,
      initiatorName: f.initiator_name,
      initiatorOrganizeName: f.initiator_org_name,
      createdAt: f.created_at.toISOString(),
      validUntil: new Date(f.valid_until).toISOString(),
      finishedAt: iso(f.finished_at),
      fileCount: counts?.files ?? 0,
      signerCount: counts?.signers ?? 0,
      signedCount: counts?.signed ?? 0,
      myTaskId: mine?.id ?? null,
      myTaskStatus: (mine?.status as TaskStatus | undefined) ?? null,
    };
  }

  function actionsOf(p: Participation): z.infer<typeof contracts.flowAction>[] {
    const out: z.infer<typeof contracts.flowAction>[] = ['download'];
    const open = isOpen(p.flow.status);
    const t = p.myTask;
    if (open && t && (t.status === 'pending' || t.status === 'approved')) out.push('sign');
    if (open && t && t.status === 'pending' && t.signer_type === 'organization') out.push('requestApproval');
    if (open && t && ['pending', 'inApproval', 'approved'].includes(t.status)) out.push('refuse');
    if (p.initiator && open) {
      if (p.tasks.some((x) => ['pending', 'approved'].includes(x.status) && x.id !== t?.id)) out.push('urge');
      out.push('withdraw');
    }
    if (p.initiator && p.flow.status === 'completed') out.push('void');
    return out;
  }

  async function detailOf(db: Db, p: Participation): Promise<contracts.FlowDetail> {
    const [flowFiles, approvals] = await Promise.all([
      repo.filesOf(db, p.flow.id),
      repo.approvalsOfFlow(db, p.flow.id),
    ]);
    const signed = p.tasks.filter((t) => t.status === 'signed').length;
    const me = p.viewer;
    return {
      ...summaryOf(
        p.flow,
        { signers: p.tasks.length, signed, files: flowFiles.length },
        p.myTask ? { id: p.myTask.id, status: p.myTask.status } : undefined,
      ),
      remark: p.flow.remark,
      reason: p.flow.reason,
      files: flowFiles.map((f) => ({
        fileId: f.id,
        name: f.name,
        role: f.role,
        format: f.format,
        size: Number(f.current_size),
        pages: f.pages,
        originalSha256: f.original_sha256,
        currentSha256: f.current_sha256,
        signatures: f.signatures,
        pageSizes: (f.page_sizes as { widthMm: number; heightMm: number }[] | null) ?? null,
      })),
      signers: p.tasks.map((t) => ({
        taskId: t.id,
        order: t.position,
        type: t.signer_type,
        name: t.name,
        mobile: isViewerTask(me, t) ? t.mobile : maskPhone(t.mobile),
        organizeName: t.organize_name,
        isInitiator: t.is_initiator,
        status: t.status as TaskStatus,
        needSignature: t.need_signature,
        placements: placementsOf(t.placements),
        sealCode: t.seal_code,
        sealName: t.seal_name,
        signedAt: iso(t.signed_at),
        refuseReason: t.refuse_reason,
        urgedAt: iso(t.urged_at),
        urgeCount: t.urge_count,
      })),
      actions: actionsOf(p),
      approvals: approvals.map((a) => approvalOut(a, [], files, p.ctx)),
    };
  }

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

  async function load(db: Db, ctx: AuthContext, flowId: string) {
    await expireIfDue(db, flowId);
    return participation(db, ctx, flowId);
  }

  // --- creating ---

  async function create(db: Db, ctx: AuthContext, input: contracts.CreateFlowRequest) {
    requireRealName(ctx);
    if (ctx.organizationId) await requireOrgPermission(db, ctx, 'sign.launch');
    const me = await repo.personById(db, ctx.personId);
    if (!me) throw new AppError('session.missing');
    const orgName = ctx.organizationId ? await repo.organizationName(db, ctx.organizationId) : null;

    // Files: the caller's own signing uploads, no two alike, at least one contract.
    const seen = new Set<string>();
    const flowId = newId('flo');
    const fileRows: FileDraft[] = [];
    for (const [i, f] of input.files.entries()) {
      const stored = await files.readInternal(db, f.fileKey);
      if (!stored || stored.purpose !== 'sign' || stored.file.owner_person_id !== ctx.personId)
        throw new AppError('sign.fileNotOwned');
      if (seen.has(stored.sha256))
        throw new AppError('file.duplicate', { details: { fileName: stored.name } });
      seen.add(stored.sha256);
      // The kind the upload check found in the bytes, never the file's name.
      const format =
        stored.file.content_type === 'application/pdf'
          ? 'pdf'
          : stored.file.content_type === 'application/ofd'
            ? 'ofd'
            : null;
      if (!format) throw new AppError('sign.fileFormat');
      const pageSizes = format === 'pdf' ? readPdfPages(stored.bytes) : null;
      const ofdPages = format === 'ofd' ? readOfdPageCount(stored.bytes) : null;
      fileRows.push({
        id: newId('sff'),
        flow_id: flowId,
        position: i,
        role: f.role,
        format,
        name: stored.name,
        original_file_key: f.fileKey,
        original_sha256: stored.sha256,
        current_sha256: stored.sha256,
        current_size: stored.bytes.length,
        pages: pageSizes?.length ?? ofdPages,
        page_sizes: pageSizes ? JSON.stringify(pageSizes) : null,
      });
    }
    if (!fileRows.some((f) => f.role === 'contract')) throw new AppError('sign.contractRequired');
    const sizesOf = (index: number) => {
      const f = fileRows[index];
      if (!f) throw new AppError('sign.placementInvalid', { params: { reason: `file ${index + 1}` } });
      return {
        id: f.id,
        format: f.format,
        pageSizes: f.page_sizes
          ? (JSON.parse(f.page_sizes) as { widthMm: number; heightMm: number }[])
          : null,
      };
    };

    // Signers: the initiator first when they sign, then the others.
    const initiatorSigns = input.scene === 'quick' || input.initiatorSigns;
    type Draft = Omit<
      repo.TaskRow,
      | 'created_at'
      | 'updated_at'
      | 'urge_count'
      | 'urged_at'
      | 'signed_at'
      | 'refuse_reason'
      | 'seal_code'
      | 'seal_name'
      | 'status'
      | 'placements'
      | 'seq'
    > & { rank: number; placements: string };
    const drafts: Draft[] = [];
    if (initiatorSigns) {
      drafts.push({
        id: newId('stk'),
        flow_id: flowId,
        position: 0,
        rank: 0,
        signer_type: ctx.organizationId ? 'organization' : 'person',
        name: me.name,
        mobile: me.mobile,
        organization_id: ctx.organizationId,
        organize_name: orgName,
        person_id: ctx.personId,
        is_initiator: true,
        need_signature: false,
        placements: '[]',
      });
    }
    const keys = new Set(drafts.map((d) => `${d.signer_type}|${d.mobile}|${d.organization_id ?? ''}`));
    for (const [i, s] of input.signers.entries()) {
      const mobile = checkMobile(s.mobile);
      if (!mobile.ok) throw new AppError(mobile.key);
      let organizationId: string | null = null;
      let organizeName: string | null = null;
      if (s.type === 'organization') {
        if (!s.organizeName) throw new AppError('sign.signerOrgNotFound', { params: { name: '' } });
        const org = await repo.verifiedOrganization(db, s.organizeName);
        if (!org) throw new AppError('sign.signerOrgNotFound', { params: { name: s.organizeName } });
        organizationId = org.id;
        organizeName = org.name;
      }
      const key = `${s.type}|${mobile.value}|${organizationId ?? ''}`;
      if (keys.has(key)) throw new AppError('sign.signerDuplicate');
      keys.add(key);
      const known = await repo.personByMobile(db, mobile.value);
      const placements = s.placements.map(({ fileIndex, ...p }) => {
        const file = sizesOf(fileIndex);
        checkPlacement(p, file);
        return { ...p, fileId: file.id };
      });
      drafts.push({
        id: newId('stk'),
        flow_id: flowId,
        position: 0,
        rank: s.order ?? i + 1,
        signer_type: s.type,
        name: s.name,
        mobile: mobile.value,
        organization_id: organizationId,
        organize_name: organizeName,
        person_id: known?.id ?? null,
        is_initiator: false,
        need_signature: s.type === 'organization' && s.needSignature,
        placements: JSON.stringify(placements),
      });
    }
    if (drafts.length === 0) throw new AppError('sign.signersRequired');

    // Order: sequential by rank (equal ranks sign together; the initiator first), parallel all at once.
    const ranks = [...new Set(drafts.map((d) => d.rank))].sort((a, b) => a - b);
    const tasks = drafts.map(({ rank, ...d }, seq) => {
      const position = input.order === 'parallel' ? 1 : ranks.indexOf(rank) + 1;
      return { ...d, position, seq, status: position === 1 ? 'pending' : 'waiting' };
    });
    const now = new Date();
    await db.transaction().execute(async (trx) => {
      await repo.insertFlow(
        trx,
        {
          id: flowId,
          name: input.name,
          scene: input.scene,
          status: 'pendingSign',
          sign_order: input.order,
          initiator_person_id: ctx.personId,
          initiator_org_id: ctx.organizationId,
          initiator_member_id: ctx.memberId,
          initiator_name: me.name,
          initiator_org_name: orgName,
          remark: input.remark ?? null,
          valid_until: contracts.flowValidUntil(input.validity, now),
        },
        fileRows,
        tasks,
      );
      await recordAct(trx, evidence, {
        flowId,
        action: 'create',
        actorPersonId: ctx.personId,
        actorName: me.name,
        organizationId: ctx.organizationId,
        organizeName: orgName,
        detail: {
          files: fileRows.map((f) => f.name),
          signers: tasks.length,
          validity: input.validity,
          order: input.order,
        },
        evidence: {
          hashes: Object.fromEntries(fileRows.map((f) => [`file${f.position}`, f.original_sha256])),
          data: { scene: input.scene, signers: tasks.length, order: input.order },
          at: now,
        },
      });
    });
    await invite(
      db,
      tasks.filter((t) => t.status === 'pending' && !t.is_initiator),
      me.name,
      input.name,
    );
    return detailOf(db, await participation(db, ctx, flowId));
  }

  async function invite(db: Db, tasks: { mobile: string }[], initiator: string, flowName: string) {
    for (const t of tasks)
      await msgs.notify(db, { mobile: t.mobile, scene: 'signInvite', params: { initiator, flow: flowName } });
  }

  // --- signing ---

  /** Which seals a task's signer may use, and how (direct, under an authorisation, after an approval). */
  async function sealAccess(
    db: Db,
    ctx: AuthContext,
    task: repo.TaskRow,
    seal: repo.SignableSealRow,
  ): Promise<{
    access: 'direct' | 'authorised' | 'approval' | 'approved' | 'refused';
    usesRemaining: number | null;
    approvalId?: string;
  }> {
    if (task.signer_type === 'person') return { access: 'direct', usesRemaining: null };
    if (await hasOrgPermission(db, ctx, 'seal.manage')) return { access: 'direct', usesRemaining: null };
    const approvals = (await repo.approvalsOfTask(db, task.id)).filter((a) => a.seal_code === seal.seal_code);
    const approved = approvals.find((a) => a.status === 'approved' && !a.used_at);
    if (approved) return { access: 'approved', usesRemaining: null, approvalId: approved.id };
    if (approvals.some((a) => a.status === 'refused')) return { access: 'refused', usesRemaining: null };
    const now = new Date();
    const grants = ctx.memberId ? await repo.memberGrants(db, seal.seal_code, ctx.memberId) : [];
    const usable = grants.filter(
      (g) =>
        g.valid_from <= now &&
        (g.valid_to === null || g.valid_to > now) &&
        (g.uses_remaining === null || g.uses_remaining > 0) &&
        g.app_range.length === 0,
    );
    if (usable.length > 0) {
      const remaining = usable.some((g) => g.uses_remaining === null)
        ? null
        : usable.reduce((n, g) => n + (g.uses_remaining ?? 0), 0);
      return { access: 'authorised', usesRemaining: remaining };
    }
    return { access: 'approval', usesRemaining: null };
  }

  function sealOut(
    ctx: AuthContext,
    s: repo.SignableSealRow,
    a: { access: z.infer<typeof contracts.signableSeal>['access']; usesRemaining: number | null },
  ) {
    return {
      sealCode: s.seal_code,
      name: s.name,
      kind: s.seal_kind,
      imageUrl: sealPictureUrl(files, ctx, s.image_file_key!, s.seal_code),
      widthMm: s.width_mm,
      heightMm: s.height_mm,
      access: a.access,
      usesRemaining: a.usesRemaining,
    };
  }

  function myOpenTask(p: Participation, taskId: string) {
    const t =
      p.myTask && p.myTask.id === taskId
        ? p.myTask
        : p.tasks.find((x) => x.id === taskId && isViewerTask(p.viewer, x));
    if (!t) throw new AppError('sign.taskNotFound');
    if (!isOpen(p.flow.status))
      throw new AppError(p.flow.status === 'terminated' ? 'sign.flowExpired' : 'sign.flowStatusInvalid');
    return t;
  }

  async function options(db: Db, ctx: AuthContext, flowId: string, taskId: string) {
    requireRealName(ctx);
    const p = await load(db, ctx, flowId);
    const task = myOpenTask(p, taskId);
    if (task.status === 'waiting') throw new AppError('sign.notYourTurn');
    const own = await repo.signableSeals(db, { personId: ctx.personId });
    const sealRows =
      task.signer_type === 'organization' && task.organization_id
        ? await repo.signableSeals(db, { organizationId: task.organization_id })
        : own;
    const seals = [];
    for (const s of sealRows.filter(repo.sealUsable))
      seals.push(sealOut(ctx, s, await sealAccess(db, ctx, task, s)));
    return {
      flowId,
      taskId,
      seals,
      signatures: own
        .filter(repo.sealUsable)
        .map((s) => sealOut(ctx, s, { access: 'direct', usesRemaining: null })),
      fixedPlacements: placementsOf(task.placements),
      needSignature: task.need_signature,
      mobile: maskPhone(p.viewer.mobile),
    };
  }

  interface Built {
    fileId: string;
    fileName: string;
    fromSha: string;
    out: Buffer;
    signatures: {
      kind: contracts.PlacementKind;
      field: string;
      serial: string;
      sealCode: string;
      certificateSha256: string;
      before: string;
      after: string;
    }[];
  }

  /** Builds the signed versions of the files (outside any transaction): one incremental signature per placement. */
  async function buildSignatures(
    db: Db,
    flowFiles: repo.FlowFileRow[],
    placements: Placement[],
    seals: { seal?: repo.SignableSealRow; signature?: repo.SignableSealRow },
    signerName: string,
  ): Promise<Built[]> {
    const images = new Map<string, Buffer>();
    const imageOf = async (s: repo.SignableSealRow) => {
      let png = images.get(s.seal_code);
      if (!png) {
        const stored = await files.readInternal(db, s.image_file_key!);
        if (!stored) throw new AppError('seal.notUsable');
        png = stored.bytes;
        images.set(s.seal_code, png);
      }
      return png;
    };
    const dir = await mkdtemp(join(tmpdir(), 'openseal-sign-'));
    try {
      const built: Built[] = [];
      for (const file of flowFiles) {
        const mine = placements.filter((p) => p.fileId === file.id);
        if (mine.length === 0) continue;
        const original = await files.getBlob(file.current_sha256);
        if (!original) throw new AppError('file.notFound');
        let current = join(dir, `${file.id}-0.pdf`);
        await writeFile(current, original);
        let before = file.current_sha256;
        const signatures: Built['signatures'] = [];
        for (const [i, p] of mine.entries()) {
          const seal = p.kind === 'signature' ? seals.signature! : seals.seal!;
          const png = new Uint8Array(await imageOf(seal));
          const next = join(dir, `${file.id}-${i + 1}.pdf`);
          const size = { width: seal.width_mm, height: seal.height_mm };
          const result = await deps.signing.signFile(db, {
            inPath: current,
            outPath: next,
            serial: seal.cert_serial!,
            level: 'B-T',
            reason: p.kind === 'signature' ? `${signerName} 签名` : `${seal.name}`,
            ...(p.kind === 'ridingSeam'
              ? { ridingSeam: { png, y: p.y, ...size, ...(p.pages ? { pages: p.pages } : {}) } }
              : { appearance: { png, page: p.page, x: p.x, y: p.y, ...size } }),
            skipEvidence: true,
          });
          const after = sha256(await readFile(next));
          signatures.push({
            kind: p.kind,
            field: result.fieldName,
            serial: result.serial,
            sealCode: seal.seal_code,
            certificateSha256: result.certificateSha256,
            before,
            after,
          });
          before = after;
          current = next;
        }
        built.push({
          fileId: file.id,
          fileName: file.name,
          fromSha: file.current_sha256,
          out: await readFile(current),
          signatures,
        });
      }
      return built;
    } finally {
      await rm(dir, { recursive: true, force: true }).catch(() => {});
    }
  }

  async function sign(
    db: Db,
    ctx: AuthContext,
    input: z.infer<typeof contracts.signTaskRequest>,
    attempt = 1,
  ): Promise<z.infer<typeof contracts.signTaskResponse>> {
    requireRealName(ctx);
    const p = await load(db, ctx, input.flowId);
    const task = myOpenTask(p, input.taskId);
    if (task.status === 'waiting') throw new AppError('sign.notYourTurn');
    if (task.status !== 'pending' && task.status !== 'approved') throw new AppError('sign.taskStatusInvalid');
    const flowFiles = await repo.filesOf(db, p.flow.id);
    const byId = new Map(flowFiles.map((f) => [f.id, f]));

    // Placements: the initiator's fixed ones, or the signer's own.
    const fixed = placementsOf(task.placements);
    const placements = fixed.length > 0 ? fixed : input.placements;
    for (const pl of placements) {
      const f = byId.get(pl.fileId);
      if (!f) throw new AppError('sign.placementInvalid', { params: { reason: 'unknown file' } });
      checkPlacement(pl, {
        format: f.format,
        pageSizes: f.page_sizes as { widthMm: number; heightMm: number }[] | null,
      });
    }
    const needsSeal = placements.some((pl) => pl.kind !== 'signature');
    const needsSignature = placements.some((pl) => pl.kind === 'signature');
    if (task.need_signature && !needsSignature) throw new AppError('sign.signatureNeeded');

    await will.check(db, {
      willBizId: input.willBizId,
      personId: ctx.personId,
      source: WILL_SIGN,
      bizId: task.id,
    });

    // The seal and how the signer may use it.
    let seal: repo.SignableSealRow | undefined;
    let mode: Awaited<ReturnType<typeof sealAccess>> | undefined;
    if (needsSeal) {
      if (!input.sealCode) throw new AppError('sign.sealRequired');
      seal = await repo.sealForSigning(db, input.sealCode);
      const ours =
        !!seal &&
        (task.signer_type === 'organization'
          ? seal.organization_id === task.organization_id
          : seal.organization_id === null && seal.person_id === ctx.personId);
      if (!seal || !ours) throw new AppError('sign.sealNotAllowed');
      if (!repo.sealUsable(seal)) throw new AppError('seal.notUsable');
      mode = await sealAccess(db, ctx, task, seal);
      if (task.status === 'approved' && mode.access !== 'approved' && mode.access !== 'direct')
        throw new AppError('sign.sealNotAllowed');
      if (mode.access === 'approval') throw new AppError('sign.approvalRequired');
      if (mode.access === 'refused') throw new AppError('approval.refusedBefore');
    }
    let signature: repo.SignableSealRow | undefined;
    if (needsSignature) {
      if (!input.signatureCode) throw new AppError('sign.signatureRequired');
      signature = await repo.sealForSigning(db, input.signatureCode);
      if (!signature || signature.organization_id !== null || signature.person_id !== ctx.personId)
        throw new AppError('sign.sealNotAllowed');
      if (!repo.sealUsable(signature)) throw new AppError('seal.notUsable');
    }

    const me = await personName(db, ctx.personId);
    const built = await buildSignatures(db, flowFiles, placements, { seal, signature }, me);
    const shas = new Map<string, string>();
    for (const b of built) shas.set(b.fileId, await files.putBlob(db, b.out, 'application/pdf'));

    const signedAt = new Date();
    const result = await db
      .transaction()
      .execute(async (trx) => {
        const flow = await repo.lockFlow(trx, p.flow.id);
        if (!flow || !isOpen(flow.status)) throw new AppError('sign.flowStatusInvalid');
        await will.consume(trx, {
          willBizId: input.willBizId,
          personId: ctx.personId,
          source: WILL_SIGN,
          bizId: task.id,
        });
        if (seal && mode?.access === 'authorised')
          await consumeAuthorization(trx, evidence, {
            sealCode: seal.seal_code,
            organizationId: task.organization_id!,
            grantee: { type: 'member', id: ctx.memberId! },
            reference: flow.id,
            at: signedAt,
          });
        if (seal && mode?.access === 'approved' && mode.approvalId)
          if (!(await repo.markApprovalUsed(trx, mode.approvalId, signedAt)))
            throw new AppError('approval.statusInvalid');
        for (const b of built)
          if (
            !(await repo.advanceFile(trx, b.fileId, b.fromSha, {
              sha256: shas.get(b.fileId)!,
              size: b.out.length,
              signatures: b.signatures.length,
            }))
          )
            throw new AppError('sign.fileChanged');
        const taskTo = transition(TASK_MACHINE, task.status as TaskStatus, 'sign', 'sign.taskStatusInvalid');
        if (
          !(await repo.moveTask(trx, task.id, task.status, taskTo, {
            person_id: ctx.personId,
            seal_code: seal?.seal_code ?? signature?.seal_code ?? null,
            seal_name: seal?.name ?? signature?.name ?? null,
            signed_at: signedAt,
          }))
        )
          throw new AppError('sign.taskStatusInvalid');
        const out: z.infer<typeof contracts.signTaskResponse>['signatures'] = [];
        for (const b of built)
          for (const s of b.signatures) {
            const index = await recordAct(trx, evidence, {
              flowId: flow.id,
              taskId: task.id,
              action: 'sign',
              actorPersonId: ctx.personId,
              actorName: me,
              organizationId: task.organization_id,
              organizeName: task.organize_name,
              sealCode: s.sealCode,
              sealName: s.sealCode === seal?.seal_code ? seal.name : (signature?.name ?? null),
              fileId: b.fileId,
              fileName: b.fileName,
              detail: {
                kind: s.kind,
                field: s.field,
                serial: s.serial,
                access: mode?.access ?? 'direct',
                fileAfter: s.after,
              },
              evidence: {
                hashes: { fileBefore: s.before, fileAfter: s.after, certificate: s.certificateSha256 },
                data: { field: s.field, serial: s.serial, placement: s.kind, willBizId: input.willBizId },
                at: signedAt,
              },
            });
            out.push({
              fileId: b.fileId,
              kind: s.kind,
              field: s.field,
              serial: s.serial,
              evidenceIndex: index!,
            });
          }
        // The flow moves on: completed when every signer signed, else the next signers' turn.
        const tasks = await repo.tasksOf(trx, flow.id);
        const activated: repo.TaskRow[] = [];
        let flowTo: FlowStatus = flow.status as FlowStatus;
        if (tasks.every((t) => t.status === 'signed')) {
          flowTo = transition(FLOW_MACHINE, flow.status as FlowStatus, 'complete', 'sign.flowStatusInvalid');
          await repo.moveFlow(trx, flow.id, flow.status, flowTo, { finished_at: signedAt });
        } else {
          if (flow.status !== 'inApproval') {
            flowTo = transition(FLOW_MACHINE, flow.status as FlowStatus, 'sign', 'sign.flowStatusInvalid');
            if (flowTo !== flow.status) await repo.moveFlow(trx, flow.id, flow.status, flowTo);
          }
          const current = tasks.filter((t) => t.status !== 'signed');
          const busy = current.some((t) => t.status !== 'waiting');
          if (!busy) {
            const nextPos = Math.min(...current.map((t) => t.position));
            for (const t of current.filter((x) => x.position === nextPos)) {
              await repo.moveTask(
                trx,
                t.id,
                t.status,
                transition(TASK_MACHINE, t.status as TaskStatus, 'activate', 'sign.taskStatusInvalid'),
              );
              activated.push(t);
            }
          }
        }
        return { out, flowTo, activated, flowName: flow.name, initiator: flow.initiator_name };
      })
      .catch(async (err: unknown) => {
        if (err instanceof AppError && err.key === 'sign.fileChanged' && attempt < SIGN_ATTEMPTS) return null;
        throw err;
      });
    // Another signer of a parallel flow changed a file meanwhile: build on the new version.
    if (!result) return sign(db, ctx, input, attempt + 1);
    await invite(db, result.activated, result.initiator, result.flowName);
    return { flowId: p.flow.id, taskId: task.id, flowStatus: result.flowTo, signatures: result.out };
  }

  // --- ending a flow ---

  async function refuse(db: Db, ctx: AuthContext, flowId: string, reason: string) {
    const p = await load(db, ctx, flowId);
    const task = p.myTask;
    if (!task) throw new AppError('sign.taskNotFound');
    if (!isOpen(p.flow.status)) throw new AppError('sign.flowStatusInvalid');
    const me = await personName(db, ctx.personId);
    await db.transaction().execute(async (trx) => {
      const flow = await repo.lockFlow(trx, flowId);
      if (!flow) throw new AppError('sign.flowNotFound');
      const flowTo = transition(FLOW_MACHINE, flow.status as FlowStatus, 'refuse', 'sign.flowStatusInvalid');
      const taskTo = transition(TASK_MACHINE, task.status as TaskStatus, 'refuse', 'sign.taskStatusInvalid');
      if (
        !(await repo.moveTask(trx, task.id, task.status, taskTo, {
          person_id: ctx.personId,
          refuse_reason: reason,
        }))
      )
        throw new AppError('sign.taskStatusInvalid');
      await repo.moveFlow(trx, flow.id, flow.status, flowTo, { reason, finished_at: new Date() });
      await endOpenWork(trx, flow.id, task.id, me);
      await recordAct(trx, evidence, {
        flowId,
        taskId: task.id,
        action: 'refuse',
        actorPersonId: ctx.personId,
        actorName: me,
        organizationId: task.organization_id,
        organizeName: task.organize_name,
        detail: { reason },
        evidence: { data: { reasonSha256: sha256(Buffer.from(reason)) } },
      });
    });
    return detailOf(db, await participation(db, ctx, flowId));
  }

  async function endByInitiator(
    db: Db,
    ctx: AuthContext,
    flowId: string,
    action: 'withdraw' | 'void',
    reason: string,
  ) {
    const p = await load(db, ctx, flowId);
    if (!p.initiator) throw new AppError('sign.notInitiator');
    const me = await personName(db, ctx.personId);
    await db.transaction().execute(async (trx) => {
      const flow = await repo.lockFlow(trx, flowId);
      if (!flow) throw new AppError('sign.flowNotFound');
      const to = transition(FLOW_MACHINE, flow.status as FlowStatus, action, 'sign.flowStatusInvalid');
      await repo.moveFlow(trx, flow.id, flow.status, to, {
        reason,
        ...(action === 'withdraw' ? { finished_at: new Date() } : {}),
      });
      if (action === 'withdraw') await endOpenWork(trx, flow.id, null, me);
      const flowFiles = await repo.filesOf(trx, flow.id);
      await recordAct(trx, evidence, {
        flowId,
        action,
        actorPersonId: ctx.personId,
        actorName: me,
        organizationId: ctx.organizationId,
        organizeName: flow.initiator_org_name,
        detail: { reason },
        evidence: {
          hashes: Object.fromEntries(flowFiles.map((f) => [`file${f.position}`, f.current_sha256])),
          data: { reasonSha256: sha256(Buffer.from(reason)) },
        },
      });
    });
    return detailOf(db, await participation(db, ctx, flowId));
  }

  // --- reminders ---

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
        params: { initiator: me, flow: p.flow.name },
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

  // --- lists, logs, files ---

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
    create,
    sign,
    options,
    refuse,
    withdraw: (db: Db, ctx: AuthContext, flowId: string, reason: string) =>
      endByInitiator(db, ctx, flowId, 'withdraw', reason),
    void: (db: Db, ctx: AuthContext, flowId: string, reason: string) =>
      endByInitiator(db, ctx, flowId, 'void', reason),
    urge,
    oneKeyUrge,
    expireIfDue,
    detailOf,
    load,

    async detail(db: Db, ctx: AuthContext, flowId: string) {
      return detailOf(db, await load(db, ctx, flowId));
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

    /** Ends the flows whose validity ran out; the sweeper calls it on a cadence. */
    async sweepExpired(db: Db, limit = 100) {
      let n = 0;
      for (const { id } of await repo.expiredOpenFlows(db, new Date(), limit))
        if (await expireIfDue(db, id)) n++;
      return n;
    },
  };
}

export type FlowsService = ReturnType<typeof createFlowsService>;

// --- approvals in views (shared with the approvals service) ---

export function approvalOut(
  a: repo.ApprovalView,
  actions: z.infer<typeof contracts.approvalSummary>['actions'],
  files: Pick<FilesService, 'urlThrough'>,
  ctx: AuthContext,
): contracts.ApprovalSummary {
  return {
    approvalId: a.id,
    flowId: a.flow_id,
    flowName: a.flow_name,
    taskId: a.task_id,
    status: a.status as contracts.ApprovalStatus,
    sealCode: a.seal_code,
    sealName: a.seal_name,
    sealImageUrl: a.image_file_key ? flowPictureUrl(files, ctx, a.image_file_key, a.flow_id) : null,
    applicantName: a.applicant_name,
    organizeName: a.org_name,
    reason: a.reason,
    decisionReason: a.decision_reason,
    deciderName: a.decider_name,
    placements: placementsOf(a.placements),
    createdAt: a.created_at.toISOString(),
    decidedAt: iso(a.decided_at),
    actions,
  };
}
