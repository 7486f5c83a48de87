export { toHex, fromHex, toBase64, fromBase64, sha256 } from './bytes';
export { canonicalJson, CanonicalJsonError } from './canonical-json';
export {
  ENTRY_VERSION,
  MAX_ENTRY_BYTES,
  EvidenceEntryError,
  decodeEntry,
  encodeEntry,
  hashEntry,
  validateEntry,
  type EvidenceEntry,
} from './entry';
export {
  EMPTY_ROOT,
  HASH_SIZE,
  closedNodes,
  consistencyProof,
  consistencyRanges,
  foldRange,
  hashChildren,
  hashLeaf,
  inclusionProof,
  inclusionRanges,
  merkleRoot,
  rangeNodes,
  splitPoint,
  verifyConsistency,
  verifyInclusion,
  type LeafRange,
  type NodeRef,
  type RangeHasher,
} from './merkle';
export {
  createKeySigner,
  encodeTreeHead,
  keyIdOf,
  readPublicKey,
  signTreeHead,
  spkiOf,
  spkiToPem,
  verifyTreeHead,
  type EvidenceSigner,
  type SignedTreeHead,
  type TreeHead,
} from './tree-head';
export { createMemoryLogStore, type LogStore, type NewLeaf, type StoredLeaf } from './log-store';
export {
  append,
  buildProofBundle,
  proveConsistency,
  proveInclusion,
  publishTreeHead,
  root,
  type AppendResult,
} from './log';
export {
  ProofBundleError,
  checkProofBundle,
  parseProofBundle,
  type BundleCheck,
  type BundleReport,
  type ProofBundle,
} from './bundle';
export type { AnchorProvider, AnchorReceipt } from './anchor';
