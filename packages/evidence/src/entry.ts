import { canonicalJson, CanonicalJsonError } from './canonical-json';
import { hashLeaf } from './merkle';

/** What happened, to what, by whom and when; the hashes pin the documents and certificates involved. */
export interface EvidenceEntry {
  /** 'seal.made' | 'seal.state' | 'sign' | 'approval' | 'verify' | … */
  kind: string;
  /** What the event is about: a seal code, a flow id, … */
  subject: string;
  /** Who did it: an opaque account or system id, never a name or a mobile number (the log is public). */
  actor: string;
  /** ISO 8601 time with a zone, e.g. 2025-01-02T03:04:05.678Z. */
  at: string;
  /** Named digests in lowercase hex, e.g. fileBefore, fileAfter, certificate (SHA-256). */
  hashes: Record<string, string>;
  data?: Record<string, unknown>;
}

/** The leaf format version written into every leaf as "v". */
export const ENTRY_VERSION = 1;
/** Leaves are small records, not documents: documents are referenced by hash. */
export const MAX_ENTRY_BYTES = 64 * 1024;

export class EvidenceEntryError extends TypeError {
  override name = 'EvidenceEntryError';
}

const KIND = /^[a-z][a-zA-Z0-9]*(?:[._-][a-zA-Z0-9]+)*$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const HASH_NAME = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;
/** 20 to 64 bytes: SHA-1 legacy digests up to SHA-512, in lowercase hex. */
const DIGEST = /^(?:[0-9a-f]{2}){20,64}$/;
const FIELDS = new Set(['kind', 'subject', 'actor', 'at', 'hashes', 'data']);

function text(name: string, v: unknown, max: number): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > max)
    throw new EvidenceEntryError(`${name} must be a string of 1 to ${max} characters`);
  return v;
}

/** Checks a kind: a fixed action name such as seal.made or sign.sign, never an identifier. */
export function validateKind(kind: unknown): string {
  const k = text('kind', kind, 64);
  if (!KIND.test(k)) throw new EvidenceEntryError('kind must look like seal.made');
  return k;
}

/** Checks an entry's shape; unknown top-level fields are refused so that a leaf has one meaning. */
export function validateEntry(value: unknown): EvidenceEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new EvidenceEntryError('an entry is an object');
  const e = value as Record<string, unknown>;
  for (const k of Object.keys(e)) {
    if (!FIELDS.has(k)) throw new EvidenceEntryError(`unknown field ${k}`);
  }
  validateKind(e.kind);
  text('subject', e.subject, 256);
  text('actor', e.actor, 256);
  const at = text('at', e.at, 40);
  if (!ISO_TIME.test(at) || Number.isNaN(Date.parse(at)))
    throw new EvidenceEntryError('at must be an ISO 8601 time with a zone');
  const hashes = e.hashes;
  if (typeof hashes !== 'object' || hashes === null || Array.isArray(hashes))
    throw new EvidenceEntryError('hashes must be an object');
  for (const [name, digest] of Object.entries(hashes)) {
    if (!HASH_NAME.test(name))
      throw new EvidenceEntryError(`hash name ${JSON.stringify(name)} is not allowed`);
    if (typeof digest !== 'string' || !DIGEST.test(digest))
      throw new EvidenceEntryError(`hashes.${name} must be lowercase hex`);
  }
  if (e.data !== undefined && (typeof e.data !== 'object' || e.data === null || Array.isArray(e.data)))
    throw new EvidenceEntryError('data must be an object');
  return e as unknown as EvidenceEntry;
}

/**
 * The leaf bytes: UTF-8 canonical JSON of the entry plus "v": 1, e.g.
 * {"actor":"p1","at":"2025-01-02T03:04:05.000Z","hashes":{"file":"ab…"},"kind":"sign","subject":"f1","v":1}.
 */
export function encodeEntry(entry: EvidenceEntry): Uint8Array {
  validateEntry(entry);
  let json: string;
  try {
    json = canonicalJson({ ...entry, v: ENTRY_VERSION });
  } catch (cause) {
    if (cause instanceof CanonicalJsonError) throw new EvidenceEntryError(cause.message, { cause });
    throw cause;
  }
  const bytes = new TextEncoder().encode(json);
  if (bytes.length > MAX_ENTRY_BYTES)
    throw new EvidenceEntryError(`an entry is at most ${MAX_ENTRY_BYTES} bytes`);
  return bytes;
}

/** Reads leaf bytes back; refuses bytes that are not the canonical encoding of a version-1 entry. */
export function decodeEntry(bytes: Uint8Array): EvidenceEntry {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (cause) {
    throw new EvidenceEntryError('leaf is not UTF-8 JSON', { cause });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new EvidenceEntryError('leaf is not an object');
  const { v, ...entry } = parsed as Record<string, unknown>;
  if (v !== ENTRY_VERSION) throw new EvidenceEntryError(`unsupported leaf version ${String(v)}`);
  const valid = validateEntry(entry);
  if (Buffer.compare(Buffer.from(encodeEntry(valid)), Buffer.from(bytes)) !== 0)
    throw new EvidenceEntryError('leaf is not in canonical form');
  return valid;
}

/** The RFC 9162 leaf hash of an entry. */
export function hashEntry(entry: EvidenceEntry): Uint8Array {
  return hashLeaf(encodeEntry(entry));
}
