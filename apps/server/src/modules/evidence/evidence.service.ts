import { AppError } from '@openseal/core';
import type { Db } from '@openseal/db';
import {
  buildProofBundle,
  decodeEntry,
  proveConsistency,
  proveInclusion,
  publishTreeHead,
  spkiToPem,
  toBase64,
  toHex,
  type EvidenceEntry,
  type EvidenceSigner,
  type ProofBundle,
  type SignedTreeHead,
} from '@openseal/evidence';
import { appendEvidence, createDbLogStore, findEvidenceBySubject } from './evidence.repository';

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

  return {
    /** Appends inside the caller's transaction; the leaf exists only if that transaction commits. */
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

    /** A proof bundle against the latest signed head; a leaf newer than that head gets a new head first. */
    async bundleFor(index: number): Promise<ProofBundle> {
      let sth = await currentTreeHead();
      if (index >= sth.treeSize) sth = await signTreeHeadNow();
      checkIndex(index, sth.treeSize);
      return buildProofBundle(store(), index, sth, signer.publicKeySpki);
    },

    async entry(index: number) {
      const leaf = await store().getLeaf(index);
      if (!leaf) throw new AppError('request.notFound', { details: { index } });
      return {
        index: leaf.index,
        leafHash: toHex(leaf.leafHash),
        entry: decodeEntry(leaf.entryBytes),
        createdAt: leaf.createdAt ?? null,
      };
    },

    /** Bundles for every leaf about one subject, e.g. a signing flow's chain record. */
    async bundlesForSubject(subject: string): Promise<ProofBundle[]> {
      const leaves = await findEvidenceBySubject(db, subject);
      if (leaves.length === 0) return [];
      let sth = await currentTreeHead();
      if (leaves.at(-1)!.index >= sth.treeSize) sth = await signTreeHeadNow();
      return Promise.all(leaves.map((l) => buildProofBundle(store(), l.index, sth, signer.publicKeySpki)));
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
