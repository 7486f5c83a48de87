import type { SignedTreeHead } from './tree-head';

/** What an outside system returns once a tree head is recorded there. */
export interface AnchorReceipt {
  /** The provider's name, e.g. a chain or a timestamping service. */
  provider: string;
  treeSize: number;
  rootHash: string;
  /** Where to find it there: a transaction id, a block height, a token serial number. */
  reference: string;
  /** ISO 8601 time of the outside record. */
  anchoredAt: string;
  /** Whatever the provider needs to prove the record later (raw receipt, Merkle path, token). */
  proof?: unknown;
}

/**
 * Records signed tree heads outside the platform, so that even the log operator cannot rewrite history
 * unnoticed. An interface only: no adapter exists yet.
 */
export interface AnchorProvider {
  readonly name: string;
  anchor(sth: SignedTreeHead): Promise<AnchorReceipt>;
}
