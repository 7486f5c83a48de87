import type { Openings } from './commit';
import type { EvidenceEntry } from './entry';
import type { NodeRef } from './merkle';
import type { SignedTreeHead } from './tree-head';

export interface StoredLeaf {
  index: number;
  leafHash: Uint8Array;
  /** The exact leaf bytes that were hashed (canonical JSON, see `encodeLeaf`): public. */
  entryBytes: Uint8Array;
  /** The entry's kind and subject in clear, for the operator's own lookups: private. */
  kind: string;
  subject: string;
  createdAt?: string;
}

export interface NewLeaf {
  index: number;
  leafHash: Uint8Array;
  /** The leaf bytes (public). */
  entryBytes: Uint8Array;
  /** The entry in clear, for private indexes (never served as it is). */
  entry: EvidenceEntry;
  /** The openings of a committed leaf (private); absent for a clear version-1 leaf. */
  openings?: Openings;
  /** The complete subtrees this leaf closes (level ≥ 1), bottom up. */
  nodes: ReadonlyArray<NodeRef & { hash: Uint8Array }>;
  /** The right edge of the tree with this leaf (see `LogHead.frontier`). */
  frontier: readonly Uint8Array[];
}

/** Where the next leaf goes. */
export interface LogHead {
  /** The index the next leaf gets. */
  index: number;
  /**
   * The right edge of the tree before it: the hashes of the complete subtrees `rangeNodes(0, index)`
   * names, largest first (the left siblings of every subtree the next leaf closes are among them). Null
   * when the store does not have it (a log written before the store kept it): `append` reads the nodes.
   */
  frontier: Uint8Array[] | null;
}

/**
 * Where a log keeps its leaves, the hashes of its complete subtrees and its signed tree heads. Level-0
 * nodes are the leaf hashes; level l ≥ 1 nodes are the roots of complete, aligned 2^l-leaf subtrees, written
 * once when their last leaf arrives and never changed.
 */
export interface LogStore {
  /** Number of leaves committed. */
  size(): Promise<number>;
  /**
   * The index the next leaf gets, with the tree's right edge, held exclusively for the caller until its
   * leaf is stored (and, in a database, until the caller's transaction ends): appends from several
   * processes must not share an index. A database reads both with the lock in one statement.
   */
  reserve(): Promise<LogHead>;
  /**
   * Stores the leaf at the reserved index, the subtrees it closes and the new right edge, and makes the
   * size index + 1 (a database does it in one statement).
   */
  putLeaf(leaf: NewLeaf): Promise<void>;
  /** Hashes of the given nodes, in the same order; throws when one is missing. */
  getNodes(refs: readonly NodeRef[]): Promise<Uint8Array[]>;
  getLeaf(index: number): Promise<StoredLeaf | null>;
  /** The openings stored with a committed leaf; null for a clear leaf, or when they were erased. */
  getOpenings(index: number): Promise<Openings | null>;
  /** Stores a signed tree head; false when one of that size exists already (it is kept, not replaced). */
  putTreeHead(sth: SignedTreeHead): Promise<boolean>;
  latestTreeHead(): Promise<SignedTreeHead | null>;
  treeHead(treeSize: number): Promise<SignedTreeHead | null>;
}

/** A log in memory: tests, tools, and a model of what a database store must do. */
export function createMemoryLogStore(): LogStore & { readonly leaves: readonly StoredLeaf[] } {
  const leaves: StoredLeaf[] = [];
  const openings = new Map<number, Openings>();
  const nodes = new Map<string, Uint8Array>();
  const heads = new Map<number, SignedTreeHead>();
  let frontier: readonly Uint8Array[] = [];
  let reserved: number | null = null;
  const key = (r: NodeRef) => `${r.level}:${r.index}`;
  return {
    leaves,
    async size() {
      return leaves.length;
    },
    async reserve() {
      // `append` runs one at a time per store object, which is all the exclusion memory needs.
      reserved = leaves.length;
      return { index: reserved, frontier: [...frontier] };
    },
    async putLeaf(leaf) {
      if (leaf.index !== reserved || leaf.index !== leaves.length)
        throw new Error('leaf index was not reserved');
      leaves.push({
        index: leaf.index,
        leafHash: leaf.leafHash,
        entryBytes: leaf.entryBytes,
        kind: leaf.entry.kind,
        subject: leaf.entry.subject,
        createdAt: new Date().toISOString(),
      });
      if (leaf.openings) openings.set(leaf.index, structuredClone(leaf.openings));
      for (const n of leaf.nodes) {
        if (nodes.has(key(n))) throw new Error(`node ${key(n)} exists already`);
        nodes.set(key(n), n.hash);
      }
      frontier = [...leaf.frontier];
      reserved = null;
    },
    async getNodes(refs) {
      return refs.map((r) => {
        const h = r.level === 0 ? leaves[r.index]?.leafHash : nodes.get(key(r));
        if (!h) throw new Error(`missing node ${key(r)}`);
        return h;
      });
    },
    async getLeaf(index) {
      return leaves[index] ?? null;
    },
    async getOpenings(index) {
      const o = openings.get(index);
      return o ? structuredClone(o) : null;
    },
    async putTreeHead(sth) {
      if (heads.has(sth.treeSize)) return false;
      heads.set(sth.treeSize, { ...sth });
      return true;
    },
    async latestTreeHead() {
      let best: SignedTreeHead | null = null;
      for (const h of heads.values()) if (!best || h.treeSize > best.treeSize) best = h;
      return best ? { ...best } : null;
    },
    async treeHead(treeSize) {
      const h = heads.get(treeSize);
      return h ? { ...h } : null;
    },
  };
}
