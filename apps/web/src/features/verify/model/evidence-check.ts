import type { contracts } from '@openseal/core';
import { canonicalJson } from '@openseal/evidence/canonical-json';
import type { z } from 'zod';

/**
 * The evidence record of a verified file, checked in the browser with WebCrypto, without trusting the
 * server's word: each leaf is hashed again (RFC 9162: SHA-256 of 0x00 and the leaf's canonical JSON), the
 * commitments the uploader was given openings for are recomputed, the inclusion path is folded up to a
 * root that must equal the signed tree head's, and the tree head's ECDSA P-256 signature is checked with
 * the log key. The hashing is that of the evidence package (packages/evidence: merkle.ts, commit.ts,
 * tree-head.ts), which uses node:crypto and so cannot run here; the canonical JSON is its own code.
 */
export type VerifyEvidence = z.output<typeof contracts.verifyEvidenceResponse>;
export type EvidenceRecord = VerifyEvidence['signing'][number];
export type SignedTreeHead = VerifyEvidence['treeHead'];

const utf8 = new TextEncoder();
const LEAF_PREFIX = Uint8Array.of(0);
const NODE_PREFIX = Uint8Array.of(1);
/** packages/evidence COMMITMENT_DOMAIN: the domain of field commitments. */
export const COMMITMENT_DOMAIN = 'OpenSeal evidence commitment v1';

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Lowercase hex only, as the log writes it; null for anything else. */
export function fromHex(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})*$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function fromBase64(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const bin = atob(text);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', concat(parts)));
}

/** RFC 9162 leaf hash of a leaf as the log holds it (committed, or clear before commitments). */
export async function leafHashOf(leaf: unknown): Promise<string> {
  return toHex(await sha256(LEAF_PREFIX, utf8.encode(canonicalJson(leaf))));
}

/**
 * RFC 9162 2.1.3.2: the root an inclusion path leads to from a leaf hash at `index` of a tree of `size`
 * leaves, or null when the path cannot belong to such a tree (too long, too short, out of range).
 */
export async function rootFromPath(
  leafHash: Uint8Array,
  index: number,
  size: number,
  path: readonly Uint8Array[],
): Promise<Uint8Array | null> {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return null;
  if (leafHash.length !== 32 || path.some((p) => p.length !== 32)) return null;
  const odd = (x: number) => x % 2 === 1;
  const half = (x: number) => Math.floor(x / 2);
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of path) {
    if (sn === 0) return null;
    if (odd(fn) || fn === sn) {
      r = await sha256(NODE_PREFIX, p, r);
      if (!odd(fn))
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
    } else {
      r = await sha256(NODE_PREFIX, r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : null;
}

/** The commitment to one field: SHA-256(domain ‖ 0x00 ‖ u16 length ‖ field ‖ salt ‖ canonical JSON of the value). */
export async function commitmentOf(field: string, saltHex: string, value: unknown): Promise<string | null> {
  const salt = fromHex(saltHex);
  if (!salt || salt.length !== 32) return null;
  const name = utf8.encode(field);
  if (name.length > 0xffff) return null;
  let json: string;
  try {
    json = canonicalJson(value);
  } catch {
    return null;
  }
  const length = Uint8Array.of(0, name.length >> 8, name.length & 0xff);
  return toHex(await sha256(utf8.encode(COMMITMENT_DOMAIN), length, name, salt, utf8.encode(json)));
}

/**
 * The bytes a tree head signature covers (RFC 9162 TreeHeadDataV2, no extensions, 51 bytes): uint64
 * timestamp, uint64 tree size, one length byte 32 and the root hash, and an empty extensions list.
 */
export function encodeTreeHead(th: Pick<SignedTreeHead, 'timestamp' | 'treeSize' | 'rootHash'>): Uint8Array {
  const root = fromHex(th.rootHash);
  if (!root || root.length !== 32) throw new TypeError('rootHash must be 64 lowercase hex digits');
  const out = new Uint8Array(51);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(th.timestamp));
  view.setBigUint64(8, BigInt(th.treeSize));
  out[16] = 32;
  out.set(root, 17);
  return out;
}

/** A DER Ecdsa-Sig-Value (SEQUENCE of two INTEGERs) as WebCrypto's r ‖ s of `size` bytes each; null if malformed. */
export function derToRawSignature(der: Uint8Array, size = 32): Uint8Array | null {
  let at = 0;
  const length = (): number | null => {
    const first = der[at++];
    if (first === undefined) return null;
    if (first < 0x80) return first;
    if (first !== 0x81) return null;
    return der[at++] ?? null;
  };
  if (der[at++] !== 0x30) return null;
  const total = length();
  if (total === null || at + total !== der.length) return null;
  const out = new Uint8Array(size * 2);
  for (let k = 0; k < 2; k++) {
    if (der[at++] !== 0x02) return null;
    const n = length();
    if (n === null || n === 0 || at + n > der.length) return null;
    let int = der.subarray(at, at + n);
    at += n;
    while (int.length > size && int[0] === 0) int = int.subarray(1);
    if (int.length > size) return null;
    out.set(int, k * size + size - int.length);
  }
  return at === der.length ? out : null;
}

/** True when the tree head's signature verifies with the P-256 key (SPKI in base64). */
export async function verifyTreeHeadSignature(th: SignedTreeHead, spkiBase64: string): Promise<boolean> {
  try {
    const spki = fromBase64(spkiBase64);
    const der = fromBase64(th.signature);
    const raw = der && derToRawSignature(der);
    if (!spki || !raw) return false;
    const key = await crypto.subtle.importKey(
      'spki',
      concat([spki]),
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    return await crypto.subtle.verify(
      { name: 'ECDSA', hash: 'SHA-256' },
      key,
      concat([raw]),
      concat([encodeTreeHead(th)]),
    );
  } catch {
    return false;
  }
}

/** The outcome of one check: held, failed, or not applicable (nothing to check). */
export type CheckOutcome = 'ok' | 'fail' | 'none';

export interface RecordCheck {
  leafIndex: number;
  /** The leaf hashes to the hash the log gives (none: the leaf is withheld, only its hash is proven). */
  leafHash: CheckOutcome;
  /** Every opening recomputes its commitment in the leaf (none: nothing opened). */
  openings: CheckOutcome;
  /** An opened file hash equals the SHA-256 of the verified file (none: no file hash opened). */
  fileHash: CheckOutcome;
  /** The inclusion path leads from the leaf hash to the tree head's root. */
  inclusion: CheckOutcome;
  /** The root the path leads to, hex (null when the path cannot belong to the tree). */
  computedRoot: string | null;
  /** The record's bundle names the same tree head as the answer. */
  sameHead: boolean;
  ok: boolean;
}

export interface EvidenceCheck {
  /** The tree head's signature verifies with the log key. */
  treeHeadSignature: boolean;
  /** The tree head's key id is the SHA-256 of the log key. */
  keyId: boolean;
  records: RecordCheck[];
  ok: boolean;
}

const FILE_HASH_FIELDS = ['hashes.file', 'hashes.fileBefore', 'hashes.fileAfter'];

/**
 * Checks one record against the tree head of the answer, from its proof bundle (the self-contained copy
 * that is downloaded). `fileSha256` is the verified file's hash: an opened `hashes.fileAfter` (a signing
 * act's output) or `hashes.file` (a verification) must equal it.
 */
export async function checkRecord(
  record: EvidenceRecord,
  treeHead: SignedTreeHead,
  fileSha256: string,
): Promise<RecordCheck> {
  const b = record.bundle;
  const expected = fromHex(b.leafHash);
  let leafHash: CheckOutcome = 'none';
  if (b.leaf !== null) {
    try {
      leafHash = (await leafHashOf(b.leaf)) === b.leafHash ? 'ok' : 'fail';
    } catch {
      leafHash = 'fail';
    }
  }
  if (b.leafHash !== record.leafHash) leafHash = 'fail';

  let openings: CheckOutcome = 'none';
  let fileHash: CheckOutcome = 'none';
  const fields = Object.entries(b.openings);
  if (fields.length > 0) {
    const commitments = b.leaf && b.leaf.v === 2 ? b.leaf.c : null;
    let all = commitments !== null;
    for (const [field, o] of fields) {
      const committed = commitments && Object.hasOwn(commitments, field) ? commitments[field] : undefined;
      const again = committed === undefined ? null : await commitmentOf(field, o.salt, o.value);
      if (again === null || again !== committed) all = false;
    }
    openings = all ? 'ok' : 'fail';
    const fileFields = fields.filter(([f]) => FILE_HASH_FIELDS.includes(f));
    const output = fileFields.filter(([f]) => f === 'hashes.fileAfter' || f === 'hashes.file');
    if (output.length > 0) fileHash = all && output.some(([, o]) => o.value === fileSha256) ? 'ok' : 'fail';
  }

  const path = b.inclusionPath.map(fromHex);
  const root =
    expected && path.every((p) => p !== null)
      ? await rootFromPath(expected, b.leafIndex, b.treeHead.treeSize, path as Uint8Array[])
      : null;
  const computedRoot = root ? toHex(root) : null;
  const sameHead =
    b.treeHead.treeSize === treeHead.treeSize &&
    b.treeHead.rootHash === treeHead.rootHash &&
    b.treeHead.timestamp === treeHead.timestamp &&
    b.treeHead.signature === treeHead.signature &&
    b.leafIndex === record.leafIndex &&
    b.inclusionPath.join() === record.inclusionPath.join();
  const inclusion: CheckOutcome = computedRoot !== null && computedRoot === treeHead.rootHash ? 'ok' : 'fail';
  return {
    leafIndex: record.leafIndex,
    leafHash,
    openings,
    fileHash,
    inclusion,
    computedRoot,
    sameHead,
    ok:
      leafHash !== 'fail' &&
      openings !== 'fail' &&
      fileHash !== 'fail' &&
      inclusion === 'ok' &&
      sameHead &&
      b.logPublicKey !== '',
  };
}

/** Checks the whole answer: the tree head's signature and key id, then every record. */
export async function checkEvidence(evidence: VerifyEvidence, fileSha256: string): Promise<EvidenceCheck> {
  const treeHeadSignature = await verifyTreeHeadSignature(evidence.treeHead, evidence.logPublicKey);
  const spki = fromBase64(evidence.logPublicKey);
  const keyId =
    spki !== null &&
    toHex(await sha256(spki)) === evidence.treeHead.keyId &&
    evidence.treeHead.keyId === evidence.logKeyId;
  const records: RecordCheck[] = [];
  for (const r of [...evidence.signing, evidence.verification]) {
    const check = await checkRecord(r, evidence.treeHead, fileSha256);
    // Each bundle carries the log key too: it must be the answer's.
    if (r.bundle.logPublicKey !== evidence.logPublicKey) check.ok = false;
    records.push(check);
  }
  return {
    treeHeadSignature,
    keyId,
    records,
    ok: treeHeadSignature && keyId && records.every((r) => r.ok),
  };
}

/** Where a record's proof bundle is downloaded. */
export function bundleUrl(reportId: string, leafIndex: number): string {
  return `/v1/signFile/verify/report/${encodeURIComponent(reportId)}/evidence/${leafIndex}/bundle`;
}

export function evidenceUrl(reportId: string): string {
  return `/v1/signFile/verify/report/${encodeURIComponent(reportId)}/evidence`;
}

/** The opened values a page shows of a record: the file hashes, and the time of the act when opened. */
export function openedFacts(record: EvidenceRecord): Array<{ field: string; value: string }> {
  return Object.entries(record.opened)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
    .map(([field, v]) => ({ field, value: String(v) }))
    .sort((a, b) => a.field.localeCompare(b.field));
}
