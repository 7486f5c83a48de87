import { toBase64, toHex } from './bytes';
import { decodeEntry, encodeEntry, type EvidenceEntry } from './entry';
import type { LogStore } from './log-store';
import {
  closedNodes,
  consistencyRanges,
  EMPTY_ROOT,
  foldRange,
  hashChildren,
  hashLeaf,
  inclusionRanges,
  rangeNodes,
  type LeafRange,
  type NodeRef,
} from './merkle';
import type { ProofBundle } from './bundle';
import { signTreeHead, type EvidenceSigner, type SignedTreeHead } from './tree-head';

export interface AppendResult {
  index: number;
  leafHash: Uint8Array;
}

/** Appends through one store object run one after another, so a store needs no lock of its own in process. */
const queues = new WeakMap<LogStore, Promise<unknown>>();

function serialise<T>(store: LogStore, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(store) ?? Promise.resolve();
  const run = previous.then(task, task);
  queues.set(
    store,
    run.catch(() => undefined),
  );
  return run;
}

/**
 * Appends one entry. Besides the leaf, it stores the hash of every complete subtree the leaf closes
 * (index + 1 divisible by 2, 4, 8, …), reading only their left siblings: O(log n) rows per append, so that
 * roots and proofs later read O(log n) rows instead of every leaf.
 */
export async function append(store: LogStore, entry: EvidenceEntry): Promise<AppendResult> {
  const entryBytes = encodeEntry(entry);
  const leafHash = hashLeaf(entryBytes);
  return serialise(store, async () => {
    const index = await store.reserveIndex();
    const closes = closedNodes(index);
    const siblings = closes.length ? await store.getNodes(closes.map((c) => c.leftSibling)) : [];
    let h = leafHash;
    const nodes = closes.map((c, i) => {
      h = hashChildren(siblings[i]!, h);
      return { ...c.node, hash: h };
    });
    await store.putLeaf({ index, leafHash, entryBytes, entry });
    if (nodes.length) await store.putNodes(nodes);
    return { index, leafHash };
  });
}

/** Hashes of several ranges with one read of the store. */
async function rangeHashes(store: LogStore, ranges: readonly LeafRange[]): Promise<Uint8Array[]> {
  const perRange = ranges.map((r) => rangeNodes(r.start, r.end));
  const unique = new Map<string, NodeRef>();
  for (const refs of perRange) for (const r of refs) unique.set(`${r.level}:${r.index}`, r);
  const refs = [...unique.values()];
  const hashes = refs.length ? await store.getNodes(refs) : [];
  const byKey = new Map(refs.map((r, i) => [`${r.level}:${r.index}`, hashes[i]!]));
  return perRange.map((list) => foldRange(list.map((r) => byKey.get(`${r.level}:${r.index}`)!)));
}

async function assertSize(store: LogStore, size: number): Promise<void> {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError('tree size must be an integer ≥ 0');
  const current = await store.size();
  if (size > current) throw new RangeError(`the log has ${current} leaves, not ${size}`);
}

/** MTH of the first `size` leaves. */
export async function root(store: LogStore, size: number): Promise<Uint8Array> {
  await assertSize(store, size);
  if (size === 0) return EMPTY_ROOT;
  const [h] = await rangeHashes(store, [{ start: 0, end: size }]);
  return h!;
}

export async function proveInclusion(store: LogStore, index: number, size: number): Promise<Uint8Array[]> {
  await assertSize(store, size);
  return rangeHashes(store, inclusionRanges(index, size));
}

export async function proveConsistency(
  store: LogStore,
  first: number,
  second: number,
): Promise<Uint8Array[]> {
  await assertSize(store, second);
  return rangeHashes(store, consistencyRanges(first, second));
}

/**
 * Signs and stores a tree head for the log's current size. When that size is signed already (another
 * process got there first, or nothing was appended) the stored head is returned, so there is one per size.
 */
export async function publishTreeHead(
  store: LogStore,
  signer: EvidenceSigner,
  now: number = Date.now(),
): Promise<SignedTreeHead> {
  const treeSize = await store.size();
  const existing = await store.treeHead(treeSize);
  if (existing) return existing;
  const latest = await store.latestTreeHead();
  // Each head is later than the one before, as RFC 6962 3.5 asks, even when the clock steps back.
  const timestamp = latest ? Math.max(now, latest.timestamp + 1) : now;
  const rootHash = toHex(await root(store, treeSize));
  const sth = await signTreeHead({ treeSize, rootHash, timestamp }, signer);
  if (await store.putTreeHead(sth)) return sth;
  const winner = await store.treeHead(treeSize);
  if (!winner) throw new Error(`tree head ${treeSize} vanished`);
  return winner;
}

/** A self-contained proof that leaf `index` is in the tree `sth` signs; see `checkProofBundle`. */
export async function buildProofBundle(
  store: LogStore,
  index: number,
  sth: SignedTreeHead,
  publicKeySpki: Uint8Array,
): Promise<ProofBundle> {
  if (!Number.isSafeInteger(index) || index < 0 || index >= sth.treeSize)
    throw new RangeError(`leaf ${index} is not in the tree of size ${sth.treeSize}`);
  const leaf = await store.getLeaf(index);
  if (!leaf) throw new RangeError(`no leaf ${index}`);
  const path = await proveInclusion(store, index, sth.treeSize);
  return {
    version: 1,
    entry: decodeEntry(leaf.entryBytes),
    leafIndex: index,
    leafHash: toHex(leaf.leafHash),
    treeHead: {
      treeSize: sth.treeSize,
      rootHash: sth.rootHash,
      timestamp: sth.timestamp,
      keyId: sth.keyId,
      signature: sth.signature,
    },
    inclusionPath: path.map(toHex),
    logPublicKey: toBase64(publicKeySpki),
  };
}
