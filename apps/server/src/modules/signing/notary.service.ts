/**
 * Evidence (notary) records of spec section 3 — seal, sign flow, certificate, file hash, on-chain hash
 * and time — read from the evidence log: a flow's chain record with a proof bundle per leaf (checkable
 * offline with `openseal evidence verify`), the records of a business number in a scene, and one record.
 * The public log holds only commitments; these records are read from the openings the platform keeps,
 * after checking that the caller is a party (a flow's participants, a seal's owner), and the bundles they
 * carry hold every opening, so a party can show a third party what the leaf commits to.
 */
import type { contracts } from '@openseal/core';
import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import type { EvidenceEntry } from '@openseal/evidence';
import type { z } from 'zod';
import { requireRealName } from '../../lib/permissions';
import type { EvidenceService } from '../evidence/evidence.service';
import type { AuthContext } from '../session/session.service';
import * as repo from './flows.repository';
import type { FlowsService } from './flows.service';

type NotaryRecord = z.infer<typeof contracts.notaryRecord>;

const SCENE_OF_PREFIX: Record<string, string> = { flow: 'signFlow', seal: 'seal', file: 'file' };

export function recordOf(index: number, leafHash: string, e: EvidenceEntry): NotaryRecord {
  const [prefix = '', ...rest] = e.subject.split(':');
  const data: Record<string, unknown> = e.data ?? {};
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    notaryLogId: String(index),
    scene: SCENE_OF_PREFIX[prefix] ?? prefix,
    kind: e.kind,
    bizNo: rest.join(':'),
    flowId: str(data.flowId) ?? (prefix === 'flow' ? rest.join(':') : null),
    sealCode: str(data.sealCode) ?? (prefix === 'seal' ? rest.join(':') : null),
    certificate: e.hashes.certificate ?? null,
    certificateSerial: str(data.serial),
    fileHashBefore: e.hashes.fileBefore ?? null,
    fileHash: e.hashes.fileAfter ?? e.hashes.file ?? null,
    chainHash: leafHash,
    chainTime: e.at,
    actor: e.actor,
    actorName: null,
  };
}

/** Puts names to the actors (person ids) for callers who may see them: the flow's participants. */
async function withNames<T extends NotaryRecord>(db: Db, records: T[]): Promise<T[]> {
  const ids = [...new Set(records.map((r) => r.actor).filter((a) => a.startsWith('psn_')))];
  const names = new Map<string, string>();
  for (const id of ids) {
    const p = await repo.personById(db, id);
    if (p) names.set(id, p.name);
  }
  return records.map((r) => ({
    ...r,
    actorName: names.get(r.actor) ?? (r.actor === 'system' ? 'system' : null),
  }));
}

export function createNotaryService(deps: { evidence: EvidenceService; flows: FlowsService }) {
  const { evidence } = deps;

  /** Records of one subject with their party bundles; the caller has checked access to the subject. */
  async function partyRecords(subject: string) {
    const list = await evidence.partyBundlesForSubject(subject);
    return list.map(({ bundle, entry }) => ({
      record: recordOf(bundle.leafIndex, bundle.leafHash, entry),
      bundle,
    }));
  }

  /** Verifications of a file name who verified: only the caller's own are shown as they are. */
  const ownActorOnly = (ctx: AuthContext, r: NotaryRecord): NotaryRecord =>
    r.actor === ctx.personId ? r : { ...r, actor: 'withheld' };

  /** May the caller read the records of this subject? Flows: their participants; seals: their owners. */
  async function checkSubject(db: Db, ctx: AuthContext, subject: string) {
    const [prefix, ...rest] = subject.split(':');
    const id = rest.join(':');
    if (prefix === 'flow') return void (await deps.flows.load(db, ctx, id));
    if (prefix === 'seal') {
      const seal = await repo.sealForSigning(db, id);
      const owns =
        !!seal &&
        (seal.organization_id
          ? seal.organization_id === ctx.organizationId
          : seal.person_id === ctx.personId && !ctx.organizationId);
      if (!owns) throw new AppError('seal.notFound');
      return;
    }
    // Verification records name only a file hash; whoever holds the hash may read them.
    if (prefix === 'file') return;
    throw new AppError('request.notFound');
  }

  return {
    async chainRecord(db: Db, ctx: AuthContext, flowId: string) {
      await deps.flows.load(db, ctx, flowId);
      const records = await partyRecords(`flow:${flowId}`);
      const head = records[0]?.bundle.treeHead ?? (await evidence.currentTreeHead());
      return {
        flowId,
        treeHead: {
          treeSize: head.treeSize,
          rootHash: head.rootHash,
          timestamp: head.timestamp,
          signature: head.signature,
          keyId: head.keyId,
        },
        records: await withNames(
          db,
          records.map((r) => ({ ...r.record, bundle: r.bundle as unknown as Record<string, unknown> })),
        ),
      };
    },

    async byBiz(db: Db, ctx: AuthContext, bizNo: string, scene: z.infer<typeof contracts.notaryScene>) {
      requireRealName(ctx);
      const subject = `${{ signFlow: 'flow', seal: 'seal', file: 'file' }[scene]}:${bizNo}`;
      await checkSubject(db, ctx, subject);
      if (scene === 'seal') {
        // A seal's acts live under its own subject (made, state changes) and under the flows it signed.
        const own = await partyRecords(subject);
        const uses = await repo.logsOfSeal(db, bizNo);
        const list = own.map((r) => r.record);
        for (const u of uses) {
          const e = await evidence.openedEntry(Number(u.evidence_index));
          list.push(recordOf(e.index, e.leafHash, e.entry));
        }
        list.sort((a, b) => Number(a.notaryLogId) - Number(b.notaryLogId));
        return { list };
      }
      const list = (await partyRecords(subject)).map((r) => r.record);
      if (scene === 'file') return { list: list.map((r) => ownActorOnly(ctx, r)) };
      return { list: await withNames(db, list) };
    },

    /** The signatures in a signed file version: every signature act of its file up to that version. */
    async signInfo(db: Db, ctx: AuthContext, fileHash: string) {
      requireRealName(ctx);
      const act = await repo.signActOfVersion(db, fileHash);
      if (!act || !act.file_id) throw new AppError('file.notFound');
      await deps.flows.load(db, ctx, act.flow_id);
      const acts = await repo.signActsOfFile(db, act.flow_id, act.file_id);
      const list: NotaryRecord[] = [];
      for (const a of acts) {
        if (a.evidence_index === null) continue;
        const e = await evidence.openedEntry(Number(a.evidence_index));
        list.push(recordOf(e.index, e.leafHash, e.entry));
        if (a.id === act.id) break;
      }
      return { list };
    },

    async one(db: Db, ctx: AuthContext, notaryLogId: string) {
      requireRealName(ctx);
      const index = Number(notaryLogId);
      if (!Number.isSafeInteger(index) || index < 0) throw new AppError('request.notFound');
      const e = await evidence.openedEntry(index);
      await checkSubject(db, ctx, e.entry.subject);
      // One record by index could be walked through every index: a verification is shown to whoever made it.
      if (e.entry.subject.startsWith('file:') && e.entry.actor !== ctx.personId)
        throw new AppError('request.notFound');
      const bundle = await evidence.bundleFor(index, { open: 'all', showClearLeaf: true });
      return {
        ...recordOf(index, e.leafHash, e.entry),
        bundle: bundle as unknown as Record<string, unknown>,
      };
    },
  };
}

export type NotaryService = ReturnType<typeof createNotaryService>;
