import { bytesEqual, fromHex, isHash, sha256, toHex } from './bytes';
import { checkOpenings, encodeLeaf, parseLeafBody, type LeafBody, type Openings } from './commit';
import { encodeEntry, type EvidenceEntry } from './entry';
import { hashLeaf, verifyInclusion } from './merkle';
import { spkiOf, verifyTreeHead, type SignedTreeHead } from './tree-head';

/**
 * Version 1 (written before leaves carried commitments; still checked): the entry in clear, where it
 * sits, the signed tree head that covers it, the inclusion path (hex, leaf to root) and the log key (SPKI
 * DER in base64).
 */
export interface ProofBundleV1 {
  version: 1;
  entry: EvidenceEntry;
  leafIndex: number;
  leafHash: string;
  treeHead: SignedTreeHead;
  inclusionPath: string[];
  logPublicKey: string;
}

/**
 * Version 2: the leaf as hashed (a committed leaf, or a clear version-1 leaf shown to a party of it, or
 * null when a clear leaf is withheld and only its hash is proven), the openings its holder may show
 * (field → { salt, value }; none in a public bundle), and the same proof as version 1.
 */
export interface ProofBundleV2 {
  version: 2;
  leafIndex: number;
  leafHash: string;
  leaf: LeafBody | null;
  openings: Openings;
  treeHead: SignedTreeHead;
  inclusionPath: string[];
  logPublicKey: string;
}

export type ProofBundle = ProofBundleV1 | ProofBundleV2;

export interface BundleCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface BundleReport {
  ok: boolean;
  checks: BundleCheck[];
  /** Committed leaves: the fields whose openings matched, with their values. */
  opened?: Record<string, unknown>;
}

/** A bundle that cannot be checked at all (not a bundle of version 1 or 2); the message says why in one line. */
export class ProofBundleError extends Error {
  override name = 'ProofBundleError';
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isIndex = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** Checks the shape of a parsed bundle: types and encodings only, not whether anything verifies. */
export function parseProofBundle(value: unknown): ProofBundle {
  const fail = (why: string): never => {
    throw new ProofBundleError(why);
  };
  if (!isObject(value)) return fail('a proof bundle is a JSON object');
  if (value.version !== 1 && value.version !== 2)
    return fail(`unsupported proof bundle version ${JSON.stringify(value.version ?? null)}`);
  if (value.version === 1 && !isObject(value.entry)) fail('entry must be an object');
  if (value.version === 2 && value.leaf !== null && !isObject(value.leaf))
    fail('leaf must be an object, or null when withheld');
  if (value.version === 2 && value.openings !== undefined && !isObject(value.openings))
    fail('openings must be an object of { salt, value } by field');
  if (!isIndex(value.leafIndex)) fail('leafIndex must be an integer ≥ 0');
  if (!isHash(value.leafHash)) fail('leafHash must be 64 lowercase hex digits');
  const th = value.treeHead;
  if (!isObject(th)) return fail('treeHead must be an object');
  if (!isIndex(th.treeSize)) fail('treeHead.treeSize must be an integer ≥ 0');
  if (!isHash(th.rootHash)) fail('treeHead.rootHash must be 64 lowercase hex digits');
  if (!isIndex(th.timestamp)) fail('treeHead.timestamp must be milliseconds since 1970');
  if (typeof th.keyId !== 'string') fail('treeHead.keyId must be a string');
  if (typeof th.signature !== 'string' || th.signature.length === 0)
    fail('treeHead.signature must be base64');
  const path = value.inclusionPath;
  if (!Array.isArray(path) || !path.every(isHash))
    return fail('inclusionPath must be a list of 64-digit lowercase hex hashes');
  if (path.length > 64) fail('inclusionPath is longer than any tree');
  if (typeof value.logPublicKey !== 'string' || value.logPublicKey.length === 0)
    fail('logPublicKey must be SPKI in base64');
  const common = {
    leafIndex: value.leafIndex as number,
    leafHash: value.leafHash as string,
    treeHead: {
      treeSize: th.treeSize as number,
      rootHash: th.rootHash as string,
      timestamp: th.timestamp as number,
      keyId: th.keyId as string,
      signature: th.signature as string,
    },
    inclusionPath: [...(path as string[])],
    logPublicKey: value.logPublicKey as string,
  };
  if (value.version === 1) return { version: 1, entry: value.entry as unknown as EvidenceEntry, ...common };
  return {
    version: 2,
    leaf: (value.leaf ?? null) as LeafBody | null,
    openings: (value.openings ?? {}) as Openings,
    ...common,
  };
}

const fingerprint = (spki: Uint8Array) => `sha256:${toHex(sha256(spki))}`;
const reason = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Checks a proof bundle without the server: the leaf hash is recomputed from the entry, the inclusion
 * path is checked against the tree head's root, the tree head signature against the bundle's key, and
 * that key against `trustedKeys` (SPKI base64 or PEM) when given. Without trusted keys the last check
 * passes with "key not pinned": the bundle is then only as trustworthy as the key it carries.
 */
export function checkProofBundle(
  bundle: unknown,
  options: { trustedKeys?: readonly string[] } = {},
): BundleReport {
  let b: ProofBundle;
  try {
    b = parseProofBundle(bundle);
  } catch (e) {
    return { ok: false, checks: [{ name: 'format', ok: false, detail: reason(e) }] };
  }
  const checks: BundleCheck[] = [{ name: 'format', ok: true, detail: `proof bundle version ${b.version}` }];
  let opened: Record<string, unknown> | undefined;

  let leafHash: Uint8Array | null;
  if (b.version === 2 && b.leaf === null) {
    // A clear leaf written before commitments, withheld from whoever is not party to it.
    leafHash = fromHex(b.leafHash);
    checks.push({
      name: 'leaf hash',
      ok: true,
      detail: `leaf withheld (written in clear before commitments): only its hash ${b.leafHash} is proven`,
    });
  } else {
    try {
      leafHash = hashLeaf(b.version === 1 ? encodeEntry(b.entry) : encodeLeaf(parseLeafBody(b.leaf)));
      const same = toHex(leafHash) === b.leafHash;
      checks.push({
        name: 'leaf hash',
        ok: same,
        detail: same
          ? `${b.version === 1 ? 'entry' : 'leaf'} hashes to ${b.leafHash}`
          : `${b.version === 1 ? 'entry' : 'leaf'} hashes to ${toHex(leafHash)}, bundle says ${b.leafHash}`,
      });
    } catch (e) {
      leafHash = null;
      checks.push({ name: 'leaf hash', ok: false, detail: `leaf cannot be encoded: ${reason(e)}` });
    }
  }

  if (b.version === 2) checks.push(openingsCheck(b, (o) => (opened = o)));

  const { treeHead: th } = b;
  const included =
    leafHash !== null &&
    verifyInclusion(leafHash, b.leafIndex, th.treeSize, b.inclusionPath.map(fromHex), fromHex(th.rootHash));
  checks.push({
    name: 'inclusion',
    ok: included,
    detail: included
      ? `leaf ${b.leafIndex} is in the tree of size ${th.treeSize} with root ${th.rootHash}`
      : `the path does not lead from leaf ${b.leafIndex} to the root of the tree of size ${th.treeSize}`,
  });

  const spki = spkiOf(b.logPublicKey);
  const signed = spki !== null && verifyTreeHead(th, spki);
  checks.push({
    name: 'tree head signature',
    ok: signed,
    detail: !spki
      ? 'logPublicKey is not a P-256 public key'
      : signed
        ? `signed at ${new Date(th.timestamp).toISOString()} by ${fingerprint(spki)}`
        : 'the signature does not verify with logPublicKey',
  });

  if (options.trustedKeys === undefined) {
    checks.push({
      name: 'log key',
      ok: true,
      detail: `key not pinned: compare ${spki ? fingerprint(spki) : 'the key'} with the published log key`,
    });
  } else {
    const trusted = options.trustedKeys.map((k) => spkiOf(k)).filter((k): k is Uint8Array => k !== null);
    const pinned = spki !== null && trusted.some((k) => bytesEqual(k, spki));
    checks.push({
      name: 'log key',
      ok: pinned,
      detail: pinned
        ? `${fingerprint(spki)} is a trusted log key`
        : `${spki ? fingerprint(spki) : 'the bundle key'} is not among the ${trusted.length} trusted key(s)`,
    });
  }
  return { ok: checks.every((c) => c.ok), checks, ...(opened ? { opened } : {}) };
}

/** Each opening must recompute its commitment in the leaf; says which fields were opened. */
function openingsCheck(b: ProofBundleV2, report: (opened: Record<string, unknown>) => void): BundleCheck {
  const count = isObject(b.openings) ? Object.keys(b.openings).length : 0;
  let leaf;
  try {
    leaf = b.leaf === null ? null : parseLeafBody(b.leaf);
  } catch {
    return { name: 'openings', ok: count === 0, detail: 'the leaf cannot be read, so nothing can be opened' };
  }
  if (leaf === null || leaf.v === 1) {
    return count === 0
      ? {
          name: 'openings',
          ok: true,
          detail:
            leaf === null ? 'nothing to open: the leaf is withheld' : 'a clear leaf: every field is readable',
        }
      : { name: 'openings', ok: false, detail: 'openings given for a leaf without commitments' };
  }
  const { opened, errors } = checkOpenings(leaf, b.openings);
  report(opened);
  const total = Object.keys(leaf.c).length;
  const names = Object.keys(opened).sort();
  if (errors.length) return { name: 'openings', ok: false, detail: errors.join('; ') };
  return {
    name: 'openings',
    ok: true,
    detail: names.length
      ? `${names.length} of ${total} fields opened: ${names.join(', ')}`
      : `no fields opened: the leaf shows its kind (${leaf.kind}) and ${total} commitments`,
  };
}
