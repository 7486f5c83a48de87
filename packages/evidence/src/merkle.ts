/**
 * Merkle tree hashing and proofs of RFC 9162 section 2.1 (the same tree as RFC 6962). Sizes and indices
 * are JavaScript numbers: safe up to 2^53 leaves, so bit operations (32-bit in JavaScript) are avoided.
 */
import { bytesEqual, sha256 } from './bytes';

export const HASH_SIZE = 32;

const LEAF_PREFIX = new Uint8Array([0x00]);
const NODE_PREFIX = new Uint8Array([0x01]);

/** MTH of the empty tree: SHA-256 of the empty string. */
export const EMPTY_ROOT: Uint8Array = sha256();

/** SHA-256(0x00 || leaf). */
export function hashLeaf(leaf: Uint8Array): Uint8Array {
  return sha256(LEAF_PREFIX, leaf);
}

/** SHA-256(0x01 || left || right). */
export function hashChildren(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(NODE_PREFIX, left, right);
}

/** The largest power of two strictly below n (n > 1): the RFC's split point k. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const isOdd = (x: number) => x % 2 === 1;
const half = (x: number) => Math.floor(x / 2);
function isPowerOfTwo(x: number): boolean {
  let k = 1;
  while (k < x) k *= 2;
  return k === x;
}

function assertSize(name: string, v: number, min = 0): void {
  if (!Number.isSafeInteger(v) || v < min) throw new RangeError(`${name} must be an integer ≥ ${min}`);
}

/** MTH(D[n]) over leaf hashes already computed with `hashLeaf`. Reads every leaf: for tests and small trees. */
export function merkleRoot(leafHashes: readonly Uint8Array[]): Uint8Array {
  const mth = (start: number, end: number): Uint8Array => {
    const n = end - start;
    if (n === 0) return EMPTY_ROOT;
    if (n === 1) return leafHashes[start]!;
    const k = splitPoint(n);
    return hashChildren(mth(start, start + k), mth(start + k, end));
  };
  return mth(0, leafHashes.length);
}

/** A run of leaves [start, end) whose Merkle tree hash is one proof element. */
export interface LeafRange {
  start: number;
  end: number;
}

/** The ranges of PATH(m, D[n]) (RFC 9162 2.1.3.1), leaf to root. */
export function inclusionRanges(index: number, size: number): LeafRange[] {
  assertSize('size', size, 1);
  assertSize('index', index);
  if (index >= size) throw new RangeError('index must be below size');
  const out: LeafRange[] = [];
  const path = (m: number, start: number, n: number): void => {
    if (n === 1) return;
    const k = splitPoint(n);
    if (m < k) {
      path(m, start, k);
      out.push({ start: start + k, end: start + n });
    } else {
      path(m - k, start + k, n - k);
      out.push({ start, end: start + k });
    }
  };
  path(index, 0, size);
  return out;
}

/** The ranges of PROOF(m, D[n]) (RFC 9162 2.1.4.1). Empty when m is 0 or m equals n. */
export function consistencyRanges(m: number, n: number): LeafRange[] {
  assertSize('first', m);
  assertSize('second', n);
  if (m > n) throw new RangeError('first must not exceed second');
  if (m === 0 || m === n) return [];
  const out: LeafRange[] = [];
  const subproof = (mm: number, start: number, nn: number, complete: boolean): void => {
    if (mm === nn) {
      if (!complete) out.push({ start, end: start + nn });
      return;
    }
    const k = splitPoint(nn);
    if (mm <= k) {
      subproof(mm, start, k, complete);
      out.push({ start: start + k, end: start + nn });
    } else {
      subproof(mm - k, start + k, nn - k, false);
      out.push({ start, end: start + k });
    }
  };
  subproof(m, 0, n, true);
  return out;
}

/** Gives MTH(D[start:end]); a store answers from its cached subtree hashes. */
export type RangeHasher = (start: number, end: number) => Uint8Array | Promise<Uint8Array>;

export async function inclusionProof(
  index: number,
  size: number,
  getHash: RangeHasher,
): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (const r of inclusionRanges(index, size)) out.push(await getHash(r.start, r.end));
  return out;
}

export async function consistencyProof(m: number, n: number, getHash: RangeHasher): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (const r of consistencyRanges(m, n)) out.push(await getHash(r.start, r.end));
  return out;
}

const allHashes = (xs: readonly Uint8Array[]) =>
  xs.every((x) => x instanceof Uint8Array && x.length === HASH_SIZE);

/** RFC 9162 2.1.3.2, step by step. False for any malformed input, never an exception. */
export function verifyInclusion(
  leafHash: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  if (!allHashes([leafHash, root]) || !allHashes(proof)) return false;
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      r = hashChildren(p, r);
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = hashChildren(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && bytesEqual(r, root);
}

/**
 * RFC 9162 2.1.4.2 for 0 < first < second. The RFC leaves the trivial cases open; like Certificate
 * Transparency verifiers, first = second holds with an empty proof and equal roots, and first = 0 holds
 * with an empty proof when the first root is the empty-tree hash.
 */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second)
    return false;
  if (!allHashes([firstRoot, secondRoot]) || !allHashes(proof)) return false;
  if (first === second) return proof.length === 0 && bytesEqual(firstRoot, secondRoot);
  if (first === 0) return proof.length === 0 && bytesEqual(firstRoot, EMPTY_ROOT);
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (isOdd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (isOdd(fn) || fn === sn) {
      fr = hashChildren(c, fr);
      sr = hashChildren(c, sr);
      if (!isOdd(fn)) {
        while (!isOdd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = hashChildren(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return bytesEqual(fr, firstRoot) && bytesEqual(sr, secondRoot) && sn === 0;
}

/** A complete, aligned subtree: leaves [index·2^level, (index+1)·2^level). Level 0 is one leaf. */
export interface NodeRef {
  level: number;
  index: number;
}

/**
 * Splits a proof range into the complete aligned subtrees it is made of, largest first. Every range that
 * RFC 9162 proofs or roots use splits into strictly shrinking subtrees; anything else is refused, because
 * folding it right to left would not give its Merkle tree hash.
 */
export function rangeNodes(start: number, end: number): NodeRef[] {
  assertSize('start', start);
  if (!Number.isSafeInteger(end) || end <= start) throw new RangeError('empty range');
  const out: NodeRef[] = [];
  let s = start;
  let previous = Infinity;
  while (s < end) {
    let width = 1;
    let level = 0;
    while (width * 2 <= end - s && s % (width * 2) === 0) {
      width *= 2;
      level += 1;
    }
    if (width >= previous) throw new RangeError(`[${start}, ${end}) is not a Merkle subtree range`);
    out.push({ level, index: s / width });
    previous = width;
    s += width;
  }
  return out;
}

/** MTH of a range from the hashes of its `rangeNodes`, in the same order. */
export function foldRange(hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length === 0) throw new RangeError('no hashes to fold');
  let h = hashes[hashes.length - 1]!;
  for (let i = hashes.length - 2; i >= 0; i--) h = hashChildren(hashes[i]!, h);
  return h;
}

/**
 * The subtrees leaf `index` completes, bottom up: level l closes when index + 1 is a multiple of 2^l.
 * Each needs its left sibling, the already complete subtree just before it.
 */
export function closedNodes(index: number): Array<{ node: NodeRef; leftSibling: NodeRef }> {
  const out: Array<{ node: NodeRef; leftSibling: NodeRef }> = [];
  let width = 2;
  let level = 1;
  while ((index + 1) % width === 0) {
    const nodeIndex = (index + 1) / width - 1;
    out.push({ node: { level, index: nodeIndex }, leftSibling: { level: level - 1, index: nodeIndex * 2 } });
    width *= 2;
    level += 1;
  }
  return out;
}
