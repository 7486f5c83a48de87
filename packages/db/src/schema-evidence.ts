import type { ColumnType } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** The one-row counter that serialises appends: its tree_size is the next leaf index. */
export interface EvidenceStateTable {
  id: number;
  tree_size: number;
}

export interface EvidenceLeavesTable {
  idx: number;
  leaf_hash: Uint8Array;
  /** The exact leaf bytes: canonical JSON, see @openseal/evidence encodeEntry. */
  entry: Uint8Array;
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

/** Tables of the evidence log (migration 0003-evidence). */
export interface EvidenceTables {
  evidence_state: EvidenceStateTable;
  evidence_leaves: EvidenceLeavesTable;
  evidence_nodes: EvidenceNodesTable;
  evidence_tree_heads: EvidenceTreeHeadsTable;
}
