import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { toBase64, toHex } from './bytes';
import { encodeLeaf, type CommittedLeaf } from './commit';
import { encodeEntry, hashEntry, type EvidenceEntry } from './entry';
import {
  checkProofBundle,
  parseProofBundle,
  ProofBundleError,
  type ProofBundleV1,
  type ProofBundleV2,
} from './bundle';
import { append, appendClearEntry, buildProofBundle, publishTreeHead } from './log';
import { createMemoryLogStore } from './log-store';
import { hashLeaf } from './merkle';
import { createKeySigner, spkiToPem } from './tree-head';

const newSigner = () => createKeySigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
const signer = newSigner();
const entry = (i: number): EvidenceEntry => ({
  kind: 'sign',
  subject: `flow-${i}`,
  actor: 'p_1',
  at: '2025-03-04T05:06:07.000Z',
  hashes: { fileAfter: (i + 16).toString(16).repeat(32) },
  data: { page: i },
});
/** A party's bundle (every opening) of leaf 9, and a version-1 bundle of a clear leaf 3 of the same log. */
let bundle: ProofBundleV2;
let legacy: ProofBundleV1;

beforeAll(async () => {
  const store = createMemoryLogStore();
  for (let i = 0; i < 13; i++) {
    if (i < 5) await appendClearEntry(store, entry(i));
    else await append(store, entry(i));
  }
  const sth = await publishTreeHead(store, signer);
  bundle = await buildProofBundle(store, 9, sth, signer.publicKeySpki, { open: 'all' });
  const clear = await buildProofBundle(store, 3, sth, signer.publicKeySpki, { showClearLeaf: true });
  // The format written before commitments, as saved bundles still hold it.
  const { v: _v, ...e } = clear.leaf as EvidenceEntry & { v: 1 };
  legacy = {
    version: 1,
    entry: e,
    leafIndex: 3,
    leafHash: clear.leafHash,
    treeHead: clear.treeHead,
    inclusionPath: clear.inclusionPath,
    logPublicKey: clear.logPublicKey,
  };
});

const copy = (): ProofBundleV2 => JSON.parse(JSON.stringify(bundle)) as ProofBundleV2;
const leafOf = (b: ProofBundleV2) => b.leaf as CommittedLeaf;
const failed = (b: unknown, opts?: { trustedKeys?: string[] }) =>
  checkProofBundle(b, opts)
    .checks.filter((c) => !c.ok)
    .map((c) => c.name);

describe('proof bundles', () => {
  it('check offline, with and without a pinned key, and say which fields were opened', () => {
    const plain = checkProofBundle(copy());
    expect(plain.ok, JSON.stringify(plain.checks)).toBe(true);
    expect(plain.checks.map((c) => c.name)).toEqual([
      'format',
      'leaf hash',
      'openings',
      'inclusion',
      'tree head signature',
      'log key',
    ]);
    expect(plain.checks[2]!.detail).toBe(
      '5 of 5 fields opened: actor, at, data.page, hashes.fileAfter, subject',
    );
    expect(plain.opened).toEqual({
      subject: 'flow-9',
      actor: 'p_1',
      at: '2025-03-04T05:06:07.000Z',
      'hashes.fileAfter': entry(9).hashes.fileAfter,
      'data.page': 9,
    });
    expect(plain.checks.at(-1)!.detail).toMatch(/^key not pinned/);
    expect(checkProofBundle(copy(), { trustedKeys: [toBase64(signer.publicKeySpki)] }).ok).toBe(true);
    expect(checkProofBundle(copy(), { trustedKeys: [spkiToPem(signer.publicKeySpki)] }).ok).toBe(true);
  });

  it('verify the inclusion of a leaf given with some or no openings', () => {
    const none = copy();
    none.openings = {};
    const r = checkProofBundle(none);
    expect(r.ok).toBe(true);
    expect(r.checks[2]!.detail).toBe('no fields opened: the leaf shows its kind (sign) and 5 commitments');
    const some = copy();
    some.openings = { 'hashes.fileAfter': some.openings['hashes.fileAfter']! };
    expect(checkProofBundle(some).opened).toEqual({ 'hashes.fileAfter': entry(9).hashes.fileAfter });
    // Written without the field at all, as a bundle of version 2 may be.
    const { openings: _o, ...bare } = copy();
    expect(checkProofBundle(bare).ok).toBe(true);
  });

  it('fail the right check when tampered with', () => {
    const leafChanged = copy();
    leafOf(leafChanged).kind = 'approval';
    expect(failed(leafChanged)).toEqual(['leaf hash', 'inclusion']);

    // An opening to another value, or with another salt, does not match the commitment.
    const value = copy();
    value.openings.subject!.value = 'flow-0';
    expect(failed(value)).toEqual(['openings']);
    expect(checkProofBundle(value).checks[2]!.detail).toBe(
      "subject: the opening does not match the leaf's commitment",
    );
    const salt = copy();
    salt.openings.actor!.salt = salt.openings.actor!.salt.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    expect(failed(salt)).toEqual(['openings']);
    // An opening moved to another field does not match either: the field name is inside the commitment.
    const moved = copy();
    moved.openings['hashes.fileAfter'] = { ...moved.openings.subject! };
    expect(failed(moved)).toEqual(['openings']);
    const unknown = copy();
    unknown.openings['data.flowId'] = { salt: '0'.repeat(64), value: 'flow-9' };
    expect(checkProofBundle(unknown).checks[2]!.detail).toBe('data.flowId: the leaf has no such field');
    const badShape = copy();
    (badShape.openings as Record<string, unknown>).at = 'not an opening';
    expect(failed(badShape)).toEqual(['openings']);

    // A forger who rewrites a commitment and fixes up leafHash still needs a path to the signed root.
    const forged = copy();
    leafOf(forged).c.subject = 'ab'.repeat(32);
    forged.leafHash = toHex(hashLeaf(encodeLeaf(leafOf(forged))));
    expect(failed(forged)).toEqual(['openings', 'inclusion']);

    const path = copy();
    path.inclusionPath[1] = path.inclusionPath[1]!.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    expect(failed(path)).toEqual(['inclusion']);

    const index = copy();
    index.leafIndex = 8;
    expect(failed(index)).toEqual(['inclusion']);

    const size = copy();
    size.treeHead.treeSize = 26;
    expect(failed(size)).toEqual(['inclusion', 'tree head signature']);

    const sig = copy();
    const raw = Buffer.from(sig.treeHead.signature, 'base64');
    raw[raw.length - 1]! ^= 1;
    sig.treeHead.signature = raw.toString('base64');
    expect(failed(sig)).toEqual(['tree head signature']);

    const other = newSigner();
    const swappedKey = copy();
    swappedKey.logPublicKey = toBase64(other.publicKeySpki);
    expect(failed(swappedKey)).toEqual(['tree head signature']);

    expect(failed(copy(), { trustedKeys: [toBase64(other.publicKeySpki)] })).toEqual(['log key']);
    expect(failed(copy(), { trustedKeys: [] })).toEqual(['log key']);
  });

  it('check bundles of version 1 as before, and clear leaves inside version 2, withheld or shown', () => {
    const v1 = checkProofBundle(JSON.parse(JSON.stringify(legacy)));
    expect(v1.ok, JSON.stringify(v1.checks)).toBe(true);
    expect(v1.checks.map((c) => c.name)).toEqual([
      'format',
      'leaf hash',
      'inclusion',
      'tree head signature',
      'log key',
    ]);
    expect(legacy.leafHash).toBe(toHex(hashEntry(entry(3))));
    const tampered = JSON.parse(JSON.stringify(legacy)) as ProofBundleV1;
    tampered.entry.actor = 'p_2';
    expect(failed(tampered)).toEqual(['leaf hash', 'inclusion']);
    const fixed = JSON.parse(JSON.stringify(tampered)) as ProofBundleV1;
    fixed.leafHash = toHex(hashLeaf(encodeEntry(fixed.entry)));
    expect(failed(fixed)).toEqual(['inclusion']);

    const withheld: ProofBundleV2 = { ...legacy, version: 2, leaf: null, openings: {} };
    delete (withheld as unknown as { entry?: unknown }).entry;
    const w = checkProofBundle(withheld);
    expect(w.ok).toBe(true);
    expect(w.checks[1]!.detail).toMatch(/^leaf withheld/);
    expect(failed({ ...withheld, leafHash: 'ab'.repeat(32) })).toEqual(['inclusion']);
    expect(failed({ ...withheld, openings: { subject: { salt: '0'.repeat(64), value: 'x' } } })).toEqual([
      'openings',
    ]);
    const shown: ProofBundleV2 = { ...withheld, leaf: { ...legacy.entry, v: 1 } };
    expect(checkProofBundle(shown).ok).toBe(true);
  });

  it('refuse what is not a bundle of version 1 or 2, with a reason', () => {
    expect(() => parseProofBundle({ ...copy(), version: 3 })).toThrow(ProofBundleError);
    expect(() => parseProofBundle({ ...copy(), version: 3 })).toThrow(/version 3/);
    expect(() => parseProofBundle({ ...copy(), inclusionPath: ['XYZ'] })).toThrow(/inclusionPath/);
    expect(() => parseProofBundle({ ...copy(), leaf: 'x' })).toThrow(/leaf must be an object/);
    expect(() => parseProofBundle({ ...copy(), openings: [] })).toThrow(/openings/);
    expect(() => parseProofBundle({ ...legacy, entry: null })).toThrow(/entry/);
    expect(() => parseProofBundle('hello')).toThrow(/JSON object/);
    expect(checkProofBundle(null)).toEqual({
      ok: false,
      checks: [{ name: 'format', ok: false, detail: 'a proof bundle is a JSON object' }],
    });
    // A leaf of an unknown version is a failed leaf hash, not a crash.
    const future = copy();
    (future.leaf as unknown as { v: number }).v = 9;
    expect(failed(future)).toEqual(['leaf hash', 'openings', 'inclusion']);
  });
});
