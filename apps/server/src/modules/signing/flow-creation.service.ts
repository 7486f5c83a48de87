/**
 * Creating a flow (quick sign or multi-party): up to ten files of the caller's own, checked by content,
 * no two alike and at least one contract; the signers as tasks in sequential or parallel order with
 * their fixed placements; the validity; then the invitation of those whose turn it is. An internal flow
 * is the same flow inside the caller's organisation: each signer an active member of it, signing for it.
 */
import { AppError, checkMobile, contracts, maskPhone } from '@openseal/core';
import type { Db } from '@openseal/db';
import { OfdError } from '@openseal/ofd';
import { newId } from '../../lib/ids';
import { requireOrgPermission, requireRealName, type OrgContext } from '../../lib/permissions';
import type { AuthContext } from '../session/session.service';
import type { WorkPool } from '../../workers/work-pool';
import { participation, recordAct } from './flow-context';
import { checkPlacement, type FlowCore, type FlowsDeps } from './flow-core';
import { detailOf } from './flow-views';
import * as repo from './flows.repository';

/** Pages of an OFD whose structure the upload check has read already (in the worker pool). */
async function readOfdPageCount(work: Pick<WorkPool, 'readOfd'>, bytes: Buffer): Promise<number> {
  try {
    return (await work.readOfd(bytes)).pages;
  } catch (err) {
    if (err instanceof OfdError)
      throw new AppError('file.structureInvalid', { details: { kind: 'ofd', reason: err.message } });
    throw err;
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
  password_sealed: Uint8Array | null;
}

export function createFlowCreation(deps: FlowsDeps, core: FlowCore) {
  const { evidence, files } = deps;
  const { invite } = core;

  /**
   * `internal`: every organisation signer is of the caller's organisation (resolved by createInternal),
   * and the flow is kept as an internal one.
   */
  async function create(
    db: Db,
    ctx: AuthContext,
    input: contracts.CreateFlowRequest,
    internal?: { org: OrgContext; organizeName: string },
  ) {
    requireRealName(ctx);
    if (ctx.organizationId) await requireOrgPermission(db, ctx, 'sign.launch');
    const scene = internal ? ('internal' as const) : input.scene;
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
      // Both read in the worker pool (pdf-pages.ts holds the PDF reading).
      // A password-protected PDF opens with the password its upload was given (kept sealed).
      const password = format === 'pdf' ? files.passwordOf(stored.file) : null;
      const pageSizes =
        format === 'pdf' ? (await deps.work.readPdfPages(stored.bytes, password ?? undefined)).pages : null;
      const ofdPages = format === 'ofd' ? await readOfdPageCount(deps.work, stored.bytes) : null;
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
        password_sealed: password ? stored.file.password_sealed : null,
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
      if (s.type === 'organization' && internal) {
        organizationId = internal.org.organizationId;
        organizeName = internal.organizeName;
      } else if (s.type === 'organization') {
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
          scene,
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
          data: { scene, signers: tasks.length, order: input.order },
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
    return detailOf(db, files, await participation(db, ctx, flowId));
  }

  /**
   * An internal flow: started in an organisation space (sign.launch), every signer an active member of
   * that organisation, named by member id or mobile; anyone else is refused before anything is stored.
   * The signers sign for the organisation, so its seals, authorisations and approvals apply as in any
   * flow; the rest is the ordinary creation.
   */
  async function createInternal(db: Db, ctx: AuthContext, input: contracts.InternalFlowRequest) {
    requireRealName(ctx);
    const org = await requireOrgPermission(db, ctx, 'sign.launch');
    const live = await deps.organizes.findLive(db, org.organizationId);
    if (!live) throw new AppError('org.notFound');
    const signers: contracts.SignerInput[] = [];
    for (const s of input.signers) {
      let by: { memberId: string } | { mobile: string };
      if (s.memberId !== undefined) by = { memberId: s.memberId };
      else {
        const mobile = checkMobile(s.mobile ?? '');
        if (!mobile.ok) throw new AppError(mobile.key);
        by = { mobile: mobile.value };
      }
      const m = await deps.organizes.activeMember(db, org.organizationId, by);
      if (!m)
        throw new AppError('sign.signerNotMember', {
          params: { who: 'memberId' in by ? by.memberId : maskPhone(by.mobile) },
        });
      signers.push({
        type: 'organization',
        name: m.name,
        mobile: m.mobile,
        organizeName: live.name,
        ...(s.order !== undefined ? { order: s.order } : {}),
        placements: s.placements,
        needSignature: s.needSignature,
      });
    }
    return create(db, ctx, { ...input, scene: 'flow', signers }, { org, organizeName: live.name });
  }

  return { create, createInternal };
}
