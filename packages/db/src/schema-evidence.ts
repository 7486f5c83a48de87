import type { ColumnType } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** The one-row counter that serialises appends: its tree_size is the next leaf index. */
export interface EvidenceStateTable {
  id: number;
  tree_size: number;
  /** The tree's right edge: the complete-subtree hashes of [0, tree_size), largest first (0017). */
  frontier: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
}

export interface EvidenceLeavesTable {
  idx: number;
  leaf_hash: Uint8Array;
  /** The exact leaf bytes (public): canonical JSON, see @openseal/evidence encodeLeaf. */
  entry: Uint8Array;
  /** The entry's kind and subject in clear, for the operator's lookups (private). */
  kind: string;
  subject: string;
  created_at: CreatedAt;
}

/** Hashes of complete, aligned subtrees (level ≥ 1); level 0 lives in evidence_leaves. */
export interface EvidenceNodesTable {
  level: number;
  idx: number;
  hash: Uint8Array;
}

export interface EvidenceTreeHeadsTable {
  tree_size: number;
  root_hash: Uint8Array;
  timestamp_ms: number;
  key_id: string;
  signature: Uint8Array;
  created_at: CreatedAt;
}

/** The openings of a committed leaf (private): canonical JSON, field → { salt, value }. */
export interface EvidenceOpeningsTable {
  idx: number;
  openings: string;
}

/** Which leaves name a file's SHA-256, and in which field (hashes.fileAfter, …): private. */
export interface EvidenceFileHashesTable {
  digest: Uint8Array;
  field: string;
  idx: number;
}

/** Tables of the evidence log (migrations 0003-evidence, 0013-evidence-openings, 0017-evidence-frontier). */
export interface EvidenceTables {
  evidence_state: EvidenceStateTable;
  evidence_leaves: EvidenceLeavesTable;
  evidence_nodes: EvidenceNodesTable;
  evidence_tree_heads: EvidenceTreeHeadsTable;
  evidence_openings: EvidenceOpeningsTable;
  evidence_file_hashes: EvidenceFileHashesTable;
}
