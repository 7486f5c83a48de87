import { randomBytes } from 'node:crypto';
import { fromHex, isHash, sha256, toHex } from './bytes';
import { canonicalJson, CanonicalJsonError } from './canonical-json';
import {
  ENTRY_VERSION,
  EvidenceEntryError,
  MAX_ENTRY_BYTES,
  validateEntry,
  validateKind,
  type EvidenceEntry,
} from './entry';

/**
 * Leaves of version 2 carry no clear identifiers: the log is public, so every field of an entry but its
 * kind is replaced by a salted commitment, H(domain ‖ field ‖ salt ‖ value), with a fresh 256-bit salt per
 * field and per leaf. The salts and values (the openings) stay with the log's operator, who hands them to
 * the parties of the act; anyone given an opening recomputes the commitment and compares it with the leaf.
 * Without the salt a commitment says nothing, not even whether two leaves name the same flow or file.
 */
export const COMMITTED_LEAF_VERSION = 2;
/** Domain separation: these hashes are never confused with leaf or node hashes (RFC 9162 prefixes 0/1). */
export const COMMITMENT_DOMAIN = 'OpenSeal evidence commitment v1';
export const SALT_BYTES = 32;

/** The leaf as hashed and served publicly: the kind in clear, every other field as a commitment (hex). */
export interface CommittedLeaf {
  v: 2;
  kind: string;
  /** field → SHA-256 commitment, lowercase hex; fields are subject, actor, at, hashes.<name>, data.<key>. */
  c: Record<string, string>;
}

/** A leaf written before commitments (version 1): the entry in clear. */
export type ClearLeaf = EvidenceEntry & { v: 1 };
export type LeafBody = CommittedLeaf | ClearLeaf;

/** What one commitment hides: its salt (64 hex digits) and the value (any JSON value). */
export interface Opening {
  salt: string;
  value: unknown;
}
export type Openings = Record<string, Opening>;

/** The fields every version-2 leaf commits to; `hashes.*` and `data.*` fields come and go with the entry. */
export const BASE_FIELDS = ['subject', 'actor', 'at'] as const;
/** Fields that hold digests of files: a holder of the file may be given these openings and no others. */
export const FILE_HASH_FIELDS = ['hashes.file', 'hashes.fileBefore', 'hashes.fileAfter'] as const;

/** subject, actor, at, or hashes./data. and a key of 1 to 64 characters, none of them a control character. */
const FIELD = /^(?:subject|actor|at|(?:hashes|data)\.[^\p{Cc}]{1,64})$/u;
const MAX_FIELDS = 256;
const utf8 = new TextEncoder();
const DOMAIN = utf8.encode(COMMITMENT_DOMAIN);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The commitment to one field: SHA-256 over the domain string, a zero byte, the field name (UTF-8, after
 * a two-byte big-endian length), the 32-byte salt and the canonical JSON of the value. The length prefix
 * and the fixed salt size make the encoding unambiguous, and the field name binds the value to its field.
 */
export function commitmentOf(field: string, salt: Uint8Array, value: unknown): Uint8Array {
  if (salt.length !== SALT_BYTES) throw new TypeError(`a salt is ${SALT_BYTES} bytes`);
  const name = utf8.encode(field);
  if (name.length > 0xffff) throw new TypeError('field name too long');
  const length = new Uint8Array([0, name.length >> 8, name.length & 0xff]);
  return sha256(DOMAIN, length, name, salt, utf8.encode(canonicalJson(value)));
}

/** The entry's fields as (name, value) pairs, in the order of the leaf; undefined data values are left out. */
export function fieldsOf(entry: EvidenceEntry): Array<[string, unknown]> {
  const fields: Array<[string, unknown]> = [
    ['subject', entry.subject],
    ['actor', entry.actor],
    ['at', entry.at],
  ];
  for (const [k, v] of Object.entries(entry.hashes)) fields.push([`hashes.${k}`, v]);
  for (const [k, v] of Object.entries(entry.data ?? {})) if (v !== undefined) fields.push([`data.${k}`, v]);
  return fields;
}

/**
 * Commits to every field of an entry but its kind, each with a fresh salt from `random` (node:crypto by
 * default, one call for all salts of the leaf; tests pass their own to get fixed bytes). Returns the
 * public leaf and its private openings.
 */
export function commitEntry(
  entry: EvidenceEntry,
  random?: (size: number) => Uint8Array,
): { leaf: CommittedLeaf; openings: Openings } {
  validateEntry(entry);
  const c: Record<string, string> = {};
  const openings: Openings = {};
  const fields = fieldsOf(entry);
  if (fields.length > MAX_FIELDS) throw new EvidenceEntryError(`an entry has at most ${MAX_FIELDS} fields`);
  const pool = random ? null : randomBytes(SALT_BYTES * fields.length);
  for (const [i, [field, value]] of fields.entries()) {
    if (!FIELD.test(field))
      throw new EvidenceEntryError(`field name ${JSON.stringify(field)} is not allowed`);
    const salt = pool
      ? new Uint8Array(pool.buffer, pool.byteOffset + i * SALT_BYTES, SALT_BYTES)
      : random!(SALT_BYTES);
    let commitment: Uint8Array;
    try {
      commitment = commitmentOf(field, salt, value);
    } catch (cause) {
      if (cause instanceof CanonicalJsonError) throw new EvidenceEntryError(cause.message, { cause });
      throw cause;
    }
    c[field] = toHex(commitment);
    openings[field] = { salt: toHex(salt), value };
  }
  const leaf: CommittedLeaf = { v: COMMITTED_LEAF_VERSION, kind: entry.kind, c };
  encodeLeaf(leaf); // size check
  return { leaf, openings };
}

/** Checks the shape of a version-2 leaf: the kind, and one 64-digit commitment per allowed field name. */
function validateCommittedLeaf(value: Record<string, unknown>): CommittedLeaf {
  for (const k of Object.keys(value))
    if (k !== 'v' && k !== 'kind' && k !== 'c') throw new EvidenceEntryError(`unknown field ${k}`);
  validateKind(value.kind);
  const c = value.c;
  if (!isObject(c)) throw new EvidenceEntryError('c must be an object of commitments');
  const names = Object.keys(c);
  if (names.length > MAX_FIELDS) throw new EvidenceEntryError(`a leaf has at most ${MAX_FIELDS} fields`);
  for (const f of BASE_FIELDS) if (!(f in c)) throw new EvidenceEntryError(`c.${f} is missing`);
  for (const f of names) {
    if (!FIELD.test(f)) throw new EvidenceEntryError(`field name ${JSON.stringify(f)} is not allowed`);
    if (!isHash(c[f])) throw new EvidenceEntryError(`c.${f} must be 64 lowercase hex digits`);
  }
  return value as unknown as CommittedLeaf;
}

/** The leaf bytes: canonical JSON of the body with its "v" (1: a clear entry, 2: a committed leaf). */
export function encodeLeaf(leaf: LeafBody): Uint8Array {
  parseLeafBody(leaf);
  let json: string;
  try {
    json = canonicalJson(leaf);
  } catch (cause) {
    if (cause instanceof CanonicalJsonError) throw new EvidenceEntryError(cause.message, { cause });
    throw cause;
  }
  const bytes = new TextEncoder().encode(json);
  if (bytes.length > MAX_ENTRY_BYTES)
    throw new EvidenceEntryError(`a leaf is at most ${MAX_ENTRY_BYTES} bytes`);
  return bytes;
}

/** Reads leaf bytes of either version; refuses anything that is not the canonical encoding. */
export function decodeLeaf(bytes: Uint8Array): LeafBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (cause) {
    throw new EvidenceEntryError('leaf is not UTF-8 JSON', { cause });
  }
  if (!isObject(parsed)) throw new EvidenceEntryError('leaf is not an object');
  const body = parseLeafBody(parsed);
  if (Buffer.compare(Buffer.from(encodeLeaf(body)), Buffer.from(bytes)) !== 0)
    throw new EvidenceEntryError('leaf is not in canonical form');
  return body;
}

/** A parsed leaf object (e.g. from a proof bundle) checked as a leaf body of version 1 or 2. */
export function parseLeafBody(value: unknown): LeafBody {
  if (!isObject(value)) throw new EvidenceEntryError('a leaf is an object');
  if (value.v === COMMITTED_LEAF_VERSION) return validateCommittedLeaf(value);
  if (value.v === ENTRY_VERSION) {
    const { v: _v, ...entry } = value;
    return { ...validateEntry(entry), v: 1 };
  }
  throw new EvidenceEntryError(`unsupported leaf version ${JSON.stringify(value.v ?? null)}`);
}

export interface OpeningCheck {
  /** Fields whose opening recomputes the leaf's commitment, with the values they open to. */
  opened: Record<string, unknown>;
  /** One line per opening that failed: unknown field, bad salt, or a value the leaf does not commit to. */
  errors: string[];
}

/** Checks openings (untrusted, e.g. from a bundle) against a committed leaf. */
export function checkOpenings(leaf: CommittedLeaf, openings: unknown): OpeningCheck {
  const opened: Record<string, unknown> = {};
  const errors: string[] = [];
  if (openings === undefined) return { opened, errors };
  if (!isObject(openings)) return { opened, errors: ['openings must be an object'] };
  const fields = Object.keys(openings);
  if (fields.length > MAX_FIELDS) return { opened, errors: [`at most ${MAX_FIELDS} openings`] };
  for (const field of fields) {
    const o = openings[field];
    const committed = Object.hasOwn(leaf.c, field) ? leaf.c[field] : undefined;
    if (committed === undefined) {
      errors.push(`${field}: the leaf has no such field`);
      continue;
    }
    if (!isObject(o) || typeof o.salt !== 'string' || !/^[0-9a-f]{64}$/.test(o.salt) || !('value' in o)) {
      errors.push(`${field}: an opening is { salt: 64 hex digits, value }`);
      continue;
    }
    let recomputed: string;
    try {
      recomputed = toHex(commitmentOf(field, fromHex(o.salt), o.value));
    } catch (e) {
      errors.push(`${field}: the value has no canonical JSON form (${(e as Error).message})`);
      continue;
    }
    if (recomputed === committed) opened[field] = o.value;
    else errors.push(`${field}: the opening does not match the leaf's commitment`);
  }
  return { opened, errors };
}

/** The openings of the named fields only (those the leaf has); what a party who holds less is given. */
export function pickOpenings(openings: Openings, fields: readonly string[]): Openings {
  const out: Openings = {};
  for (const f of fields) if (Object.hasOwn(openings, f)) out[f] = openings[f]!;
  return out;
}

/**
 * The entry a committed leaf records, from a complete set of openings (the operator's own read). Throws
 * when a field is not opened or an opening does not match: stored openings must always fit their leaf.
 */
export function openEntry(leaf: CommittedLeaf, openings: Openings): EvidenceEntry {
  const { opened, errors } = checkOpenings(leaf, openings);
  if (errors.length) throw new EvidenceEntryError(`openings do not fit the leaf: ${errors[0]}`);
  const missing = Object.keys(leaf.c).filter((f) => !Object.hasOwn(opened, f));
  if (missing.length) throw new EvidenceEntryError(`fields not opened: ${missing.join(', ')}`);
  const hashes: Record<string, string> = {};
  const data: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(opened)) {
    if (field.startsWith('hashes.')) hashes[field.slice(7)] = value as string;
    else if (field.startsWith('data.')) data[field.slice(5)] = value;
  }
  return validateEntry({
    kind: leaf.kind,
    subject: opened.subject,
    actor: opened.actor,
    at: opened.at,
    hashes,
    data,
  });
}
