import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toHex } from './bytes';
import { checkProofBundle } from './bundle';
import { encodeLeaf, openEntry } from './commit';
import { hashEntry, type EvidenceEntry } from './entry';
import { hashLeaf } from './merkle';
import {
  append,
  appendClearEntry,
  buildProofBundle,
  proveConsistency,
  proveInclusion,
  publishTreeHead,
  root,
} from './log';
import { createMemoryLogStore, type LogStore } from './log-store';
import {
  consistencyProof,
  inclusionProof,
  merkleRoot,
  rangeNodes,
  verifyConsistency,
  verifyInclusion,
} from './merkle';
import { createKeySigner, verifyTreeHead } from './tree-head';

const entry = (i: number): EvidenceEntry => ({
  kind: i % 3 === 0 ? 'sign' : 'seal.state',
  subject: `flow-${i % 5}`,
  actor: `p_${i}`,
  at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
  hashes: { file: toHex(new Uint8Array(32).fill(i % 256)) },
});

/** Counts the nodes a store is asked for, to show proofs do not read the whole log. */
function counting(store: LogStore) {
  const stats = { reads: 0 };
  const wrapped: LogStore = {
    ...store,
    getNodes: async (refs) => {
      stats.reads += refs.length;
      return store.getNodes(refs);
    },
  };
  return { store: wrapped, stats };
}

describe('the log over a store', () => {
  it('appends concurrently without gaps or repeats, and matches the reference tree at every size', async () => {
    const store = createMemoryLogStore();
    const results = await Promise.all(Array.from({ length: 130 }, (_, i) => append(store, entry(i))));
    expect(results.map((r) => r.index).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 130 }, (_, i) => i),
    );
    const hashes = store.leaves.map((l) => l.leafHash);
    // Each leaf is the committed form of its entry, and its openings give the entry back.
    results.forEach((r, i) => {
      expect(toHex(r.leafHash)).toBe(toHex(hashLeaf(encodeLeaf(r.leaf))));
      expect(openEntry(r.leaf, r.openings)).toEqual({ ...entry(i), data: {} });
    });
    const naive = (s: number, e: number) => merkleRoot(hashes.slice(s, e));
    for (let n = 0; n <= 130; n++) {
      expect(toHex(await root(store, n)), `root ${n}`).toBe(toHex(merkleRoot(hashes.slice(0, n))));
    }
    for (const n of [1, 2, 7, 64, 65, 100, 130]) {
      for (let i = 0; i < n; i += 3) {
        const proof = await proveInclusion(store, i, n);
        expect(proof.map(toHex)).toEqual((await inclusionProof(i, n, naive)).map(toHex));
        expect(verifyInclusion(hashes[i]!, i, n, proof, await root(store, n))).toBe(true);
      }
      for (let m = 0; m <= n; m += 5) {
        const proof = await proveConsistency(store, m, n);
        expect(proof.map(toHex)).toEqual((await consistencyProof(m, n, naive)).map(toHex));
        expect(verifyConsistency(m, n, await root(store, m), await root(store, n), proof)).toBe(true);
      }
    }
    await expect(root(store, 131)).rejects.toThrow(/130 leaves/);
  });

  it('reads O(log n) nodes per append, root and proof, not the whole log', async () => {
    const base = createMemoryLogStore();
    const { store, stats } = counting(base);
    const n = 5000;
    let maxAppendReads = 0;
    for (let i = 0; i < n; i++) {
      const before = stats.reads;
      await append(store, entry(i));
      maxAppendReads = Math.max(maxAppendReads, stats.reads - before);
    }
    const log2 = Math.ceil(Math.log2(n));
    expect(maxAppendReads).toBeLessThanOrEqual(log2);
    stats.reads = 0;
    await root(store, n - 1);
    expect(stats.reads).toBeLessThanOrEqual(log2);
    for (const i of [0, 1234, n - 2]) {
      stats.reads = 0;
      await proveInclusion(store, i, n - 1);
      expect(stats.reads).toBeLessThanOrEqual(2 * log2);
    }
    stats.reads = 0;
    await proveConsistency(store, 1237, n - 1);
    expect(stats.reads).toBeLessThanOrEqual(2 * log2);
  }, 30_000); // 5000 appends, each committing its fields: time is not what this test measures

  it('reads the right edge from the stored subtrees when the store has none, then carries it on', async () => {
    const base = createMemoryLogStore();
    const { store, stats } = counting(base);
    // Every seventh append finds no edge (a log written before stores kept it): the edge is read once.
    let n = 0;
    const forgetful: LogStore = {
      ...store,
      reserve: async () => {
        const head = await store.reserve();
        return n++ % 7 === 3 ? { ...head, frontier: null } : head;
      },
    };
    for (let i = 0; i < 100; i++) {
      const before = stats.reads;
      await append(forgetful, entry(i));
      const read = stats.reads - before;
      expect(read, `append ${i}`).toBe(i % 7 === 3 ? rangeNodes(0, i).length : 0);
    }
    const hashes = base.leaves.map((l) => l.leafHash);
    for (const size of [1, 5, 64, 99, 100])
      expect(toHex(await root(base, size))).toBe(toHex(merkleRoot(hashes.slice(0, size))));
  });

  it('publishes one signed tree head per size and builds bundles that check', async () => {
    const signer = createKeySigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    const store = createMemoryLogStore();
    const empty = await publishTreeHead(store, signer, 1000);
    expect(empty.treeSize).toBe(0);
    for (let i = 0; i < 10; i++) await append(store, entry(i));
    const first = await publishTreeHead(store, signer, 900);
    expect(first.treeSize).toBe(10);
    expect(first.timestamp).toBe(1001);
    expect(verifyTreeHead(first, signer.publicKeySpki)).toBe(true);
    expect(await publishTreeHead(store, signer, 5000)).toEqual(first);
    // Anyone's bundle: the committed leaf, no openings. A party's: every opening.
    const bundle = await buildProofBundle(store, 7, first, signer.publicKeySpki);
    expect(bundle.openings).toEqual({});
    expect(bundle.leaf).toMatchObject({ v: 2, kind: entry(7).kind });
    const report = checkProofBundle(bundle);
    expect(report.ok, JSON.stringify(report)).toBe(true);
    expect(report.opened).toEqual({});
    const party = await buildProofBundle(store, 7, first, signer.publicKeySpki, { open: 'all' });
    expect(party.leaf).toEqual(bundle.leaf);
    const partyReport = checkProofBundle(party);
    expect(partyReport.ok, JSON.stringify(partyReport)).toBe(true);
    expect(partyReport.opened).toEqual({
      subject: entry(7).subject,
      actor: entry(7).actor,
      at: entry(7).at,
      'hashes.file': entry(7).hashes.file,
    });
    const fileOnly = await buildProofBundle(store, 7, first, signer.publicKeySpki, {
      open: ['hashes.file', 'hashes.fileAfter'],
    });
    expect(Object.keys(fileOnly.openings)).toEqual(['hashes.file']);
    expect(checkProofBundle(fileOnly).opened).toEqual({ 'hashes.file': entry(7).hashes.file });
    await expect(buildProofBundle(store, 10, first, signer.publicKeySpki)).rejects.toThrow(/not in the tree/);
  });

  it('keeps clear leaves written before commitments provable, and shows their body only to parties', async () => {
    const signer = createKeySigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    const store = createMemoryLogStore();
    const old = await appendClearEntry(store, entry(1));
    expect(toHex(old.leafHash)).toBe(toHex(hashEntry(entry(1))));
    await append(store, entry(2));
    const sth = await publishTreeHead(store, signer);
    const withheld = await buildProofBundle(store, 0, sth, signer.publicKeySpki, { open: 'all' });
    expect(withheld.leaf).toBeNull();
    expect(withheld.openings).toEqual({});
    const report = checkProofBundle(withheld);
    expect(report.ok, JSON.stringify(report)).toBe(true);
    expect(report.checks.find((c) => c.name === 'leaf hash')!.detail).toMatch(/withheld/);
    const shown = await buildProofBundle(store, 0, sth, signer.publicKeySpki, { showClearLeaf: true });
    expect(shown.leaf).toEqual({ ...entry(1), v: 1 });
    expect(checkProofBundle(shown).ok).toBe(true);
    expect(await store.getOpenings(0)).toBeNull();
  });
});
