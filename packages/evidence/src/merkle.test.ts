import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from './bytes';
import {
  consistencyProof,
  EMPTY_ROOT,
  hashLeaf,
  inclusionProof,
  merkleRoot,
  rangeNodes,
  verifyConsistency,
  verifyInclusion,
} from './merkle';

// The 8-leaf test tree of RFC 6962 implementations (Certificate Transparency, Trillian, transparency-dev).
const LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
].map(fromHex);
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
/** [leaf index, tree size, path] */
const INCLUSION: Array<[number, number, string[]]> = [
  [0, 1, []],
  [
    0,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    5,
    8,
    [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [2, 3, ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']],
  [
    1,
    5,
    [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
];
/** [first size, second size, proof] */
const CONSISTENCY: Array<[number, number, string[]]> = [
  [1, 1, []],
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [
    2,
    5,
    [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
];

const leafHashes = LEAVES.map(hashLeaf);
/** Reference range hasher: recomputes MTH(D[start:end]) from the leaves every time. */
const naive = (hashes: Uint8Array[]) => (start: number, end: number) => merkleRoot(hashes.slice(start, end));

function flipBit(h: Uint8Array, bit: number): Uint8Array {
  const out = new Uint8Array(h);
  out[bit >> 3]! ^= 1 << (bit & 7);
  return out;
}

describe('RFC 9162 Merkle tree hashing (published test vectors)', () => {
  it('hashes the empty tree, leaves and every prefix of the 8-leaf tree', () => {
    expect(toHex(EMPTY_ROOT)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(toHex(leafHashes[0]!)).toBe(ROOTS[0]);
    for (let n = 1; n <= 8; n++)
      expect(toHex(merkleRoot(leafHashes.slice(0, n))), `size ${n}`).toBe(ROOTS[n - 1]);
  });

  it('produces and verifies the published inclusion proofs', async () => {
    for (const [index, size, path] of INCLUSION) {
      const proof = await inclusionProof(index, size, naive(leafHashes));
      expect(proof.map(toHex), `${index}/${size}`).toEqual(path);
      expect(verifyInclusion(leafHashes[index]!, index, size, proof, fromHex(ROOTS[size - 1]!))).toBe(true);
    }
  });

  it('produces and verifies the published consistency proofs', async () => {
    for (const [m, n, path] of CONSISTENCY) {
      const proof = await consistencyProof(m, n, naive(leafHashes));
      expect(proof.map(toHex), `${m}→${n}`).toEqual(path);
      expect(verifyConsistency(m, n, fromHex(ROOTS[m - 1]!), fromHex(ROOTS[n - 1]!), proof)).toBe(true);
    }
  });

  it('rejects every single flipped bit of the published proofs, leaves and roots', () => {
    for (const [index, size, path] of INCLUSION) {
      const proof = path.map(fromHex);
      const rootHash = fromHex(ROOTS[size - 1]!);
      for (let bit = 0; bit < 256; bit++) {
        expect(verifyInclusion(flipBit(leafHashes[index]!, bit), index, size, proof, rootHash)).toBe(false);
        expect(verifyInclusion(leafHashes[index]!, index, size, proof, flipBit(rootHash, bit))).toBe(false);
        proof.forEach((_, i) => {
          const bad = proof.map((p, j) => (i === j ? flipBit(p, bit) : p));
          expect(verifyInclusion(leafHashes[index]!, index, size, bad, rootHash)).toBe(false);
        });
      }
    }
    for (const [m, n, path] of CONSISTENCY.filter(([m, n]) => m < n)) {
      const proof = path.map(fromHex);
      const [r1, r2] = [fromHex(ROOTS[m - 1]!), fromHex(ROOTS[n - 1]!)];
      for (let bit = 0; bit < 256; bit++) {
        expect(verifyConsistency(m, n, flipBit(r1, bit), r2, proof)).toBe(false);
        expect(verifyConsistency(m, n, r1, flipBit(r2, bit), proof)).toBe(false);
        proof.forEach((_, i) => {
          const bad = proof.map((p, j) => (i === j ? flipBit(p, bit) : p));
          expect(verifyConsistency(m, n, r1, r2, bad)).toBe(false);
        });
      }
    }
  });

  it('handles the trivial and malformed cases without throwing', () => {
    const r1 = fromHex(ROOTS[0]!);
    expect(verifyInclusion(leafHashes[0]!, 0, 0, [], EMPTY_ROOT)).toBe(false);
    expect(verifyInclusion(leafHashes[0]!, 1, 1, [], r1)).toBe(false);
    expect(verifyInclusion(leafHashes[0]!, -1, 1, [], r1)).toBe(false);
    expect(verifyInclusion(leafHashes[0]!.subarray(1), 0, 1, [], r1)).toBe(false);
    expect(verifyInclusion(leafHashes[0]!, 0, 1, [r1], r1)).toBe(false);
    expect(verifyConsistency(0, 0, EMPTY_ROOT, EMPTY_ROOT, [])).toBe(true);
    expect(verifyConsistency(0, 5, EMPTY_ROOT, fromHex(ROOTS[4]!), [])).toBe(true);
    expect(verifyConsistency(0, 5, r1, fromHex(ROOTS[4]!), [])).toBe(false);
    expect(verifyConsistency(1, 1, r1, fromHex(ROOTS[1]!), [])).toBe(false);
    expect(verifyConsistency(2, 1, r1, r1, [])).toBe(false);
    expect(verifyConsistency(1, 2, r1, fromHex(ROOTS[1]!), [])).toBe(false);
    expect(verifyConsistency(1, 1, r1, r1, [EMPTY_ROOT])).toBe(false);
  });
});

// Exhaustive: about two thousand proofs each, with every bit of each flipped; seconds on a busy machine.
describe('Merkle proofs for every tree up to 64 leaves', { timeout: 60_000 }, () => {
  const MAX = 64;
  const hashes = Array.from({ length: MAX }, (_, i) => hashLeaf(new TextEncoder().encode(`leaf ${i}`)));
  const roots = [EMPTY_ROOT, ...Array.from({ length: MAX }, (_, i) => merkleRoot(hashes.slice(0, i + 1)))];

  it('verifies every (index, size) and fails on any flipped bit, wrong index or wrong size', async () => {
    let checked = 0;
    for (let size = 1; size <= MAX; size++) {
      for (let index = 0; index < size; index++) {
        const proof = await inclusionProof(index, size, naive(hashes));
        const leaf = hashes[index]!;
        const rootHash = roots[size]!;
        expect(verifyInclusion(leaf, index, size, proof, rootHash), `${index}/${size}`).toBe(true);
        const bit = (index * 31 + size * 7) % 256;
        proof.forEach((_, i) => {
          const bad = proof.map((p, j) => (i === j ? flipBit(p, bit) : p));
          expect(verifyInclusion(leaf, index, size, bad, rootHash)).toBe(false);
        });
        expect(verifyInclusion(flipBit(leaf, bit), index, size, proof, rootHash)).toBe(false);
        expect(verifyInclusion(leaf, index, size, proof, flipBit(rootHash, bit))).toBe(false);
        if (index > 0) expect(verifyInclusion(leaf, index - 1, size, proof, rootHash)).toBe(false);
        if (index + 1 < size) expect(verifyInclusion(leaf, index + 1, size, proof, rootHash)).toBe(false);
        expect(verifyInclusion(leaf, index, size * 2, proof, rootHash)).toBe(false);
        expect(verifyInclusion(leaf, index, size, [...proof, rootHash], rootHash)).toBe(false);
        if (proof.length) expect(verifyInclusion(leaf, index, size, proof.slice(1), rootHash)).toBe(false);
        checked++;
      }
    }
    expect(checked).toBe((MAX * (MAX + 1)) / 2);
  });

  it('verifies every (m, n) and fails on any flipped bit, swapped roots or a shortened proof', async () => {
    let checked = 0;
    for (let n = 1; n <= MAX; n++) {
      for (let m = 1; m <= n; m++) {
        const proof = await consistencyProof(m, n, naive(hashes));
        const [r1, r2] = [roots[m]!, roots[n]!];
        expect(verifyConsistency(m, n, r1, r2, proof), `${m}→${n}`).toBe(true);
        checked++;
        if (m === n) continue;
        const bit = (m * 13 + n * 5) % 256;
        proof.forEach((_, i) => {
          const bad = proof.map((p, j) => (i === j ? flipBit(p, bit) : p));
          expect(verifyConsistency(m, n, r1, r2, bad)).toBe(false);
        });
        expect(verifyConsistency(m, n, flipBit(r1, bit), r2, proof)).toBe(false);
        expect(verifyConsistency(m, n, r1, flipBit(r2, bit), proof)).toBe(false);
        expect(verifyConsistency(m, n, r2, r1, proof)).toBe(false);
        expect(verifyConsistency(m, n, r1, r2, proof.slice(0, -1))).toBe(false);
        expect(verifyConsistency(m, n, r1, r2, [...proof, r1])).toBe(false);
      }
    }
    expect(checked).toBe((MAX * (MAX + 1)) / 2);
  });

  it('splits every proof range into shrinking aligned subtrees whose fold is the range hash', async () => {
    for (let n = 1; n <= MAX; n++) {
      expect(rangeNodes(0, n).length).toBe(n.toString(2).replace(/0/g, '').length);
    }
    expect(() => rangeNodes(1, 3)).toThrow(/not a Merkle subtree range/);
  });
});
