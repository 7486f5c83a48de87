import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import {
  buildProofBundle,
  decodeLeaf,
  openEntry,
  proveConsistency,
  proveInclusion,
  publishTreeHead,
  spkiToPem,
  toBase64,
  toHex,
  type BundleAudience,
  type CommittedLeaf,
  type EvidenceEntry,
  type EvidenceSigner,
  type ProofBundleV2,
  type SignedTreeHead,
} from '@openseal/evidence';
import {
  appendEvidence,
  createDbLogStore,
  findEvidenceByFileHash,
  findEvidenceBySubject,
} from './evidence.repository';

/** What a party of an act sees of a leaf: every field opened (or a clear leaf shown). */
const PARTY: BundleAudience = { open: 'all', showClearLeaf: true };

/** The entry a bundle shows in full; null when it does not (a withheld leaf, or openings erased). */
function entryOf(bundle: ProofBundleV2): EvidenceEntry | null {
  const leaf = bundle.leaf;
  if (!leaf) return null;
  if (leaf.v === 1) {
    const { v: _v, ...entry } = leaf;
    return entry;
  }
  try {
    return openEntry(leaf, bundle.openings);
  } catch {
    return null;
  }
}

export interface EvidenceServiceDeps {
  db: Db;
  /** The log key (ECDSA P-256); the platform passes its evidence key, tests a node:crypto key. */
  signer: EvidenceSigner;
  /** How often `start()` signs a new tree head when the log grew. */
  intervalMs: number;
  log: { warn(obj: object, msg: string): void };
}

export function createEvidenceService(deps: EvidenceServiceDeps) {
  const { db, signer } = deps;
  const store = () => createDbLogStore(db);
  let timer: NodeJS.Timeout | null = null;
  let signing: Promise<SignedTreeHead> | null = null;

  /** One signing at a time per process; another instance signing the same size loses quietly (unique tree_size). */
  function signTreeHeadNow(): Promise<SignedTreeHead> {
    signing ??= publishTreeHead(store(), signer).finally(() => {
      signing = null;
    });
    return signing;
  }

  async function latestTreeHead(): Promise<SignedTreeHead | null> {
    return store().latestTreeHead();
  }

  /** The latest head, signing the first one when the log has none (an empty log has a signed empty tree). */
  async function currentTreeHead(): Promise<SignedTreeHead> {
    return (await latestTreeHead()) ?? signTreeHeadNow();
  }

  function checkIndex(index: number, treeSize: number): void {
    if (index >= treeSize) throw new AppError('request.notFound', { details: { index, treeSize } });
  }

  /** The signed head to prove `lastIndex` against: the latest, or a new one when the leaf is newer. */
  async function headCovering(lastIndex: number): Promise<SignedTreeHead> {
    const sth = await currentTreeHead();
    return lastIndex >= sth.treeSize ? signTreeHeadNow() : sth;
  }

  return {
    /**
     * Appends inside the caller's transaction; the leaf exists only if that transaction commits. The
     * entry is given in clear: the leaf commits to it, and its openings are kept privately beside it.
     */
    append: (trx: Db, entry: EvidenceEntry) =>
      appendEvidence(trx, entry).then((r) => ({ index: r.index, leafHash: toHex(r.leafHash) })),

    latestTreeHead,
    currentTreeHead,
    signTreeHeadNow,

    /** Inclusion path of leaf `index` in the tree of `treeSize` (default: the latest signed head). */
    async proofFor(index: number, treeSize?: number) {
      const size = treeSize ?? (await currentTreeHead()).treeSize;
      const current = await store().size();
      if (size > current) throw new AppError('request.notFound', { details: { treeSize: size, current } });
      checkIndex(index, size);
      const path = await proveInclusion(store(), index, size);
      const leaf = await store().getLeaf(index);
      return {
        leafIndex: index,
        treeSize: size,
        leafHash: toHex(leaf!.leafHash),
        inclusionPath: path.map(toHex),
      };
    },

    async consistency(first: number, second: number) {
      if (first > second) throw new AppError('request.invalid', { details: { reason: 'first > second' } });
      const current = await store().size();
      if (second > current)
        throw new AppError('request.notFound', { details: { treeSize: second, current } });
      const proof = await proveConsistency(store(), first, second);
      return { first, second, consistency: proof.map(toHex) };
    },

    /**
     * A proof bundle against the latest signed head; a leaf newer than that head gets a new head first.
     * By default it shows what the public log shows; `audience` adds openings for a caller who may see them.
     */
    async bundleFor(index: number, audience: BundleAudience = {}): Promise<ProofBundleV2> {
      const sth = await headCovering(index);
      checkIndex(index, sth.treeSize);
      return buildProofBundle(store(), index, sth, signer.publicKeySpki, audience);
    },

    /** The public view of one leaf: the committed leaf, or only the hash of a leaf written in clear. */
    async entry(index: number): Promise<{ index: number; leafHash: string; leaf: CommittedLeaf | null }> {
      const leaf = await store().getLeaf(index);
      if (!leaf) throw new AppError('request.notFound', { details: { index } });
      const body = decodeLeaf(leaf.entryBytes);
      return { index: leaf.index, leafHash: toHex(leaf.leafHash), leaf: body.v === 2 ? body : null };
    },

    /**
     * The operator's own read of a leaf, opened with the stored openings. Never serve it as it is: it is
     * for callers that have checked who may see which fields (notary records of a flow's parties, …).
     */
    async openedEntry(index: number): Promise<{ index: number; leafHash: string; entry: EvidenceEntry }> {
      const leaf = await store().getLeaf(index);
      if (!leaf) throw new AppError('request.notFound', { details: { index } });
      const body = decodeLeaf(leaf.entryBytes);
      let entry: EvidenceEntry;
      if (body.v === 1) {
        const { v: _v, ...clear } = body;
        entry = clear;
      } else {
        const openings = await store().getOpenings(index);
        // Openings erased (or never kept): nothing of this leaf can be read any more.
        if (!openings) throw new AppError('request.notFound', { details: { index } });
        entry = openEntry(body, openings);
      }
      return { index: leaf.index, leafHash: toHex(leaf.leafHash), entry };
    },

    /**
     * Bundles with every opening, and the entries they open to, for every leaf about one subject (a flow's
     * chain record, a seal's records). Only for callers that checked the reader is a party of the subject.
     */
    async partyBundlesForSubject(
      subject: string,
    ): Promise<Array<{ bundle: ProofBundleV2; entry: EvidenceEntry }>> {
      const leaves = await findEvidenceBySubject(db, subject);
      if (leaves.length === 0) return [];
      const sth = await headCovering(leaves.at(-1)!.index);
      const bundles = await Promise.all(
        leaves.map((l) => buildProofBundle(store(), l.index, sth, signer.publicKeySpki, PARTY)),
      );
      return bundles.flatMap((bundle) => {
        const entry = entryOf(bundle);
        return entry ? [{ bundle, entry }] : [];
      });
    },

    /** Leaves that name a file's SHA-256 in one of `fields` (the private index, not the public log). */
    findByFileHash: (sha256: string, fields: readonly string[], limit = 20) =>
      findEvidenceByFileHash(db, sha256, fields, limit),

    /** Bundles of several leaves proven against one signed head, so that one root covers them all. */
    async bundlesUnderOneHead(
      items: ReadonlyArray<{ index: number; audience?: BundleAudience }>,
    ): Promise<{ treeHead: SignedTreeHead; bundles: ProofBundleV2[] }> {
      const treeHead = await headCovering(Math.max(-1, ...items.map((i) => i.index)));
      for (const i of items) checkIndex(i.index, treeHead.treeSize);
      const bundles = await Promise.all(
        items.map((i) => buildProofBundle(store(), i.index, treeHead, signer.publicKeySpki, i.audience)),
      );
      return { treeHead, bundles };
    },

    publicKey() {
      return {
        keyId: signer.keyId,
        algorithm: 'ECDSA P-256 SHA-256' as const,
        spki: toBase64(signer.publicKeySpki),
        pem: spkiToPem(signer.publicKeySpki),
      };
    },

    /** Signs a new tree head every intervalMs when the log grew. The timer never keeps the process alive. */
    start() {
      if (timer) return;
      timer = setInterval(() => {
        void (async () => {
          const [latest, size] = await Promise.all([latestTreeHead(), store().size()]);
          if (!latest || size > latest.treeSize) await signTreeHeadNow();
        })().catch((err: unknown) => deps.log.warn({ err }, 'could not sign an evidence tree head'));
      }, deps.intervalMs);
      timer.unref();
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await signing?.catch(() => undefined);
    },
  };
}

export type EvidenceService = ReturnType<typeof createEvidenceService>;
