import { toBase64, toHex } from './bytes';
import {
  commitEntry,
  decodeLeaf,
  encodeLeaf,
  pickOpenings,
  type CommittedLeaf,
  type Openings,
} from './commit';
import { encodeEntry, type EvidenceEntry } from './entry';
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
import type { ProofBundleV2 } from './bundle';
import { signTreeHead, type EvidenceSigner, type SignedTreeHead } from './tree-head';

export interface AppendResult {
  index: number;
  leafHash: Uint8Array;
}

export interface CommittedAppendResult extends AppendResult {
  leaf: CommittedLeaf;
  openings: Openings;
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
 * Appends one entry as a committed leaf (version 2): the leaf the world sees holds the kind and a salted
 * commitment per field; the store keeps the openings privately beside it (see `commitEntry`).
 */
export async function append(store: LogStore, entry: EvidenceEntry): Promise<CommittedAppendResult> {
  const { leaf, openings } = commitEntry(entry);
  const r = await appendBytes(store, encodeLeaf(leaf), entry, openings);
  return { ...r, leaf, openings };
}

/**
 * Appends an entry in clear, as leaves were written before commitments (version 1). Only for tests and
 * tools that model such a log: a clear leaf publishes every identifier it holds.
 */
export async function appendClearEntry(store: LogStore, entry: EvidenceEntry): Promise<AppendResult> {
  return appendBytes(store, encodeEntry(entry), entry);
}

/**
 * Besides the leaf, stores the hash of every complete subtree the leaf closes (index + 1 divisible by 2,
 * 4, 8, …): O(log n) rows per append, so that roots and proofs later read O(log n) rows instead of every
 * leaf. The left siblings those subtrees need are on the tree's right edge, which the store gives with the
 * index it reserves and keeps with the leaf: an append reads nothing else (a store without the edge, a
 * log written before stores kept it, has its O(log n) edge nodes read once).
 */
function appendBytes(
  store: LogStore,
  entryBytes: Uint8Array,
  entry: EvidenceEntry,
  openings?: Openings,
): Promise<AppendResult> {
  const leafHash = hashLeaf(entryBytes);
  return serialise(store, async () => {
    const head = await store.reserve();
    const index = head.index;
    const edge = index === 0 ? [] : rangeNodes(0, index);
    const frontier =
      head.frontier && head.frontier.length === edge.length ? head.frontier : await store.getNodes(edge);
    const closes = closedNodes(index);
    // The left sibling of the subtree at level l + 1 is the edge's level-l subtree, the l-th from its end.
    let h = leafHash;
    const nodes = closes.map((c, i) => {
      h = hashChildren(frontier[frontier.length - 1 - i]!, h);
      return { ...c.node, hash: h };
    });
    await store.putLeaf({
      index,
      leafHash,
      entryBytes,
      entry,
      ...(openings ? { openings } : {}),
      nodes,
      frontier: [...frontier.slice(0, frontier.length - closes.length), h],
    });
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

/** Who a bundle is for: what of the leaf it may show. */
export interface BundleAudience {
  /** Openings to include: every field ('all'), the named fields, or none (the default, for anyone). */
  open?: 'all' | readonly string[];
  /** Show a version-1 leaf's clear body (only to parties of the act); otherwise its hash stands alone. */
  showClearLeaf?: boolean;
}

/**
 * A self-contained proof that leaf `index` is in the tree `sth` signs; see `checkProofBundle`. By default
 * it shows what the public log shows (the committed leaf, no openings); `audience` widens that for parties.
 */
export async function buildProofBundle(
  store: LogStore,
  index: number,
  sth: SignedTreeHead,
  publicKeySpki: Uint8Array,
  audience: BundleAudience = {},
): Promise<ProofBundleV2> {
  if (!Number.isSafeInteger(index) || index < 0 || index >= sth.treeSize)
    throw new RangeError(`leaf ${index} is not in the tree of size ${sth.treeSize}`);
  const stored = await store.getLeaf(index);
  if (!stored) throw new RangeError(`no leaf ${index}`);
  const path = await proveInclusion(store, index, sth.treeSize);
  const body = decodeLeaf(stored.entryBytes);
  let leaf: ProofBundleV2['leaf'] = null;
  let openings: Openings = {};
  if (body.v === 2) {
    leaf = body;
    const all = audience.open ? await store.getOpenings(index) : null;
    if (all) openings = audience.open === 'all' ? all : pickOpenings(all, audience.open!);
  } else if (audience.showClearLeaf) {
    leaf = body;
  }
  return {
    version: 2,
    leafIndex: index,
    leafHash: toHex(stored.leafHash),
    leaf,
    openings,
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
